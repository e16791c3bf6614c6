/** The ttl sweep: deleting the expired rows of every table with a ttl. */
import { Logger } from "../common/log.ts";
import type { DatabaseHandle } from "./database.ts";
import { isMetricTable } from "./metric_layout.ts";
import { sweepMetricTable } from "./metric_tables.ts";
import { forgetTracesBefore } from "./trace_map.ts";
import { qualifiedName, quoteIdent, ttlCutoff, ttlMs } from "./table.ts";

/**
 * Deletes expired rows of every table with a ttl; returns the rows deleted. A table is swept again
 * only after a tenth of its ttl (`lastSweep` remembers when, by database and table id).
 */
export function sweepExpiredTables(
  handles: Iterable<DatabaseHandle>,
  lastSweep: Map<string, number>,
  nowMs: number,
): number {
  let deleted = 0;
  for (const h of handles) {
    for (const t of h.listTables()) {
      const cutoff = ttlCutoff(t, nowMs);
      if (cutoff === undefined) continue;
      const key = `${h.name}\u0000${t.id}`;
      const last = lastSweep.get(key);
      if (last !== undefined && nowMs - last < (ttlMs(t) ?? 0) / 10) continue;
      lastSweep.set(key, nowMs);
      if (isMetricTable(t)) {
        deleted += sweepMetricTable(h, t, cutoff);
        continue;
      }
      const sql = `DELETE FROM ${qualifiedName(t)} WHERE ${quoteIdent(t.timeIndex)} < ?`;
      deleted += Number(h.conn.prepare(sql).run(cutoff).changes);
      forgetTracesBefore(h, t, cutoff);
    }
  }
  return deleted;
}

const sweepLog = new Logger("petrel::storage");

/** Runs each named sweep every `intervalMs` (a failure is logged, the others still run); the timer is unref'd. */
export function startSweeper(intervalMs: number, sweeps: [string, () => unknown][]): number {
  const timer = setInterval(() => {
    for (const [what, sweep] of sweeps) {
      try {
        sweep();
      } catch (e) {
        sweepLog.error(`${what} failed`, { error: String(e) });
      }
    }
  }, intervalMs);
  Deno.unrefTimer(timer as unknown as number);
  return timer as unknown as number;
}
