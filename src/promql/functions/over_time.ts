/** `*_over_time` functions: aggregations of each series' samples inside the range window. */
import { kahanSumInc, quantile } from "./kahan.ts";
import type { RangeImpl, RangeWindow } from "./types.ts";

const nonEmpty = (w: RangeWindow) => w.hi > w.lo;

/** `avg_over_time`: Kahan-compensated mean, switching to an incremental mean on overflow (Prometheus 3). */
export const avgOverTime: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  let sum = 0, mean = 0, count = 0, c = 0, incremental = false;
  for (let i = w.lo; i < w.hi; i++) {
    const f = w.vs[i];
    count++;
    if (!incremental) {
      const [ns, nc] = kahanSumInc(f, sum, c);
      if (count === 1 || Number.isFinite(ns) || ns !== ns) {
        sum = ns;
        c = nc;
        continue;
      }
      incremental = true;
      mean = sum / (count - 1);
      c /= count - 1;
    }
    const q = (count - 1) / count;
    [mean, c] = kahanSumInc(f / count, q * mean, q * c);
  }
  return incremental ? mean + c : (sum + c) / count;
};

/** `sum_over_time` (Kahan-compensated). */
export const sumOverTime: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  let sum = 0, c = 0;
  for (let i = w.lo; i < w.hi; i++) [sum, c] = kahanSumInc(w.vs[i], sum, c);
  return sum === Infinity || sum === -Infinity ? sum : sum + c;
};

/** `count_over_time`. */
export const countOverTime: RangeImpl = (w) => nonEmpty(w) ? w.hi - w.lo : undefined;

/** `min_over_time` (NaN only if all are NaN). */
export const minOverTime: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  let m = w.vs[w.lo];
  for (let i = w.lo + 1; i < w.hi; i++) if (w.vs[i] < m || m !== m) m = w.vs[i];
  return m;
};

/** `max_over_time` (NaN only if all are NaN). */
export const maxOverTime: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  let m = w.vs[w.lo];
  for (let i = w.lo + 1; i < w.hi; i++) if (w.vs[i] > m || m !== m) m = w.vs[i];
  return m;
};

function variance(w: RangeWindow): number {
  let count = 0, mean = 0, cMean = 0, aux = 0, cAux = 0;
  for (let i = w.lo; i < w.hi; i++) {
    const f = w.vs[i];
    count++;
    const delta = f - (mean + cMean);
    [mean, cMean] = kahanSumInc(delta / count, mean, cMean);
    [aux, cAux] = kahanSumInc(delta * (f - (mean + cMean)), aux, cAux);
  }
  return (aux + cAux) / count;
}

/** `stddev_over_time` (population). */
export const stddevOverTime: RangeImpl = (w) => nonEmpty(w) ? Math.sqrt(variance(w)) : undefined;

/** `stdvar_over_time` (population). */
export const stdvarOverTime: RangeImpl = (w) => nonEmpty(w) ? variance(w) : undefined;

/** `quantile_over_time(φ, m)`. */
export const quantileOverTime: RangeImpl = (w, args) => {
  if (!nonEmpty(w)) return undefined;
  return quantile(args[0], w.vs.slice(w.lo, w.hi));
};

/** `mad_over_time`: the median absolute deviation from the median. */
export const madOverTime: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  const values = w.vs.slice(w.lo, w.hi);
  const median = quantile(0.5, values);
  for (let i = 0; i < values.length; i++) values[i] = Math.abs(values[i] - median);
  return quantile(0.5, values);
};

/** `last_over_time`. */
export const lastOverTime: RangeImpl = (w) => nonEmpty(w) ? w.vs[w.hi - 1] : undefined;

/** `first_over_time`. */
export const firstOverTime: RangeImpl = (w) => nonEmpty(w) ? w.vs[w.lo] : undefined;

/** `present_over_time`: 1 for any sample. */
export const presentOverTime: RangeImpl = (w) => nonEmpty(w) ? 1 : undefined;

/** `changes`: how often the value changed (NaN to NaN is no change). */
export const changes: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  let n = 0, prev = w.vs[w.lo];
  for (let i = w.lo + 1; i < w.hi; i++) {
    const cur = w.vs[i];
    if (cur !== prev && !(cur !== cur && prev !== prev)) n++;
    prev = cur;
  }
  return n;
};

/** `resets`: how often the value decreased. */
export const resets: RangeImpl = (w) => {
  if (!nonEmpty(w)) return undefined;
  let n = 0, prev = w.vs[w.lo];
  for (let i = w.lo + 1; i < w.hi; i++) {
    const cur = w.vs[i];
    if (cur < prev) n++;
    prev = cur;
  }
  return n;
};
