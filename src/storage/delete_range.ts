/**
 * Deleting a time range of a table of either engine, as downsampling does to a target's windows it
 * recomputes (`src/downsample/late.ts`): the rows go, and if the table is itself a rule's source,
 * the windows they fed are marked for recomputation like any delete (`late_marks.ts`).
 */
import type { DatabaseHandle } from "./database.ts";
import { type LateWatch, markDeleted } from "./late_marks.ts";
import { isLogicalTable, isPhysicalTable } from "./metric_layout.ts";
import { deleteMetricRange } from "./metric_tables.ts";
import { forgetTracesBeforeOldest } from "./trace_map.ts";
import { qualifiedName, quoteIdent, type TableMeta, timeUnit } from "./table.ts";
import { msToUnit } from "../common/time_unit.ts";

/** Deletes a table's rows in `[fromMs, toMs)` (inside the caller's transaction); returns how many. */
export function deleteTimeRange(
  handle: DatabaseHandle,
  table: TableMeta,
  fromMs: number,
  toMs: number,
  watches: readonly LateWatch[] | undefined,
): number {
  const unit = timeUnit(table);
  const ts = quoteIdent(table.timeIndex);
  const lo = msToUnit(fromMs, unit), hi = msToUnit(toMs, unit);
  if (watches !== undefined) {
    markDeleted(handle, table, watches, `FROM ${qualifiedName(table)}`, `${ts} >= ${lo} AND ${ts} < ${hi}`);
  }
  if (isLogicalTable(table)) return deleteMetricRange(handle, table, fromMs, toMs);
  const sql = `DELETE FROM ${qualifiedName(table)} WHERE ${ts} >= ? AND ${ts} < ?`;
  const deleted = Number(handle.conn.prepare(sql).run(lo, hi).changes);
  forgetTracesBeforeOldest(handle, table);
  return deleted;
}

/**
 * Before a TRUNCATE (inside its transaction): marks the windows of every rule reading the table,
 * or, for a metric engine's physical table, any of its logical tables, as a DELETE of every row would.
 */
export function markTruncated(
  handle: DatabaseHandle,
  table: TableMeta,
  watched: ReadonlyMap<string, LateWatch[]> | undefined,
): void {
  if (watched === undefined) return;
  const tables = isPhysicalTable(table)
    ? handle.listTables().filter((t) => isLogicalTable(t) && t.options.on_physical_table === table.name)
    : [table];
  for (const t of tables) {
    const watches = watched.get(t.name.toLowerCase());
    if (watches !== undefined) markDeleted(handle, t, watches, `FROM ${qualifiedName(t)}`, "");
  }
}
