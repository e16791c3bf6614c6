/**
 * Recomputing windows that took late writes or lost rows. A write below a rule's watermark, or a
 * DELETE or TRUNCATE of rows below it, marks its window in the source database, durably with the
 * change (`storage/late_marks.ts`). Here the marked windows are aggregated again and replace the
 * target's rows for them (a window's rows are deleted, then the groups the source still has are
 * written), a batch of marks at a time. Reading the marks, reading the source, writing the target and clearing
 * the marks happen in one synchronous stretch, so no write of this process falls between them: a
 * write after it marks its window again. When the target lives in the source's database the target
 * rows and the cleared marks commit in one transaction; otherwise the marks are cleared right after
 * the target committed, and a crash between the two only recomputes the windows once more.
 */
import type { DownsampleRule } from "../config/downsample.ts";
import { toEpochMs } from "../common/time_unit.ts";
import { clearLateMarks, takeLateMarks } from "../storage/late_marks.ts";
import { type Storage, timeUnit, ttlCutoff } from "../storage/mod.ts";
import type { TableMeta } from "../storage/table.ts";
import { aggregateWindows, sourceShape, type WindowGroup } from "../storage/window_aggregate.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import { filterSql } from "./flow_filter.ts";
import { flowQueryRows } from "./flow_query.ts";
import { clearTargetWindows, flowBatch, flowQueryBatch, metricWrites, tableBatch } from "./target.ts";

/** Marks taken per transaction. */
const MARKS_PER_STEP = 64;

/** Recomputes a rule's marked windows as of `nowMs`; returns the windows written (emptied ones too). */
export async function recomputeLate(
  storage: Storage,
  rule: DownsampleRule,
  key: string,
  nowMs: number,
  stopped: () => boolean,
): Promise<number> {
  let windows = 0;
  while (!stopped()) {
    if (!storage.hasDatabase(rule.database)) break;
    const src = storage.database(rule.database);
    const table = src.getTable(rule.source);
    if (table === undefined) break;
    const marks = takeLateMarks(src, key, MARKS_PER_STEP);
    if (marks.length === 0) break;
    const floor = oldestRecomputed(table, rule, nowMs);
    const due = marks.filter((at) => at >= floor);
    const recomputed = ranges(due, rule.interval);
    const stretches = recomputed.map(([from, to]) => readStretch(storage, rule, src, table, from, to));
    storage.createDatabase(rule.target_database, true);
    const target = storage.database(rule.target_database);
    target.transaction(() => {
      // what the source no longer has (deleted rows) must leave the target too
      for (const [from, to] of recomputed) clearTargetWindows(storage, rule, table, from, to);
      for (const s of stretches) s.write();
      if (target === src) clearLateMarks(src, key, marks);
    });
    if (target !== src) src.transaction(() => clearLateMarks(src, key, marks));
    windows += due.length; // an emptied window counts: it was written (its rows deleted)
    await new Promise((r) => setTimeout(r, 0)); // requests run between steps
  }
  return windows;
}

/** The oldest window start recomputed: `max_lateness` back, and never a window reaching past the source's ttl. */
function oldestRecomputed(table: TableMeta, rule: DownsampleRule, nowMs: number): number {
  const cutoff = ttlCutoff(table, nowMs);
  const ttlFloor = cutoff === undefined ? -Infinity : toEpochMs(cutoff, timeUnit(table));
  return Math.max(nowMs - rule.max_lateness, ttlFloor);
}

/** Sorted window starts as `[from, to)` ranges of adjacent windows. */
function ranges(starts: number[], interval: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const at of starts) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === at) last[1] = at + interval;
    else out.push([at, at + interval]);
  }
  return out;
}

/** A stretch of a rule's windows read from its source: the windows it found, and their write. */
export interface Stretch {
  /** The starts (ms) of the windows holding rows. */
  starts: Set<number>;
  /** Writes them over the target's rows (inside the caller's transaction). */
  write(): void;
}

/** Reads `[from, to)` of a rule's source: by the per-field aggregates, or a general flow's own SELECT. */
export function readStretch(
  storage: Storage,
  rule: DownsampleRule,
  src: DatabaseHandle,
  table: TableMeta,
  from: number,
  to: number,
): Stretch {
  const sink = rule.sink;
  if (sink?.query !== undefined) {
    const rows = flowQueryRows(storage, sink.query, from, to);
    return {
      starts: new Set(rows.map((r) => r.windowMs)),
      write: () => {
        if (rows.length === 0) return;
        const existing = storage.getTable(rule.target_database, rule.target);
        storage.write(rule.target_database, [flowQueryBatch(rule, sink, rows, existing)]);
      },
    };
  }
  const groups = windowsOf(rule, src, table, from, to);
  return {
    starts: new Set(groups.map((g) => g.windowMs)),
    write: () => writeGroups(storage, rule, table, groups),
  };
}

/** Writes recomputed windows over the target's rows (inside the caller's transaction). */
export function writeGroups(
  storage: Storage,
  rule: DownsampleRule,
  table: TableMeta,
  groups: WindowGroup[],
): void {
  const shape = sourceShape(table);
  if (rule.sink !== undefined) {
    if (groups.length > 0) storage.write(rule.target_database, [flowBatch(rule, rule.sink, groups)]);
  } else if (shape.metric) {
    const writes = metricWrites(rule, shape, groups);
    if (writes.length > 0) storage.writeMetrics(rule.target_database, writes);
  } else if (groups.length > 0) {
    storage.write(rule.target_database, [tableBatch(rule, shape, groups)]);
  }
}

/**
 * A rule's windows of `[from, to)` in its source (a flow's grouped by its GROUP BY tags only, of
 * the rows its WHERE keeps).
 */
export function windowsOf(
  rule: DownsampleRule,
  src: DatabaseHandle,
  table: TableMeta,
  from: number,
  to: number,
): WindowGroup[] {
  return aggregateWindows(
    src,
    table,
    from,
    to,
    rule.interval,
    rule.aggregates.includes("last"),
    rule.sink?.groupTags,
    rule.sink?.where === undefined ? undefined : filterSql(table, rule.sink.where),
  );
}
