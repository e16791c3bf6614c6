/**
 * The OTLP JSON mapping (OTLP spec "JSON Protobuf Encoding"): lowerCamelCase field names (the proto
 * names in snake_case are accepted too, as proto3 JSON parsers do), trace and span ids as hex, int64
 * and fixed64 as decimal strings or numbers, enums as numbers or names, `bytesValue` as base64, and
 * unknown fields ignored. Shared readers for values, attributes, resources and scopes.
 */
import type { AnyValue, InstrumentationScope, KeyValue, Resource } from "./model.ts";
import { MAX_VALUE_DEPTH } from "./pb_common.ts";
import { parseJsonBody } from "../../common/json_text.ts";

/** A body that is JSON but not the OTLP shape; the message names the field and what was wrong. */
export class OtlpShapeError extends Error {}

/** A JSON object. */
export type Obj = Record<string, unknown>;

/** Throws a shape error about `field` of `msg`. */
export function bad(msg: string, field: string, expected: string): never {
  throw new OtlpShapeError(`${msg}.${field}: expected ${expected}`);
}

/** The value of a field by its JSON name or its proto name (undefined when absent or null). */
export function field(o: Obj, camel: string, snake: string): unknown {
  const v = o[camel];
  if (v !== undefined && v !== null) return v;
  const w = o[snake];
  return w === null ? undefined : w;
}

/** `v` as an object (a shape error otherwise). */
export function asObj(v: unknown, msg: string): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new OtlpShapeError(`${msg}: expected an object`);
  }
  return v as Obj;
}

/** A repeated field: an array of objects (absent → empty). */
export function objs(o: Obj, camel: string, snake: string, msg: string): Obj[] {
  const v = field(o, camel, snake);
  if (v === undefined) return [];
  if (!Array.isArray(v)) bad(msg, camel, "an array");
  for (const x of v) {
    if (typeof x !== "object" || x === null || Array.isArray(x)) bad(msg, camel, "an array of objects");
  }
  return v as Obj[];
}

/** A string field (absent → ""). */
export function str(o: Obj, camel: string, snake: string, msg: string): string {
  const v = field(o, camel, snake);
  if (v === undefined) return "";
  if (typeof v !== "string") bad(msg, camel, "a string");
  return v;
}

/** A bool field (absent → false). */
export function bool(o: Obj, camel: string, snake: string, msg: string): boolean {
  const v = field(o, camel, snake);
  if (v === undefined) return false;
  if (typeof v !== "boolean") bad(msg, camel, "a boolean");
  return v;
}

const DIGITS = /^-?[0-9]+$/;

/** A 64-bit integer field exactly (absent → 0n); number or decimal string. */
export function int64Big(o: Obj, camel: string, snake: string, msg: string, unsigned = true): bigint {
  const v = field(o, camel, snake);
  if (v === undefined) return 0n;
  let b: bigint;
  if (typeof v === "string" && DIGITS.test(v)) b = BigInt(v);
  else if (typeof v === "number" && Number.isInteger(v)) b = BigInt(v);
  else bad(msg, camel, "an integer (number or decimal string)");
  if (unsigned ? (b < 0n || b > 0xffffffffffffffffn) : (b < -(2n ** 63n) || b >= 2n ** 63n)) {
    bad(msg, camel, unsigned ? "a uint64" : "an int64");
  }
  return b;
}

/** A 64-bit integer field as a number (counts; absent → 0). */
export function int64Num(o: Obj, camel: string, snake: string, msg: string): number {
  const v = field(o, camel, snake);
  if (v === undefined) return 0;
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && DIGITS.test(v)) return Number(v);
  bad(msg, camel, "an integer (number or decimal string)");
}

/** A 32-bit integer field (absent → 0). */
export function int32(o: Obj, camel: string, snake: string, msg: string): number {
  const v = field(o, camel, snake);
  if (v === undefined) return 0;
  const n = typeof v === "string" && DIGITS.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < -2147483648 || n > 4294967295) {
    bad(msg, camel, "a 32-bit integer");
  }
  return n;
}

/** A double: a number, or a string holding a number, `NaN`, `Infinity` or `-Infinity`. */
export function toDouble(v: unknown, msg: string, name: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "string") {
    if (v === "NaN") return NaN;
    if (v === "Infinity") return Infinity;
    if (v === "-Infinity") return -Infinity;
    const n = Number(v);
    if (v.trim() !== "" && !Number.isNaN(n)) return n;
  }
  bad(msg, name, "a number");
}

/** A double field (absent → `dflt`). */
export function double<T extends number | null>(o: Obj, camel: string, snake: string, msg: string, dflt: T) {
  const v = field(o, camel, snake);
  return v === undefined ? dflt : toDouble(v, msg, camel);
}

/** An enum field by number or by name (`names[i]` is the name of value i; absent → 0). */
export function enumField(
  o: Obj,
  camel: string,
  snake: string,
  msg: string,
  names: readonly string[],
): number {
  const v = field(o, camel, snake);
  if (v === undefined) return 0;
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string") {
    const i = names.indexOf(v);
    if (i >= 0) return i;
    if (DIGITS.test(v)) return Number(v);
  }
  bad(msg, camel, `an enum number or one of ${names.join(", ")}`);
}

const HEX_ID = /^(?:[0-9a-fA-F]{2})*$/;

/** A trace or span id: hex in JSON, returned lowercase ("" when absent). */
export function hexId(o: Obj, camel: string, snake: string, msg: string): string {
  const v = field(o, camel, snake);
  if (v === undefined) return "";
  if (typeof v !== "string" || !HEX_ID.test(v)) bad(msg, camel, "a hex string");
  return v.toLowerCase();
}

const B64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function base64(v: unknown, msg: string): Uint8Array {
  if (typeof v !== "string" || !B64.test(v)) bad(msg, "bytesValue", "base64");
  let s = v.replace(/-/g, "+").replace(/_/g, "/");
  while (s.length % 4 !== 0) s += "=";
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    bad(msg, "bytesValue", "base64");
  }
}

/** An AnyValue object. */
export function anyValue(v: unknown, depth: number): AnyValue {
  const o = asObj(v, "AnyValue");
  if (o.stringValue !== undefined || o.string_value !== undefined) {
    return { type: "string", value: str(o, "stringValue", "string_value", "AnyValue") };
  }
  if (o.intValue !== undefined || o.int_value !== undefined) {
    const b = int64Big(o, "intValue", "int_value", "AnyValue", false);
    const n = Number(b);
    return { type: "int", value: Number.isSafeInteger(n) ? n : b };
  }
  if (o.doubleValue !== undefined || o.double_value !== undefined) {
    return { type: "double", value: double(o, "doubleValue", "double_value", "AnyValue", 0) };
  }
  if (o.boolValue !== undefined || o.bool_value !== undefined) {
    return { type: "bool", value: bool(o, "boolValue", "bool_value", "AnyValue") };
  }
  if (depth >= MAX_VALUE_DEPTH) throw new OtlpShapeError(`AnyValue nested deeper than ${MAX_VALUE_DEPTH}`);
  const arr = field(o, "arrayValue", "array_value");
  if (arr !== undefined) {
    const values = objs(asObj(arr, "AnyValue.arrayValue"), "values", "values", "ArrayValue");
    return { type: "array", value: values.map((x) => anyValue(x, depth + 1)) };
  }
  const kv = field(o, "kvlistValue", "kvlist_value");
  if (kv !== undefined) {
    return {
      type: "kvlist",
      value: keyValues(asObj(kv, "AnyValue.kvlistValue"), "values", "values", depth + 1),
    };
  }
  const bytes = field(o, "bytesValue", "bytes_value");
  if (bytes !== undefined) return { type: "bytes", value: base64(bytes, "AnyValue") };
  return { type: "empty" };
}

const EMPTY: AnyValue = { type: "empty" };

/** A repeated KeyValue field. */
export function keyValues(o: Obj, camel: string, snake: string, depth = 0): KeyValue[] {
  const list = objs(o, camel, snake, "attributes");
  const out: KeyValue[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const kv = list[i];
    const key = kv.key;
    if (typeof key !== "string") bad("KeyValue", "key", "a string");
    const v = kv.value;
    out[i] = { key, value: v === undefined || v === null ? EMPTY : anyValue(v, depth) };
  }
  return out;
}

/** A `resource` field (absent → empty resource). */
export function resource(o: Obj): Resource {
  const v = o.resource;
  if (v === undefined || v === null) return { attributes: [], droppedAttributesCount: 0 };
  const r = asObj(v, "resource");
  return {
    attributes: keyValues(r, "attributes", "attributes"),
    droppedAttributesCount: int32(r, "droppedAttributesCount", "dropped_attributes_count", "Resource"),
  };
}

/** A `scope` field (absent → empty scope). */
export function scope(o: Obj): InstrumentationScope {
  const v = o.scope;
  if (v === undefined || v === null) {
    return { name: "", version: "", attributes: [], droppedAttributesCount: 0 };
  }
  const s = asObj(v, "scope");
  return {
    name: str(s, "name", "name", "InstrumentationScope"),
    version: str(s, "version", "version", "InstrumentationScope"),
    attributes: keyValues(s, "attributes", "attributes"),
    droppedAttributesCount: int32(
      s,
      "droppedAttributesCount",
      "dropped_attributes_count",
      "InstrumentationScope",
    ),
  };
}

/** Parses JSON text into the top-level object of an export request. */
export function parseTop(text: string): Obj {
  let v: unknown;
  try {
    v = parseJsonBody(text);
  } catch (e) {
    throw new OtlpShapeError(`invalid JSON: ${(e as Error).message}`);
  }
  return asObj(v, "request");
}
