/**
 * Time units of timestamp columns and the conversions between them. Every conversion to a coarser
 * unit floors (toward the past, also before 1970), as GreptimeDB's timestamps do.
 */
import type { DataType } from "./rows.ts";

/** Time units of timestamp columns. */
export type TimeUnit = "s" | "ms" | "us" | "ns";

/** Nanoseconds in one of each unit. */
export const NS_PER_UNIT: Readonly<Record<TimeUnit, bigint>> = {
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  ns: 1n,
};

/** How many of a unit make one second. */
export const UNITS_PER_SECOND: Readonly<Record<TimeUnit, number>> = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };

const UNIT_OF: Readonly<Record<string, TimeUnit>> = {
  TimestampSecond: "s",
  TimestampMillisecond: "ms",
  TimestampMicrosecond: "us",
  TimestampNanosecond: "ns",
};

const TYPE_OF: Readonly<Record<TimeUnit, DataType>> = {
  s: "TimestampSecond",
  ms: "TimestampMillisecond",
  us: "TimestampMicrosecond",
  ns: "TimestampNanosecond",
};

/** The unit of a timestamp type, or undefined for any other type. */
export function unitOfType(type: string): TimeUnit | undefined {
  return UNIT_OF[type];
}

/** The unit of a timestamp type (milliseconds for anything else). */
export function unitOf(type: string): TimeUnit {
  return UNIT_OF[type] ?? "ms";
}

/** The timestamp type of a unit. */
export function timestampType(unit: TimeUnit): DataType {
  return TYPE_OF[unit];
}

/** The coarsest of some units (`ms` of `ms` and `ns`): where DataFusion makes timestamps of them meet. */
export function coarsestUnit(units: readonly TimeUnit[]): TimeUnit {
  return units.reduce((a, b) => (NS_PER_UNIT[a] >= NS_PER_UNIT[b] ? a : b));
}

/** `a / b` rounded toward negative infinity. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n) && ((a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Nanoseconds as an integer in a unit, floored. */
export function nsToUnit(ns: bigint, unit: TimeUnit): bigint {
  return unit === "ns" ? ns : floorDiv(ns, NS_PER_UNIT[unit]);
}

/** An integer in a unit as nanoseconds. */
export function unitToNs(v: bigint, unit: TimeUnit): bigint {
  return v * NS_PER_UNIT[unit];
}

/** An integer from one unit to another (floored when coarsening). */
export function convertUnit(v: bigint, from: TimeUnit, to: TimeUnit): bigint {
  return from === to ? v : nsToUnit(unitToNs(v, from), to);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An integer time rescaled from `from` to `to` units per second (floored), as a number when exactly
 * representable, else a bigint. Factors are passed in so a column's conversion is looked up once.
 */
export function rescaleTime(v: number | bigint, from: bigint, to: bigint): number | bigint {
  const x = BigInt(v) * to;
  let q = x / from;
  if (q * from !== x && x < 0n) q -= 1n;
  return q <= SAFE && q >= -SAFE ? Number(q) : q;
}

/** An integer time in a unit as whole epoch milliseconds, floored (a time before 1970 too). */
export function toEpochMs(v: number | bigint, unit: TimeUnit): number {
  switch (unit) {
    case "ms":
      return typeof v === "bigint" ? Number(v) : Math.floor(v);
    case "s":
      return typeof v === "bigint" ? Number(v) * 1000 : Math.floor(v * 1000);
    default:
      if (typeof v === "bigint") return Number(floorDiv(v, 1_000_000n / NS_PER_UNIT[unit]));
      return Math.floor(v / (unit === "us" ? 1e3 : 1e6));
  }
}

/** Epoch milliseconds (possibly fractional) as an integer in a unit: floored to seconds, else rounded. */
export function msToUnit(ms: number, unit: TimeUnit): bigint {
  switch (unit) {
    case "s":
      return BigInt(Math.floor(ms / 1000));
    case "ms":
      return BigInt(Math.floor(ms));
    case "us":
      return BigInt(Math.round(ms * 1000));
    case "ns":
      return BigInt(Math.round(ms * 1000)) * 1000n;
  }
}
