/**
 * The worker that evaluates PromQL off the event loop: the same engine and the same metric reads as
 * the main thread, over read-only connections of its own (`storage/read_only.ts`). A range or
 * instant query comes in as text; the answer goes back as Prometheus' JSON (what the HTTP API sends,
 * so the main thread copies one string) or as the engine's result (for TQL's records).
 */
/// <reference lib="deno.worker" />
import { errorToData } from "../common/errors.ts";
import { PromQLEngine, PromQLError, promQLResultJson } from "../promql/mod.ts";
import type { QueryResult } from "../promql/values.ts";
import { ReadOnlyDatabases } from "../storage/read_only.ts";
import { StorageQueryable } from "./promql_queryable.ts";
import type { PromqlReply, PromqlRequest } from "./promql_pool.ts";

const dbs = new ReadOnlyDatabases();

async function evaluate(req: PromqlRequest): Promise<QueryResult> {
  const queryable = new StorageQueryable(dbs, req.db, { maxSamples: req.maxSamples });
  const engine = new PromQLEngine(queryable, { maxSamples: req.maxSamples });
  // the budget counts from when the main thread sent the query, a wait for this thread included
  const timeoutMs = req.timeoutMs === undefined
    ? undefined
    : Math.max(0, req.timeoutMs - (Date.now() - req.sentAt));
  const opts = {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(req.lookbackDeltaMs !== undefined ? { lookbackDeltaMs: req.lookbackDeltaMs } : {}),
  };
  return req.stepMs === 0
    ? await engine.instantQuery(req.query, req.startMs, opts)
    : await engine.rangeQuery(req.query, req.startMs, req.endMs, req.stepMs, opts);
}

self.onmessage = async (e: MessageEvent<PromqlRequest>) => {
  const req = e.data;
  let reply: PromqlReply;
  try {
    dbs.sync(req.dbs);
    // the query's own cost (what makes it quick next time), without opening the databases
    const started = performance.now();
    const result = await dbs.snapshot(() => evaluate(req));
    const ms = performance.now() - started;
    reply = req.json ? { id: req.id, json: promQLResultJson(result), ms } : { id: req.id, result, ms };
  } catch (err) {
    if (err instanceof PromQLError) {
      reply = { id: req.id, promql: { errorType: err.errorType, message: err.message } };
    } else reply = { id: req.id, error: errorToData(err) };
  }
  self.postMessage(reply);
};
