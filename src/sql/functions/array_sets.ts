/**
 * More of DataFusion's array functions: set operations (array_union, array_intersect, array_except:
 * each element once, in order of first appearance), arrays_overlap, replacing elements
 * (array_replace[_n|_all]), array_pop_back/front, array_resize, array_any_value, array_ndims,
 * array_dims, array_positions and array_distance.
 */
import { invalidArguments } from "../../common/errors.ts";
import { arrayArg, arrayText, type Elem, elemOf, elemRet, intArg, over, same } from "./arrays.ts";
import type { Arg, Ret, ScalarDef } from "./values.ts";

/** Each element once, in order of first appearance. */
function unique(a: Elem[]): Elem[] {
  const out: Elem[] = [];
  for (const e of a) if (!out.some((o) => same(o, e))) out.push(e);
  return out;
}

/** A set operation of two arrays; NULL when either is. */
function setOp(fn: string, op: (a: Elem[], b: Elem[]) => Elem[]): ScalarDef {
  return {
    args: [2, 2],
    fn: (v, w) => {
      const a = arrayArg(fn, v), b = arrayArg(fn, w);
      return a === null || b === null ? null : arrayText(op(a, b));
    },
  };
}

/** `from` replaced by `to`, at most `limit` times from the start. */
function replaceWhere(a: Elem[], from: Arg, to: Arg, limit: number): Ret {
  const needle = elemOf(from), put = elemOf(to);
  let done = 0;
  return arrayText(a.map((e) => (done < limit && same(e, needle) ? (done++, put) : e)));
}

/** The nesting depth of an array (1 for a flat one). */
function depth(a: Elem[]): number {
  const first = a.find((e) => e !== null);
  return 1 + (Array.isArray(first) ? depth(first) : 0);
}

const overlap: ScalarDef = {
  args: [2, 2],
  int: true,
  fn: (v, w) => {
    const a = arrayArg("arrays_overlap", v), b = arrayArg("arrays_overlap", w);
    if (a === null || b === null) return null;
    return b.some((x) => a.some((e) => same(e, x))) ? 1 : 0;
  },
};

/** The length of each dimension, along the first element. */
function dims(a: Elem[]): number[] {
  const first = a[0];
  return [a.length, ...(Array.isArray(first) ? dims(first) : [])];
}

/** Euclidean distance of two numeric arrays of one length. */
const distance: ScalarDef = {
  args: [2, 2],
  fn: (v, w) => {
    const a = arrayArg("array_distance", v), b = arrayArg("array_distance", w);
    if (a === null || b === null) return null;
    if (a.length !== b.length) throw invalidArguments("array_distance expects arrays of the same length");
    let sum = 0;
    for (let k = 0; k < a.length; k++) {
      const x = a[k], y = b[k];
      if (x === null || y === null) return null;
      if (Array.isArray(x) || Array.isArray(y) || typeof x === "string" || typeof y === "string") {
        throw invalidArguments("array_distance expects numeric arrays");
      }
      sum += (Number(x) - Number(y)) ** 2;
    }
    return Math.sqrt(sum);
  },
};

/** The functions, by DataFusion name. */
export const ARRAY_SET_SCALARS: Record<string, ScalarDef> = {
  array_union: setOp("array_union", (a, b) => unique([...a, ...b])),
  array_intersect: setOp("array_intersect", (a, b) => unique(a).filter((e) => b.some((x) => same(x, e)))),
  array_except: setOp("array_except", (a, b) => unique(a).filter((e) => !b.some((x) => same(x, e)))),
  arrays_overlap: overlap,
  array_replace: over("array_replace", (a, from, to) => replaceWhere(a, from, to, 1)),
  array_replace_n: over(
    "array_replace_n",
    (a, from, to, n) => replaceWhere(a, from, to, intArg("array_replace_n", n) ?? 0),
  ),
  array_replace_all: over("array_replace_all", (a, from, to) => replaceWhere(a, from, to, Infinity)),
  array_pop_back: over("array_pop_back", (a) => arrayText(a.slice(0, -1))),
  array_pop_front: over("array_pop_front", (a) => arrayText(a.slice(1))),
  array_resize: over("array_resize", (a, size, value) => {
    const n = intArg("array_resize", size);
    if (n === null) return null;
    if (n < 0) throw invalidArguments(`array_resize expects a non-negative size, got ${n}`);
    const fill = value === undefined ? null : elemOf(value);
    return arrayText(n <= a.length ? a.slice(0, n) : [...a, ...Array<Elem>(n - a.length).fill(fill)]);
  }),
  array_any_value: over("array_any_value", (a) => elemRet(a.find((e) => e !== null))),
  array_ndims: over("array_ndims", (a) => depth(a), true),
  // an empty array has no dimensions
  array_dims: over("array_dims", (a) => (a.length === 0 ? null : arrayText(dims(a)))),
  array_positions: over("array_positions", (a, x) => {
    const needle = elemOf(x);
    return arrayText(a.flatMap((e, k) => (same(e, needle) ? [k + 1] : [])));
  }),
  array_distance: distance,
};
