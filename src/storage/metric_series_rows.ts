/**
 * The rows of a few series of a logical table read series first, for SQL that picks series by tag
 * and no time (`sql/rewrite/metric_series.ts`). The samples table is time-first, so reading one
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

/**
 * The rows of `logical` whose series pass `labelsWhere` (a condition on the series table's label
 * columns), read by series as the module doc says; columns and order as its view's.
 */
export function logicalChunkRowsSql(physical: TableMeta, logical: TableMeta, labelsWhere: string): string {
  const state = compactionTable(physical), samples = samplesTable(physical), series = seriesTable(physical);
  const chunks = chunksTable(physical);
  const ids = `(SELECT id FROM ${series} WHERE table_id = ${logical.id} AND ${labelsWhere})`;
  const upto = `coalesce((SELECT at FROM ${state} WHERE kind = 'upto'), -9223372036854775808)`;
  const dirty = `(SELECT at FROM ${state} WHERE kind = 'dirty')`;
  const windows = `SELECT DISTINCT ${windowOf("c.start_ts")} AS at FROM ${chunks} AS c ` +
    `WHERE c.series_id IN ${ids} AND c.start_ts < ${upto} ` +
    `UNION SELECT at FROM ${state} WHERE kind = 'dirty' AND at < ${upto} ` +
    `UNION SELECT DISTINCT ${
      windowOf("x.ts")
    } FROM ${samples} AS x WHERE x.ts >= ${upto} AND x.series_id IN ${ids} ` +
    `ORDER BY 1 LIMIT -1`;
  // which part a window reads is in its key range's end (an empty range for the other part): a
  // WHERE term on the window alone would be tested per row of a range read anyway
  const clean = `(w.at < ${upto} AND w.at NOT IN ${dirty})`;
  const windowRows =
    `SELECT c.series_id AS series_id, NULL AS ts, NULL AS value, c.data AS data FROM ${chunks} AS c ` +
    `WHERE c.series_id IN ${ids} AND c.start_ts >= w.at ` +
    `AND c.start_ts < CASE WHEN ${clean} THEN w.at + ${WINDOW_MS} ELSE w.at END ` +
    `UNION ALL SELECT x.series_id, x.ts, x.value, NULL FROM ${samples} AS x ` +
    `WHERE x.ts >= w.at AND x.ts < CASE WHEN ${clean} THEN w.at ELSE w.at + ${WINDOW_MS} END ` +
    `AND x.series_id IN ${ids}`;
  const merged = `(SELECT __petrel_window_samples(series_id, ts, value, data) FROM (${windowRows}))`;
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
