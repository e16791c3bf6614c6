/** Aggregates SQLite lacks: statistics, percentiles, distinct estimates, boolean folds. */
import type { AggDef, Ret } from "./values.ts";
import { num } from "./values.ts";
import { digestOf, estimateQuantile, TDIGEST_DEFAULT_MAX_SIZE } from "../../common/tdigest.ts";

interface Moments {
  n: number;
  sum: number;
  sq: number;
}

const moments = (result: (m: Moments) => number | null): AggDef => ({
  args: [1, 1],
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

interface CoMoments {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
}

/** Two-column statistics over the rows where both values are present (DataFusion skips the others). */
const comoments = (result: (m: CoMoments) => number | null): AggDef => ({
  args: [2, 2],
  start: () => ({ n: 0, sx: 0, sy: 0, sxx: 0, syy: 0, sxy: 0 }),
  step: (acc, a, b) => {
    const m = acc as CoMoments;
    const x = num(a), y = num(b ?? null);
    if (x !== null && y !== null) {
      m.n++;
      m.sx += x;
      m.sy += y;
      m.sxx += x * x;
      m.syy += y * y;
      m.sxy += x * y;
    }
    return m;
  },
  // a sliding window frame drops its oldest pair
  inverse: (acc, a, b) => {
    const m = acc as CoMoments;
    const x = num(a), y = num(b ?? null);
    if (x !== null && y !== null) {
      m.n--;
      m.sx -= x;
      m.sy -= y;
      m.sxx -= x * x;
      m.syy -= y * y;
      m.sxy -= x * y;
    }
    return m;
  },
  result: (acc) => result(acc as CoMoments),
});
const covar = (
  m: CoMoments,
  ddof: number,
) => (m.n - ddof < 1 ? null : (m.sxy - (m.sx * m.sy) / m.n) / (m.n - ddof));
function corr(m: CoMoments): number | null {
  if (m.n < 2) return null;
  const vx = m.sxx - (m.sx * m.sx) / m.n, vy = m.syy - (m.sy * m.sy) / m.n;
  if (vx <= 0 || vy <= 0) return null;
  return (m.sxy - (m.sx * m.sy) / m.n) / Math.sqrt(vx * vy);
}

/** A bitwise fold of the integer values; NULL when there are none. */
const bitwise = (op: (a: bigint, b: bigint) => bigint): AggDef => ({
  args: [1, 1],
  bigint: true,
  start: () => ({ v: null as bigint | null }),
  step: (acc, x) => {
    const a = acc as { v: bigint | null };
    if (x === null) return a;
    if (typeof x !== "bigint") throw new Error(`bit aggregates expect integer values, got ${x}`);
    a.v = a.v === null ? x : op(a.v, x);
    return a;
  },
  result: (acc) => (acc as { v: bigint | null }).v,
});

/**
 * A weighted percentile: the value at which the running weight (values sorted) first reaches `p` of
 * the total. DataFusion estimates it with a t-digest; this is the exact rank.
 */
function weightedPercentile(rows: Array<[number | bigint, number]>, p: number): number | bigint | null {
  const kept = rows.filter(([, w]) => w > 0).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const total = kept.reduce((t, [, w]) => t + w, 0);
  if (kept.length === 0) return null;
  let run = 0;
  for (const [v, w] of kept) {
    run += w;
    if (run >= p * total) return v;
  }
  return kept[kept.length - 1][0];
}

/** Values of an aggregate that answers in its input's type: integers stay bigints (SQLite INTEGERs). */
interface Typed {
  values: Array<number | bigint>;
  p: number;
  size: number;
  float: boolean;
}

/** Whether a value counts in a percentile: not NULL, binary or text that is no number. */
function isCounted(v: unknown): boolean {
  if (v === null || v instanceof Uint8Array) return false;
  return typeof v !== "string" || !Number.isNaN(Number(v));
}

/**
 * An aggregate answering in its input's type, as DataFusion's median and approximate percentiles do:
 * over integers, the value truncated toward zero (Rust's `as`), over floats the float.
 */
const inputTyped = (
  result: (values: Array<number | bigint>, p: number, size: number) => number | bigint | null,
): AggDef => ({
  bigint: true,
  args: [1, 3],
  start: (): Typed => ({ values: [], p: 0.5, size: TDIGEST_DEFAULT_MAX_SIZE, float: false }),
  step: (acc, v, p, size) => {
    const a = acc as Typed;
    if (p !== undefined && p !== null) {
      const q = Number(p);
      if (!(q >= 0 && q <= 1)) {
        throw new Error(`Percentile value must be between 0.0 and 1.0 inclusive, ${p} is invalid`);
      }
      a.p = q;
    }
    if (size !== undefined && size !== null) a.size = Math.max(1, Number(size));
    if (!isCounted(v)) return a;
    if (typeof v === "bigint") a.values.push(v);
    else {
      a.values.push(Number(v));
      a.float = true;
    }
    return a;
  },
  // a window frame drops its rows in the order it added them (values not counted were never added)
  inverse: (acc, v) => {
    if (isCounted(v)) (acc as Typed).values.shift();
    return acc;
  },
  result: (acc) => {
    const a = acc as Typed;
    if (a.values.length === 0) return null;
    const r = result(a.float ? a.values.map(Number) : a.values, a.p, a.size);
    if (r === null || a.float || typeof r === "bigint") return r;
    return Number.isFinite(r) ? BigInt(Math.trunc(r)) : null;
  },
});

/** DataFusion's median: the middle value, or the two middle ones added and halved in the input's type. */
function exactMedian(values: Array<number | bigint>): number | bigint | null {
  const s = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const n = s.length, hi = s[n >> 1];
  if (n % 2 === 1) return hi;
  const lo = s[(n >> 1) - 1];
  return typeof lo === "bigint" && typeof hi === "bigint" ? (lo + hi) / 2n : (Number(lo) + Number(hi)) / 2;
}

/** The t-digest estimate DataFusion's approx_percentile_cont answers (common/tdigest.ts). */
function tdigestEstimate(values: Array<number | bigint>, p: number, size: number): number | null {
  const estimate = estimateQuantile(digestOf(values.map(Number), size), p);
  return Number.isNaN(estimate) ? null : estimate;
}

/** Aggregate functions by name. */
export const AGGREGATES: Record<string, AggDef> = {
  stddev: moments((m) => (varSamp(m) === null ? null : Math.sqrt(varSamp(m)!))),
  stddev_samp: moments((m) => (varSamp(m) === null ? null : Math.sqrt(varSamp(m)!))),
  stddev_pop: moments((m) => (varPop(m) === null ? null : Math.sqrt(varPop(m)!))),
  variance: moments(varSamp),
  var_samp: moments(varSamp),
  // DataFusion's aliases of var and var_pop
  var_sample: moments(varSamp),
  var_pop: moments(varPop),
  var_population: moments(varPop),
  var: moments(varSamp),
  // DataFusion's alias of avg
  mean: moments((m) => (m.n === 0 ? null : m.sum / m.n)),
  covar: comoments((m) => covar(m, 1)),
  covar_samp: comoments((m) => covar(m, 1)),
  covar_pop: comoments((m) => covar(m, 0)),
  corr: comoments(corr),
  bit_and: bitwise((a, b) => a & b),
  bit_or: bitwise((a, b) => a | b),
  bit_xor: bitwise((a, b) => a ^ b),
  approx_percentile_cont_with_weight: {
    // integers arrive as bigints, so an integer column's answer stays an integer (its input's type)
    bigint: true,
    start: () => ({ rows: [] as Array<[number | bigint, number]>, p: 0.5 }),
    step: (acc, v, w, p) => {
      const a = acc as { rows: Array<[number | bigint, number]>; p: number };
      const x = v === null || v instanceof Uint8Array ? null : typeof v === "bigint" ? v : num(v);
      const wt = num(w ?? null);
      if (p === undefined || p === null || !(Number(p) >= 0 && Number(p) <= 1)) {
        throw new Error(`approx_percentile_cont_with_weight expects a percentile between 0 and 1, got ${p}`);
      }
      a.p = Number(p);
      if (x !== null && wt !== null) a.rows.push([x, wt]);
      return a;
    },
    result: (acc) => {
      const a = acc as { rows: Array<[number | bigint, number]>; p: number };
      return weightedPercentile(a.rows, a.p);
    },
  },
  median: inputTyped(exactMedian),
  approx_median: inputTyped((v) => tdigestEstimate(v, 0.5, TDIGEST_DEFAULT_MAX_SIZE)),
  approx_percentile_cont: inputTyped((v, p, size) => tdigestEstimate(v, p, size)),
  percentile_cont: collect((v, p) => percentile(v, p)),
  approx_distinct: {
    args: [1, 1],
    start: () => new Set<unknown>(),
    step: (acc, v) => {
      if (v !== null) (acc as Set<unknown>).add(typeof v === "object" ? String(v) : v);
      return acc;
    },
    result: (acc) => BigInt((acc as Set<unknown>).size),
  },
  bool_and: {
    args: [1, 1],
    start: () => null,
    step: (acc, v) => (v === null ? acc : (acc ?? 1) && num(v) ? 1 : 0),
    result: (acc) => acc as Ret,
  },
  bool_or: {
    args: [1, 1],
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
    // a window frame drops its rows in the order it added them
    inverse: (acc) => {
      (acc as unknown[]).shift();
      return acc;
    },
    // DataFusion's array_agg over no rows is NULL, not an empty array
    result: (acc) => ((acc as unknown[]).length === 0 ? null : JSON.stringify(acc)),
  },
};
