/**
 * DataFusion's array functions over arrays held as JSON text (how Petrel keeps a `List<…>` value in
 * SQLite): array_length, array_element, array_has, array_append, array_slice, array_sort, … with
 * DataFusion's rules: 1-based positions, negative positions counting from the end, NULL for a
 * position out of range, NULL in → NULL out.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { Arg, Ret, ScalarDef } from "./values.ts";
import { str } from "./values.ts";

/** An array element as JSON holds it (integers past 2^53 as bigints). */
export type Elem = string | number | bigint | boolean | null | Elem[];

/** JSON numbers past 2^53 keep their digits (a reviver sees the literal's source). */
function reviveBig(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context?.source !== undefined) {
    if (/^-?\d+$/.test(context.source)) return BigInt(context.source);
  }
  return value;
}

/** The array an argument holds; NULL is null, anything but a JSON array is refused. */
export function arrayArg(fn: string, v: Arg): Elem[] | null {
  if (v === null) return null;
  if (typeof v === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v, reviveBig);
    } catch {
      parsed = undefined;
    }
    if (Array.isArray(parsed)) return parsed as Elem[];
  }
  const shown = v instanceof Uint8Array ? "binary" : typeof v === "string" ? `'${v}'` : String(v);
  throw invalidArguments(`${fn} expects an array argument, got ${shown}`);
}

/** An element from an SQLite value (a nested array arrives as its JSON text and stays text). */
export function elemOf(v: Arg): Elem {
  if (v instanceof Uint8Array) throw invalidArguments("Arrays of binary values are not supported");
  return v;
}

/** An element as JSON text. */
function elemJson(e: Elem): string {
  if (e === null) return "null";
  if (Array.isArray(e)) return "[" + e.map(elemJson).join(",") + "]";
  if (typeof e === "bigint") return e.toString();
  if (typeof e === "number") return Number.isFinite(e) ? String(e) : "null";
  return JSON.stringify(e);
}

/** An array as the JSON text Petrel holds a `List<…>` value as (integers past 2^53 exact). */
export const arrayText = (a: Elem[]): string => elemJson(a);

/** An element as SQLite gets it: nested arrays as JSON text, booleans as 1/0. */
export function elemRet(e: Elem | undefined): Ret {
  if (e === undefined || e === null) return null;
  if (Array.isArray(e)) return arrayText(e);
  if (typeof e === "boolean") return e ? 1 : 0;
  return e;
}

const isNumeric = (e: Elem): e is number | bigint => typeof e === "number" || typeof e === "bigint";

/** DataFusion's equality of elements (1 = 1.0; NULL equals NULL inside arrays, as array_has finds it). */
export function same(a: Elem, b: Elem): boolean {
  if (isNumeric(a) && isNumeric(b)) return typeof a === typeof b ? a === b : Number(a) === Number(b);
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) === Number(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => same(x, b[k]));
  return a === b;
}

/** Ascending order of elements, NULLs first (DataFusion's array_sort default). */
function compare(a: Elem, b: Elem): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (isNumeric(a) && isNumeric(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = typeof a === "string" ? a : elemJson(a), y = typeof b === "string" ? b : elemJson(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An integer argument (positions, lengths); NULL is null. */
export function intArg(fn: string, v: Arg): number | null {
  if (v === null) return null;
  const n = typeof v === "string" && /^\s*-?\d+\s*$/.test(v)
    ? Number(v)
    : typeof v === "string"
    ? NaN
    : Number(v);
  if (!Number.isInteger(n)) throw invalidArguments(`${fn} expects an integer position, got ${String(v)}`);
  return n;
}

/** A scalar over one array argument (NULL array → NULL). */
export function over(fn: string, body: (a: Elem[], ...rest: Arg[]) => Ret, int = false): ScalarDef {
  return {
    fn: (v, ...rest) => {
      const a = arrayArg(fn, v);
      return a === null ? null : body(a, ...rest);
    },
    int,
  };
}

function arrayElement(a: Elem[], n: Arg): Ret {
  const k = intArg("array_element", n);
  if (k === null || k === 0) return null;
  return elemRet(k > 0 ? a[k - 1] : a[a.length + k]);
}

/** DataFusion's array_slice: 1-based, both ends included, negative positions from the end. */
function arraySlice(a: Elem[], from: Arg, to: Arg, stride: Arg = 1): Ret {
  const len = a.length;
  const f = from === null ? 1 : intArg("array_slice", from)!;
  const t = to === null ? len : intArg("array_slice", to)!;
  const step = stride === null ? 1 : intArg("array_slice", stride)!;
  if (step === 0) throw invalidArguments("array_slice: the stride cannot be 0");
  const start = f < 0 ? Math.max(len + f, 0) : Math.max(f - 1, 0);
  const end = t < 0 ? len + t : Math.min(t - 1, len - 1);
  const out: Elem[] = [];
  if (step > 0) { for (let k = start; k <= end; k += step) out.push(a[k]); }
  else for (let k = end; k >= start; k += step) out.push(a[k]);
  return arrayText(out);
}

/** Every level of nesting flattened (DataFusion's flatten applies to any depth). */
function flattenAll(a: Elem[]): Elem[] {
  return a.flatMap((e) => (Array.isArray(e) ? flattenAll(e) : [e]));
}

function countAll(a: Elem[]): number {
  return a.reduce<number>((n, e) => n + (Array.isArray(e) ? countAll(e) : 1), 0);
}

function extreme(fn: string, sign: 1 | -1): ScalarDef {
  return over(fn, (a) => {
    let best: Elem = null;
    for (const e of a) if (e !== null && (best === null || sign * compare(e, best) > 0)) best = e;
    return elemRet(best);
  });
}

function sorted(a: Elem[], desc: boolean, nullsFirst: boolean): Elem[] {
  return [...a].sort((x, y) => {
    if (x === null || y === null) return x === y ? 0 : (x === null) === nullsFirst ? -1 : 1;
    return desc ? compare(y, x) : compare(x, y);
  });
}

/** A sort direction argument: 'ASC'/'DESC', 'NULLS FIRST'/'NULLS LAST'. */
function keyword(v: Arg, allowed: string[], fn: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  const w = String(v).trim().toUpperCase();
  if (!allowed.includes(w)) {
    throw invalidArguments(`${fn}: expected one of ${allowed.join(", ")}, got '${v}'`);
  }
  return w;
}

/** An element as array_to_string writes it. */
function elemText(e: Elem, sep: string, nullText: string | null): string | null {
  if (e === null) return nullText;
  if (Array.isArray(e)) {
    return e.map((x) => elemText(x, sep, nullText)).filter((x) => x !== null).join(sep);
  }
  return String(e);
}

function removeWhere(a: Elem[], x: Arg, limit: number): Ret {
  const needle = elemOf(x);
  const out: Elem[] = [];
  let removed = 0;
  for (const e of a) {
    if (removed < limit && same(e, needle)) removed++;
    else out.push(e);
  }
  return arrayText(out);
}

function distinct(a: Elem[]): Elem[] {
  const out: Elem[] = [];
  for (const e of sorted(a, false, true)) if (!out.some((o) => same(o, e))) out.push(e);
  return out;
}

const length = over("array_length", (a, dim) => {
  const d = dim === undefined ? 1 : intArg("array_length", dim);
  if (d === null) return null;
  if (d === 1) return a.length;
  // deeper dimensions: the first element's length at that depth
  let cur: Elem = a;
  for (let k = 1; k < d; k++) cur = Array.isArray(cur) ? (cur[0] ?? null) : null;
  return Array.isArray(cur) ? cur.length : null;
}, true);

const has = over("array_has", (a, x) => (a.some((e) => same(e, elemOf(x))) ? 1 : 0), true);

const position = over("array_position", (a, x, from) => {
  const start = from === undefined ? 1 : intArg("array_position", from) ?? 1;
  const needle = elemOf(x);
  for (let k = Math.max(start - 1, 0); k < a.length; k++) if (same(a[k], needle)) return k + 1;
  return null;
}, true);

const append: ScalarDef = {
  fn: (v, x) => arrayText([...(arrayArg("array_append", v) ?? []), elemOf(x)]),
};
const prepend: ScalarDef = {
  fn: (x, v) => arrayText([elemOf(x), ...(arrayArg("array_prepend", v) ?? [])]),
};
const concat: ScalarDef = {
  fn: (...vs) => {
    const parts = vs.map((v) => arrayArg("array_concat", v)).filter((a) => a !== null);
    return parts.length === 0 ? null : arrayText(([] as Elem[]).concat(...parts));
  },
};

const hasAll: ScalarDef = {
  fn: (v, w) => {
    const a = arrayArg("array_has_all", v), b = arrayArg("array_has_all", w);
    if (a === null || b === null) return null;
    return b.every((x) => a.some((e) => same(e, x))) ? 1 : 0;
  },
  int: true,
};
const hasAny: ScalarDef = {
  fn: (v, w) => {
    const a = arrayArg("array_has_any", v), b = arrayArg("array_has_any", w);
    if (a === null || b === null) return null;
    return b.some((x) => a.some((e) => same(e, x))) ? 1 : 0;
  },
  int: true,
};

const toString = over("array_to_string", (a, sep, nullText) => {
  if (sep === null) return null;
  const nt = nullText === undefined || nullText === null ? null : str(nullText);
  return a.map((e) => elemText(e, str(sep)!, nt)).filter((x) => x !== null).join(str(sep)!);
});

const stringToArray: ScalarDef = {
  fn: (s, sep, nullText) => {
    if (s === null) return null;
    const text = str(s)!;
    const parts = sep === null
      ? [...text]
      : str(sep) === ""
      ? [text]
      : text === ""
      ? []
      : text.split(str(sep)!);
    const nt = nullText === undefined || nullText === null ? undefined : str(nullText);
    return arrayText(parts.map((p) => (p === nt ? null : p)));
  },
};

const sort = over("array_sort", (a, dir, nulls) => {
  const desc = keyword(dir, ["ASC", "DESC"], "array_sort") === "DESC";
  const n = keyword(nulls, ["NULLS FIRST", "NULLS LAST"], "array_sort");
  // NULLs come first unless asked otherwise, whichever the direction (DataFusion's default)
  return arrayText(sorted(a, desc, n === undefined || n === "NULLS FIRST"));
});

/** The array functions, by DataFusion name and alias. */
export const ARRAY_SCALARS: Record<string, ScalarDef> = {
  array_length: length,
  list_length: length,
  cardinality: over("cardinality", (a) => countAll(a), true),
  array_element: over("array_element", arrayElement, true),
  array_extract: over("array_extract", arrayElement, true),
  list_element: over("list_element", arrayElement, true),
  list_extract: over("list_extract", arrayElement, true),
  array_has: has,
  array_contains: has,
  list_has: has,
  array_has_all: hasAll,
  array_has_any: hasAny,
  array_position: position,
  array_indexof: position,
  list_position: position,
  array_append: append,
  array_push_back: append,
  list_append: append,
  array_prepend: prepend,
  array_push_front: prepend,
  list_prepend: prepend,
  array_concat: concat,
  array_cat: concat,
  list_concat: concat,
  array_slice: over("array_slice", (a, f, t, s) => arraySlice(a, f, t, s ?? 1)),
  list_slice: over("list_slice", (a, f, t, s) => arraySlice(a, f, t, s ?? 1)),
  array_distinct: over("array_distinct", (a) => arrayText(distinct(a))),
  array_sort: sort,
  list_sort: sort,
  array_reverse: over("array_reverse", (a) => arrayText([...a].reverse())),
  array_to_string: toString,
  array_join: toString,
  list_to_string: toString,
  string_to_array: stringToArray,
  string_to_list: stringToArray,
  array_remove: over("array_remove", (a, x) => removeWhere(a, x, 1)),
  array_remove_n: over("array_remove_n", (a, x, n) => removeWhere(a, x, intArg("array_remove_n", n) ?? 0)),
  array_remove_all: over("array_remove_all", (a, x) => removeWhere(a, x, Infinity)),
  flatten: over("flatten", (a) => arrayText(flattenAll(a))),
  array_max: extreme("array_max", 1),
  array_min: extreme("array_min", -1),
  array_empty: over("array_empty", (a) => (a.length === 0 ? 1 : 0), true),
  empty: over("empty", (a) => (a.length === 0 ? 1 : 0), true),
};
