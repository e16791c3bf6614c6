/**
 * GreptimeDB's vector functions (common/function/src/scalars/vector/ and aggrs/vector/) over
 * vectors stored as little-endian f32 bytes or written as text `[1.0, 2.0]`. The arithmetic is f32
 * throughout, rounding after each step as Rust's f32 does, and sums of products follow nalgebra's
 * eight-accumulator dot product, so distances come out as the same f32 GreptimeDB computes.
 */
import { formatVector, parseVectorText, vectorBytes, vectorElements } from "../../common/vector.ts";
import type { AggDef, Arg, Ret, ScalarDef } from "./values.ts";
import { num } from "./values.ts";

const f32 = Math.fround;
/** Rust's `f32::EPSILON`. */
const F32_EPSILON = 2 ** -23;

/** A vector argument (binary, or its text form), or null. */
function vec(v: Arg, fn: string): Float32Array | null {
  if (v === null) return null;
  if (v instanceof Uint8Array) return vectorElements(v);
  if (typeof v === "string") return parseVectorText(v);
  throw new Error(`${fn}: expects a vector (binary or text like '[1.0, 2.0]'), got ${v}`);
}

/** Both vector arguments, which must have the same dimension; null when either is null. */
function pair(a: Arg, b: Arg, fn: string): [Float32Array, Float32Array] | null {
  const x = vec(a, fn), y = vec(b, fn);
  if (x === null || y === null) return null;
  if (x.length !== y.length) {
    throw new Error(`${fn}: the vectors must have the same dimension, got ${x.length} and ${y.length}`);
  }
  return [x, y];
}

/** A scalar (number) argument as an f32, or null. */
function scalar(v: Arg, fn: string): number | null {
  if (v instanceof Uint8Array || (typeof v === "string" && !Number.isFinite(Number(v)))) {
    throw new Error(`${fn}: expects a number, got ${typeof v === "string" ? `'${v}'` : "binary"}`);
  }
  const n = num(v);
  return n === null ? null : f32(n);
}

/** An integer argument (index), or null. */
function index(v: Arg, fn: string, what: string): number | null {
  const n = v instanceof Uint8Array ? NaN : num(v);
  if (n === null) return null;
  if (!Number.isInteger(n)) throw new Error(`${fn}: ${what} must be an integer, got ${v}`);
  return n;
}

/** nalgebra's `dot`: eight f32 accumulators over whole chunks of eight, then the rest one by one. */
export function dot(x: Float32Array, y: Float32Array): number {
  const acc = [0, 0, 0, 0, 0, 0, 0, 0];
  const n = x.length;
  let i = 0;
  for (; n - i >= 8; i += 8) {
    for (let k = 0; k < 8; k++) acc[k] = f32(acc[k] + f32(x[i + k] * y[i + k]));
  }
  let res = 0;
  for (let k = 0; k < 4; k++) res = f32(res + f32(acc[k] + acc[k + 4]));
  for (; i < n; i++) res = f32(res + f32(x[i] * y[i]));
  return res;
}

/** Euclidean norm, as nalgebra's `norm()`: the square root of the vector's dot with itself. */
function norm(x: Float32Array): number {
  return f32(Math.sqrt(dot(x, x)));
}

/** GreptimeDB's cosine distance: 1 − cos θ, 1 when either side is (near) zero, 0 within epsilon. */
function cosDistance(x: Float32Array, y: Float32Array): number {
  const d = dot(x, y), nx = norm(x), ny = norm(y);
  if (Math.abs(d) < F32_EPSILON || nx < F32_EPSILON || ny < F32_EPSILON) return 1;
  const res = f32(1 - f32(d / f32(nx * ny)));
  return Math.abs(res) < F32_EPSILON ? 0 : res;
}

/** A function of two vectors giving an f32. */
function distance(fn: string, f: (x: Float32Array, y: Float32Array) => number): ScalarDef {
  return {
    args: [2, 2],
    fn: (a, b) => {
      const p = pair(a, b, fn);
      return p && f(p[0], p[1]);
    },
  };
}

/** A function of two vectors giving the vector of `f` applied element by element. */
function elementwise(fn: string, f: (a: number, b: number) => number): ScalarDef {
  return {
    args: [2, 2],
    fn: (a, b) => {
      const p = pair(a, b, fn);
      return p && vectorBytes(p[0].map((v, i) => f(v, p[1][i])));
    },
  };
}

/** A function of a scalar and a vector giving a vector (GreptimeDB puts the scalar first). */
function scalarwise(fn: string, f: (s: number, v: number) => number): ScalarDef {
  return {
    args: [2, 2],
    fn: (s, v) => {
      const k = scalar(s, fn), x = vec(v, fn);
      return k === null || x === null ? null : vectorBytes(x.map((e) => f(k, e)));
    },
  };
}

/** A function of one vector. */
function unary(fn: string, f: (x: Float32Array) => Ret): ScalarDef {
  return {
    args: [1, 1],
    fn: (v) => {
      const x = vec(v, fn);
      return x && f(x);
    },
  };
}

/** Vector scalar functions by name. */
export const VECTOR_SCALARS: Record<string, ScalarDef> = {
  parse_vec: unary("parse_vec", vectorBytes),
  vec_to_string: unary("vec_to_string", formatVector),
  vec_cos_distance: distance("vec_cos_distance", cosDistance),
  vec_l2sq_distance: distance("vec_l2sq_distance", (x, y) => {
    const diff = x.map((v, i) => v - y[i]);
    return dot(diff, diff);
  }),
  vec_dot_product: distance("vec_dot_product", dot),
  vec_dim: { args: [1, 1], int: true, fn: (v) => vec(v, "vec_dim")?.length ?? null },
  vec_norm: unary("vec_norm", (x) => {
    const n = norm(x);
    // a zero vector has no direction: it stays as it is instead of becoming NaNs
    return vectorBytes(n === 0 ? x : x.map((v) => v / n));
  }),
  vec_add: elementwise("vec_add", (a, b) => a + b),
  vec_sub: elementwise("vec_sub", (a, b) => a - b),
  vec_mul: elementwise("vec_mul", (a, b) => a * b),
  vec_div: elementwise("vec_div", (a, b) => a / b),
  vec_elem_sum: unary("vec_elem_sum", (x) => x.reduce((s, v) => f32(s + v), 0)),
  vec_elem_product: unary("vec_elem_product", (x) => x.reduce((p, v) => f32(p * v), 1)),
  vec_scalar_add: scalarwise("vec_scalar_add", (s, v) => s + v),
  vec_scalar_mul: scalarwise("vec_scalar_mul", (s, v) => s * v),
  vec_kth_elem: {
    args: [2, 2],
    fn: (v, k) => {
      const x = vec(v, "vec_kth_elem"), i = index(k, "vec_kth_elem", "k");
      if (x === null || i === null) return null;
      if (i < 0 || i >= x.length) {
        throw new Error(`vec_kth_elem: k must be in the range [0, ${x.length - 1}], but got k = ${i}`);
      }
      return x[i];
    },
  },
  vec_subvector: {
    args: [3, 3],
    fn: (v, from, to) => {
      const x = vec(v, "vec_subvector");
      const start = index(from, "vec_subvector", "start"), end = index(to, "vec_subvector", "end");
      if (x === null || start === null || end === null) return null;
      if (start < 0 || start > end || end > x.length) {
        throw new Error(
          `vec_subvector: invalid start and end indices: start=${start}, end=${end}, vec_len=${x.length} ` +
            `(need 0 <= start <= end <= vec_len)`,
        );
      }
      return vectorBytes(x.subarray(start, end));
    },
  },
};

/** An aggregate folding vectors element by element (nulls skipped; no rows → NULL). */
function fold(fn: string, f: (a: number, b: number) => number): AggDef {
  return {
    start: () => null,
    step: (acc, v) => {
      const x = vec(v, fn);
      if (x === null) return acc;
      const sofar = acc as Float32Array | null;
      if (sofar === null) return Float32Array.from(x);
      if (sofar.length !== x.length) {
        throw new Error(
          `${fn}: the vectors must have the same dimension, got ${sofar.length} and ${x.length}`,
        );
      }
      for (let i = 0; i < x.length; i++) sofar[i] = f(sofar[i], x[i]);
      return sofar;
    },
    result: (acc) => (acc === null ? null : vectorBytes(acc as Float32Array)),
  };
}

/** Vector aggregates by name. */
export const VECTOR_AGGREGATES: Record<string, AggDef> = {
  vec_sum: fold("vec_sum", (a, b) => a + b),
  vec_product: fold("vec_product", (a, b) => a * b),
};
