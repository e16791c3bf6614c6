/**
 * GreptimeDB's `Decimal128(p, s)` as Petrel holds it: the unscaled integer (value × 10^s), which
 * SQLite stores as a 64-bit integer so comparisons, ORDER BY, min/max and sum stay exact and native.
 * Results render it as GreptimeDB's JSON does: a string with exactly `s` decimals (`"12.50"`).
 */
import type { DataType } from "./rows.ts";
import { invalidArguments } from "./errors.ts";

/** GreptimeDB's largest decimal precision (Decimal128). */
export const MAX_DECIMAL_PRECISION = 38;
/** `DECIMAL` without arguments (GreptimeDB's `decimal128_default_datatype`). */
export const DEFAULT_DECIMAL = { precision: 38, scale: 10 };

/** The precision and scale of a decimal type. */
export interface DecimalSpec {
  precision: number;
  scale: number;
}

const TYPE_RE = /^Decimal\((\d+), (\d+)\)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The data type name GreptimeDB shows (`Decimal(10, 2)`), after checking precision and scale. */
export function decimalType(precision: number, scale: number): DataType {
  if (
    !Number.isInteger(precision) || precision < 1 || precision > MAX_DECIMAL_PRECISION ||
    !Number.isInteger(scale) || scale < 0 || scale > precision
  ) {
    throw invalidArguments(
      `Invalid DECIMAL(${precision}, ${scale}): precision must be 1 to 38 and scale 0 to the precision`,
    );
  }
  return `Decimal(${precision}, ${scale})`;
}

/** The precision and scale of a decimal data type name, or undefined for any other type. */
export function decimalSpec(type: string): DecimalSpec | undefined {
  const m = TYPE_RE.exec(type);
  return m ? { precision: Number(m[1]), scale: Number(m[2]) } : undefined;
}

/** Whether a type is a decimal. */
export function isDecimalType(type: string): boolean {
  return type.startsWith("Decimal(");
}

const NUMBER_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A value as the unscaled integer of `spec`, rounded half away from zero to the scale (as
 * arrow's decimal casts do); fails when it needs more digits than the precision, or (Petrel's
 * storage limit) more than a 64-bit integer holds.
 */
export function toScaled(v: string | number | bigint | boolean, spec: DecimalSpec): bigint {
  const scaled = toScaledWide(v, spec);
  if (scaled > INT64_MAX || scaled < INT64_MIN) {
    throw invalidArguments(
      `Decimal value ${v} needs more than the 18 to 19 significant digits Petrel stores (a 64-bit integer at scale ${spec.scale})`,
    );
  }
  return scaled;
}

/**
 * A value as the unscaled integer of `spec`, rounded as {@link toScaled} does, checked against the
 * precision only: a query's decimals (casts, arithmetic) reach 38 digits, past what storage holds.
 */
export function toScaledWide(v: string | number | bigint | boolean, spec: DecimalSpec): bigint {
  const text = typeof v === "string" ? v.trim() : typeof v === "boolean" ? (v ? "1" : "0") : numberText(v);
  const m = NUMBER_RE.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) {
    throw invalidArguments(`Cannot parse '${v}' as Decimal(${spec.precision}, ${spec.scale})`);
  }
  const digits = m[2] + (m[3] ?? "");
  const exponent = Number(m[4] ?? 0) - (m[3] ?? "").length + spec.scale;
  let scaled: bigint;
  if (exponent >= 0) {
    if (exponent > 80) throw tooLarge(text, spec);
    scaled = BigInt(digits || "0") * 10n ** BigInt(exponent);
  } else {
    const cut = -exponent;
    const kept = cut >= digits.length ? "0" : digits.slice(0, digits.length - cut);
    const dropped = cut >= digits.length ? digits.padStart(cut, "0") : digits.slice(digits.length - cut);
    scaled = BigInt(kept) + (dropped[0] >= "5" ? 1n : 0n);
  }
  if (m[1] === "-") scaled = -scaled;
  const limit = 10n ** BigInt(spec.precision);
  if (scaled >= limit || scaled <= -limit) throw tooLarge(text, spec);
  return scaled;
}

function tooLarge(text: string, spec: DecimalSpec): Error {
  return invalidArguments(
    `Decimal value ${text} is too large to store in a Decimal128 of precision ${spec.precision}, scale ${spec.scale}`,
  );
}

/** A number's shortest round-trip text: the digits a SQL literal of up to 15 significant digits had. */
function numberText(v: number | bigint): string {
  return String(v);
}

/** The unscaled integer as GreptimeDB prints a decimal: exactly `scale` decimals. */
export function formatScaled(v: bigint, scale: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString();
  if (scale === 0) return (neg ? "-" : "") + digits;
  const padded = digits.padStart(scale + 1, "0");
  return `${neg ? "-" : ""}${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

/**
 * An unscaled integer as a SQL value: an SQLite integer while it fits 64 bits, else its digits as
 * text (the decimal functions read both; results render both with the column's scale).
 */
export function scaledToSql(v: bigint): bigint | string {
  return v > INT64_MAX || v < INT64_MIN ? v.toString() : v;
}

/** An unscaled integer from SQL (integer, or the digit text {@link scaledToSql} made), or null. */
export function scaledFromSql(v: unknown): bigint | null {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : null;
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}
