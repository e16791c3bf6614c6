/** The rate family (`rate increase delta irate idelta`), regressions and smoothing over a window. */
import { executionError } from "../errors.ts";
import { kahanSumInc } from "./kahan.ts";
import type { RangeImpl, RangeWindow } from "./types.ts";

/** Prometheus 3's `extrapolatedRate`: the change over the window, extrapolated to its edges. */
function extrapolatedRate(w: RangeWindow, isCounter: boolean, isRate: boolean): number | undefined {
  const { ts, vs, lo, hi } = w;
  if (hi - lo < 2) return undefined;
  const last = hi - 1;
  const firstT = ts[lo], lastT = ts[last];
  let result = vs[last] - vs[lo];
  if (isCounter) {
    let prev = vs[lo];
    for (let i = lo + 1; i < hi; i++) {
      const cur = vs[i];
      if (cur < prev) result += prev;
      prev = cur;
    }
  }
  let durationToStart = (firstT - w.rangeStartMs) / 1000;
  let durationToEnd = (w.rangeEndMs - lastT) / 1000;
  const sampledInterval = (lastT - firstT) / 1000;
  const averageDurationBetweenSamples = sampledInterval / (hi - lo - 1);
  const threshold = averageDurationBetweenSamples * 1.1;
  let extrapolateToInterval = sampledInterval;
  if (durationToStart >= threshold) durationToStart = averageDurationBetweenSamples / 2;
  if (isCounter && result > 0 && vs[lo] >= 0) {
    // A counter cannot go below zero: do not extrapolate past the point where it would be zero.
    const durationToZero = sampledInterval * (vs[lo] / result);
    if (durationToZero < durationToStart) durationToStart = durationToZero;
  }
  extrapolateToInterval += durationToStart;
  if (durationToEnd >= threshold) durationToEnd = averageDurationBetweenSamples / 2;
  extrapolateToInterval += durationToEnd;
  let factor = extrapolateToInterval / sampledInterval;
  if (isRate) factor /= w.rangeMs / 1000;
  return result * factor;
}

/** `rate`. */
export const rate: RangeImpl = (w) => extrapolatedRate(w, true, true);
/** `increase`. */
export const increase: RangeImpl = (w) => extrapolatedRate(w, true, false);
/** `delta`. */
export const delta: RangeImpl = (w) => extrapolatedRate(w, false, false);

function instantValue(w: RangeWindow, isRate: boolean): number | undefined {
  if (w.hi - w.lo < 2) return undefined;
  const a = w.vs[w.hi - 2], b = w.vs[w.hi - 1];
  const interval = w.ts[w.hi - 1] - w.ts[w.hi - 2];
  if (interval === 0) return undefined;
  // A counter reset leaves the last value as the increase.
  let result = b;
  if (!isRate || !(b < a)) result = b - a;
  return isRate ? result / (interval / 1000) : result;
}

/** `irate`: per-second rate of the last two samples. */
export const irate: RangeImpl = (w) => instantValue(w, true);
/** `idelta`: difference of the last two samples. */
export const idelta: RangeImpl = (w) => instantValue(w, false);

/** Least-squares slope and intercept with x in seconds from `interceptMs` (Prometheus' `linearRegression`). */
export function linearRegression(w: RangeWindow, interceptMs: number): [number, number] {
  let n = 0, sumX = 0, cX = 0, sumY = 0, cY = 0, sumXY = 0, cXY = 0, sumX2 = 0, cX2 = 0;
  const initY = w.vs[w.lo];
  let constY = true;
  for (let i = w.lo; i < w.hi; i++) {
    const y = w.vs[i];
    if (constY && i > w.lo && y !== initY) constY = false;
    n++;
    const x = (w.ts[i] - interceptMs) / 1e3;
    [sumX, cX] = kahanSumInc(x, sumX, cX);
    [sumY, cY] = kahanSumInc(y, sumY, cY);
    [sumXY, cXY] = kahanSumInc(x * y, sumXY, cXY);
    [sumX2, cX2] = kahanSumInc(x * x, sumX2, cX2);
  }
  if (constY) return initY === Infinity || initY === -Infinity ? [NaN, NaN] : [0, initY];
  sumX += cX;
  sumY += cY;
  sumXY += cXY;
  sumX2 += cX2;
  const covXY = sumXY - (sumX * sumY) / n;
  const varX = sumX2 - (sumX * sumX) / n;
  const slope = covXY / varX;
  return [slope, sumY / n - (slope * sumX) / n];
}

/** `deriv`: the per-second slope of a linear regression. */
export const deriv: RangeImpl = (w) => {
  if (w.hi - w.lo < 2) return undefined;
  return linearRegression(w, w.ts[w.lo])[0];
};

/** `predict_linear(m, t)`: the regression's value `t` seconds after the evaluation time. */
export const predictLinear: RangeImpl = (w, args) => {
  if (w.hi - w.lo < 2) return undefined;
  const [slope, intercept] = linearRegression(w, w.evalMs);
  return slope * args[0] + intercept;
};

/** `double_exponential_smoothing(m, sf, tf)` (Holt's linear method; `holt_winters` before Prometheus 3). */
export const doubleExponentialSmoothing: RangeImpl = (w, args) => {
  const sf = args[0], tf = args[1];
  if (!(sf > 0 && sf < 1)) {
    throw executionError(`invalid smoothing factor. Expected: 0 < sf < 1, got: ${goF(sf)}`);
  }
  if (!(tf > 0 && tf < 1)) {
    throw executionError(`invalid trend factor. Expected: 0 < tf < 1, got: ${goF(tf)}`);
  }
  const l = w.hi - w.lo;
  if (l < 2) return undefined;
  const v = (i: number) => w.vs[w.lo + i];
  let s0 = 0, s1 = v(0), b = v(1) - v(0);
  for (let i = 1; i < l; i++) {
    const x = sf * v(i);
    if (i - 1 !== 0) b = tf * (s1 - s0) + (1 - tf) * b;
    const y = (1 - sf) * (s1 + b);
    s0 = s1;
    s1 = x + y;
  }
  return s1;
};

/** Go's `%f`. */
function goF(x: number): string {
  if (x !== x) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : "-Inf";
  return x.toFixed(6);
}
