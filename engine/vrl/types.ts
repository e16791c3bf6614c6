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
  /**
   * A known field or index that may be absent (VRL's "undefined"). It only appears inside collection types:
   * every read (`typeAt`, `elementType`) turns it into null, as VRL's `at_path` does (`upgrade_undefined`).
   */
  UNDEFINED: 512,
} as const;

/** A static type: kind bits plus, for objects, the fields known so far (`exact` = no other fields). */
export interface TypeDef {
  kind: number;
  fields?: Map<string, TypeDef>;
  exact?: boolean;
  /** For objects that are not `exact`: the type of the fields not in `fields` (anything when absent). */
  rest?: TypeDef;
  /** For arrays: the union of the element types, when every element's type is known. */
  items?: TypeDef;
  /** For arrays of known length: each index's type (`K.UNDEFINED` in it = the array may be shorter). */
  elems?: TypeDef[];
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
  return { kind: K.ARRAY, items: elements.reduce(union, NEVER), elems: elements };
}

/** The type with no values (the element type of an empty array). */
export const NEVER: TypeDef = { kind: 0 };

// Element types survive a union only when both sides that may be arrays know theirs.
function unionItems(a: TypeDef, b: TypeDef): TypeDef | undefined {
  const aArr = (a.kind & K.ARRAY) !== 0, bArr = (b.kind & K.ARRAY) !== 0;
  if (aArr && bArr) return a.items && b.items ? union(a.items, b.items) : undefined;
  return aArr ? a.items : bArr ? b.items : undefined;
}

// Per-index types survive a union when both sides that may be arrays know theirs; an index only one side
// has may be absent.
function unionElems(a: TypeDef, b: TypeDef): TypeDef[] | undefined {
  const aArr = (a.kind & K.ARRAY) !== 0, bArr = (b.kind & K.ARRAY) !== 0;
  if (!aArr || !bArr) return aArr ? a.elems : bArr ? b.elems : undefined;
  if (!a.elems || !b.elems) return undefined;
  const n = Math.max(a.elems.length, b.elems.length);
  const out: TypeDef[] = [];
  for (let i = 0; i < n; i++) out.push(union(a.elems[i] ?? MISSING, b.elems[i] ?? MISSING));
  return out;
}

const MISSING: TypeDef = { kind: K.UNDEFINED };
// A field that one side of a union does not know about: absent, or what `typeAt` reads at an unknown
// field (data, never a regex: a regex cannot come from an event).
const UNKNOWN_OR_MISSING: TypeDef = { kind: K.DATA | K.UNDEFINED };

/** Least upper bound of two types. */
export function union(a: TypeDef, b: TypeDef): TypeDef {
  if (a === b) return a;
  if (a.kind === 0) return b;
  if (b.kind === 0) return a;
  const kind = a.kind | b.kind;
  const arr: Pick<TypeDef, "items" | "elems" | "rest"> = {};
  if (kind & K.ARRAY) {
    const items = unionItems(a, b), elems = unionElems(a, b);
    if (items) arr.items = items;
    if (elems) arr.elems = elems;
  }
  if (!(kind & K.OBJECT)) return { kind, ...arr };
  const rest = unionRest(a, b);
  if (rest) arr.rest = rest;
  if (!a.fields && !b.fields) {
    return { kind, exact: undefined, ...arr };
  }
  const aObj = (a.kind & K.OBJECT) !== 0, bObj = (b.kind & K.OBJECT) !== 0;
  if (!aObj) return { fields: b.fields, exact: b.exact, kind, ...arr };
  if (!bObj) return { fields: a.fields, exact: a.exact, kind, ...arr };
  const fields = new Map<string, TypeDef>();
  const keys = new Set([...(a.fields?.keys() ?? []), ...(b.fields?.keys() ?? [])]);
  // A field one side does not know is what `typeAt` reads there: data (never a regex) or null.
  for (const k of keys) {
    fields.set(k, union(a.fields?.get(k) ?? absentField(a), b.fields?.get(k) ?? absentField(b)));
  }
  return { kind, fields, exact: !!a.exact && !!b.exact, ...arr };
}

// What a field an object type does not list may hold.
function absentField(o: TypeDef): TypeDef {
  return o.exact ? MISSING : o.rest ? union(o.rest, MISSING) : UNKNOWN_OR_MISSING;
}

// The type of unlisted fields of a union of object types (an exact side adds none).
function unionRest(a: TypeDef, b: TypeDef): TypeDef | undefined {
  const aObj = (a.kind & K.OBJECT) !== 0, bObj = (b.kind & K.OBJECT) !== 0;
  if (!aObj || (a.exact && bObj)) return b.rest;
  if (!bObj || b.exact) return a.rest;
  return a.rest && b.rest ? union(a.rest, b.rest) : undefined;
}

/** The type a read of a possibly absent field gives: absent reads as null (VRL's `upgrade_undefined`). */
export function defined(td: TypeDef): TypeDef {
  return td.kind & K.UNDEFINED ? { ...td, kind: (td.kind & ~K.UNDEFINED) | K.NULL } : td;
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
      if (f) cur = extraNull ? union(defined(f), t(K.NULL)) : defined(f);
      else if (cur.exact) return t(K.NULL);
      else if (cur.rest) cur = union(cur.rest, t(K.NULL));
      else return UNKNOWN_FIELD;
    } else {
      if (!(cur.kind & K.ARRAY)) return t(K.NULL);
      if (cur.elems) {
        const e = cur.elems[s < 0 ? cur.elems.length + s : s];
        if (!e) return t(K.NULL);
        cur = extraNull ? union(defined(e), t(K.NULL)) : defined(e);
        continue;
      }
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
  if (typeof s === "number") return typeWithIndex(td, segs, value, from);
  // A value that may already be an object keeps its unknown fields; anything else becomes a fresh object.
  const mayBeObj = (td.kind & K.OBJECT) !== 0;
  const fields = new Map(mayBeObj ? td.fields ?? [] : []);
  const known = td.fields?.get(s);
  const child = mayBeObj ? (known ? union(known, t(K.NULL)) : defined(absentField(td))) : t(K.NULL);
  fields.set(s, typeWith(td.kind === K.OBJECT && known ? defined(known) : child, segs, value, from + 1));
  const out: TypeDef = { kind: K.OBJECT, fields, exact: mayBeObj ? !!td.exact : true };
  if (mayBeObj && td.rest) out.rest = td.rest;
  return out;
}

// Writing index `s` of a known-length array (or of a non-array, which becomes `[null, …, value]`) keeps the
// per-index types; other index writes only know the result is an array.
function typeWithIndex(td: TypeDef, segs: Segment[], value: TypeDef, from: number): TypeDef {
  const s = segs[from] as number;
  const base = td.kind === K.ARRAY && td.elems ? td.elems : !(td.kind & K.ARRAY) ? [] : undefined;
  if (!base || s < 0) return t(K.ARRAY);
  const elems = base.slice();
  while (elems.length < s) elems.push(t(K.NULL));
  elems[s] = typeWith(elems[s] ? defined(elems[s]) : t(K.NULL), segs, value, from + 1);
  return arrayOf(elems);
}

/**
 * The type of `td` after deleting what is at `segs` (`segs` not empty): an exact object loses the field; an
 * array's indices shift, so only its element types stay known.
 */
export function typeWithout(td: TypeDef, segs: Segment[]): TypeDef {
  const parentSegs = segs.slice(0, -1), last = segs[segs.length - 1];
  const parent = typeAt(td, parentSegs);
  if (typeof last === "number") return typeWith(td, parentSegs, { ...parent, elems: undefined });
  if (parent.kind !== K.OBJECT || !parent.exact || !parent.fields) return typeWith(td, segs, t(K.NULL));
  const fields = new Map(parent.fields);
  fields.delete(last);
  return typeWith(td, parentSegs, { ...parent, fields });
}

/** True when every kind in `td` is among `kinds`. */
export function isSubset(td: TypeDef, kinds: number): boolean {
  return (td.kind & ~kinds) === 0;
}

// In the order VRL's `Kind` Display lists them.
const NAMES: [number, string][] = [
  [K.BYTES, "string"],
  [K.INTEGER, "integer"],
  [K.FLOAT, "float"],
  [K.BOOLEAN, "boolean"],
  [K.TIMESTAMP, "timestamp"],
  [K.REGEX, "regex"],
  [K.NULL, "null"],
  [K.ARRAY, "array"],
  [K.OBJECT, "object"],
];

/** Human form of kind bits, e.g. `string or null`, `any`. */
export function kindName(kind: number): string {
  // An event field Petrel knows nothing about is any value but a regex; VRL calls that `any`.
  if ((kind & K.DATA) === K.DATA) return "any";
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

/** An object type with known field kinds or types; `exact` says no other fields exist. */
export function objectOf(fields: Record<string, number | TypeDef>, exact = false): TypeDef {
  const entries = Object.entries(fields).map(([k, v]) => [k, typeof v === "number" ? t(v) : v] as const);
  return { kind: K.OBJECT, fields: new Map(entries), exact };
}

/** An object type that lists no fields and whose fields all have type `rest`. */
export function mapOf(rest: TypeDef): TypeDef {
  return { kind: K.OBJECT, fields: new Map(), rest };
}

/** The type of the values inside a collection type (object field values, array elements). */
export function elementType(td: TypeDef): TypeDef {
  let out = NEVER;
  if (td.kind & K.OBJECT) {
    if (!td.exact && !td.rest) return UNKNOWN_FIELD;
    if (td.rest) out = union(out, td.rest);
    for (const f of td.fields?.values() ?? []) out = union(out, f);
  }
  if (td.kind & K.ARRAY) {
    if (!td.items) return UNKNOWN_FIELD;
    out = union(out, td.items);
  }
  return defined(out);
}
