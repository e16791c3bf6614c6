/**
 * The series model shared by remote write, remote read, the metric engine and PromQL: a label set
 * with samples, Prometheus' staleness marker, and Prometheus' order of label sets.
 */

/**
 * One sample: value and timestamp in milliseconds. `stale` marks Prometheus' staleness marker: V8 may
 * rewrite NaN payloads whenever a number passes through optimized code (measured: the marker's bits
 * did not survive a few copies), so the flag, not the NaN bit pattern, is what downstream code keeps.
 */
export interface Sample {
  value: number;
  timestampMs: number;
  stale?: true;
}

/** One series: its full label set (including `__name__`) and its samples in time order. */
export interface Series {
  labels: Record<string, string>;
  samples: Sample[];
}

/**
 * Samples in columns, the read path's form (no object per sample): `timestamps[i]` (ms) and
 * `values[i]`, with `stale[i] === 1` marking a staleness marker (null when there is none).
 */
export interface SampleColumns {
  timestamps: Float64Array;
  values: Float64Array;
  stale: Uint8Array | null;
}

/** A series whose samples are in columns, in time order. */
export interface ColumnarSeries extends SampleColumns {
  labels: Record<string, string>;
}

/** The high and low 32-bit words of the staleness marker's bits (0x7ff0000000000002). */
export const STALE_HI = 0x7ff00000, STALE_LO = 2;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Prometheus' staleness marker value (bits 0x7ff0000000000002; V8 may set the quiet bit). */
export const STALE_NAN: number = (() => {
  u32[0] = STALE_LO;
  u32[1] = STALE_HI;
  return f64[0];
})();

/** True for Prometheus' staleness marker bits, whether or not the quiet bit got set on the way. */
export function isStaleNaN(v: number): boolean {
  if (v === v) return false;
  f64[0] = v;
  return u32[0] === STALE_LO && (u32[1] & 0xfff7ffff) === STALE_HI;
}

/** True for a staleness marker (the flag, or NaN bits that survived: quiet bit set or not). */
export function isStaleSample(s: Sample): boolean {
  return s.stale === true || isStaleNaN(s.value);
}

/** A label set as name-sorted pairs. */
export function sortedLabels(labels: Record<string, string>): [string, string][] {
  return Object.entries(labels).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Orders name-sorted label sets as Prometheus does (name, then value, pair by pair). */
export function compareLabelSets(a: [string, string][], b: [string, string][]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i][0] !== b[i][0]) return a[i][0] < b[i][0] ? -1 : 1;
    if (a[i][1] !== b[i][1]) return a[i][1] < b[i][1] ? -1 : 1;
  }
  return a.length - b.length;
}

/** Series sorted by label set as Prometheus sorts them (a new array; each key is computed once). */
export function sortSeries<T extends { labels: Record<string, string> }>(series: T[]): T[] {
  const keyed = series.map((s) => ({ s, key: sortedLabels(s.labels) }));
  keyed.sort((a, b) => compareLabelSets(a.key, b.key));
  return keyed.map((k) => k.s);
}

/** A series with sample objects in columns. */
export function seriesToColumns(s: Series): ColumnarSeries {
  const n = s.samples.length;
  const timestamps = new Float64Array(n), values = new Float64Array(n);
  let stale: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const smp = s.samples[i];
    timestamps[i] = smp.timestampMs;
    values[i] = smp.value;
    if (isStaleSample(smp)) (stale ??= new Uint8Array(n))[i] = 1;
  }
  return { labels: s.labels, timestamps, values, stale };
}
