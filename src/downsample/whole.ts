/**
 * Flows without a window key (`GROUP BY` other items, `SELECT DISTINCT`, aggregates alone): each
 * run computes the whole query over all of the source and makes the sink hold exactly its rows,
 * one per group (the sink's rows deleted, the new ones written, the run's time as the watermark, in
 * one transaction). A write or delete into the source after a run marks the flow
 * (`storage/late_marks.ts`, window 0), and the downsampler's periodic run recomputes a marked flow
 * once its last run is `delay` old; `ADMIN FLUSH_FLOW` recomputes it at once. A full recompute per
 * run suits an edge node's tables; GreptimeDB's flownode keeps incremental state instead.
 */
import type { DownsampleRule } from "../config/downsample.ts";
import { toEpochMs } from "../common/time_unit.ts";
import { clearRuleMarks, type LateWatch, takeLateMarks } from "../storage/late_marks.ts";
import { deleteTimeRange } from "../storage/delete_range.ts";
import { qualifiedName, quoteIdent, type TableMeta, timeUnit } from "../storage/table.ts";
import type { Storage } from "../storage/mod.ts";
import { isWholeQuery, wholeQueryRows } from "./flow_query.ts";
import { flowQueryBatch } from "./target.ts";
import { readWatermark, writeWatermark } from "./watermark.ts";

/** Whether a rule is a flow without a window key. */
export function isWholeFlow(rule: DownsampleRule): boolean {
  return rule.sink?.query !== undefined && isWholeQuery(rule.sink.query);
}

/**
 * Recomputes a whole flow when its source changed since its last run (or it never ran, or its
 * sink was dropped) and that run is `delay` old; `now` (a flush) runs it regardless. Returns the
 * rows written.
 */
export function runWholeFlow(
  storage: Storage,
  rule: DownsampleRule,
  key: string,
  watch: LateWatch,
  nowMs: number,
  now: boolean,
): number {
  if (!storage.hasDatabase(rule.database)) return 0;
  const src = storage.database(rule.database);
  if (src.getTable(rule.source) === undefined) return 0;
  storage.createDatabase(rule.target_database, true);
  const target = storage.database(rule.target_database);
  const existing = target.getTable(rule.target);
  const last = existing === undefined ? null : readWatermark(target, key);
  if (!now) {
    const changed = last === null || takeLateMarks(src, key, 1).length > 0;
    if (!changed || last !== null && nowMs - last < rule.delay) return 0;
  }
  // read, write and clear the marks in one synchronous stretch: a change after it marks again
  const rows = wholeQueryRows(storage, rule.sink!.query!, nowMs).map((values) => ({ windowMs: 0, values }));
  target.transaction(() => {
    if (existing !== undefined) clearSink(storage, rule, existing);
    if (rows.length > 0) {
      storage.write(rule.target_database, [flowQueryBatch(rule, rule.sink!, rows, existing)]);
    }
    writeWatermark(target, key, nowMs);
    if (target === src) clearRuleMarks(src, key);
  });
  if (target !== src) src.transaction(() => clearRuleMarks(src, key));
  watch.upto = nowMs;
  return rows.length;
}

/** Deletes every row of the sink (inside the caller's transaction), marking rules that read it. */
function clearSink(storage: Storage, rule: DownsampleRule, sink: TableMeta): void {
  const handle = storage.database(rule.target_database);
  const ts = quoteIdent(sink.timeIndex);
  const stmt = handle.conn.prepare(`SELECT min(${ts}) AS lo, max(${ts}) AS hi FROM ${qualifiedName(sink)}`);
  stmt.setReadBigInts(true);
  const row = stmt.get() as { lo: bigint | null; hi: bigint | null } | undefined;
  if (row?.lo === null || row?.lo === undefined || row.hi === null) return;
  const unit = timeUnit(sink);
  // a second past the newest row: the range's end, rounded down to the sink's unit, still covers it
  const watched = storage.lateWatches.of(rule.target_database)?.get(sink.name.toLowerCase());
  deleteTimeRange(handle, sink, toEpochMs(row.lo, unit), toEpochMs(row.hi, unit) + 1000, watched);
}
