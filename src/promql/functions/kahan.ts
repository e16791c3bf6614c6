/** Numeric helpers Prometheus shares between functions and aggregations. */

/** Kahan–Neumaier summation step; returns `[sum, compensation]` (Prometheus' `kahanSumInc`). */
export function kahanSumInc(inc: number, sum: number, c: number): [number, number] {
  const t = sum + inc;
  if (t === Infinity || t === -Infinity) c = 0;
  else if (Math.abs(sum) >= Math.abs(inc)) c += (sum - t) + inc;
  else c += (inc - t) + sum;
  return [t, c];
}

/** Sorts ascending with NaN first (Prometheus' `vectorByValueHeap` order). */
export function sortNaNFirst(values: Float64Array | number[]): void {
  values.sort((a, b) => (a !== a ? (b !== b ? 0 : -1) : b !== b ? 1 : a - b));
}

/**
 * The φ-quantile of values (Prometheus' `quantile`): linear interpolation between closest ranks;
 * q < 0 → -Inf, q > 1 → +Inf, NaN q or no values → NaN. Sorts `values` in place.
 */
export function quantile(q: number, values: Float64Array | number[]): number {
  const n = values.length;
  if (n === 0 || q !== q) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  sortNaNFirst(values);
  const rank = q * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(n - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return values[lower] * (1 - weight) + values[upper] * weight;
}
