/**
 * The metric engine's samples table writes: a write's samples as parallel columns, inserted sorted
 * by the table key with multi-row statements (prepared once per size).
 */
import type { StatementSync } from "node:sqlite";
import { invalidArguments } from "../common/errors.ts";
import type { DatabaseHandle } from "./database.ts";
import type { TableMeta } from "./table.ts";
import { samplesTable, STORED_NAN } from "./metric_layout.ts";
import type { MetricSeriesInput } from "./metric_engine.ts";
import type { MetricPoints } from "./metric_points.ts";

const ROWS_PER_STATEMENT = 1024;

/**
 * A sample's time in whole ms. Past ±(2^53 - 1) ms (±285,000 years) a time no longer reads back as a
 * number: compaction, which reads the samples table's times, failed on it for good (the window is
 * the oldest, so no later one was compacted either), and a query passing it to a JS function hung.
 */
function sampleTime(metric: string, t: number): number {
  const ms = Math.floor(t);
  if (!Number.isSafeInteger(ms)) {
    throw invalidArguments(`Invalid timestamp in metric ${metric}: ${t} (beyond ±(2^53 - 1) ms)`);
  }
  return ms;
}

/** The samples as parallel columns in series order. */
export interface SampleColumns {
  ts: number[];
  ids: number[];
  values: Array<number | string | null>;
}

/** Appends the samples of one metric's series to `out`, as parallel columns in series order. */
export function appendSampleColumns(
  metric: string,
  series: MetricSeriesInput[],
  seriesIds: number[],
  out: SampleColumns,
): void {
  const { ts, ids, values } = out;
  for (let i = 0; i < series.length; i++) {
    const id = seriesIds[i];
    const samples = series[i].samples;
    for (let j = 0; j < samples.length; j++) {
      const sample = samples[j];
      ts.push(sampleTime(metric, sample.timestampMs));
      ids.push(id);
      const v = sample.value;
      values.push(sample.stale ? null : Number.isNaN(v) ? STORED_NAN : v);
    }
  }
}

/** Appends one metric's points to `out`, point i with series id `seriesIds[at + i]`. */
export function appendPointColumns(
  metric: string,
  points: MetricPoints,
  seriesIds: number[],
  at: number,
  out: SampleColumns,
): void {
  const { ts, ids, values } = out;
  const pts = points.ts, vals = points.values;
  for (let i = 0; i < points.length; i++) {
    ts.push(sampleTime(metric, pts[i]));
    ids.push(seriesIds[at + i]);
    const v = vals[i];
    values.push(Number.isNaN(v) ? STORED_NAN : v);
  }
}

function insertStatement(
  handle: DatabaseHandle,
  physical: TableMeta,
  rows: number,
  sequenced: boolean,
): StatementSync {
  const key = `metric:samples:${physical.id}:${rows}:${sequenced}`;
  return handle.statements.obtain(physical.name, key, "metric", () => {
    const tuple = sequenced ? "(?, ?, ?, ?)" : "(?, ?, ?)";
    return handle.conn.prepare(
      `INSERT OR REPLACE INTO ${samplesTable(physical)} (ts, series_id, value${
        sequenced ? ", seq" : ""
      }) VALUES ${new Array(rows).fill(tuple).join(", ")}`,
    );
  });
}

/** Inserts samples sorted by the samples key (time, series): appends at the b-tree's end. */
export function insertSamples(
  handle: DatabaseHandle,
  physical: TableMeta,
  ts: number[],
  ids: number[],
  values: Array<number | string | null>,
  seq: number | null,
): void {
  const n = ts.length;
  const width = seq === null ? 3 : 4;
  const order = new Array<number>(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && (ts[i] < ts[i - 1] || (ts[i] === ts[i - 1] && ids[i] < ids[i - 1]))) sorted = false;
  }
  if (!sorted) order.sort((a, b) => ts[a] - ts[b] || ids[a] - ids[b]);
  const args: Array<number | string | null> = [];
  let i = 0;
  const bind = (count: number) => {
    args.length = count * width;
    for (let k = 0; k < count; k++) {
      const at = order[i + k];
      args[width * k] = ts[at];
      args[width * k + 1] = ids[at];
      args[width * k + 2] = values[at];
      if (seq !== null) args[width * k + 3] = seq;
    }
    insertStatement(handle, physical, count, seq !== null).run(...args);
    i += count;
  };
  while (n - i >= ROWS_PER_STATEMENT) bind(ROWS_PER_STATEMENT);
  for (let size = ROWS_PER_STATEMENT >> 1; size >= 1; size >>= 1) {
    while (n - i >= size) bind(size);
  }
}
