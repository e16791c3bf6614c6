/**
 * What the engine asks storage for, and an in-memory implementation for tests and benchmarks.
 * The engine depends on nothing else of storage.
 */
import { type LabelMatcher, matchLabels } from "../common/label_matcher.ts";
import { type ColumnarSeries, type Series, seriesToColumns, sortSeries } from "../common/series.ts";

/** Prometheus' `SelectHints`: storage may use them to read less, and may ignore them. */
export interface SelectHints {
  /** The selector's effective range in ms (`foo[5m]` → 300000); 0 for instant selectors. */
  rangeMs: number;
  /** The query's step in ms (0 for instant queries). */
  stepMs: number;
  /** The function the selector is an argument of (`rate`), or "series" for `/series`-style reads. */
  func?: string;
  /** Grouping labels of the enclosing aggregation, and whether it is `by` (false: `without`). */
  grouping?: string[];
  by?: boolean;
}

/** A request for series matching `matchers` with samples in `[startMs, endMs]` (both inclusive). */
export interface SelectRequest {
  matchers: LabelMatcher[];
  startMs: number;
  endMs: number;
  hints: SelectHints;
}

/** What the engine asks storage for: series matching the matchers with samples in [startMs, endMs]. */
export interface Queryable {
  /** Series with full label sets and samples in time order, in columns (staleness markers flagged). */
  select(req: SelectRequest, signal?: AbortSignal): Promise<ColumnarSeries[]>;
}

/** An in-memory queryable over a fixed set of series (samples must be in time order). */
export class MemoryQueryable implements Queryable {
  private readonly series: Series[];

  constructor(series: Series[]) {
    this.series = sortSeries(series);
  }

  /** Every request made, for tests of the hints. */
  readonly requests: SelectRequest[] = [];

  select(req: SelectRequest): Promise<ColumnarSeries[]> {
    this.requests.push(req);
    const out: ColumnarSeries[] = [];
    for (const s of this.series) {
      if (!matchLabels(req.matchers, s.labels)) continue;
      const lo = lowerBound(s, req.startMs), hi = lowerBound(s, req.endMs + 1);
      if (hi > lo) out.push(seriesToColumns({ labels: s.labels, samples: s.samples.slice(lo, hi) }));
    }
    return Promise.resolve(out);
  }
}

function lowerBound(s: Series, t: number): number {
  let lo = 0, hi = s.samples.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.samples[mid].timestampMs < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
