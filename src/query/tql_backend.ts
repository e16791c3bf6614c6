/**
 * Storage as TQL's PromQL engine reads it (as `/v1/promql` does): what `/v1/sql`'s `TQL EVAL` and
 * the TQL flows (`src/downsample/flow_tql.ts`) evaluate their PromQL over.
 */
import type { Storage } from "../storage/mod.ts";
import type { PromQLBackend } from "../sql/tql/mod.ts";
import { resolveMetrics, StorageQueryable } from "./promql_queryable.ts";
import { valueFields } from "./series.ts";

/** The PromQL backend over `storage`, a query loading at most `maxSamples` samples. */
export function promqlBackend(storage: Storage, maxSamples: number): PromQLBackend {
  return {
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
