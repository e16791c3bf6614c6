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

/**
 * The order that sorts samples by the samples key (time, then series id), or null when they already
 * are. Stable, so of two samples of one series at one time the later still replaces the earlier.
 * Counting sort by the rank of each time among the distinct times, then each time's series ids
 * (usually already ascending): a comparator sort of every sample cost ~10 % of a remote write, whose
 * requests come series by series.
 */
export function sampleOrder(ts: number[], ids: number[]): Uint32Array | null {
  const n = ts.length;
  let i = 1;
  while (i < n && (ts[i] > ts[i - 1] || (ts[i] === ts[i - 1] && ids[i] >= ids[i - 1]))) i++;
  if (i >= n) return null;
  const rank = new Uint32Array(n);
  const distinct = timeRanks(ts, rank);
  const start = new Uint32Array(distinct + 1);
  for (let k = 0; k < n; k++) start[rank[k] + 1]++;
  for (let r = 0; r < distinct; r++) start[r + 1] += start[r];
  const order = new Uint32Array(n), next = start.slice(0, distinct);
  for (let k = 0; k < n; k++) order[next[rank[k]]++] = k;
  for (let r = 0; r < distinct; r++) {
    const from = start[r], to = start[r + 1];
    for (let k = from + 1; k < to; k++) {
      if (ids[order[k]] < ids[order[k - 1]]) {
        order.subarray(from, to).sort((a, b) => ids[a] - ids[b]);
        break;
      }
    }
  }
  return order;
}

/** Distinct times past which {@link timeRanks} hashes instead of scanning the ones seen. */
const SCANNED_TIMES = 32;

/**
 * Sets `rank[k]` to the rank of `ts[k]` among the distinct times; returns how many there are. A
 * request's samples mostly share a few times (series scraped together, or one series' run of
 * times repeated series after series): those are found by scanning the times seen so far, starting
 * where the previous sample's was, rather than hashed.
 */
function timeRanks(ts: number[], rank: Uint32Array): number {
  const seen: number[] = [];
  let r = 0;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k];
    if (seen[r] !== t) {
      if (seen[r + 1] === t) r++;
      else {
        r = seen.indexOf(t);
        if (r < 0) {
          if (seen.length === SCANNED_TIMES) return hashedTimeRanks(ts, rank);
          r = seen.push(t) - 1;
        }
      }
    }
    rank[k] = r;
  }
  const sorted = Float64Array.from(seen).sort();
  const remap = new Uint32Array(seen.length);
  for (let i = 0; i < seen.length; i++) remap[i] = sorted.indexOf(seen[i]);
  for (let k = 0; k < ts.length; k++) rank[k] = remap[rank[k]];
  return seen.length;
}

/** {@link timeRanks} for samples of many distinct times. */
function hashedTimeRanks(ts: number[], rank: Uint32Array): number {
  const times = Float64Array.from(new Set(ts)).sort();
  const rankOf = new Map<number, number>();
  for (let r = 0; r < times.length; r++) rankOf.set(times[r], r);
  for (let k = 0; k < ts.length; k++) rank[k] = rankOf.get(ts[k])!;
  return times.length;
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
  const order = sampleOrder(ts, ids);
  const args: Array<number | string | null> = [];
  let i = 0;
  const bind = (count: number) => {
    args.length = count * width;
    for (let k = 0; k < count; k++) {
      const at = order === null ? i + k : order[i + k];
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
