/**
 * Selected series as typed arrays, and the two ways the evaluator reads them: an instant vector
 * selector over a step grid (lookback, staleness) and range windows `(t - range, t]` (Prometheus 3).
 */
import type { ColumnarSeries } from "../common/series.ts";
import type { Labels, StepGrid, StepSeries } from "./values.ts";

/** One selected series: all samples (stale markers flagged) and, lazily, the non-stale ones. */
export interface SeriesData {
  labels: Labels;
  ts: Float64Array;
  vs: Float64Array;
  /** 1 where the sample is a staleness marker; null when there is none. */
  stale: Uint8Array | null;
  /** The samples range selectors see (staleness markers removed). */
  points?: Points;
}

/** Time-ordered points of a series. */
export interface Points {
  labels: Labels;
  ts: Float64Array;
  vs: Float64Array;
}

/** Selected series as the evaluator holds them (the columns are shared, not copied). */
export function toSeriesData(series: ColumnarSeries[]): SeriesData[] {
  return series.map((s) => ({ labels: s.labels, ts: s.timestamps, vs: s.values, stale: s.stale }));
}

/** The non-stale samples of a series (what range selectors and `*_over_time` see). */
export function pointsOf(d: SeriesData): Points {
  if (d.points !== undefined) return d.points;
  if (d.stale === null) return d.points = { labels: d.labels, ts: d.ts, vs: d.vs };
  let k = 0;
  for (let i = 0; i < d.stale.length; i++) if (!d.stale[i]) k++;
  const ts = new Float64Array(k), vs = new Float64Array(k);
  k = 0;
  for (let i = 0; i < d.stale.length; i++) {
    if (d.stale[i]) continue;
    ts[k] = d.ts[i];
    vs[k++] = d.vs[i];
  }
  return d.points = { labels: d.labels, ts, vs };
}

/** The time a step reads at: `@` replaces the step time, then the offset moves back. */
export function refTime(stepMs: number, timestampMs: number | null, offsetMs: number): number {
  return (timestampMs ?? stepMs) - offsetMs;
}

/**
 * An instant vector selector over a grid: at each step the newest sample in `(ref - lookback, ref]`,
 * none if that sample is a staleness marker. Series without any value are left out.
 */
export function evalVectorSelector(
  data: SeriesData[],
  grid: StepGrid,
  timestampMs: number | null,
  offsetMs: number,
  lookbackMs: number,
  withSampleTimes: boolean,
): StepSeries[] {
  const out: StepSeries[] = [];
  const n = grid.n, times = grid.times;
  for (const d of data) {
    const { ts, vs, stale } = d;
    const len = ts.length;
    let values: Float64Array | null = null, present: Uint8Array | null = null;
    let sampleTimes: Float64Array | null = null;
    let j = -1; // index of the newest sample at or before ref
    for (let i = 0; i < n; i++) {
      const ref = (timestampMs ?? times[i]) - offsetMs;
      if (j >= 0 && ts[j] > ref) j = -1; // ref moved back (cannot happen on a grid, but be safe)
      while (j + 1 < len && ts[j + 1] <= ref) j++;
      if (j < 0 || ts[j] <= ref - lookbackMs || (stale !== null && stale[j])) continue;
      if (values === null) {
        values = new Float64Array(n);
        present = new Uint8Array(n);
        if (withSampleTimes) sampleTimes = new Float64Array(n);
      }
      values[i] = vs[j];
      present![i] = 1;
      if (sampleTimes !== null) sampleTimes[i] = ts[j];
    }
    if (values === null) continue;
    const s: StepSeries = { labels: d.labels, values, present: present! };
    if (sampleTimes !== null) s.sampleTimes = sampleTimes;
    out.push(s);
  }
  return out;
}

/** Index of the first element of `ts` greater than `t`, searching from `from`. */
export function upperBound(ts: Float64Array, t: number, from: number): number {
  let lo = from, hi = ts.length;
  // Gallop from the previous position: windows move forward by about one step.
  let stepSize = 1;
  while (lo + stepSize < hi && ts[lo + stepSize] <= t) {
    lo += stepSize;
    stepSize *= 2;
  }
  if (lo < hi && ts[lo] > t) return lo;
  hi = Math.min(hi, lo + stepSize + 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
