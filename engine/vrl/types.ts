/** The compile-time type lattice: kind bitsets, with known object fields tracked for paths. */

import type { Segment } from "./ast.ts";
import { VrlRegex, VrlTimestamp, type VrlValue } from "./value.ts";

/** Kind bits. */
export const K = {
  BYTES: 1,
  INTEGER: 2,
  FLOAT: 4,
  BOOLEAN: 8,
  NULL: 16,
  TIMESTAMP: 32,
  REGEX: 64,
  OBJECT: 128,
  ARRAY: 256,
  ANY: 511,
  NUMBER: 6,
  SCALAR: 63,
  /** What JSON can hold. */
  JSON: 1 | 2 | 4 | 8 | 16 | 128 | 256,
  /** Anything but a regex: what an unknown event field can be (regexes only come from literals). */
  DATA: 511 & ~64,
} as const;

/** A static type: kind bits plus, for objects, the fields known so far (`exact` = no other fields). */
export interface TypeDef {
  kind: number;
  fields?: Map<string, TypeDef>;
  exact?: boolean;
  /** For arrays: the union of the element types, when every element's type is known. */
  items?: TypeDef;
}

/** The "could be anything" type. */
export const ANY: TypeDef = { kind: K.ANY };

/** The type of a field nothing is known about. */
export const UNKNOWN_FIELD: TypeDef = { kind: K.DATA };

/** A plain type of the given kind bits. */
export function t(kind: number): TypeDef {
  return { kind };
}

/** The static type of a constant value. */
export function typeOfValue(v: VrlValue): TypeDef {
  switch (typeof v) {
    case "string":
      return t(K.BYTES);
    case "bigint":
      return t(K.INTEGER);
    case "number":
      return t(K.FLOAT);
    case "boolean":
      return t(K.BOOLEAN);
  }
  if (v === null) return t(K.NULL);
  if (v instanceof Map) {
    const fields = new Map<string, TypeDef>();
    for (const [k, x] of v) fields.set(k, typeOfValue(x));
    return { kind: K.OBJECT, fields, exact: true };
  }
  if (Array.isArray(v)) return arrayOf(v.map(typeOfValue));
  if (v instanceof VrlTimestamp) return t(K.TIMESTAMP);
  if (v instanceof VrlRegex) return t(K.REGEX);
  return ANY;
}

/** An array type whose elements have the given types. */
export function arrayOf(elements: TypeDef[]): TypeDef {
  return { kind: K.ARRAY, items: elements.reduce(union, NEVER) };
}

/** The type with no values (the element type of an empty array). */
export const NEVER: TypeDef = { kind: 0 };

// Element types survive a union only when both sides that may be arrays know theirs.
function unionItems(a: TypeDef, b: TypeDef): TypeDef | undefined {
  const aArr = (a.kind & K.ARRAY) !== 0, bArr = (b.kind & K.ARRAY) !== 0;
  if (aArr && bArr) return a.items && b.items ? union(a.items, b.items) : undefined;
  return aArr ? a.items : bArr ? b.items : undefined;
}

/** Least upper bound of two types. */
export function union(a: TypeDef, b: TypeDef): TypeDef {
  if (a === b) return a;
  if (a.kind === 0) return b;
  if (b.kind === 0) return a;
  const kind = a.kind | b.kind;
  const items = kind & K.ARRAY ? unionItems(a, b) : undefined;
  if (!(kind & K.OBJECT)) return items ? { kind, items } : { kind };
  if (!a.fields && !b.fields) {
    return { kind, exact: undefined, items };
  }
  const aObj = (a.kind & K.OBJECT) !== 0, bObj = (b.kind & K.OBJECT) !== 0;
  if (!aObj) return { ...b, kind, items };
  if (!bObj) return { ...a, kind, items };
  const fields = new Map<string, TypeDef>();
  const keys = new Set([...(a.fields?.keys() ?? []), ...(b.fields?.keys() ?? [])]);
  // A field one side does not know is what `typeAt` reads there: data (never a regex) or null.
  for (const k of keys) {
    const fa = a.fields?.get(k) ?? (a.exact ? t(K.NULL) : UNKNOWN_FIELD);
    const fb = b.fields?.get(k) ?? (b.exact ? t(K.NULL) : UNKNOWN_FIELD);
    fields.set(k, union(fa, fb));
  }
  return { kind, fields, exact: !!a.exact && !!b.exact, items };
}

/** The type found at `segs` inside a value of type `td` (missing fields read as null). */
export function typeAt(td: TypeDef, segs: Segment[], from = 0): TypeDef {
  let cur = td;
  for (let i = from; i < segs.length; i++) {
    const s = segs[i];
    const extraNull = (cur.kind & ~(typeof s === "string" ? K.OBJECT : K.ARRAY)) !== 0 ? K.NULL : 0;
    if (typeof s === "string") {
      if (!(cur.kind & K.OBJECT)) return t(K.NULL);
      const f = cur.fields?.get(s);
      if (f) cur = extraNull ? union(f, t(K.NULL)) : f;
      else if (cur.exact) return t(K.NULL);
      else return UNKNOWN_FIELD;
    } else {
      if (!(cur.kind & K.ARRAY)) return t(K.NULL);
      if (!cur.items) return UNKNOWN_FIELD;
      // An index may be out of range: the element type or null.
      cur = union(cur.items, t(K.NULL));
    }
  }
  return cur;
}

/** The type of `td` after assigning a value of type `value` at `segs`. */
export function typeWith(td: TypeDef, segs: Segment[], value: TypeDef, from = 0): TypeDef {
  if (from >= segs.length) return value;
  const s = segs[from];
  if (typeof s === "number") return t(K.ARRAY);
  // A value that may already be an object keeps its unknown fields; anything else becomes a fresh object.
  const mayBeObj = (td.kind & K.OBJECT) !== 0;
  const fields = new Map(mayBeObj ? td.fields ?? [] : []);
  const known = td.fields?.get(s);
  const child = mayBeObj ? (known ? union(known, t(K.NULL)) : td.exact ? t(K.NULL) : ANY) : t(K.NULL);
  fields.set(s, typeWith(td.kind === K.OBJECT && known ? known : child, segs, value, from + 1));
  return { kind: K.OBJECT, fields, exact: mayBeObj ? !!td.exact : true };
}

/** True when every kind in `td` is among `kinds`. */
export function isSubset(td: TypeDef, kinds: number): boolean {
  return (td.kind & ~kinds) === 0;
}

const NAMES: [number, string][] = [
  [K.BYTES, "string"],
  [K.INTEGER, "integer"],
  [K.FLOAT, "float"],
  [K.BOOLEAN, "boolean"],
  [K.NULL, "null"],
  [K.TIMESTAMP, "timestamp"],
  [K.REGEX, "regex"],
  [K.OBJECT, "object"],
  [K.ARRAY, "array"],
];

/** Human form of kind bits, e.g. `string or null`, `any`. */
export function kindName(kind: number): string {
  if ((kind & K.ANY) === K.ANY) return "any";
  const parts = NAMES.filter(([b]) => kind & b).map(([, n]) => n);
  if (parts.length === 0) return "never";
  return parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + " or " + parts[parts.length - 1];
}

/** True when a value of this type may contain a regex anywhere reachable from the top level. */
export function mayContainRegex(td: TypeDef): boolean {
  if (td.kind & K.REGEX) return true;
  if (td.fields) { for (const f of td.fields.values()) if (mayContainRegex(f)) return true; }
  return false;
}

/** An object type with known field kinds; `exact` says no other fields exist. */
export function objectOf(fields: Record<string, number>, exact = false): TypeDef {
  return { kind: K.OBJECT, fields: new Map(Object.entries(fields).map(([k, v]) => [k, t(v)])), exact };
}

/** The type of the values inside a collection type (object field values, array elements). */
export function elementType(td: TypeDef): TypeDef {
  let out = NEVER;
  if (td.kind & K.OBJECT) {
    if (!td.exact || !td.fields) return UNKNOWN_FIELD;
    for (const f of td.fields.values()) out = union(out, f);
  }
  if (td.kind & K.ARRAY) {
    if (!td.items) return UNKNOWN_FIELD;
    out = union(out, td.items);
  }
  return out;
}
