/**
 * Series by matchers over a time range, the read every metrics query shares (remote read now, PromQL
 * next), for both kinds of table: a metric-engine logical table reads its series index and samples;
 * an ordinary table (line protocol, SQL) is a metric whose tags are labels and whose fields are
 * values, the field chosen with the special `__field__` label as GreptimeDB does.
 */
import { FIELD_LABEL } from "../common/labels.ts";
import { type LabelMatcher, matchLabel, matchLabels } from "../common/label_matcher.ts";
import type { Value } from "../common/rows.ts";
import {
  type ColumnarSeries,
  type Sample,
  type Series,
  seriesToColumns,
  sortSeries,
  STALE_NAN,
} from "../common/series.ts";
import { msToUnit, type TimeUnit, toEpochMs, unitOf } from "../common/time_unit.ts";
import type { Storage, TableMeta } from "../storage/mod.ts";
import type { SeriesStore } from "../storage/read_only.ts";
import { isMetricTable, metricValueColumn } from "../storage/mod.ts";

/** One metric's series to read: `matchers` hold no `__name__` (the metric names the table). */
export interface SeriesSelect {
  db: string;
  metric: string;
  matchers: LabelMatcher[];
  startMs: number;
  endMs: number;
}

/**
 * The series of `metric` matching the matchers, with their samples in [startMs, endMs] in time
 * order, sorted by label set; series without samples in the range are left out, and a metric with
 * no table has no series.
 */
export function selectSeries(storage: Storage, q: SeriesSelect): Series[] {
  const table = storage.getTable(q.db, q.metric);
  if (table === undefined) return [];
  if (isMetricTable(table)) {
    const matchers = q.matchers.filter((m) => m.name !== FIELD_LABEL);
    return storage.selectSeries(q.db, table.name, matchers, q.startMs, q.endMs) ?? [];
  }
  return selectTableSeries(storage, table, q);
}

/** {@link selectSeries} with samples in columns, the form PromQL evaluates; `reserve` may veto the read's size. */
export function selectColumns(
  storage: SeriesStore,
  q: SeriesSelect,
  reserve?: (samples: number) => void,
): ColumnarSeries[] {
  const table = storage.getTable(q.db, q.metric);
  if (table === undefined) return [];
  if (isMetricTable(table)) {
    const matchers = q.matchers.filter((m) => m.name !== FIELD_LABEL);
    return storage.selectColumns(q.db, table.name, matchers, q.startMs, q.endMs, reserve) ?? [];
  }
  const series = selectTableSeries(storage, table, q);
  let samples = 0;
  for (const s of series) samples += s.samples.length;
  reserve?.(samples);
  return series.map(seriesToColumns);
}

const NUMERIC = /^(Float|Int|UInt)/;
/** The value column Prometheus-shaped tables (remote write without the metric engine, tsjson) name. */
const METRIC_VALUE = "greptime_value";

/**
 * The value columns a selector reads: those the `__field__` matchers accept, else `greptime_value`,
 * else the first numeric field. A metric-engine table has one, its value column, whatever its name.
 */
export function valueFields(table: TableMeta, matchers: LabelMatcher[]): string[] {
  const fields = isMetricTable(table)
    ? [metricValueColumn(table)]
    : table.columns.filter((c) => c.semantic === "FIELD" && NUMERIC.test(c.type)).map((c) => c.name);
  const chosen = matchers.filter((m) => m.name === FIELD_LABEL);
  if (chosen.length > 0) return fields.filter((f) => chosen.every((m) => matchLabel(m, f)));
  if (fields.includes(METRIC_VALUE)) return [METRIC_VALUE];
  return fields.slice(0, 1);
}

/** Inclusive bounds of [startMs, endMs] in a unit: a finer unit's end covers its whole millisecond. */
function unitRange(startMs: number, endMs: number, unit: TimeUnit): [bigint, bigint] {
  if (unit === "s") return [BigInt(Math.ceil(startMs / 1000)), BigInt(Math.floor(endMs / 1000))];
  const lo = msToUnit(Math.ceil(startMs), unit);
  const hi = msToUnit(Math.floor(endMs) + 1, unit) - 1n;
  return [lo, hi];
}

function toNumber(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  return NaN;
}

function selectTableSeries(storage: SeriesStore, table: TableMeta, q: SeriesSelect): Series[] {
  const fields = valueFields(table, q.matchers);
  if (fields.length === 0) return [];
  const matchers = q.matchers.filter((m) => m.name !== FIELD_LABEL);
  const tags = table.columns.filter((c) => c.semantic === "TAG").map((c) => c.name);
  const equal: Record<string, string> = {};
  for (const m of matchers) {
    if (m.type !== "EQ" || m.value === "") continue;
    // An equality on a label the table does not have can match nothing.
    if (!tags.includes(m.name)) return [];
    equal[m.name] = m.value;
  }
  const unit = unitOf(table.columns.find((c) => c.name === table.timeIndex)?.type ?? "");
  const rows = storage.scanTable(q.db, table.name, {
    columns: [...tags, table.timeIndex, ...fields],
    timeRange: unitRange(q.startMs, q.endMs, unit),
    equal,
    orderBy: [...tags, table.timeIndex],
    bigInts: true,
  });
  const out: Series[] = [];
  for (let f = 0; f < fields.length; f++) {
    const labels: Record<string, string> = fields.length > 1 ? { [FIELD_LABEL]: fields[f] } : {};
    // NULL in `greptime_value` is a stored staleness marker; in any other field it is just no value.
    const staleAsNull = fields[f] === METRIC_VALUE;
    out.push(
      ...groupSeries(q.metric, tags, rows, { unit, valueAt: tags.length + 1 + f, staleAsNull, labels }),
    );
  }
  return sortSeries(out.filter((s) => s.samples.length > 0 && matchLabels(matchers, s.labels)));
}

interface Grouping {
  unit: TimeUnit;
  valueAt: number;
  staleAsNull: boolean;
  labels: Record<string, string>;
}

/** Rows ordered by tags then time → one series per distinct tag tuple. */
function groupSeries(metric: string, tags: string[], rows: Value[][], g: Grouping): Series[] {
  const series: Series[] = [];
  const timeAt = tags.length;
  let current: Sample[] = [];
  let currentKey: string | null = null;
  for (const row of rows) {
    let key = "";
    for (let i = 0; i < tags.length; i++) key += row[i] === null ? "\u0001" : `\u0000${row[i]}`;
    if (key !== currentKey) {
      currentKey = key;
      const labels: Record<string, string> = { __name__: metric, ...g.labels };
      for (let i = 0; i < tags.length; i++) {
        if (row[i] !== null && row[i] !== "") labels[tags[i]] = String(row[i]);
      }
      current = [];
      series.push({ labels, samples: current });
    }
    const v = row[g.valueAt];
    const t = toEpochMs(row[timeAt] as bigint, g.unit);
    if (v === null) {
      if (g.staleAsNull) current.push({ value: STALE_NAN, timestampMs: t, stale: true });
    } else current.push({ value: toNumber(v), timestampMs: t });
  }
  return series;
}
