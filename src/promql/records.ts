/**
 * A PromQL result as one SQL-style record set, as `/v1/promql` and `TQL EVAL` answer it: one row per
 * (series, step) in series order, the timestamp column, the value column, then one String column per
 * label (sorted; `__name__` left out, as GreptimeDB's plans carry the metric in the table, not a column).
 */
import type { QueryOutput, Value } from "../common/rows.ts";
import type { QueryResult } from "./values.ts";

/** The names of the timestamp and value columns. */
export interface RecordColumns {
  time: string;
  value: string;
}

/** A query result as one record set (timestamps in milliseconds). */
export function resultRecords(r: QueryResult, names: RecordColumns): QueryOutput {
  const time = { name: names.time, data_type: "TimestampMillisecond" };
  if (r.resultType === "scalar" || r.resultType === "string") {
    return {
      kind: "records",
      columns: [time, { name: names.value, data_type: r.resultType === "scalar" ? "Float64" : "String" }],
      rows: [[r.timestampMs, r.value]],
    };
  }
  const series = r.resultType === "vector"
    ? r.result.map((s) => ({ labels: s.labels, timestamps: [s.timestampMs], values: [s.value] }))
    : r.result;
  const labels = [...new Set(series.flatMap((s) => Object.keys(s.labels)))].filter((n) => n !== "__name__")
    .sort();
  const rows: Value[][] = [];
  for (const s of series) {
    const values = labels.map((n) => s.labels[n] ?? null);
    for (let i = 0; i < s.timestamps.length; i++) rows.push([s.timestamps[i], s.values[i], ...values]);
  }
  return {
    kind: "records",
    columns: [
      time,
      { name: names.value, data_type: "Float64" },
      ...labels.map((name) => ({ name, data_type: "String" })),
    ],
    rows,
  };
}
