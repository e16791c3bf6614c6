/**
 * VRL's value model in JS terms. Each VRL kind maps to a JS representation that `typeof`/`instanceof`
 * tells apart without a wrapper on the hot kinds:
 *
 * | VRL kind  | JS value                                   |
 * |-----------|--------------------------------------------|
 * | bytes     | `string` (invalid UTF-8 kept as escapes, `bytes.ts`) |
 * | integer   | `bigint` (kept within i64 by the operators) |
 * | float     | `number` (never NaN)                        |
 * | boolean   | `boolean`                                  |
 * | null      | `null`                                     |
 * | timestamp | `VrlTimestamp` (ns since the epoch)         |
 * | regex     | `VrlRegex`                                 |
 * | object    | `Map<string, VrlValue>` (iterate via `sortedKeys`, VRL objects are ordered) |
 * | array     | `VrlValue[]`                               |
 */

import { bytesString, lossyText } from "./bytes.ts";

/** A UTC instant with nanosecond precision. */
export class VrlTimestamp {
  /** Nanoseconds since 1970-01-01T00:00:00Z. */
  readonly ns: bigint;
  constructor(ns: bigint) {
    this.ns = ns;
  }
  /** Builds a timestamp from epoch milliseconds plus extra nanoseconds within the millisecond. */
  static fromMs(ms: number, extraNs = 0): VrlTimestamp {
    return new VrlTimestamp(BigInt(Math.floor(ms)) * 1_000_000n + BigInt(extraNs));
  }
  /** Whole epoch milliseconds (floored). */
  get ms(): number {
    const q = this.ns / 1_000_000n;
    return Number(this.ns < 0n && q * 1_000_000n !== this.ns ? q - 1n : q);
  }
  /** Nanoseconds within the second, 0..999_999_999. */
  get subsecNs(): number {
    const r = this.ns % 1_000_000_000n;
    return Number(r < 0n ? r + 1_000_000_000n : r);
  }
}

/** A compiled regular expression value; `source` is the pattern as written in VRL. */
export class VrlRegex {
  readonly source: string;
  readonly re: RegExp;
  constructor(source: string, re: RegExp) {
    this.source = source;
    this.re = re;
  }
}

/** Any VRL value. */
export type VrlValue =
  | string
  | bigint
  | number
  | boolean
  | null
  | VrlTimestamp
  | VrlRegex
  | VrlObject
  | VrlValue[];

/** A VRL object. */
export type VrlObject = Map<string, VrlValue>;

/** VRL kind names as VRL prints them in messages. */
export type KindName =
  | "string"
  | "integer"
  | "float"
  | "boolean"
  | "null"
  | "timestamp"
  | "regex"
  | "object"
  | "array";

/** The VRL kind name of a value. */
export function kindOf(v: VrlValue): KindName {
  switch (typeof v) {
    case "string":
      return "string";
    case "bigint":
      return "integer";
    case "number":
      return "float";
    case "boolean":
      return "boolean";
  }
  if (v === null) return "null";
  if (v instanceof Map) return "object";
  if (Array.isArray(v)) return "array";
  if (v instanceof VrlTimestamp) return "timestamp";
  return "regex";
}

/** True for VRL objects. */
export function isObject(v: VrlValue): v is VrlObject {
  return v instanceof Map;
}

const I64_MAX = 9223372036854775807;

/** Converts parsed JSON (or any plain JS data) into a VRL value; integral numbers become integers. */
export function fromJson(v: unknown): VrlValue {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "bigint":
      return BigInt.asIntN(64, v);
    case "number":
      if (Number.isInteger(v) && Math.abs(v) < I64_MAX) return BigInt(v);
      return Number.isFinite(v) ? v : null;
    case "undefined":
      return null;
  }
  if (v === null) return null;
  if (Array.isArray(v)) return v.map(fromJson);
  if (v instanceof Map || v instanceof VrlTimestamp || v instanceof VrlRegex) return v as VrlValue;
  if (v instanceof Date) return VrlTimestamp.fromMs(v.getTime());
  if (v instanceof Uint8Array) return bytesString(v);
  const out: VrlObject = new Map();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out.set(k, fromJson(x));
  return out;
}

/**
 * Converts a VRL value to plain JSON data. Integers become numbers (precision is lost beyond 2^53;
 * read `bigint`s from the VrlValue directly where that matters), timestamps become RFC 3339 strings,
 * regexes their source text. Object keys are emitted in VRL's sorted order.
 */
export function toJson(v: VrlValue): unknown {
  switch (typeof v) {
    case "string":
      return lossyText(v);
    case "boolean":
    case "number":
      return v;
    case "bigint":
      return Number(v);
  }
  if (v === null) return null;
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const k of sortedKeys(v)) out[k] = toJson(v.get(k)!);
    return out;
  }
  if (v instanceof VrlTimestamp) return formatRfc3339(v);
  return v.source;
}

/** Byte-wise (UTF-8) ordering of strings, which is code point order. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!, y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Keys of an object in VRL's (byte-wise sorted) order. */
export function sortedKeys(o: VrlObject): string[] {
  return [...o.keys()].sort(compareBytes);
}

/** An object's entries in VRL's order. */
export function sortedEntries(o: VrlObject): [string, VrlValue][] {
  return sortedKeys(o).map((k) => [k, o.get(k)!]);
}

/** Deep copy of containers, so that a stored value is never aliased by another path. */
export function deepClone(v: VrlValue): VrlValue {
  if (v instanceof Map) {
    const out: VrlObject = new Map();
    for (const [k, x] of v) out.set(k, deepClone(x));
    return out;
  }
  if (Array.isArray(v)) return v.map(deepClone);
  return v;
}

/**
 * VRL's `==` (`Value::eq_lossy`): an integer and a float compare by numeric value at the top level;
 * inside arrays and objects values compare as `vrlStrictEquals` (`[1] == [1.0]` is false).
 */
export function vrlEquals(a: VrlValue, b: VrlValue): boolean {
  const ta = typeof a, tb = typeof b;
  if (ta === "bigint" && tb === "number") return Number(a) === b;
  if (ta === "number" && tb === "bigint") return a === Number(b);
  return vrlStrictEquals(a, b);
}

/**
 * Rust's derived `PartialEq` of VRL values (`assert_eq`, `includes`, `unique`, `tally_value`): an
 * integer never equals a float.
 */
export function vrlStrictEquals(a: VrlValue, b: VrlValue): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!vrlStrictEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) {
      if (!b.has(k) || !vrlStrictEquals(x, b.get(k)!)) return false;
    }
    return true;
  }
  if (a instanceof VrlTimestamp) return b instanceof VrlTimestamp && a.ns === b.ns;
  if (a instanceof VrlRegex) return b instanceof VrlRegex && a.source === b.source;
  return false;
}

/** Rust `f64` Display: no exponent notation, `1.0` prints as `1`. */
export function formatFloat(f: number): string {
  if (!Number.isFinite(f)) return f > 0 ? "inf" : f < 0 ? "-inf" : "NaN";
  // Rust prints the sign of -0.0 (JS's toFixed drops it).
  if (Object.is(f, -0)) return "-0";
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return f.toFixed(0);
  const s = String(f);
  if (!s.includes("e")) return s;
  return expandExponent(s);
}

function expandExponent(s: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? "");
  const exp = Number(m[4]);
  if (exp >= 0) {
    const intLen = 1 + exp;
    if (digits.length <= intLen) return m[1] + digits + "0".repeat(intLen - digits.length);
    return m[1] + digits.slice(0, intLen) + "." + digits.slice(intLen);
  }
  return m[1] + "0." + "0".repeat(-exp - 1) + digits;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** RFC 3339 in UTC with `Z` and automatic sub-second digits (VRL's `to_string` of a timestamp). */
export function formatRfc3339(t: VrlTimestamp): string {
  const d = new Date(t.ms);
  const y = d.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : (y < 0 ? "-" : "+") + pad(Math.abs(y), 6);
  let s = `${year}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }:${pad(d.getUTCSeconds())}`;
  const sub = t.subsecNs;
  if (sub !== 0) {
    if (sub % 1_000_000 === 0) s += "." + pad(sub / 1_000_000, 3);
    else if (sub % 1000 === 0) s += "." + pad(sub / 1000, 6);
    else s += "." + pad(sub, 9);
  }
  return s + "Z";
}

/** JSON text of a VRL value with sorted keys (VRL's `encode_json`). */
export function encodeJson(v: VrlValue, pretty = false, indent = ""): string {
  switch (typeof v) {
    case "string":
      return JSON.stringify(lossyText(v));
    case "bigint":
      return v.toString();
    case "number":
      return jsonFloat(v);
    case "boolean":
      return v ? "true" : "false";
  }
  if (v === null) return "null";
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    const parts = v.map((x) => encodeJson(x, pretty, inner));
    return pretty ? `[\n${inner}${parts.join(`,\n${inner}`)}\n${indent}]` : `[${parts.join(",")}]`;
  }
  if (v instanceof Map) {
    if (v.size === 0) return "{}";
    const parts = sortedKeys(v).map((k) =>
      JSON.stringify(k) + (pretty ? ": " : ":") + encodeJson(v.get(k)!, pretty, inner)
    );
    return pretty ? `{\n${inner}${parts.join(`,\n${inner}`)}\n${indent}}` : `{${parts.join(",")}}`;
  }
  if (v instanceof VrlTimestamp) return JSON.stringify(formatRfc3339(v));
  return JSON.stringify(v.source);
}

/** serde_json's (ryu) float text: `1.0`, `0.1`, and exponent form outside [1e-5, 1e16). */
function jsonFloat(v: number): string {
  if (!Number.isFinite(v)) return "null";
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e16 || a < 1e-5)) return v.toExponential().replace("e+", "e");
  if (Object.is(v, -0)) return "-0.0";
  return Number.isInteger(v) ? v.toFixed(1) : String(v);
}

/** VRL's string rendering of any value (`to_string` semantics used by templates and `join`). */
export function displayString(v: VrlValue): string {
  switch (typeof v) {
    case "string":
      return v;
    case "bigint":
      return v.toString();
    case "number":
      return formatFloat(v);
    case "boolean":
      return v ? "true" : "false";
  }
  if (v === null) return "";
  if (v instanceof VrlTimestamp) return formatRfc3339(v);
  if (v instanceof VrlRegex) return v.source;
  return encodeJson(v);
}

/** VRL's debug rendering of a value (what `vector vrl` prints): strings quoted, regex as `r'…'`. */
export function displayValue(v: VrlValue): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null) return "null";
  if (v instanceof VrlTimestamp) return `t'${formatRfc3339(v)}'`;
  if (v instanceof VrlRegex) return `r'${v.source}'`;
  if (typeof v === "number") return formatFloat(v);
  // VRL's `Display`: `[1, 2]` and `{ "a": 1 }`, items rendered the same way.
  if (Array.isArray(v)) return `[${v.map(displayValue).join(", ")}]`;
  if (v instanceof Map) {
    const keys = sortedKeys(v);
    return keys.length === 0
      ? "{  }"
      : `{ ${keys.map((k) => `"${k}": ${displayValue(v.get(k)!)}`).join(", ")} }`;
  }
  return encodeJson(v);
}

/** Wraps to i64 the way VRL integer arithmetic does. */
export function i64(n: bigint): bigint {
  return BigInt.asIntN(64, n);
}
