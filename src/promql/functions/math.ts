/** Functions applied to each element of an instant vector: math, rounding, clamping, dates. */
import { dropMetricName } from "../labels.ts";
import type { StepSeries, StepValue } from "../values.ts";
import type { VectorImpl } from "./types.ts";

type Elementwise = (v: number, step: number) => number | undefined;

/** Applies `f` to every present value; the metric name is dropped (Prometheus 3 without delayed removal). */
export function mapVector(input: StepValue, f: Elementwise): StepValue {
  if (input.kind !== "vector") throw new Error("mapVector: not a vector");
  const out: StepSeries[] = [];
  for (const s of input.series) {
    const n = s.values.length;
    const values = new Float64Array(n), present = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (!s.present[i]) continue;
      const v = f(s.values[i], i);
      if (v === undefined) continue;
      values[i] = v;
      present[i] = 1;
    }
    out.push({ labels: dropMetricName(s.labels), values, present });
  }
  return { kind: "vector", series: out };
}

/** A function of one value. */
export function simple(f: (v: number) => number): VectorImpl {
  return (args) => mapVector(args[0], f);
}

const scalarAt = (v: StepValue, i: number) => (v.kind === "scalar" ? v.values[i] : NaN);

/** `round(v, to_nearest=1)`. */
export const round: VectorImpl = (args) =>
  mapVector(args[0], (v, i) => {
    const toNearest = args.length > 1 ? scalarAt(args[1], i) : 1;
    const inv = 1 / toNearest;
    return Math.floor(v * inv + 0.5) / inv;
  });

/** `clamp(v, min, max)`: nothing where max < min. */
export const clamp: VectorImpl = (args) =>
  mapVector(args[0], (v, i) => {
    const min = scalarAt(args[1], i), max = scalarAt(args[2], i);
    if (max < min) return undefined;
    return goMax(min, goMin(max, v));
  });

/** `clamp_min(v, min)`. */
export const clampMin: VectorImpl = (args) => mapVector(args[0], (v, i) => goMax(scalarAt(args[1], i), v));

/** `clamp_max(v, max)`. */
export const clampMax: VectorImpl = (args) => mapVector(args[0], (v, i) => goMin(scalarAt(args[1], i), v));

/** Go's `math.Max` (NaN wins, +0 beats -0). */
function goMax(a: number, b: number): number {
  // Go's +Inf wins over NaN (`math.Max(NaN, +Inf)` is +Inf); JS's NaN wins.
  if (a === Infinity || b === Infinity) return Infinity;
  return Math.max(a, b);
}

/** Go's `math.Min`. */
function goMin(a: number, b: number): number {
  if (a === -Infinity || b === -Infinity) return -Infinity;
  return Math.min(a, b);
}

/** `sgn`. */
export const sgn = (v: number) => (v < 0 ? -1 : v > 0 ? 1 : v);

/** The math functions of one argument, by name. */
export const MATH: Record<string, (v: number) => number> = {
  abs: Math.abs,
  ceil: Math.ceil,
  floor: Math.floor,
  exp: Math.exp,
  sqrt: Math.sqrt,
  ln: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  sgn,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  asinh: Math.asinh,
  acosh: Math.acosh,
  atanh: Math.atanh,
  deg: (v) => (v * 180) / Math.PI,
  rad: (v) => (v * Math.PI) / 180,
};

function utc(v: number): Date | null {
  if (!Number.isFinite(v)) return null;
  return new Date(Math.trunc(v) * 1000);
}

/** The date functions, of a time in seconds (UTC). */
export const DATE: Record<string, (d: Date) => number> = {
  day_of_month: (d) => d.getUTCDate(),
  day_of_week: (d) => d.getUTCDay(),
  day_of_year: (d) =>
    Math.floor(
      (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) -
        Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000,
    ) + 1,
  days_in_month: (d) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate(),
  hour: (d) => d.getUTCHours(),
  minute: (d) => d.getUTCMinutes(),
  month: (d) => d.getUTCMonth() + 1,
  year: (d) => d.getUTCFullYear(),
};

/** A date function: of its vector argument, or of `vector(time())` without one. */
export function dateFunction(f: (d: Date) => number): VectorImpl {
  return (args, ctx) => {
    const input: StepValue = args.length > 0 ? args[0] : {
      kind: "vector",
      series: [{
        labels: {},
        values: ctx.grid.times.map((t) => t / 1000),
        present: new Uint8Array(ctx.grid.n).fill(1),
      }],
    };
    return mapVector(input, (v) => {
      const d = utc(v);
      return d === null ? NaN : f(d);
    });
  };
}
