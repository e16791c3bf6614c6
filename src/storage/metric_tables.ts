/** Whole-table work on metric-engine tables: drop, truncate, and the ttl sweep. */
import { invalidArguments } from "../common/errors.ts";
import type { DatabaseHandle } from "./database.ts";
import {
  isLogicalTable,
  isPhysicalTable,
  logicalRowsSql,
  samplesTable,
  seriesTable,
} from "./metric_layout.ts";
import { physicalOf } from "./metric_engine.ts";
import { forgetSeries, seriesIndex } from "./metric_series.ts";
import { quoteIdent, type TableMeta } from "./table.ts";
import { chunksTable, compactionTable, dropChunkSql, sweepChunks, windowOf } from "./metric_chunks.ts";
import { forgetHead, metricHead, samplesDeleted, touchJob, windowsDeleted } from "./metric_head.ts";

/** Drops a logical table (its series and samples) or an unused physical table. */
export function dropMetricTable(handle: DatabaseHandle, t: TableMeta): void {
  handle.transaction(() => {
    if (isPhysicalTable(t)) {
      const users = handle.listTables().filter((o) =>
        isLogicalTable(o) && o.options.on_physical_table === t.name
      );
      if (users.length > 0) {
        throw invalidArguments(
          `Physical table ${t.name} is used by logical tables: ${users.map((u) => u.name).join(", ")}`,
        );
      }
      handle.conn.exec(`DROP VIEW IF EXISTS ${quoteIdent(t.schema)}.${quoteIdent(t.name)}`);
      handle.conn.exec(`DROP TABLE IF EXISTS ${seriesTable(t)}`);
      handle.conn.exec(`DROP TABLE IF EXISTS ${samplesTable(t)}`);
      for (const sql of dropChunkSql(t)) handle.conn.exec(sql);
      forgetHead(handle, t);
    } else {
      truncateMetricTable(handle, t);
      const physical = physicalOf(handle, t);
      handle.conn.prepare(`DELETE FROM ${seriesTable(physical)} WHERE table_id = ?`).run(t.id);
      handle.conn.exec(`DROP VIEW IF EXISTS ${quoteIdent(t.schema)}.${quoteIdent(t.name)}`);
    }
    handle.dropTable(t.name);
  });
  forgetSeries(handle);
}

/** Deletes every sample of a metric table (series stay known). */
export function truncateMetricTable(handle: DatabaseHandle, t: TableMeta): void {
  handle.transaction(() => {
    if (isPhysicalTable(t)) {
      handle.conn.exec(`DELETE FROM ${samplesTable(t)}`);
      metricHead(handle, t);
      handle.conn.exec(`DELETE FROM ${chunksTable(t)}`);
      handle.conn.exec(`DELETE FROM ${compactionTable(t)}`);
      forgetHead(handle, t);
      touchJob(handle, t);
      return;
    }
    const physical = physicalOf(handle, t);
    const ofTable = `SELECT id FROM ${seriesTable(physical)} WHERE table_id = ?`;
    handle.conn.prepare(`DELETE FROM ${samplesTable(physical)} WHERE series_id IN (${ofTable})`).run(t.id);
    metricHead(handle, physical);
    handle.conn.prepare(`DELETE FROM ${chunksTable(physical)} WHERE series_id IN (${ofTable})`).run(t.id);
    forgetHead(handle, physical);
    touchJob(handle, physical);
  });
}

/**
 * Deletes samples older than `cutoff` (ms): of the whole physical table, or of one logical table's
 * series. Cheap for a physical table, whose samples are keyed by time first.
 */
export function sweepMetricTable(handle: DatabaseHandle, t: TableMeta, cutoff: bigint): number {
  const physical = isPhysicalTable(t) ? t : physicalOf(handle, t);
  const ids = isPhysicalTable(t)
    ? null
    : seriesIndex(handle, physical).byTable.get(t.id)?.map((e) => e.id) ?? [];
  if (ids?.length === 0) return 0;
  const only = ids === null ? "" : " AND series_id IN (SELECT value FROM json_each(?))";
  const args = ids === null ? [] : [JSON.stringify(ids)];
  return handle.transaction(() => {
    metricHead(handle, physical);
    cutWindow(handle, physical, Number(cutoff), only, args);
    sweepChunks(handle, physical, Number(cutoff), ids);
    return Number(
      handle.conn.prepare(`DELETE FROM ${samplesTable(physical)} WHERE ts < ?${only}`).run(cutoff, ...args)
        .changes,
    );
  });
}

/**
 * The window holding the cutoff keeps its chunks (they end at or after it) while the sweep deletes
 * its samples before the cutoff: when it has any, it is marked dirty, so reads take it from the
 * samples table and compaction rewrites its chunks without them (else a ttl lengthened later, or a
 * physical table's, whose cutoff reads do not apply, showed the deleted samples again).
 */
function cutWindow(
  handle: DatabaseHandle,
  physical: TableMeta,
  cutoff: number,
  only: string,
  args: string[],
): void {
  const start = windowOf(cutoff);
  if (start === cutoff) return;
  const some = handle.conn.prepare(
    `SELECT 1 FROM ${samplesTable(physical)} WHERE ts >= ? AND ts < ?${only} LIMIT 1`,
  ).get(start, cutoff, ...args);
  if (some !== undefined) windowsDeleted(handle, physical, [start]);
}

/** Deletes a logical table's samples in `[fromMs, toMs)`; returns how many (inside the caller's transaction). */
export function deleteMetricRange(
  handle: DatabaseHandle,
  t: TableMeta,
  fromMs: number,
  toMs: number,
): number {
  const physical = physicalOf(handle, t);
  const ids = seriesIndex(handle, physical).byTable.get(t.id)?.map((e) => e.id) ?? [];
  if (ids.length === 0) return 0;
  const n = Number(
    handle.conn.prepare(
      `DELETE FROM ${samplesTable(physical)} WHERE ts >= ? AND ts < ? ` +
        `AND series_id IN (SELECT value FROM json_each(?))`,
    ).run(fromMs, toMs, JSON.stringify(ids)).changes,
  );
  if (n > 0) samplesDeleted(handle, physical, fromMs, toMs);
  return n;
}

/**
 * Deletes the samples of a logical table its view shows matching `where` (SQL over the view's
 * columns, the table's name qualifying them; "" for all), inside the caller's transaction; returns
 * how many. Chunks are copies of the samples table's closed windows: the windows losing samples are
 * marked dirty, so reads skip their chunks and compaction rewrites them.
 */
export function deleteMetricRows(handle: DatabaseHandle, t: TableMeta, where: string): number {
  const physical = physicalOf(handle, t);
  metricHead(handle, physical);
  const rows = `SELECT __petrel_ts, __petrel_series_id FROM (${logicalRowsSql(physical, t)}) AS ${
    quoteIdent(t.name)
  }${where === "" ? "" : ` WHERE ${where}`}`;
  // RETURNING: the windows touched are those of the rows actually deleted (WHERE is evaluated once).
  const stmt = handle.conn.prepare(
    `DELETE FROM ${samplesTable(physical)} WHERE (ts, series_id) IN (${rows}) RETURNING ts`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const deleted = stmt.all() as unknown as [number][];
  const windows = new Set<number>();
  for (const [ts] of deleted) windows.add(windowOf(Number(ts)));
  if (windows.size > 0) windowsDeleted(handle, physical, windows);
  return deleted.length;
}
