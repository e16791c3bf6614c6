/**
 * Remote-write series → tables (reference §7.2): the special labels pick the metric (table), the
 * database and the physical table; every other label is a String TAG; one row per sample with
 * `greptime_timestamp` (TimestampMillisecond) and `greptime_value` (Float64).
 */

import type { ColumnSchema, Value, WriteBatch } from "../common/rows.ts";
import { type Series } from "../common/series.ts";
import { splitSpecialLabels } from "../common/labels.ts";

/** Name of the time index column of tables created by remote write. */
const PROM_TIME_INDEX = "greptime_timestamp";
/** Name of the value column of tables created by remote write. */
const PROM_VALUE = "greptime_value";

/** The rows of one metric in one database (and physical table), ready for the writer. */
export interface RemoteWriteTable {
  database?: string;
  physicalTable?: string;
  batch: WriteBatch;
}

/**
 * Groups series into one batch per (database, physical table, metric), skipping series without
 * samples. Columns are sorted by name, as metric-engine logical tables are. Stale samples arrive as
 * NaN values: the batch cannot carry their `stale` flag, so storage must treat NaN as the marker.
 */
export function remoteWriteToBatches(series: Series[]): RemoteWriteTable[] {
  const groups = new Map<
    string,
    RemoteWriteTable & { tagNames: Set<string>; series: [Record<string, string>, Series][] }
  >();
  for (const s of series) {
    if (s.samples.length === 0) continue;
    const target = splitSpecialLabels(s.labels);
    const key = `${target.database ?? ""}\u0000${target.physicalTable ?? ""}\u0000${target.metric}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = {
        database: target.database,
        physicalTable: target.physicalTable,
        batch: { table: target.metric, columns: [], rows: [] },
        tagNames: new Set(),
        series: [],
      };
      groups.set(key, g);
    }
    for (const k in target.tags) g.tagNames.add(k);
    g.series.push([target.tags, s]);
  }
  const out: RemoteWriteTable[] = [];
  for (const g of groups.values()) {
    const columns: ColumnSchema[] = [...g.tagNames].map((name) => ({
      name,
      type: "String",
      semantic: "TAG",
    }));
    columns.push({ name: PROM_TIME_INDEX, type: "TimestampMillisecond", semantic: "TIMESTAMP" });
    columns.push({ name: PROM_VALUE, type: "Float64", semantic: "FIELD" });
    columns.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const tsAt = columns.findIndex((c) => c.name === PROM_TIME_INDEX);
    const valueAt = columns.findIndex((c) => c.name === PROM_VALUE);
    const rows: Value[][] = [];
    for (const [tags, s] of g.series) {
      const base: Value[] = columns.map((
        c,
      ) => (c.semantic === "TAG" && Object.hasOwn(tags, c.name) ? tags[c.name] : null));
      for (const sample of s.samples) {
        const row = base.slice();
        row[tsAt] = sample.timestampMs;
        row[valueAt] = sample.value;
        rows.push(row);
      }
    }
    g.batch.columns = columns;
    g.batch.rows = rows;
    const entry: RemoteWriteTable = { batch: g.batch };
    if (g.database !== undefined) entry.database = g.database;
    if (g.physicalTable !== undefined) entry.physicalTable = g.physicalTable;
    out.push(entry);
  }
  return out;
}
