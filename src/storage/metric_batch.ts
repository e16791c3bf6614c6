/**
 * Writer batches (SQL INSERT, line protocol, OTLP metrics) aimed at metric-engine tables, turned
 * into metric writes: the time index and the value column (`greptime_value`, or the field a table
 * created by SQL names) become samples, every tag a label.
 */
import { invalidArguments } from "../common/errors.ts";
import type { Value, WriteBatch } from "../common/rows.ts";
import { METRIC_TIME_INDEX, METRIC_VALUE, metricValueColumn } from "./metric_layout.ts";
import type { MetricSeriesInput, MetricWrite } from "./metric_engine.ts";
import { seriesKey } from "./metric_series.ts";
import type { TableMeta } from "./table.ts";
import { toEpochMs, unitOf } from "../common/time_unit.ts";

/** A time-index cell as epoch milliseconds, floored (before 1970 too). */
function toMs(v: Value, type: string, name: string): number {
  if (typeof v === "bigint" || typeof v === "number") return toEpochMs(v, unitOf(type));
  throw invalidArguments(`Invalid value for time index ${name}: ${String(v)}`);
}

function toValue(v: Value, name: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  throw invalidArguments(`Invalid value for ${name}: ${String(v)}`);
}

/**
 * A batch for a metric table (`table`, or one the write creates) as a metric write. A metric table
 * has exactly one time index and one value column, its single field: any other field is refused
 * (400), as a metric-engine table cannot grow fields. A NULL value is stored as a staleness marker,
 * as remote write's NaN markers are.
 */
export function batchToMetricWrite(
  batch: WriteBatch,
  table?: TableMeta,
  physicalTable?: string,
): MetricWrite {
  const tsAt = batch.columns.findIndex((c) => c.semantic === "TIMESTAMP");
  if (tsAt < 0) throw invalidArguments(`Metric table ${batch.table} needs a time index column`);
  const timeName = table?.timeIndex ?? METRIC_TIME_INDEX;
  const valueName = table === undefined ? METRIC_VALUE : metricValueColumn(table);
  let valueAt = -1;
  const tagAt: number[] = [];
  batch.columns.forEach((c, i) => {
    if (i === tsAt) return;
    if (c.semantic === "TAG") tagAt.push(i);
    else if (c.name === valueName) valueAt = i;
    else {
      throw invalidArguments(
        `Metric table ${batch.table} only stores ${timeName}, ${valueName} and String tags, not field ${c.name}`,
      );
    }
  });
  const tsType = batch.columns[tsAt].type;
  const series = new Map<string, MetricSeriesInput>();
  for (const row of batch.rows) {
    const labels: Record<string, string> = {};
    for (const i of tagAt) {
      const v = row[i];
      if (v !== null && v !== undefined && v !== "") labels[batch.columns[i].name] = String(v);
    }
    const key = seriesKey(labels);
    let s = series.get(key);
    if (s === undefined) series.set(key, s = { labels, samples: [] });
    const raw = valueAt < 0 ? null : row[valueAt];
    const ts = row[tsAt];
    if (ts === null || ts === undefined) throw invalidArguments(`${timeName} must not be null`);
    const timestampMs = toMs(ts, tsType, timeName);
    if (raw === null || raw === undefined) s.samples.push({ timestampMs, value: NaN, stale: true });
    else s.samples.push({ timestampMs, value: toValue(raw, valueName) });
  }
  const out: MetricWrite = { metric: batch.table, series: [...series.values()] };
  if (physicalTable !== undefined) out.physicalTable = physicalTable;
  if (batch.options !== undefined) out.options = batch.options;
  return out;
}
