/** Type assertions (`string`, `int`, …), predicates (`is_*`) and coercions (`to_*`). */

import { compileRegex } from "../regex.ts";
import { isSubset, K, t } from "../types.ts";
import { formatFloat, formatRfc3339, kindOf, VrlTimestamp, type VrlValue } from "../value.ts";
import { type ArgInfo, fail, type FnDef, kindBit, opt, req } from "./def.ts";

const notSubset = (kind: number) => (a: (ArgInfo | undefined)[]) => !!a[0] && !isSubset(a[0].type, kind);

function assertion(kind: number, name: string): FnDef {
  return {
    params: [req("value", K.ANY)],
    returns: kind,
    fallibleFor: notSubset(kind),
    call: ([v]) => (kindBit(v!) & kind ? v! : fail(`expected ${name}, got ${kindOf(v!)}`)),
  };
}

function predicate(test: (v: VrlValue) => boolean): FnDef {
  return { params: [req("value", K.ANY)], returns: K.BOOLEAN, call: ([v]) => test(v!) };
}

/** Integer from a decimal string, as Rust's `i64::from_str`. */
export function parseIntStrict(s: string): bigint | null {
  if (!/^[+-]?\d+$/.test(s)) return null;
  const n = BigInt(s);
  return BigInt.asIntN(64, n) === n ? n : null;
}

/** Float from a string, as Rust's `f64::from_str` (accepts `inf`, `NaN` is rejected by VRL). */
export function parseFloatStrict(s: string): number | null {
  if (/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(s)) return Number(s);
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  return null;
}

function toInt(v: VrlValue): VrlValue {
  switch (typeof v) {
    case "bigint":
      return v;
    case "number":
      // Rust's `as i64`: truncates, saturates at the bounds, NaN becomes 0.
      if (Number.isNaN(v)) return 0n;
      if (v >= 9223372036854775807) return 9223372036854775807n;
      if (v <= -9223372036854775808) return -9223372036854775808n;
      return BigInt(Math.trunc(v));
    case "boolean":
      return v ? 1n : 0n;
    case "string": {
      const n = parseIntStrict(v);
      return n ?? fail(`Invalid integer "${v}": invalid digit found in string`);
    }
  }
  if (v === null) return 0n;
  if (v instanceof VrlTimestamp) {
    return v.ns / 1_000_000_000n - (v.ns < 0n && v.ns % 1_000_000_000n !== 0n ? 1n : 0n);
  }
  return fail(`unable to coerce ${kindOf(v)} into integer`);
}

function toFloat(v: VrlValue): VrlValue {
  switch (typeof v) {
    case "bigint":
      return Number(v);
    case "number":
      return v;
    case "boolean":
      return v ? 1 : 0;
    case "string": {
      const n = parseFloatStrict(v);
      return n ?? fail(`Invalid floating point number "${v}": invalid float literal`);
    }
  }
  if (v === null) return 0;
  if (v instanceof VrlTimestamp) return Number(v.ns) / 1e9;
  return fail(`unable to coerce ${kindOf(v)} into float`);
}

const TRUE = new Set(["true", "t", "yes", "y", "1"]);
const FALSE = new Set(["false", "f", "no", "n", "0"]);

function toBool(v: VrlValue): VrlValue {
  switch (typeof v) {
    case "boolean":
      return v;
    case "bigint":
      return v !== 0n;
    case "number":
      return v !== 0;
    case "string": {
      const s = v.toLowerCase();
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
      return fail(`Invalid boolean value "${v}"`);
    }
  }
  if (v === null) return false;
  return fail(`unable to coerce ${kindOf(v)} into boolean`);
}

/** `to_string` semantics for scalars; containers and regexes are errors. */
export function toStringValue(v: VrlValue): string {
  switch (typeof v) {
    case "string":
      return v;
    case "bigint":
      return v.toString();
    case "number":
      return formatFloat(v);
    case "boolean":
      return String(v);
  }
  if (v === null) return "";
  if (v instanceof VrlTimestamp) return formatRfc3339(v);
  return fail(`unable to coerce ${kindOf(v)} into string`);
}

function isJson(s: string, variant?: string): boolean {
  try {
    const v = JSON.parse(s);
    if (!variant) return true;
    switch (variant) {
      case "object":
        return v !== null && typeof v === "object" && !Array.isArray(v);
      case "array":
        return Array.isArray(v);
      case "string":
        return typeof v === "string";
      case "number":
        return typeof v === "number";
      case "bool":
        return typeof v === "boolean";
      case "null":
        return v === null;
    }
    return false;
  } catch {
    return false;
  }
}

/** Type functions by name. */
export const TYPE_FNS: Record<string, FnDef> = {
  string: assertion(K.BYTES, "string"),
  int: assertion(K.INTEGER, "integer"),
  float: assertion(K.FLOAT, "float"),
  bool: assertion(K.BOOLEAN, "boolean"),
  object: assertion(K.OBJECT, "object"),
  array: assertion(K.ARRAY, "array"),
  timestamp: assertion(K.TIMESTAMP, "timestamp"),
  is_string: predicate((v) => typeof v === "string"),
  is_integer: predicate((v) => typeof v === "bigint"),
  is_float: predicate((v) => typeof v === "number"),
  is_boolean: predicate((v) => typeof v === "boolean"),
  is_null: predicate((v) => v === null),
  is_object: predicate((v) => v instanceof Map),
  is_array: predicate((v) => Array.isArray(v)),
  is_timestamp: predicate((v) => v instanceof VrlTimestamp),
  is_regex: predicate((v) => kindOf(v) === "regex"),
  is_nullish: predicate((v) => v === null || (typeof v === "string" && (v === "-" || v.trim() === ""))),
  is_empty: {
    params: [req("value", K.BYTES | K.ARRAY | K.OBJECT)],
    returns: K.BOOLEAN,
    call: (
      [v],
    ) => (typeof v === "string" || Array.isArray(v)
      ? v.length === 0
      : (v as Map<string, VrlValue>).size === 0),
  },
  is_json: {
    params: [req("value", K.BYTES), opt("variant", K.BYTES)],
    returns: K.BOOLEAN,
    call: ([v, variant]) => isJson(v as string, variant as string | undefined),
  },
  to_string: {
    params: [req("value", K.ANY)],
    returns: K.BYTES,
    fallibleFor: (a) => !isSubset(a[0]!.type, K.SCALAR),
    call: ([v]) => toStringValue(v!),
  },
  to_int: {
    params: [req("value", K.ANY)],
    returns: K.INTEGER,
    fallibleFor: (a) => !isSubset(a[0]!.type, K.INTEGER | K.FLOAT | K.BOOLEAN | K.NULL | K.TIMESTAMP),
    call: ([v]) => toInt(v!),
  },
  to_float: {
    params: [req("value", K.ANY)],
    returns: K.FLOAT,
    fallibleFor: (a) => !isSubset(a[0]!.type, K.INTEGER | K.FLOAT | K.BOOLEAN | K.NULL | K.TIMESTAMP),
    call: ([v]) => toFloat(v!),
  },
  to_bool: {
    params: [req("value", K.ANY)],
    returns: K.BOOLEAN,
    fallibleFor: (a) => !isSubset(a[0]!.type, K.INTEGER | K.FLOAT | K.BOOLEAN | K.NULL),
    call: ([v]) => toBool(v!),
  },
  to_regex: {
    params: [req("value", K.BYTES)],
    returns: t(K.REGEX),
    fallible: true,
    call: ([v]) => {
      try {
        return compileRegex(v as string);
      } catch (e) {
        return fail(`could not create regex: ${(e as Error).message}`);
      }
    },
  },
};
