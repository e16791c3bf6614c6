/**
 * Aggregates of a table over fixed time windows, per tag set, for downsampling: avg, min, max, sum
 * and count of every numeric field (NaN and Prometheus staleness markers left out), and `last`, the
 * value at the newest timestamp of the window. A metric-engine logical table is read through its
 * view (labels are its tags, `greptime_value` its field); rows past the table's ttl are left out.
 */
import { msToUnit, toEpochMs, UNITS_PER_SECOND } from "../common/time_unit.ts";
import { isNullTag } from "./datatypes.ts";
import { textOf } from "./nul_text.ts";
import type { DatabaseHandle } from "./database.ts";
import { isLogicalTable } from "./metric_layout.ts";
import { qualifiedName, quoteIdent, type TableMeta, timeUnit, ttlCutoff } from "./table.ts";

/** The aggregates SQL computes per window (`last` is read apart). */
const SQL_AGGREGATES = ["avg", "min", "max", "sum", "count"] as const;

/** What a table offers to downsampling. */
export interface SourceShape {
  /** Whether it is a metric-engine logical table (a metric). */
  metric: boolean;
  tags: string[];
  /** Numeric fields. */
  fields: string[];
  timeIndex: string;
}

/** One tag set's aggregates in one window. */
export interface WindowGroup {
  tags: Record<string, string | null>;
  /** The window's start (ms). */
  windowMs: number;
  /** Field → aggregate → value (null when the window had no number for it). */
  values: Record<string, Record<string, number | null>>;
}

/** A value bound to a statement parameter. */
export type SqlParam = string | number | bigint | Uint8Array | null;

/** A condition on the source's rows (a flow's WHERE) and the values of its `?` parameters, in order. */
export interface RowFilter {
  sql: string;
  params: SqlParam[];
}

const NUMERIC = /^(U?Int(8|16|32|64)|Float(32|64))$/;

/** The tags and numeric fields of a table. */
export function sourceShape(t: TableMeta): SourceShape {
  return {
    metric: isLogicalTable(t),
    tags: t.columns.filter((c) => c.semantic === "TAG").map((c) => c.name),
    fields: t.columns.filter((c) => c.semantic === "FIELD" && NUMERIC.test(c.type)).map((c) => c.name),
    timeIndex: t.timeIndex,
  };
}

/** The first time (ms) at or after `fromMs` (null: any) holding a row, or null. */
export function firstTimeFrom(handle: DatabaseHandle, t: TableMeta, fromMs: number | null): number | null {
  const unit = timeUnit(t);
  const stmt = handle.conn.prepare(
    `SELECT min(${quoteIdent(t.timeIndex)}) AS t FROM ${qualifiedName(t)} WHERE ${
      quoteIdent(t.timeIndex)
    } >= ?`,
  );
  stmt.setReadBigInts(true);
  const row = stmt.get(lowerBound(t, fromMs)) as { t: bigint | null } | undefined;
  return row?.t === null || row?.t === undefined ? null : toEpochMs(row.t, unit);
}

/**
 * The aggregates of `[fromMs, toMs)` per tag set and window of `intervalMs`; `groupTags` (a flow's
 * GROUP BY) groups by those tags only instead of all of them, and only rows meeting `filter` (a
 * flow's WHERE) are aggregated.
 */
export function aggregateWindows(
  handle: DatabaseHandle,
  t: TableMeta,
  fromMs: number,
  toMs: number,
  intervalMs: number,
  withLast: boolean,
  groupTags?: string[],
  filter?: RowFilter,
): WindowGroup[] {
  const full = sourceShape(t);
  const shape = groupTags === undefined ? full : { ...full, tags: groupTags };
  const unit = timeUnit(t);
  const ts = quoteIdent(t.timeIndex);
  const size = BigInt(intervalMs) * BigInt(UNITS_PER_SECOND[unit]) / 1000n;
  const w = `(${ts} - (((${ts} % ${size}) + ${size}) % ${size}))`;
  const tags = shape.tags.map(quoteIdent);
  const num = (f: string) =>
    `(CASE WHEN typeof(${quoteIdent(f)}) IN ('integer', 'real') THEN ${quoteIdent(f)} END)`;
  const aggs = shape.fields.flatMap((f) => SQL_AGGREGATES.map((a) => `${a}(${num(f)})`));
  const where = `WHERE ${ts} >= ? AND ${ts} < ?${filter === undefined ? "" : ` AND (${filter.sql})`}`;
  const group = `GROUP BY ${[...tags, "w"].join(", ")}`;
  const from = qualifiedName(t);
  const params: SqlParam[] = [lowerBound(t, fromMs), msToUnit(toMs, unit), ...(filter?.params ?? [])];
  const read = (sql: string) => {
    const stmt = handle.conn.prepare(sql);
    (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
    stmt.setReadBigInts(true);
    return stmt.all(...params) as unknown as unknown[][];
  };
  const groups = new Map<string, WindowGroup>();
  const groupOf = (row: unknown[]): WindowGroup => {
    const tagValues = shape.tags.map((_, i) => tagValue(row[i]));
    const windowMs = toEpochMs(row[shape.tags.length] as bigint, unit);
    const key = JSON.stringify([windowMs, tagValues]);
    let g = groups.get(key);
    if (g === undefined) {
      const tagMap: Record<string, string | null> = {};
      shape.tags.forEach((name, i) => tagMap[name] = tagValues[i]);
      g = { tags: tagMap, windowMs, values: Object.fromEntries(shape.fields.map((f) => [f, {}])) };
      groups.set(key, g);
    }
    return g;
  };
  const select = (cols: string[]) => [...tags, `${w} AS w`, ...cols].join(", ");
  for (const row of read(`SELECT ${select(aggs)} FROM ${from} ${where} ${group}`)) {
    const g = groupOf(row);
    let i = shape.tags.length + 1;
    for (const f of shape.fields) {
      for (const a of SQL_AGGREGATES) g.values[f][a] = numberOf(row[i++]);
    }
  }
  if (withLast && shape.fields.length > 0) {
    // A bare column beside a lone max() takes the value of the row holding the max (SQLite).
    const sql = `SELECT ${select([`max(${ts})`, ...shape.fields.map(num)])} FROM ${from} ${where} ${group}`;
    for (const row of read(sql)) {
      const g = groupOf(row);
      shape.fields.forEach((f, k) => g.values[f].last = numberOf(row[shape.tags.length + 2 + k]));
    }
  }
  return [...groups.values()];
}

/** `fromMs` (null: the least time there is) in the table's unit, raised to its ttl cutoff. */
function lowerBound(t: TableMeta, fromMs: number | null): bigint {
  const lo = fromMs === null ? -(2n ** 63n) : msToUnit(fromMs, timeUnit(t));
  const cutoff = ttlCutoff(t);
  return cutoff !== undefined && cutoff > lo ? cutoff : lo;
}

function tagValue(v: unknown): string | null {
  if (v === null || v === undefined || isNullTag(v as never)) return null;
  // a tag holding a NUL is stored as a BLOB (nul_text.ts)
  const text = textOf(v);
  return typeof text === "string" ? text : String(text);
}

function numberOf(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}
