/**
 * `executeSqlAsync`: the same statements as `executeSql`, but queries on file-backed databases run
 * in a worker, so a long query neither blocks other requests nor outlives its deadline: aborting
 * the signal terminates the worker (the caller answers 408) and a fresh one takes its place.
 * Everything else (writes, DDL, SHOW, information_schema, in-memory databases) runs on the caller.
 */
import { type ErrorData, errorFromData, PetrelError, timedOut } from "../common/errors.ts";
import { WorkerPool, WorkerUnavailable } from "../common/worker_pool.ts";
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

type Reply = { id: number; output?: QueryOutput; error?: ErrorData };

/** Up to two queries run at once off the event loop; more wait for a thread. */
const workers = new WorkerPool<Omit<QueryRequest, "id">, Reply>({
  name: "query",
  url: new URL("./query_worker.ts", import.meta.url),
  runtime: "web",
  maxThreads: 2,
  perThread: 1,
  idleMs: 5_000,
});

/** Terminates every query worker (e.g. on shutdown, so nothing keeps the process alive). */
export function stopQueryWorkers(): void {
  workers.stop();
}

async function runInWorker(req: Omit<QueryRequest, "id">, signal?: AbortSignal): Promise<QueryOutput> {
  let reply: Reply;
  try {
    reply = await workers.request(req, { signal });
  } catch (e) {
    if (signal?.aborted) throw timedOut("Query cancelled: the request timed out");
    throw e;
  }
  if (reply.error) throw errorFromData(reply.error);
  return reply.output!;
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
  if (workers.broken || storage.dataHome === ":memory:" || !isQuery(tokens)) {
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
    // a worker that cannot start (e.g. a build without the worker module) or fails: this thread
    if (e instanceof WorkerUnavailable) return executeStatement(storage, tokens, sql, session);
    if (e instanceof PetrelError) throw withPosition(e, tokens, sql);
    throw e;
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
