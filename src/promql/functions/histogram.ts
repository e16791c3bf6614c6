/** `histogram_quantile` over classic `le` buckets, with Prometheus 3's bucket fixes. */
import { groupingLabels, labelsKey } from "../labels.ts";
import type { StepSeries } from "../values.ts";
import type { VectorImpl } from "./types.ts";

interface Bucket {
  upperBound: number;
  count: number;
}

const SMALL_DELTA_TOLERANCE = 1e-12;
const MIN_NORMAL = 2.2250738585072014e-308;

/** `almost.Equal` of Prometheus' util. */
function almostEqual(a: number, b: number, epsilon: number): boolean {
  if (a !== a && b !== b) return true;
  if (a === b) return true;
  const absSum = Math.abs(a) + Math.abs(b);
  const diff = Math.abs(a - b);
  if (a === 0 || b === 0 || absSum < MIN_NORMAL) return diff < epsilon * MIN_NORMAL;
  return diff / Math.min(absSum, Number.MAX_VALUE) < epsilon;
}

function coalesce(buckets: Bucket[]): Bucket[] {
  const out: Bucket[] = [];
  let last = { ...buckets[0] };
  for (let i = 1; i < buckets.length; i++) {
    if (buckets[i].upperBound === last.upperBound) last.count += buckets[i].count;
    else {
      out.push(last);
      last = { ...buckets[i] };
    }
  }
  out.push(last);
  return out;
}

function ensureMonotonic(buckets: Bucket[]): void {
  let prev = buckets[0].count;
  for (let i = 1; i < buckets.length; i++) {
    const curr = buckets[i].count;
    if (curr === prev) continue;
    if (almostEqual(prev, curr, SMALL_DELTA_TOLERANCE) || curr < prev) {
      buckets[i].count = prev;
      continue;
    }
    prev = curr;
  }
}

/** Prometheus' `BucketQuantile` for float buckets. */
export function bucketQuantile(q: number, input: Bucket[]): number {
  if (q !== q) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const sorted = input.slice().sort((a, b) => a.upperBound - b.upperBound);
  if (sorted[sorted.length - 1].upperBound !== Infinity) return NaN;
  const buckets = coalesce(sorted);
  ensureMonotonic(buckets);
  if (buckets.length < 2) return NaN;
  const observations = buckets[buckets.length - 1].count;
  if (observations === 0) return NaN;
  let rank = q * observations;
  let b = 0;
  const searchLen = buckets.length - 1;
  while (b < searchLen && !(buckets[b].count >= rank)) b++;
  if (b === buckets.length - 1) return buckets[buckets.length - 2].upperBound;
  if (b === 0 && buckets[0].upperBound <= 0) return buckets[0].upperBound;
  let bucketStart = 0;
  const bucketEnd = buckets[b].upperBound;
  let count = buckets[b].count;
  if (b > 0) {
    bucketStart = buckets[b - 1].upperBound;
    count -= buckets[b - 1].count;
    rank -= buckets[b - 1].count;
  }
  return bucketStart + (bucketEnd - bucketStart) * (rank / count);
}

/** `histogram_quantile(φ, buckets)`: series grouped by their labels without `le` and the name. */
export const histogramQuantile: VectorImpl = (args, ctx) => {
  const qv = args[0], v = args[1];
  if (qv.kind !== "scalar" || v.kind !== "vector") throw new Error("histogram_quantile: bad arguments");
  const groups = new Map<string, { out: StepSeries; members: { le: number; s: StepSeries }[] }>();
  for (const s of v.series) {
    const leText = s.labels.le;
    if (leText === undefined) continue;
    const le = parseGoFloat(leText);
    if (le === null) continue;
    const labels = groupingLabels(s.labels, ["le"], true);
    const key = labelsKey(labels);
    let g = groups.get(key);
    if (g === undefined) {
      const n = ctx.grid.n;
      g = { out: { labels, values: new Float64Array(n), present: new Uint8Array(n) }, members: [] };
      groups.set(key, g);
    }
    g.members.push({ le, s });
  }
  for (const g of groups.values()) {
    for (let i = 0; i < ctx.grid.n; i++) {
      const buckets: Bucket[] = [];
      for (const m of g.members) if (m.s.present[i]) buckets.push({ upperBound: m.le, count: m.s.values[i] });
      if (buckets.length === 0) continue;
      g.out.values[i] = bucketQuantile(qv.values[i], buckets);
      g.out.present[i] = 1;
    }
  }
  return { kind: "vector", series: [...groups.values()].map((g) => g.out) };
};

/**
 * Go's `strconv.ParseFloat` for label values (`+Inf`, `infinity`, `nan`, `1e3`, `1_000.5`,
 * `0x1.8p-2`…), or null where it fails: a hex mantissa without its `p` exponent, an underscore not
 * between digits, a sign on `nan`, a value out of range (`1e400`).
 */
export function parseGoFloat(text: string): number | null {
  const inf = /^([+-]?)inf(inity)?$/i.exec(text);
  if (inf !== null) return inf[1] === "-" ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (text.includes("_") && !underscoresOk(text)) return null;
  const t = text.replaceAll("_", "");
  let v: number;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) v = Number(t);
  else {
    const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(t);
    if (hex === null) return null;
    const [, sign, int, frac = ""] = hex;
    if (int === "" && frac === "") return null;
    // BigInt to Number rounds once; scaling by a power of two is then exact (in two halves, so
    // 2^e alone may be out of range where the product is not).
    const mantissa = Number(BigInt(`0x${int}${frac}`)), e = Number(hex[4]) - 4 * frac.length;
    const half = Math.trunc(e / 2);
    v = mantissa === 0 ? 0 : mantissa * 2 ** half * 2 ** (e - half);
    if (sign === "-") v = -v;
  }
  return Number.isFinite(v) ? v : null;
}

/** Go's `underscoreOK`: each `_` between two digits, or between a base prefix and a digit. */
function underscoresOk(text: string): boolean {
  let s = text.replace(/^[+-]/, ""), saw = "^", hex = false;
  if (/^0[box]/i.test(s)) {
    saw = "0";
    hex = /^0x/i.test(s);
    s = s.slice(2);
  }
  for (const c of s) {
    if (/[0-9]/.test(c) || (hex && /[a-f]/i.test(c))) saw = "0";
    else if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
    } else if (saw === "_") return false;
    else saw = "!";
  }
  return saw !== "_";
}
