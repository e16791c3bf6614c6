/** Aggregates SQLite lacks: statistics, percentiles, distinct estimates, boolean folds. */
import type { AggDef, Ret } from "./values.ts";
import { num } from "./values.ts";

interface Moments {
  n: number;
  sum: number;
  sq: number;
}

const moments = (result: (m: Moments) => number | null): AggDef => ({
  start: () => ({ n: 0, sum: 0, sq: 0 }),
  step: (acc, v) => {
    const m = acc as Moments;
    const x = num(v);
    if (x !== null) {
      m.n++;
      m.sum += x;
      m.sq += x * x;
    }
    return m;
  },
  inverse: (acc, v) => {
    const m = acc as Moments;
    const x = num(v);
    if (x !== null) {
      m.n--;
      m.sum -= x;
      m.sq -= x * x;
    }
    return m;
  },
  result: (acc) => result(acc as Moments),
});
const varSamp = (m: Moments) => (m.n < 2 ? null : Math.max(0, (m.sq - (m.sum * m.sum) / m.n) / (m.n - 1)));
const varPop = (m: Moments) => (m.n < 1 ? null : Math.max(0, (m.sq - (m.sum * m.sum) / m.n) / m.n));

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const rank = p * (s.length - 1);
  const lo = Math.floor(rank), hi = Math.ceil(rank);
  return s[lo] + (s[hi] - s[lo]) * (rank - lo);
}

const collect = (result: (values: number[], p: number) => Ret): AggDef => ({
  start: () => ({ values: [] as number[], p: 0.5 }),
  step: (acc, v, p) => {
    const a = acc as { values: number[]; p: number };
    const x = num(v);
    if (x !== null) a.values.push(x);
    if (p !== undefined && p !== null) a.p = Number(p);
    return a;
  },
  result: (acc) => {
    const a = acc as { values: number[]; p: number };
    return result(a.values, a.p);
  },
});

/** Aggregate functions by name. */
export const AGGREGATES: Record<string, AggDef> = {
  stddev: moments((m) => (varSamp(m) === null ? null : Math.sqrt(varSamp(m)!))),
  stddev_samp: moments((m) => (varSamp(m) === null ? null : Math.sqrt(varSamp(m)!))),
  stddev_pop: moments((m) => (varPop(m) === null ? null : Math.sqrt(varPop(m)!))),
  variance: moments(varSamp),
  var_samp: moments(varSamp),
  var_pop: moments(varPop),
  median: collect((v) => percentile(v, 0.5)),
  approx_median: collect((v) => percentile(v, 0.5)),
  approx_percentile_cont: collect((v, p) => percentile(v, p)),
  percentile_cont: collect((v, p) => percentile(v, p)),
  approx_distinct: {
    start: () => new Set<unknown>(),
    step: (acc, v) => {
      if (v !== null) (acc as Set<unknown>).add(typeof v === "object" ? String(v) : v);
      return acc;
    },
    result: (acc) => BigInt((acc as Set<unknown>).size),
  },
  bool_and: {
    start: () => null,
    step: (acc, v) => (v === null ? acc : (acc ?? 1) && num(v) ? 1 : 0),
    result: (acc) => acc as Ret,
  },
  bool_or: {
    start: () => null,
    step: (acc, v) => (v === null ? acc : acc === 1 || num(v) ? 1 : 0),
    result: (acc) => acc as Ret,
  },
  array_agg: {
    start: () => [] as unknown[],
    step: (acc, v) => {
      (acc as unknown[]).push(typeof v === "bigint" ? Number(v) : v);
      return acc;
    },
    result: (acc) => JSON.stringify(acc),
  },
};
