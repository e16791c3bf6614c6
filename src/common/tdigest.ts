/**
 * DataFusion's t-digest (datafusion/functions-aggregate-common tdigest.rs), the estimate behind its
 * `approx_percentile_cont` and `approx_median`: sorted values merged into at most about `maxSize`
 * centroids (k_to_q limits), and a quantile read by interpolating between neighbouring centroids.
 * Values are merged in one batch, as DataFusion does for input that arrives in one record batch.
 */

/** DataFusion's default number of centroids (`DEFAULT_MAX_SIZE`). */
export const TDIGEST_DEFAULT_MAX_SIZE = 100;

interface Centroid {
  mean: number;
  weight: number;
}

/** A digest of a batch of values. */
export interface TDigest {
  centroids: Centroid[];
  count: number;
  min: number;
  max: number;
}

// the quantile bound of the k-th centroid (tdigest's k_to_q)
function kToQ(k: number, d: number): number {
  const kd = k / d;
  if (kd >= 0.5) {
    const base = 1 - kd;
    return 1 - 2 * base * base;
  }
  return 2 * kd * kd;
}

/** The digest of `values` (tdigest's `merge_unsorted_f64` on an empty digest); NaN sorts last. */
export function digestOf(values: number[], maxSize = TDIGEST_DEFAULT_MAX_SIZE): TDigest {
  const sorted = [...values].sort((a, b) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b));
  const count = sorted.length;
  const digest: TDigest = { centroids: [], count, min: sorted[0] ?? NaN, max: sorted[count - 1] ?? NaN };
  if (count === 0) return digest;
  let kLimit = 1;
  let qLimitTimesCount = kToQ(kLimit++, maxSize) * count;
  let curr: Centroid = { mean: sorted[0], weight: 1 };
  let weightSoFar = 1;
  let sumsToMerge = 0, weightsToMerge = 0;
  const add = (c: Centroid) => {
    const sum = sumsToMerge + c.weight * c.mean;
    c.weight += weightsToMerge;
    c.mean = sum / c.weight;
  };
  for (let i = 1; i < count; i++) {
    weightSoFar += 1;
    if (weightSoFar <= qLimitTimesCount) {
      sumsToMerge += sorted[i];
      weightsToMerge += 1;
    } else {
      add(curr);
      sumsToMerge = weightsToMerge = 0;
      digest.centroids.push(curr);
      qLimitTimesCount = kToQ(kLimit++, maxSize) * count;
      curr = { mean: sorted[i], weight: 1 };
    }
  }
  add(curr);
  digest.centroids.push(curr);
  return digest;
}

/** The digest's estimate of quantile `q` (tdigest's `estimate_quantile`); NaN for an empty digest. */
export function estimateQuantile(d: TDigest, q: number): number {
  const cs = d.centroids;
  if (cs.length === 0) return NaN;
  const rank = q * d.count;
  let pos: number;
  let t: number;
  if (q > 0.5) {
    if (q >= 1) return d.max;
    pos = 0;
    t = d.count;
    for (let k = cs.length - 1; k >= 0; k--) {
      t -= cs[k].weight;
      if (rank >= t) {
        pos = k;
        break;
      }
    }
  } else {
    if (q <= 0 || rank < 1) return d.min;
    pos = cs.length - 1;
    t = 0;
    for (let k = 0; k < cs.length; k++) {
      if (rank < t + cs[k].weight) {
        pos = k;
        break;
      }
      t += cs[k].weight;
    }
  }
  let delta = 0, min = d.min, max = d.max;
  if (cs.length > 1) {
    if (pos === 0) {
      delta = cs[1].mean - cs[0].mean;
      max = cs[1].mean;
    } else if (pos === cs.length - 1) {
      delta = cs[pos].mean - cs[pos - 1].mean;
      min = cs[pos - 1].mean;
    } else {
      delta = (cs[pos + 1].mean - cs[pos - 1].mean) / 2;
      min = cs[pos - 1].mean;
      max = cs[pos + 1].mean;
    }
  }
  const value = cs[pos].mean + ((rank - t) / cs[pos].weight - 0.5) * delta;
  if (Number.isNaN(min) || Number.isNaN(max)) return value;
  return value > max ? max : value < min ? min : value;
}
