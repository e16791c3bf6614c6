/**
 * A table seen as a run of time windows, for retention by size: where its oldest and newest windows
 * start, how many rows it holds, and deleting everything before a time. Ordinary tables use their
 * `compaction.twcs.time_window` (else an hour); metric-engine physical tables use the compaction
 * window of `metric_chunks.ts`, and a drop takes their samples, chunks and dirty marks together.
 */
import { parseDuration } from "../common/humantime.ts";
import { msToUnit, toEpochMs } from "../common/time_unit.ts";
import type { DatabaseHandle } from "./database.ts";
import { chunksTable, compactionTable, WINDOW_MS } from "./metric_chunks.ts";
import { forgetHead, jobRunning, metricHead } from "./metric_head.ts";
import { isPhysicalTable, samplesTable } from "./metric_layout.ts";
import { forgetTracesBefore } from "./trace_map.ts";
import { qualifiedName, quoteIdent, type TableMeta, timeUnit } from "./table.ts";

/** One table's windows. */
export interface WindowedTable {
  table: TableMeta;
  /** The window length (ms). */
  windowMs: number;
  /** The oldest and newest times holding rows (ms), or null when the table is empty. */
  span(): { oldest: number; newest: number } | null;
  /** Rows in the table. */
  rows(): number;
  /** Deletes every row before `beforeMs`; returns how many. Null when it cannot run now. */
  dropBefore(beforeMs: number): number | null;
}

/** The start of the window of `t`. */
export function windowStart(t: number, windowMs: number): number {
  return Math.floor(t / windowMs) * windowMs;
}

/** A table as windows; undefined for tables without windows of their own (logical tables). */
export function windowed(handle: DatabaseHandle, t: TableMeta): WindowedTable | undefined {
  if (isPhysicalTable(t)) return metricWindows(handle, t);
  if (t.engine === "metric") return undefined;
  return plainWindows(handle, t);
}

function plainWindows(handle: DatabaseHandle, t: TableMeta): WindowedTable {
  const unit = timeUnit(t);
  const ts = quoteIdent(t.timeIndex);
  const twcs = t.options["compaction.twcs.time_window"];
  const windowMs = (twcs !== undefined ? parseDuration(twcs) : null) || WINDOW_MS;
  return {
    table: t,
    windowMs,
    span() {
      const stmt = handle.conn.prepare(`SELECT min(${ts}) AS lo, max(${ts}) AS hi FROM ${qualifiedName(t)}`);
      stmt.setReadBigInts(true);
      const row = stmt.get() as { lo: bigint | null; hi: bigint | null } | undefined;
      if (row?.lo === null || row?.lo === undefined || row.hi === null) return null;
      return { oldest: toEpochMs(row.lo, unit), newest: toEpochMs(row.hi, unit) };
    },
    rows: () => count(handle, `SELECT count(*) AS n FROM ${qualifiedName(t)}`),
    dropBefore(beforeMs) {
      const sql = `DELETE FROM ${qualifiedName(t)} WHERE ${ts} < ?`;
      const before = msToUnit(beforeMs, unit);
      const deleted = Number(handle.conn.prepare(sql).run(before).changes);
      forgetTracesBefore(handle, t, before);
      return deleted;
    },
  };
}

function metricWindows(handle: DatabaseHandle, t: TableMeta): WindowedTable {
  return {
    table: t,
    windowMs: WINDOW_MS,
    span() {
      const row = handle.conn.prepare(`SELECT min(ts) AS lo, max(ts) AS hi FROM ${samplesTable(t)}`).get() as
        | { lo: number | null; hi: number | null }
        | undefined;
      if (row?.lo === null || row?.lo === undefined || row.hi === null) return null;
      return { oldest: Number(row.lo), newest: Number(row.hi) };
    },
    rows: () => count(handle, `SELECT count(*) AS n FROM ${samplesTable(t)}`),
    dropBefore(beforeMs) {
      // A job reading a window would write its chunks back after the drop: wait for the next sweep.
      if (jobRunning(handle, t)) return null;
      metricHead(handle, t);
      const deleted = handle.transaction(() => {
        handle.conn.prepare(`DELETE FROM ${chunksTable(t)} WHERE start_ts < ?`).run(beforeMs);
        handle.conn.prepare(`DELETE FROM ${compactionTable(t)} WHERE kind = 'dirty' AND at < ?`).run(
          beforeMs,
        );
        return Number(
          handle.conn.prepare(`DELETE FROM ${samplesTable(t)} WHERE ts < ?`).run(beforeMs).changes,
        );
      });
      // The head may buffer samples of the dropped windows (late ones, dirty windows): reload it.
      forgetHead(handle, t);
      return deleted;
    },
  };
}

function count(handle: DatabaseHandle, sql: string): number {
  const row = handle.conn.prepare(sql).get() as { n: number } | undefined;
  return Number(row?.n ?? 0);
}
