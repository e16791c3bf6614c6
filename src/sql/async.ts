/**
 * `executeSqlAsync`: the same statements as `executeSql`, but queries on file-backed databases run
 * in a worker, so a long query neither blocks other requests nor outlives its deadline: aborting
 * the signal terminates the worker (the caller answers 408) and a fresh one takes its place.
 * Everything else (writes, DDL, SHOW, information_schema, in-memory databases) runs on the caller.
 */
import { type ErrorData, errorFromData, PetrelError, timedOut, unsupported } from "../common/errors.ts";
import { READ_POOL, WorkerPool, WorkerUnavailable } from "../common/worker_pool.ts";
import type { Storage } from "../storage/mod.ts";
import type { QueryOutput } from "../common/rows.ts";
import type { SqlContext } from "./mod.ts";
import { executeStatement, parseStatements, startSession } from "./mod.ts";
import { isKeyword, splitStatements } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { rewriteQuery, type Rewritten } from "./rewrite.ts";
import type { QueryStats } from "./results.ts";
import { statementError } from "./rewrite/unknown_field.ts";
import {
  analyzeHere,
  explainOutput,
  finishedRun,
  isExplain,
  planExplain,
  type PlannedExplain,
} from "./explain.ts";
import { analyzeOutput, type AnalyzeRun } from "./explain_render.ts";
import type { QueryRequest } from "./query_worker.ts";
import type { Session } from "./ddl.ts";
import { flushGroupCommit } from "../storage/group_commit.ts";
import { executeTql, isTql, type PromQLBackend } from "./tql/mod.ts";
import { executeFlowStatement, type FlowCatalog, isFlowStatement } from "./flow.ts";
import { executeAdmin, isAdminStatement } from "./admin.ts";
import { isCopyStatement } from "./copy/parse.ts";
import { prepareServerTables } from "./info_server.ts";
import { executeKill, isKillStatement, trackQuery } from "./info_process.ts";
import { expectedQuick, recordRun, statementKey } from "./query_cost.ts";
import { loadFunctionsFor, withLazyFunctions } from "./functions/registry.ts";

/** Options of {@link executeSqlAsync}. */
export interface AsyncSqlOptions {
  /** Aborting stops a running query at once (its worker is terminated). */
  signal?: AbortSignal;
  /** Storage for the PromQL engine: without it, TQL statements fail as unsupported. */
  promql?: PromQLBackend;
  /** The request's time left (ms), for TQL (the PromQL engine checks it while it evaluates). */
  timeoutMs?: number;
  /** The server's flows: without them, CREATE/DROP FLOW and ADMIN FLUSH_FLOW fail as unsupported. */
  flows?: FlowCatalog;
  /** `storage.copy_dir` ("" = anywhere): without it, COPY fails as unsupported. */
  copyDir?: string;
  /** Told the rows each INSERT or COPY … FROM wrote, with the session's database (ingest metrics). */
  onRowsWritten?: (db: string, rows: number) => void;
}

type Reply = { id: number; output?: QueryOutput; stats?: QueryStats; error?: ErrorData; ms?: number };

/**
 * Up to two queries run at once off the event loop, and a third thread only for statements that ran
 * quickly last time (query_cost.ts): on 2 cores a third long scan only slows the others, but a cheap
 * dashboard panel waiting behind two of them waited for a whole scan. More wait for a thread.
 */
const workers = new WorkerPool<Omit<QueryRequest, "id">, Reply>({
  ...READ_POOL,
  name: "query",
  url: new URL("./query_worker.ts", import.meta.url),
});

/** Terminates every query worker (e.g. on shutdown, so nothing keeps the process alive). */
export function stopQueryWorkers(): void {
  workers.stop();
}

type Ran = { output: QueryOutput; stats?: QueryStats };

async function runInWorker(req: Omit<QueryRequest, "id">, signal?: AbortSignal): Promise<Ran> {
  let reply: Reply;
  // Terminating the worker cannot stop SQLite mid-statement: the flag ends recursive CTEs first
  // (this listener runs before the pool's, which terminates the thread).
  const cancel = new SharedArrayBuffer(4);
  const onAbort = () => Atomics.store(new Int32Array(cancel), 0, 1);
  signal?.addEventListener("abort", onAbort, { once: true });
  const key = statementKey(req.sql);
  try {
    reply = await workers.request({ ...req, cancel }, { signal, quick: expectedQuick(key) });
  } catch (e) {
    if (signal?.aborted) {
      recordRun(key, undefined);
      // a KILL aborts with its own error (1005 Cancelled); a deadline with none
      if (signal.reason instanceof PetrelError) throw signal.reason;
      throw timedOut("Query cancelled: the request timed out");
    }
    throw e;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (reply.ms !== undefined) recordRun(key, reply.ms);
  if (reply.error) throw errorFromData(reply.error);
  return { output: reply.output!, stats: reply.stats };
}

function isQuery(tokens: Token[]): boolean {
  const first = tokens[0];
  if (!first) return false;
  return first.kind === "op"
    ? first.text === "("
    : ["SELECT", "WITH", "VALUES"].includes(first.text.toUpperCase());
}

/**
 * Runs a rewritten query in a worker; null when it must run on the calling thread instead (an
 * in-memory database, information_schema, a pool that failed or a worker that cannot start).
 */
async function runRewritten(
  storage: Storage,
  q: Rewritten,
  signal: AbortSignal | undefined,
  analyze = false,
): Promise<Ran | null> {
  if (workers.broken || storage.dataHome === ":memory:" || q.usesInfoSchema) return null;
  const handle = storage.database(q.database);
  // The worker's own connection sees only committed rows: commit acknowledged skip_wal rows first.
  flushGroupCommit(handle);
  const files = handle.files;
  if (!files.main || !files.nowal) return null;
  storage.onClose(stopQueryWorkers);
  try {
    return await runInWorker({
      db: q.database,
      instance: handle.instance,
      main: files.main,
      nowal: files.nowal,
      sql: q.sql,
      hints: q.hints,
      nameTypes: [...q.nameTypes],
      analyze,
    }, signal);
  } catch (e) {
    // a worker that cannot start (e.g. a build without the worker module) or fails: this thread
    if (e instanceof WorkerUnavailable) return null;
    throw e;
  }
}

/** Runs a planned EXPLAIN ANALYZE's query (in a worker where queries run there) and measures it. */
export async function runAnalyze(
  storage: Storage,
  p: PlannedExplain,
  started: number,
  signal?: AbortSignal,
): Promise<AnalyzeRun> {
  const ran = await runRewritten(storage, p.query, signal, true);
  return ran?.stats ? finishedRun(ran.stats, "worker", started) : analyzeHere(p, started);
}

/** Evaluates `SELECT <expression>` in the session (TQL's time parameters). */
export function sqlEvaluator(storage: Storage, session: Session): (expression: string) => QueryOutput {
  return (expression) => {
    const text = `SELECT ${expression}`;
    return executeStatement(storage, splitStatements(text)[0].tokens, text, session);
  };
}

async function runStatement(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
  opts: AsyncSqlOptions,
): Promise<QueryOutput> {
  const signal = opts.signal;
  if (isTql(tokens)) {
    return await executeTql(opts.promql, session.db, { tokens, sql }, sqlEvaluator(storage, session), {
      ...(signal ? { signal } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    });
  }
  try {
    if (isKillStatement(tokens)) return executeKill(storage, tokens, sql);
    if (isFlowStatement(tokens)) return await executeFlowStatement(storage, tokens, sql, session, opts.flows);
    if (isAdminStatement(tokens)) {
      return await executeAdmin(storage, tokens, sql, session, () => {
        if (opts.flows === undefined) throw unsupported("ADMIN FLUSH_FLOW is not available here");
        return opts.flows;
      });
    }
    if (isCopyStatement(tokens)) {
      if (opts.copyDir === undefined) {
        throw unsupported("COPY is not available here: it runs through /v1/sql");
      }
      // loaded on first use: the Parquet libraries are large and most servers never COPY
      const { executeCopy } = await import("./copy/mod.ts");
      return await executeCopy(storage, tokens, sql, session, opts.copyDir);
    }
    if (isExplain(tokens)) {
      const started = performance.now();
      const p = planExplain(storage, tokens, sql, session);
      if (!p.options.analyze) return explainOutput(p);
      return analyzeOutput(p, await runAnalyze(storage, p, started, signal));
    }
    if (!isQuery(tokens)) return executeStatement(storage, tokens, sql, session);
    const q = rewriteQuery(tokens, { storage, db: session.db, sql, timezone: session.timezone });
    if (q.usesInfoSchema) await prepareServerTables(storage, q.infoSchema.tables);
    const ran = await runRewritten(storage, q, signal);
    return ran ? ran.output : executeStatement(storage, tokens, sql, session);
  } catch (e) {
    throw statementError(e, storage, session.db, tokens, sql);
  }
}

/** Whether a statement writes rows into a table: INSERT, or COPY into a table or database. */
function writesRows(tokens: Token[]): boolean {
  if (isKeyword(tokens[0], "INSERT")) return true;
  // `COPY (query) TO …` only exports
  if (!isKeyword(tokens[0], "COPY") || tokens[1]?.text === "(") return false;
  const direction = tokens.find((t) => isKeyword(t, "FROM") || isKeyword(t, "TO"));
  return direction !== undefined && isKeyword(direction, "FROM");
}

/** Like `executeSql`, with queries of file-backed databases off the event loop and cancellable. */
export async function executeSqlAsync(
  storage: Storage,
  sql: string,
  ctx: SqlContext,
  opts: AsyncSqlOptions = {},
): Promise<QueryOutput[]> {
  const session = startSession(storage, sql, ctx);
  const outputs: QueryOutput[] = [];
  const tracked = trackQuery(storage, session.db, sql);
  const signal = opts.signal ? AbortSignal.any([opts.signal, tracked.signal]) : tracked.signal;
  try {
    // the rare function groups this thread has not loaded yet (registry.ts): what the text names now,
    // what a view or flow reaches when a statement fails for want of it
    await loadFunctionsFor(sql);
    for (const stmt of parseStatements(sql)) {
      // a killed request runs no further statement
      if (tracked.signal.aborted) throw tracked.signal.reason;
      const out = await withLazyFunctions(() =>
        runStatement(storage, stmt.tokens, sql, session, { ...opts, signal })
      );
      if (out.kind === "affected" && opts.onRowsWritten && writesRows(stmt.tokens)) {
        opts.onRowsWritten(session.db, out.rows);
      }
      outputs.push(out);
    }
  } finally {
    tracked.done();
  }
  return outputs;
}
