/** Object and array functions, including the closure-taking iteration functions. */

import { bytesString, utf8Bytes } from "../bytes.ts";
import { getIn, removeIn, setIn } from "../path.ts";
import { ANY, elementType, K, t, type TypeDef } from "../types.ts";
import {
  deepClone,
  kindOf,
  sortedEntries,
  sortedKeys,
  type VrlObject,
  vrlStrictEquals,
  type VrlValue,
} from "../value.ts";
import { type ArgInfo, type ClosureFn, fail, flag, type FnDef, num, opt, req, str } from "./def.ts";
import { everyItem, unlessConstant } from "./def.ts";
import { exceptKeys, flattenValue } from "./flatten.ts";

const OA = K.OBJECT | K.ARRAY;
/** An `object_from_array` key: a string, or `null` to skip the value. */
const isKey = (k: VrlValue | undefined): boolean => typeof k === "string" || k === null;

function deepMerge(a: VrlObject, b: VrlObject, deep: boolean): VrlObject {
  const out: VrlObject = new Map(a);
  for (const [k, v] of b) {
    const prev = out.get(k);
    out.set(k, deep && prev instanceof Map && v instanceof Map ? deepMerge(prev, v, true) : v);
  }
  return out;
}

function unflatten(o: VrlObject, sep: string, recursive: boolean): VrlObject {
  const out: VrlObject = new Map();
  for (const k of sortedKeys(o)) {
    const v = o.get(k)!;
    const parts = k.split(sep);
    let cur = out;
    for (let i = 0; i < parts.length - 1; i++) {
      let next = cur.get(parts[i]);
      if (!(next instanceof Map)) {
        next = new Map();
        cur.set(parts[i], next);
      }
      cur = next;
    }
    cur.set(parts[parts.length - 1], recursive && v instanceof Map ? unflatten(v, sep, true) : v);
  }
  return out;
}

interface CompactOpts {
  recursive: boolean;
  null: boolean;
  string: boolean;
  object: boolean;
  array: boolean;
  nullish: boolean;
}

function isEmptyFor(v: VrlValue, o: CompactOpts): boolean {
  if (v === null) return o.null || o.nullish;
  if (typeof v === "string") return (o.string && v === "") || (o.nullish && (v.trim() === "" || v === "-"));
  if (v instanceof Map) return o.object && v.size === 0;
  if (Array.isArray(v)) return o.array && v.length === 0;
  return false;
}

function compact(v: VrlValue, o: CompactOpts): VrlValue {
  if (v instanceof Map) {
    const out: VrlObject = new Map();
    for (const [k, x] of v) {
      const y = o.recursive ? compact(x, o) : x;
      if (!isEmptyFor(y, o)) out.set(k, y);
    }
    return out;
  }
  if (Array.isArray(v)) {
    return v.map((x) => (o.recursive ? compact(x, o) : x)).filter((x) => !isEmptyFor(x, o));
  }
  return v;
}

function pathArg(p: VrlValue): (string | number)[] {
  if (!Array.isArray(p)) return fail(`expected array, got ${kindOf(p)}`);
  return p.map((s) =>
    typeof s === "string"
      ? s
      : typeof s === "bigint"
      ? Number(s)
      : fail(`path segment must be either string or integer, not ${kindOf(s)}`)
  );
}

function mapValues(v: VrlValue, f: ClosureFn, recursive: boolean): VrlValue {
  if (v instanceof Map) {
    const out: VrlObject = new Map();
    for (const [k, x] of sortedEntries(v)) {
      const inner = recursive && (x instanceof Map || Array.isArray(x)) ? mapValues(x, f, true) : x;
      out.set(k, f(inner));
    }
    return out;
  }
  if (Array.isArray(v)) {
    return v.map((x) => f(recursive && (x instanceof Map || Array.isArray(x)) ? mapValues(x, f, true) : x));
  }
  return v;
}

function mapKeys(v: VrlValue, f: ClosureFn, recursive: boolean): VrlValue {
  if (v instanceof Map) {
    const out: VrlObject = new Map();
    for (const [k, x] of sortedEntries(v)) {
      const nk = f(k);
      if (typeof nk !== "string") fail(`map_keys closure must return a string, got ${kindOf(nk)}`);
      out.set(nk as string, recursive ? mapKeys(x, f, true) : x);
    }
    return out;
  }
  if (Array.isArray(v) && recursive) return v.map((x) => mapKeys(x, f, true));
  return v;
}

const iterParams = (a: (ArgInfo | undefined)[]): TypeDef[] => {
  const k = a[0]?.type.kind ?? OA;
  const keyKind = (k & K.OBJECT ? K.BYTES : 0) | (k & K.ARRAY ? K.INTEGER : 0);
  return [t(keyKind || K.BYTES), a[0] ? elementType(a[0].type) : ANY];
};

const sameContainer = (a: (ArgInfo | undefined)[]) => t(a[0] ? a[0].type.kind & OA : OA);

/** Collection functions by name. */
export const COLLECTION_FNS: Record<string, FnDef> = {
  keys: {
    params: [req("value", K.OBJECT)],
    returns: K.ARRAY,
    fresh: true,
    call: ([v]) => sortedKeys(v as VrlObject),
  },
  values: {
    params: [req("value", K.OBJECT)],
    returns: K.ARRAY,
    call: ([v]) => sortedEntries(v as VrlObject).map(([, x]) => x),
  },
  merge: {
    params: [req("to", K.OBJECT), req("from", K.OBJECT), opt("deep", K.BOOLEAN)],
    returns: K.OBJECT,
    call: ([a, b, d]) => deepMerge(a as VrlObject, b as VrlObject, flag(d, false)),
  },
  flatten: {
    params: [req("value", OA), opt("separator", K.BYTES), opt("except", K.ARRAY)],
    returns: sameContainer,
    call: ([v, sep, except]) => flattenValue(v!, str(sep, "."), exceptKeys(except)),
  },
  unflatten: {
    params: [req("value", K.OBJECT), opt("separator", K.BYTES), opt("recursive", K.BOOLEAN)],
    returns: K.OBJECT,
    call: ([v, sep, r]) => unflatten(v as VrlObject, str(sep, "."), flag(r, true)),
  },
  compact: {
    params: [
      req("value", OA),
      opt("recursive", K.BOOLEAN),
      opt("null", K.BOOLEAN),
      opt("string", K.BOOLEAN),
      opt("object", K.BOOLEAN),
      opt("array", K.BOOLEAN),
      opt("nullish", K.BOOLEAN),
    ],
    returns: sameContainer,
    call: ([v, r, n, s, o, a, ns]) =>
      compact(v!, {
        recursive: flag(r, true),
        null: flag(n, true),
        string: flag(s, true),
        object: flag(o, true),
        array: flag(a, true),
        nullish: flag(ns, false),
      }),
  },
  push: {
    params: [req("value", K.ARRAY), req("item", K.ANY)],
    returns: K.ARRAY,
    call: ([v, x]) => [...(v as VrlValue[]), x!],
  },
  append: {
    params: [req("value", K.ARRAY), req("items", K.ARRAY)],
    returns: K.ARRAY,
    call: ([v, xs]) => [...(v as VrlValue[]), ...(xs as VrlValue[])],
  },
  pop: { params: [req("value", K.ARRAY)], returns: K.ARRAY, call: ([v]) => (v as VrlValue[]).slice(0, -1) },
  get: {
    params: [req("value", OA), req("path", K.ARRAY)],
    returns: K.ANY,
    fallible: true,
    call: ([v, p]) => getIn(v!, pathArg(p!)),
  },
  set: {
    params: [req("value", OA), req("path", K.ARRAY), req("data", K.ANY)],
    returns: sameContainer,
    fallible: true,
    fresh: true,
    call: ([v, p, d]) => setIn(deepClone(v!), pathArg(p!), deepClone(d!)),
  },
  remove: {
    params: [req("value", OA), req("path", K.ARRAY), opt("compact", K.BOOLEAN)],
    returns: sameContainer,
    fallible: true,
    fresh: true,
    call: ([v, p, c]) => {
      const copy = deepClone(v!);
      const path = pathArg(p!);
      if (path.length === 0) return copy;
      removeIn(copy, path, flag(c, false));
      return copy;
    },
  },
  length: {
    params: [req("value", OA | K.BYTES)],
    returns: K.INTEGER,
    call: ([v]) =>
      BigInt(
        v instanceof Map ? v.size : typeof v === "string" ? utf8Bytes(v).length : (v as VrlValue[]).length,
      ),
  },
  unique: {
    params: [req("value", K.ARRAY)],
    returns: K.ARRAY,
    call: ([v]) => {
      const out: VrlValue[] = [];
      for (const x of v as VrlValue[]) {
        if (!out.some((y) => vrlStrictEquals(x, y))) out.push(x);
      }
      return out;
    },
  },
  includes: {
    params: [req("value", K.ARRAY), req("item", K.ANY)],
    returns: K.BOOLEAN,
    call: ([v, x]) => (v as VrlValue[]).some((y) => vrlStrictEquals(x!, y)),
  },
  to_entries: {
    params: [req("value", K.OBJECT)],
    returns: K.ARRAY,
    call: ([v]) =>
      sortedEntries(v as VrlObject).map(([k, x]) => new Map<string, VrlValue>([["key", k], ["value", x]])),
  },
  from_entries: {
    params: [req("value", K.ARRAY)],
    returns: K.OBJECT,
    fallibleFor: unlessConstant(
      0,
      (v) =>
        everyItem(v, (e) =>
          (e instanceof Map && typeof e.get("key") === "string") ||
          (Array.isArray(e) && e.length === 2 && typeof e[0] === "string")),
    ),
    call: ([v]) => {
      const out: VrlObject = new Map();
      for (const e of v as VrlValue[]) {
        if (e instanceof Map && typeof e.get("key") === "string") {
          out.set(e.get("key") as string, e.get("value") ?? null);
        } else if (Array.isArray(e) && e.length === 2 && typeof e[0] === "string") out.set(e[0], e[1]);
        else return fail(`entries must be objects with a string "key" and a "value", got ${kindOf(e)}`);
      }
      return out;
    },
  },
  object_from_array: {
    params: [req("values", K.ARRAY), opt("keys", K.ARRAY)],
    returns: K.OBJECT,
    // A `null` key skips its value (VRL's docs: `[null, 2]` is dropped), so it is no error.
    fallibleFor: (a) =>
      a[1]
        ? unlessConstant(1, (k) => everyItem(k, isKey))(a)
        : unlessConstant(0, (v) => everyItem(v, (p) => Array.isArray(p) && isKey(p[0])))(a),
    call: ([vs, ks]) => {
      const out: VrlObject = new Map();
      if (ks !== undefined && ks !== null) {
        (ks as VrlValue[]).forEach((k, i) => {
          if (!isKey(k)) fail(`keys must be strings, got ${kindOf(k)}`);
          if (k !== null) out.set(k as string, (vs as VrlValue[])[i] ?? null);
        });
        return out;
      }
      for (const p of vs as VrlValue[]) {
        if (!Array.isArray(p) || !isKey(p[0])) {
          return fail("expected an array of [key, value] pairs");
        }
        if (p[0] !== null) out.set(p[0] as string, p[1] ?? null);
      }
      return out;
    },
  },
  chunks: {
    params: [req("value", K.ARRAY | K.BYTES), req("chunk_size", K.INTEGER)],
    returns: K.ARRAY,
    fallibleFor: unlessConstant(1, (n) => typeof n === "bigint" && n >= 1n),
    call: ([v, n]) => {
      const size = num(n, 0);
      if (size < 1) return fail('"chunk_size" must be at least 1 byte');
      const out: VrlValue[] = [];
      if (typeof v === "string") {
        const bytes = utf8Bytes(v);
        for (let i = 0; i < bytes.length; i += size) out.push(bytesString(bytes.slice(i, i + size)));
      } else {for (let i = 0; i < (v as VrlValue[]).length; i += size) {
          out.push((v as VrlValue[]).slice(i, i + size));
        }}
      return out;
    },
  },
  zip: {
    params: [req("array_0", K.ARRAY), opt("array_1", K.ARRAY)],
    returns: K.ARRAY,
    // Two arrays always zip; one array must hold arrays.
    fallibleFor: (a) => !a[1] && unlessConstant(0, (v) => everyItem(v, Array.isArray))(a),
    call: ([a, b]) => {
      const arrays = (b === undefined ? (a as VrlValue[]) : [a!, b!]) as VrlValue[];
      if (!arrays.every(Array.isArray)) return fail("all items must be arrays");
      const lists = arrays as VrlValue[][];
      const n = lists.length === 0 ? 0 : Math.min(...lists.map((l) => l.length));
      return Array.from({ length: n }, (_, i) => lists.map((l) => l[i]));
    },
  },
  tally: {
    params: [req("value", K.ARRAY)],
    returns: K.OBJECT,
    fallible: true,
    call: ([v]) => {
      const out: VrlObject = new Map();
      for (const x of v as VrlValue[]) {
        if (typeof x !== "string") return fail(`all values must be strings, found: ${kindOf(x)}`);
        out.set(x, ((out.get(x) as bigint | undefined) ?? 0n) + 1n);
      }
      return out;
    },
  },
  tally_value: {
    params: [req("array", K.ARRAY), req("value", K.ANY)],
    returns: K.INTEGER,
    call: ([a, x]) => BigInt((a as VrlValue[]).filter((y) => vrlStrictEquals(x!, y)).length),
  },
  for_each: {
    params: [req("value", OA)],
    returns: K.NULL,
    closure: iterParams,
    call: ([v], f) => {
      if (v instanceof Map) { for (const [k, x] of sortedEntries(v)) f!(k, x); }
      else (v as VrlValue[]).forEach((x, i) => f!(BigInt(i), x));
      return null;
    },
  },
  map_values: {
    params: [req("value", OA), opt("recursive", K.BOOLEAN)],
    returns: sameContainer,
    // Recursive mapping also sees nested containers' values.
    closure: (a) => [a[0] && (!a[1] || a[1].constant?.value === false) ? elementType(a[0].type) : ANY],
    call: ([v, r], f) => mapValues(v!, f!, flag(r, false)),
  },
  map_keys: {
    params: [req("value", K.OBJECT), opt("recursive", K.BOOLEAN)],
    returns: K.OBJECT,
    closure: () => [t(K.BYTES)],
    closureReturns: K.BYTES,
    call: ([v, r], f) => mapKeys(v!, f!, flag(r, false)),
  },
  filter: {
    params: [req("value", OA)],
    returns: sameContainer,
    closure: iterParams,
    closureReturns: K.BOOLEAN,
    call: ([v], f) => {
      if (v instanceof Map) {
        const out: VrlObject = new Map();
        for (const [k, x] of sortedEntries(v)) if (f!(k, x) === true) out.set(k, x);
        return out;
      }
      return (v as VrlValue[]).filter((x, i) => f!(BigInt(i), x) === true);
    },
  },
};
