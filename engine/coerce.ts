/**
 * Coercion of engine values into transform column types (reference §7.5). Failures that
 * `on_failure` may handle throw `CoerceFailure`; the others throw a PetrelError directly.
 */
import type { DataType, Value } from "../src/common/rows.ts";
import { execError } from "./errors.ts";
import { parseRustFloat } from "./processors/cmcd.ts";
import { intCell, PROTO_TYPE_NAME, timestampCellOf } from "./types.ts";
import { formatFloat, isInteger, isObject, Timestamp, toCompactJson } from "./value.ts";
import { unitOfType } from "../src/common/time_unit.ts";

/** A coercion error that `on_failure: ignore|default` turns into null or a default. */
export class CoerceFailure extends Error {}

const INT_RANGE: Partial<Record<DataType, [bigint, bigint]>> = {
  Int8: [-128n, 127n],
  Int16: [-32768n, 32767n],
  Int32: [-2147483648n, 2147483647n],
  Int64: [-9223372036854775808n, 9223372036854775807n],
  UInt8: [0n, 255n],
  UInt16: [0n, 65535n],
  UInt32: [0n, 4294967295n],
  UInt64: [0n, 18446744073709551615n],
};
const NUM_RANGE: Partial<Record<DataType, [number, number]>> = Object.fromEntries(
  (Object.entries(INT_RANGE) as Array<[string, [bigint, bigint]]>).map((
    [k, [lo, hi]],
  ) => [k, [Number(lo), Number(hi)]]),
);

// Parses a decimal integer of at most 15 digits (always exact as a number); undefined otherwise.
function parseSmallInt(s: string): number | undefined {
  const len = s.length;
  if (len === 0 || len > 16) return undefined;
  let i = 0;
  let neg = false;
  const c0 = s.charCodeAt(0);
  if (c0 === 45 || c0 === 43) {
    neg = c0 === 45;
    i = 1;
    if (len === 1) return undefined;
  }
  if (len - i > 15) return undefined;
  let n = 0;
  for (; i < len; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return undefined;
    n = n * 10 + c;
  }
  return neg ? -n : n;
}

const SMALL_INTS = new Set<DataType>(["Int8", "Int16", "UInt8", "UInt16"]);

/** How a column reacts to coercion failures. */
export type OnFailure = "fail" | "ignore" | "default";

/** The zero value `on_failure: default` falls back to. */
export function zeroValue(t: DataType): Value {
  if (INT_RANGE[t] || t === "Float32" || t === "Float64") return 0;
  if (t === "Boolean") return false;
  if (t === "String") return "";
  return null;
}

/** Coerces `v` (not null/undefined) to `t`; `onFailure` matters only for timestamp columns here. */
export function coerce(v: unknown, t: DataType, onFailure: OnFailure): Value {
  if (typeof v === "string" && t === "String") return v;
  const unit = unitOfType(t);
  if (unit) return coerceTimestamp(v, unit, onFailure);
  const range = INT_RANGE[t];
  if (v instanceof Timestamp) {
    throw new CoerceFailure("Failed to coerce value: Timestamp can only be coerced to another type");
  }
  if (isObject(v) || Array.isArray(v)) {
    if (t === "Json") return toCompactJson(v);
    throw execError(
      `Can not coerce ${
        PROTO_TYPE_NAME[t]
      } to json type. we only consider object and array to be json types.`,
    );
  }
  if (t === "Json") {
    if (typeof v === "string") throw execError(`Failed to coerce string value '${v}' to type 'BINARY'`);
    throw execError("Can not coerce json type to BINARY");
  }
  if (typeof v === "number" && Number.isSafeInteger(v)) {
    // Fast path for the common case: no BigInt needed.
    const nr = NUM_RANGE[t];
    if (nr) {
      if (v < nr[0] || v > nr[1]) {
        throw new CoerceFailure(
          `Failed to coerce value: integer value \`${v}\` is out of range for ${PROTO_TYPE_NAME[t]}`,
        );
      }
      return v;
    }
    if (t === "Float64") return v;
    if (t === "Float32") return Math.fround(v);
    if (t === "Boolean") return v !== 0;
    if (t === "String") return String(v);
  }
  if (isInteger(v)) {
    const n = BigInt(v);
    if (range) {
      if (n < range[0] || n > range[1]) {
        throw new CoerceFailure(
          `Failed to coerce value: integer value \`${n}\` is out of range for ${PROTO_TYPE_NAME[t]}`,
        );
      }
      return intCell(n);
    }
    if (t === "Float32" || t === "Float64") return t === "Float32" ? Math.fround(Number(v)) : Number(v);
    if (t === "Boolean") return n !== 0n;
    return n.toString();
  }
  if (typeof v === "number") {
    if (range) {
      if (Number.isNaN(v)) return 0;
      const tr = Math.trunc(v);
      // Rust `as` casts saturate; the small types are not range-checked (quirk 5).
      if (SMALL_INTS.has(t)) return tr;
      const b = v >= 1.8446744073709552e19 || v <= -9.3e18 ? (v > 0 ? range[1] : range[0]) : BigInt(tr);
      return intCell(b < range[0] ? range[0] : b > range[1] ? range[1] : b);
    }
    if (t === "Float32") return Math.fround(v);
    if (t === "Float64") return v;
    if (t === "Boolean") return v !== 0;
    return formatFloat(v);
  }
  if (typeof v === "boolean") {
    if (range || t === "Float32" || t === "Float64") return v ? 1 : 0;
    if (t === "Boolean") return v;
    return v ? "true" : "false";
  }
  if (typeof v === "string") {
    if (range) {
      const fast = parseSmallInt(v);
      if (fast !== undefined) {
        const nr = NUM_RANGE[t]!;
        if (fast < nr[0] || fast > nr[1]) throw stringFailure(v, t);
        return fast;
      }
      if (!/^[+-]?[0-9]+$/.test(v)) throw stringFailure(v, t);
      const n = BigInt(v);
      if (n < range[0] || n > range[1]) throw stringFailure(v, t);
      return intCell(n);
    }
    if (t === "Float32" || t === "Float64") {
      const f = parseRustFloat(v);
      if (f === undefined) throw stringFailure(v, t);
      return t === "Float32" ? Math.fround(f) : f;
    }
    if (t === "Boolean") {
      if (v === "true") return true;
      if (v === "false") return false;
      throw stringFailure(v, t);
    }
    return v;
  }
  if (v instanceof Uint8Array) return t === "Binary" ? v : new TextDecoder().decode(v);
  throw new CoerceFailure(`Failed to coerce value: unsupported value ${String(v)}`);
}

function stringFailure(v: string, t: DataType): CoerceFailure {
  return new CoerceFailure(`Failed to coerce string value '${v}' to type '${PROTO_TYPE_NAME[t]}'`);
}

function coerceTimestamp(v: unknown, unit: "s" | "ms" | "us" | "ns", onFailure: OnFailure): Value {
  if (v instanceof Timestamp) return timestampCellOf(v, unit);
  if (isInteger(v)) return intCell(BigInt(v));
  const kind = typeof v === "number"
    ? "Float"
    : typeof v === "boolean"
    ? "Boolean"
    : typeof v === "string"
    ? "String"
    : undefined;
  if (kind === undefined) {
    throw execError(
      `Can not coerce ${PROTO_TYPE_NAME.TimestampNanosecond} to json type. we only consider object and array to be json types.`,
    );
  }
  if (onFailure === "ignore") return null;
  if (onFailure === "default") throw execError("Type: Default value not supported for Epoch");
  throw execError(`Type: ${kind} value not supported for Epoch`);
}
