/**
 * PromQL off the event loop: queries of file-backed databases are evaluated in worker threads
 * (`promql_worker.ts`), so a heavy one no longer holds up writes and other requests on the main
 * thread. Aborting the signal terminates the worker (the caller answers as the engine would, with a
 * timeout or cancellation). Callers fall back to evaluating on their own thread when this answers null.
 */
import { type ErrorData, errorFromData } from "../common/errors.ts";
import { READ_POOL, WorkerPool, WorkerUnavailable } from "../common/worker_pool.ts";
import { checkAbort, PromQLError } from "../promql/errors.ts";
import type { PromErrorType } from "../promql/errors.ts";
import type { QueryResult } from "../promql/values.ts";
import { expectedQuick, recordRun, statementKey } from "../sql/query_cost.ts";
import { flushGroupCommit } from "../storage/group_commit.ts";
import type { Storage } from "../storage/mod.ts";
import { type DatabaseRef, databaseRefs } from "../storage/read_only.ts";

/** A query for the worker, with what it needs to open the databases and answer. */
export interface PromqlRequest extends PromqlQuery {
  id: number;
  dbs: DatabaseRef[];
  /** Epoch ms the request was sent at: `timeoutMs` counts from it. */
  sentAt: number;
  /** Answer Prometheus' JSON of the result (else the result itself). */
  json: boolean;
}

/** The worker's answer. */
export interface PromqlReply {
  id: number;
  json?: string;
  result?: QueryResult;
  promql?: { errorType: Exclude<PromErrorType, "internal">; message: string };
  error?: ErrorData;
  /** How long the evaluation took in the worker. */
  ms?: number;
}

/**
 * Two queries evaluate at once (the machine's cores), and a third thread is kept for queries that
 * were quick last time, so a cheap panel does not wait behind two heavy range queries.
 */
const workers = new WorkerPool<Omit<PromqlRequest, "id">, PromqlReply>({
  ...READ_POOL,
  name: "promql",
  url: new URL("./promql_worker.ts", import.meta.url),
});

/** How long past its deadline a query's worker is stopped if the engine has not answered. */
const HARD_STOP_GRACE_MS = 100;

/** Terminates every PromQL worker (on shutdown). */
export function stopPromqlWorkers(): void {
  workers.stop();
}

/** What to evaluate: an instant query when `stepMs` is 0. */
export interface PromqlQuery {
  db: string;
  query: string;
  startMs: number;
  endMs: number;
  stepMs: number;
  lookbackDeltaMs?: number;
  timeoutMs?: number;
  maxSamples: number;
}

/**
 * Evaluates a query in a worker: its answer as Prometheus' JSON (`json`) or the result; null when it
 * must be evaluated on this thread (an in-memory storage, no worker). Engine errors come back as
 * the engine throws them; an aborted `signal` throws the engine's timeout or cancellation.
 */
export async function evaluateInWorker(
  storage: Storage,
  q: PromqlQuery,
  opts: { json: true; signal?: AbortSignal },
): Promise<string | null>;
export async function evaluateInWorker(
  storage: Storage,
  q: PromqlQuery,
  opts: { json: false; signal?: AbortSignal },
): Promise<QueryResult | null>;
export async function evaluateInWorker(
  storage: Storage,
  q: PromqlQuery,
  opts: { json: boolean; signal?: AbortSignal },
): Promise<string | QueryResult | null> {
  if (workers.broken || storage.dataHome === ":memory:") return null;
  // The worker's connections see only committed rows: commit acknowledged skip_wal rows first.
  for (const h of storage.databaseHandles()) flushGroupCommit(h);
  storage.onClose(stopPromqlWorkers);
  const points = q.stepMs === 0 ? 1 : Math.floor((q.endMs - q.startMs) / q.stepMs) + 1;
  const key = statementKey(`promql ${points} ${q.query}`);
  // The engine checks its deadline between steps, which a long step outlasts: past the deadline
  // (and a moment for the engine's own answer) the worker is stopped.
  const deadline = q.timeoutMs === undefined
    ? undefined
    : AbortSignal.timeout(q.timeoutMs + HARD_STOP_GRACE_MS);
  const signals = [opts.signal, deadline].filter((s) => s !== undefined);
  const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
  let reply: PromqlReply;
  try {
    reply = await workers.request(
      { ...q, dbs: databaseRefs(storage), sentAt: Date.now(), json: opts.json },
      { quick: expectedQuick(key), ...(signal ? { signal } : {}) },
    );
  } catch (e) {
    if (signal?.aborted) {
      recordRun(key, undefined);
      checkAbort(signal);
    }
    if (e instanceof WorkerUnavailable) return null;
    throw e;
  }
  if (reply.ms !== undefined) recordRun(key, reply.ms);
  if (reply.promql) throw new PromQLError(reply.promql.errorType, reply.promql.message);
  if (reply.error) throw errorFromData(reply.error);
  return opts.json ? reply.json! : reply.result!;
}
