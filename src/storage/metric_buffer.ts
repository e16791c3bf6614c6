/**
 * One series' samples kept in memory, in time order, in growable typed arrays: the metric engine's
 * head (samples not yet compacted into chunks). Appends at the end are the common case; an earlier
 * time is inserted in place, and an equal time replaces, as the samples table's key does.
 */
import type { SampleColumns } from "../common/series.ts";

/** A series' in-memory samples. */
export class SeriesBuffer {
  timestamps = new Float64Array(16);
  values = new Float64Array(16);
  stale: Uint8Array | null = null;
  length = 0;

  /** Adds a sample (`stale` marks a staleness marker); a sample at an existing time replaces it. */
  add(t: number, value: number, stale: boolean): void {
    const n = this.length;
    if (
      !stale && this.stale === null && n < this.timestamps.length && (n === 0 || this.timestamps[n - 1] < t)
    ) {
      this.timestamps[n] = t;
      this.values[n] = value;
      this.length = n + 1;
      return;
    }
    let at = n;
    if (n > 0 && this.timestamps[n - 1] >= t) {
      at = this.lowerBound(t);
      if (at < n && this.timestamps[at] === t) return this.set(at, t, value, stale);
    }
    if (n === this.timestamps.length) this.grow(n * 2);
    if (at < n) {
      this.timestamps.copyWithin(at + 1, at, n);
      this.values.copyWithin(at + 1, at, n);
      this.stale?.copyWithin(at + 1, at, n);
    }
    this.length = n + 1;
    this.set(at, t, value, stale);
  }

  /** The first index whose time is ≥ `t`. */
  lowerBound(t: number): number {
    let lo = 0, hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timestamps[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Copies the samples with `from ≤ t < to` into `out` at `at`; returns how many. */
  copyRange(from: number, to: number, out: SampleColumns, at: number): number {
    if (!(from < to)) return 0;
    const a = this.lowerBound(from), b = this.lowerBound(to);
    out.timestamps.set(this.timestamps.subarray(a, b), at);
    out.values.set(this.values.subarray(a, b), at);
    if (this.stale !== null) {
      for (let i = a; i < b; i++) {
        if (this.stale[i] === 1) (out.stale ??= new Uint8Array(out.values.length))[at + i - a] = 1;
      }
    }
    return b - a;
  }

  /** How many samples have `from ≤ t < to`. */
  countRange(from: number, to: number): number {
    return from < to ? this.lowerBound(to) - this.lowerBound(from) : 0;
  }

  /** Drops the samples with `from ≤ t < to`. */
  removeRange(from: number, to: number): void {
    const a = this.lowerBound(from), b = this.lowerBound(to);
    if (a === b) return;
    this.timestamps.copyWithin(a, b, this.length);
    this.values.copyWithin(a, b, this.length);
    this.stale?.copyWithin(a, b, this.length);
    this.length -= b - a;
    if (this.length < this.timestamps.length / 4 && this.timestamps.length > 64) this.grow(this.length * 2);
  }

  private set(at: number, t: number, value: number, stale: boolean): void {
    this.timestamps[at] = t;
    this.values[at] = value;
    if (stale) (this.stale ??= new Uint8Array(this.timestamps.length))[at] = 1;
    else if (this.stale !== null) this.stale[at] = 0;
  }

  private grow(size: number): void {
    const cap = Math.max(16, size);
    const ts = new Float64Array(cap), vs = new Float64Array(cap);
    ts.set(this.timestamps.subarray(0, this.length));
    vs.set(this.values.subarray(0, this.length));
    this.timestamps = ts;
    this.values = vs;
    if (this.stale !== null) {
      const st = new Uint8Array(cap);
      st.set(this.stale.subarray(0, this.length));
      this.stale = st;
    }
  }
}
