/**
 * `executeSqlAsync`: the same statements as `executeSql`, but queries on file-backed databases run
 * in a worker, so a long query neither blocks other requests nor outlives its deadline: aborting
 * the signal terminates the worker (the caller answers 408) and a fresh one takes its place.
 * Everything else (writes, DDL, SHOW, information_schema, in-memory databases) runs on the caller.
 */
import { errorFromData, PetrelError, timedOut } from "../common/errors.ts";
import type { Storage } from "../storage/mod.ts";
import type { QueryOutput } from "../common/rows.ts";
import type { SqlContext } from "./mod.ts";
import { executeStatement, startSession } from "./mod.ts";
import { splitStatements } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { rewriteQuery } from "./rewrite.ts";
import { mapSqliteError, withPosition } from "./results.ts";
import type { QueryRequest } from "./query_worker.ts";
import type { Session } from "./ddl.ts";
import { flushGroupCommit } from "../storage/group_commit.ts";

/** Options of {@link executeSqlAsync}. */
export interface AsyncSqlOptions {
  /** Aborting stops a running query at once (its worker is terminated). */
  signal?: AbortSignal;
}

type Reply = { id: number; output?: QueryOutput; error?: { code: number; message: string; status: number } };

const MAX_WORKERS = 2;
/** An idle worker is stopped after this long: a live worker keeps the process from exiting. */
const IDLE_MS = 5_000;
const idle: Worker[] = [];
const idleTimers = new Map<Worker, ReturnType<typeof setTimeout>>();
const busy = new Set<Worker>();
let workersBroken = false;
let nextId = 1;

function spawn(): Worker {
  return new Worker(new URL("./query_worker.ts", import.meta.url).href, { type: "module" });
}

/** Terminates every query worker (e.g. on shutdown, so nothing keeps the process alive). */
export function stopQueryWorkers(): void {
  for (const w of [...idle, ...busy]) w.terminate();
  for (const t of idleTimers.values()) clearTimeout(t);
  idleTimers.clear();
  idle.length = 0;
  busy.clear();
}

function park(worker: Worker): void {
  if (idle.length >= MAX_WORKERS) return worker.terminate();
  idle.push(worker);
  const timer = setTimeout(() => {
    idleTimers.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    worker.terminate();
  }, IDLE_MS);
  Deno.unrefTimer(timer as unknown as number);
  idleTimers.set(worker, timer);
}

function take(): Worker {
  const worker = idle.pop();
  if (!worker) return spawn();
  clearTimeout(idleTimers.get(worker));
  idleTimers.delete(worker);
  return worker;
}

function runInWorker(req: Omit<QueryRequest, "id">, signal?: AbortSignal): Promise<QueryOutput> {
  const worker = take();
  busy.add(worker);
  const id = nextId++;
  return new Promise<QueryOutput>((resolve, reject) => {
    const done = (keep: boolean) => {
      worker.onmessage = null;
      worker.onerror = null;
      signal?.removeEventListener("abort", onAbort);
      busy.delete(worker);
      if (keep) park(worker);
      else worker.terminate();
    };
    const onAbort = () => {
      done(false);
      reject(
        timedOut("Query cancelled: the request timed out"),
      );
    };
    worker.onmessage = (e: MessageEvent<Reply>) => {
      if (e.data.id !== id) return;
      done(true);
      const { output, error } = e.data;
      if (error) reject(errorFromData(error));
      else resolve(output!);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      done(false);
      workersBroken = true;
      reject(new Error(`query worker failed: ${e.message}`));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.postMessage({ ...req, id } satisfies QueryRequest);
  });
}

function isQuery(tokens: Token[]): boolean {
  const first = tokens[0];
  if (!first) return false;
  return first.kind === "op"
    ? first.text === "("
    : ["SELECT", "WITH", "VALUES"].includes(first.text.toUpperCase());
}

async function runStatement(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
  signal?: AbortSignal,
) {
  if (workersBroken || storage.dataHome === ":memory:" || !isQuery(tokens)) {
    return executeStatement(storage, tokens, sql, session);
  }
  let q;
  try {
    q = rewriteQuery(tokens, { storage, db: session.db, sql, timezone: session.timezone });
  } catch (e) {
    throw withPosition(mapSqliteError(e, session.db), tokens, sql);
  }
  const handle = storage.database(q.database);
  // The worker's own connection sees only committed rows: commit acknowledged skip_wal rows first.
  flushGroupCommit(handle);
  const files = handle.files;
  if (q.usesInfoSchema || !files.main || !files.nowal) return executeStatement(storage, tokens, sql, session);
  try {
    return await runInWorker({
      db: q.database,
      instance: handle.instance,
      main: files.main,
      nowal: files.nowal,
      sql: q.sql,
      hints: q.hints,
      nameTypes: [...q.nameTypes],
    }, signal);
  } catch (e) {
    // a worker that cannot start (e.g. a build without the worker module) falls back to this thread
    if (e instanceof PetrelError) throw withPosition(e, tokens, sql);
    return executeStatement(storage, tokens, sql, session);
  }
}

/** Like `executeSql`, with queries of file-backed databases off the event loop and cancellable. */
export async function executeSqlAsync(
  storage: Storage,
  sql: string,
  ctx: SqlContext,
  opts: AsyncSqlOptions = {},
): Promise<QueryOutput[]> {
  const session = startSession(storage, sql, ctx);
  storage.onClose(stopQueryWorkers);
  const outputs: QueryOutput[] = [];
  for (const stmt of splitStatements(sql)) {
    outputs.push(await runStatement(storage, stmt.tokens, sql, session, opts.signal));
  }
  return outputs;
}
