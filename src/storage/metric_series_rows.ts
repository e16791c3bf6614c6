/**
 * The rows of a few series of a logical table read series first, for SQL that picks series by tag
 * and no time or a time range (`sql/rewrite/metric_series.ts`). The samples table is time-first, so reading one
 * series from it scans every series' samples; but every closed window is also stored per series as
 * XOR chunks (`metric_chunks.ts`). So the rows are read window by window, in time order, in one
 * statement (and so one snapshot, compaction state included):
 * - the windows: those with chunks of the chosen series before `upto` (a seek per series), the dirty
 *   ones, and those of the samples from `upto` on (the open windows: a range of the time-first key);
 * - a compacted window that is not dirty: the chosen series' chunks; any other: its samples of the
 *   chosen series (a range of the key);
 * - `__petrel_window_samples` merges a window's samples into (ts, series) order, as JSON that
 *   `json_each` makes rows.
 * The rows thus come in the order a scan of the samples table gives, so an answer is the same row for
 * row, with no sort (SQLite's sorts 1.15M rows in ~14 s: it spills). The window list's small ORDER BY
 * keeps a `LIMIT -1`: SQLite drops a FROM subquery's ORDER BY without a LIMIT under a join.
 */
import type { DatabaseHandle } from "./database.ts";
import { chunksTable, compactionTable, WINDOW_MS } from "./metric_chunks.ts";
import { samplesTable, selectList, seriesTable } from "./metric_layout.ts";
import type { TableMeta } from "./table.ts";

/** The start of the window of a time column (floored: a time may be negative). */
function windowOf(col: string): string {
  return `(${col} - ((${col} % ${WINDOW_MS}) + ${WINDOW_MS}) % ${WINDOW_MS})`;
}

/** An inclusive time range in the time column's unit; null is unbounded on that side. */
export interface TimeRange {
  lo: bigint | null;
  hi: bigint | null;
}

const W = BigInt(WINDOW_MS);

/** The start of the window holding `t` (floored). */
function windowStart(t: bigint): bigint {
  return t - ((t % W) + W) % W;
}

/**
 * The rows of `logical` whose series pass `labelsWhere` (a condition on the series table's label
 * columns), read by series as the module doc says; columns and order as its view's. Given a `range`,
 * only its windows are read, samples by their key over the range, and chunks trimmed to it; the
 * rows may still hold times outside it (the caller's WHERE tests them).
 */
export function logicalChunkRowsSql(
  physical: TableMeta,
  logical: TableMeta,
  labelsWhere: string,
  range?: TimeRange,
): string {
  const state = compactionTable(physical), samples = samplesTable(physical), series = seriesTable(physical);
  const chunks = chunksTable(physical);
  const lo = range?.lo ?? null, hi = range?.hi ?? null;
  const ids = `(SELECT id FROM ${series} WHERE table_id = ${logical.id} AND ${labelsWhere})`;
  const upto = `coalesce((SELECT at FROM ${state} WHERE kind = 'upto'), -9223372036854775808)`;
  const dirty = `(SELECT at FROM ${state} WHERE kind = 'dirty')`;
  // a window is in the range when it starts at most at its end and at least at its start's window
  const inRange = (col: string) =>
    (lo === null ? "" : ` AND ${col} >= ${windowStart(lo)}`) + (hi === null ? "" : ` AND ${col} <= ${hi}`);
  // one bound each side on the time key (SQLite takes one term a side as the key's range)
  const from = (start: string) => lo === null ? start : `max(${start}, ${lo})`;
  const before = (end: string) => hi === null ? `x.ts < ${end}` : `x.ts <= min(${end} - 1, ${hi})`;
  const windows = `SELECT DISTINCT ${windowOf("c.start_ts")} AS at FROM ${chunks} AS c ` +
    `WHERE c.series_id IN ${ids} AND c.start_ts < ${upto}${inRange("c.start_ts")} ` +
    `UNION SELECT at FROM ${state} WHERE kind = 'dirty' AND at < ${upto}${inRange("at")} ` +
    `UNION SELECT DISTINCT ${windowOf("x.ts")} FROM ${samples} AS x WHERE x.ts >= ${from(upto)}${
      hi === null ? "" : ` AND x.ts <= ${hi}`
    } AND x.series_id IN ${ids} ORDER BY 1 LIMIT -1`;
  // which part a window reads is in its key range's end (an empty range for the other part): a
  // WHERE term on the window alone would be tested per row of a range read anyway
  const clean = `(w.at < ${upto} AND w.at NOT IN ${dirty})`;
  const windowRows =
    `SELECT c.series_id AS series_id, NULL AS ts, NULL AS value, c.data AS data FROM ${chunks} AS c ` +
    `WHERE c.series_id IN ${ids} AND c.start_ts >= w.at ` +
    `AND c.start_ts < CASE WHEN ${clean} THEN w.at + ${WINDOW_MS} ELSE w.at END ` +
    `UNION ALL SELECT x.series_id, x.ts, x.value, NULL FROM ${samples} AS x ` +
    `WHERE x.ts >= ${from("w.at")} AND ${
      before(`CASE WHEN ${clean} THEN w.at ELSE w.at + ${WINDOW_MS} END`)
    } ` +
    `AND x.series_id IN ${ids}`;
  // a range trims the chunks' samples as they are decoded
  const trim = range === undefined ? "" : `, ${lo ?? "NULL"}, ${hi ?? "NULL"}`;
  const merged = `(SELECT __petrel_window_samples(series_id, ts, value, data${trim}) FROM (${windowRows}))`;
  // an empty last arm gives the columns the samples table's declared types (SQLite reads a compound's
  // from its last arm), which name the result's types as the view's columns do (`->>` has none)
  const rows = `SELECT j.value ->> 1 AS series_id, j.value ->> 0 AS ts, j.value ->> 2 AS value ` +
    `FROM (${windows}) AS w CROSS JOIN json_each(${merged}) AS j ` +
    `UNION ALL SELECT series_id, ts, value FROM ${samples} WHERE 0`;
  return `SELECT ${selectList(logical)} FROM (${rows}) AS s CROSS JOIN ${series} AS r ` +
    `ON r.id = s.series_id WHERE r.table_id = ${logical.id}`;
}

/**
 * Whether at most `share` of the physical table's series (all its logical tables': their samples
 * share one time-first table) are series of `logical` passing `labelsWhere`; undefined when the
 * condition fails (a bad pattern: the query then fails as it would have). Series ids only grow, so
 * the largest stands for the count without a scan; the count of the chosen stops past the limit.
 */
export function fewSeries(
  handle: DatabaseHandle,
  physical: TableMeta,
  logical: TableMeta,
  labelsWhere: string,
  share: number,
): boolean | undefined {
  const series = seriesTable(physical);
  const one = (sql: string) => Number(Object.values(handle.conn.prepare(sql).get() ?? {})[0] ?? 0);
  try {
    const limit = Math.floor(one(`SELECT max(id) FROM ${series}`) * share);
    return one(
      `SELECT count(*) FROM (SELECT 1 FROM ${series} WHERE table_id = ${logical.id} AND ${labelsWhere} ` +
        `LIMIT ${limit + 1})`,
    ) <= limit;
  } catch {
    return undefined;
  }
}

/**
 * What part of the chunk read's edge over a scan is left for a read of the physical table's samples
 * over `range`, from 0 (scan) to 1 (as with no time bound). A scan reads every series' samples over
 * the range: the compacted part of it (C'), dirty windows (D) and the open part (O). The chunk read
 * decodes the picked series' chunks by whole window over the compacted part (C), reads dirty windows
 * as a scan does, and the open part twice (the window list reads it too). With k a chunk read's cost
 * per sample against a scan's, and the picked series' share of the samples as their share of the
 * series, the chunks pay when k × share × (C + D + O) < C' − O: the result is (C' − O) / (C + D + O),
 * which scales the caller's share limit (1/k).
 */
export function chunkedShare(handle: DatabaseHandle, physical: TableMeta, range: TimeRange): number {
  // the same few statements for every read of the table: cached, not left for the GC to finalize
  const stmt = (sql: string) =>
    handle.statements.obtain(physical.name, sql, "metric", () => handle.conn.prepare(sql));
  const one = (sql: string) => {
    const v = Object.values(stmt(sql).get() ?? {})[0];
    return v === null || v === undefined ? null : Number(v);
  };
  const samples = samplesTable(physical), state = compactionTable(physical);
  const upto = one(`SELECT at FROM ${state} WHERE kind = 'upto'`);
  const first = one(`SELECT min(ts) FROM ${samples}`), last = one(`SELECT max(ts) FROM ${samples}`);
  if (upto === null || first === null || last === null) return 0;
  const lo = Math.max(range.lo === null ? first : Number(range.lo), first);
  const hi = Math.min(range.hi === null ? last : Number(range.hi), last) + 1;
  if (lo >= hi) return 0; // nothing to read: a scan's seek is as cheap
  const dirty = stmt(`SELECT at FROM ${state} WHERE kind = 'dirty' AND at < ?`).all(upto)
    .map((r) => Number(r.at));
  const overlap = (a: number, b: number) => Math.max(0, Math.min(b, hi) - Math.max(a, lo));
  const dirtyPart = dirty.reduce((sum, at) => sum + overlap(at, at + WINDOW_MS), 0);
  const compacted = overlap(-Infinity, upto) - dirtyPart, open = overlap(upto, Infinity);
  // the whole windows the compacted part touches
  const windows = Math.max(0, Math.ceil(Math.min(hi, upto) / WINDOW_MS) - Math.floor(lo / WINDOW_MS));
  const read = windows * WINDOW_MS + open;
  return read > 0 ? Math.max(0, (compacted - open) / read) : 0;
}
