/**
 * Storage as TQL's PromQL engine reads it (as `/v1/promql` does): what `/v1/sql`'s `TQL EVAL` and
 * the TQL flows (`src/downsample/flow_tql.ts`) evaluate their PromQL over.
 */
import type { Storage } from "../storage/mod.ts";
import type { PromQLBackend } from "../sql/tql/mod.ts";
import { resolveMetrics, StorageQueryable } from "./promql_queryable.ts";
import { valueFields } from "./series.ts";
import { evaluateInWorker } from "./promql_pool.ts";
import type { TqlFrame } from "../sql/tql/params.ts";
import type { TqlRunOptions } from "../sql/tql/eval.ts";
import type { MatrixResult } from "../promql/mod.ts";

async function evaluateRange(
  storage: Storage,
  maxSamples: number,
  db: string,
  query: string,
  frame: TqlFrame,
  opts: TqlRunOptions,
): Promise<MatrixResult | null> {
  const { startMs, endMs, stepMs, lookbackMs } = frame;
  const q = {
    db,
    query,
    startMs,
    endMs,
    stepMs,
    maxSamples,
    ...(lookbackMs !== null ? { lookbackDeltaMs: lookbackMs } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  };
  const result = await evaluateInWorker(storage, q, {
    json: false,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return result as MatrixResult | null;
}

/**
 * The PromQL backend over `storage`, a query loading at most `maxSamples` samples; `inWorker`: queries
 * are evaluated in PromQL workers where they can be (requests; not flows, which run on this thread).
 */
export function promqlBackend(storage: Storage, maxSamples: number, inWorker = false): PromQLBackend {
  return {
    ...(inWorker
      ? { evaluate: (db, query, frame, opts) => evaluateRange(storage, maxSamples, db, query, frame, opts) }
      : {}),
    queryable: (db) => new StorageQueryable(storage, db, { maxSamples }),
    tables: (db, matchers) => {
      const found = resolveMetrics(storage, db, matchers);
      const tables = found.tables.map((t) => ({
        name: t.name,
        timeIndex: t.timeIndex,
        fields: valueFields(t, found.matchers),
      }));
      return { db: found.db, tables };
    },
    maxSamples,
  };
}
