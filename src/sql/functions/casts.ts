/**
 * The user functions behind CAST (rewrite/casts.ts): strict string parsing as DataFusion's casts
 * do, range-checked integers, dates as days, and decimals as unscaled integers.
 */
import { formatScaled, scaledToSql, toScaledWide } from "../../common/decimal.ts";
import { floorDiv, nsToUnit, timestampType } from "../../common/time_unit.ts";
import { parseBoolText, parseFloatText } from "../cast_values.ts";
import { INTEGER_RANGES } from "../../storage/datatypes.ts";
import { parseTimestampNs } from "../time.ts";
import { parseVectorText, vectorBytes } from "../../common/vector.ts";
import type { Arg, ScalarDef } from "./values.ts";
import { big, str, unitArg } from "./values.ts";

const DAY_NS = 86_400_000_000_000n;

function castInteger(v: Exclude<Arg, null>, target: string): bigint {
  let n: bigint;
  if (typeof v === "string") {
    const t = v.trim();
    if (!/^[+-]?\d+$/.test(t)) throw new Error(`Cannot cast string '${v}' to value of ${target} type`);
    n = BigInt(t);
  } else if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`Cannot cast ${v} to value of ${target} type`);
    n = BigInt(Math.trunc(v));
  } else if (typeof v === "bigint") n = v;
  else throw new Error(`Cannot cast binary to value of ${target} type`);
  const range = INTEGER_RANGES[target] ?? INTEGER_RANGES.Int64;
  if (n < range[0] || n > range[1]) throw new Error(`Can't cast value ${n} to type ${target}`);
  return n;
}

/** An integer a cast yields, failing as arrow's casts do past the 64-bit range. */
function inInt64(n: bigint | null, target: string): bigint | null {
  const [min, max] = INTEGER_RANGES.Int64;
  if (n !== null && (n < min || n > max)) throw new Error(`Can't cast value ${n} to type ${target}`);
  return n;
}

/** Scalar cast functions by name. */
export const CAST_SCALARS: Record<string, ScalarDef> = {
  __petrel_cast_number: {
    bigint: true,
    fn: (v, target) => {
      if (v === null) return null;
      const type = String(target);
      if (type.startsWith("Float") || type === "REAL") {
        if (typeof v === "string") {
          const f = parseFloatText(v);
          if (f === undefined) throw new Error(`Cannot cast string '${v}' to value of ${type} type`);
          return f;
        }
        if (v instanceof Uint8Array) throw new Error(`Cannot cast binary to value of ${type} type`);
        return Number(v);
      }
      const n = castInteger(v, type === "INTEGER" ? "Int64" : type);
      // UInt64 past 2^63 cannot be an SQLite integer: it goes on as its text
      return n > 2n ** 63n - 1n ? n.toString() : n;
    },
  },
  __petrel_to_bool: {
    fn: (v) => {
      if (v === null) return null;
      if (typeof v === "string") {
        const b = parseBoolText(v);
        if (b === undefined) throw new Error(`Cannot cast string '${v}' to value of Boolean type`);
        return b ? 1n : 0n;
      }
      if (v instanceof Uint8Array) throw new Error("Cannot cast binary to value of Boolean type");
      return Number(v) !== 0 ? 1n : 0n;
    },
  },
  __petrel_to_date: {
    bigint: true,
    fn: (v) => {
      if (v === null) return null;
      if (typeof v === "string") {
        const ns = parseTimestampNs(v, "UTC");
        if (ns === undefined) throw new Error(`Cannot cast string '${v}' to value of Date32 type`);
        return floorDiv(ns, DAY_NS);
      }
      return inInt64(big(v), "Date32");
    },
  },
  __petrel_cast_ts: {
    bigint: true,
    fn: (v, unit, tz) => {
      if (v === null) return null;
      if (typeof v === "string") {
        const ns = parseTimestampNs(v, str(tz) ?? undefined);
        if (ns === undefined) throw new Error(`Error parsing timestamp from '${v}'`);
        return nsToUnit(ns, unitArg(unit));
      }
      return inInt64(big(v), timestampType(unitArg(unit)));
    },
  },
  __petrel_to_decimal: {
    bigint: true,
    fn: (v, fromScale, precision, scale) => {
      if (v === null) return null;
      const spec = { precision: Number(precision), scale: Number(scale) };
      if (v instanceof Uint8Array) throw new Error(`Cannot cast binary to Decimal(${precision}, ${scale})`);
      const value = fromScale === null ? v : formatScaled(BigInt(v as bigint | string), Number(fromScale));
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw new Error(`Cannot cast ${value} to Decimal(${precision}, ${scale})`);
      }
      return scaledToSql(toScaledWide(value, spec));
    },
  },
  __petrel_to_vector: {
    fn: (v, dim) => {
      if (v === null) return null;
      const n = Number(dim);
      if (typeof v === "string") return vectorBytes(parseVectorText(v, n));
      if (!(v instanceof Uint8Array)) throw new Error(`Cannot cast ${v} to Vector(${n})`);
      if (v.length !== n * 4) throw new Error(`Cannot cast ${v.length} bytes to Vector(${n}): need ${n * 4}`);
      return v;
    },
  },
  // Json values are kept as their JSON text: a string must parse, a number is its own text.
  __petrel_to_json: {
    fn: (v) => {
      if (v === null) return null;
      if (v instanceof Uint8Array) throw new Error("Cannot cast binary to value of Json type");
      const text = str(v)!;
      try {
        JSON.parse(text);
      } catch {
        throw new Error(`Cannot cast string '${text}' to value of Json type`);
      }
      return text;
    },
  },
  __petrel_decimal_text: {
    bigint: true,
    fn: (v, scale) => (v === null ? null : formatScaled(BigInt(v as bigint | string), Number(scale))),
  },
};

/** The cast functions again as `<name>_or_null`: NULL where the cast fails (`TRY_CAST`). */
export const TRY_CAST_SCALARS: Record<string, ScalarDef> = Object.fromEntries(
  Object.entries(CAST_SCALARS).map(([name, def]) => [`${name}_or_null`, {
    ...def,
    fn: (...args: Arg[]) => {
      try {
        return def.fn(...args);
      } catch {
        return null;
      }
    },
  }]),
);
