/** Argument and result shapes of the SQLite user functions, and conversions between them. */
import { parseTimestampNs } from "../time.ts";
import { type TimeUnit, unitToNs } from "../../common/time_unit.ts";

/** A value SQLite hands a user function. */
export type Arg = string | number | bigint | null | Uint8Array;
/** A value a user function may return. */
export type Ret = string | number | bigint | null | Uint8Array;

/** A scalar function of the table. */
export interface ScalarDef {
  fn: (...args: Arg[]) => Ret;
  deterministic?: boolean;
  bigint?: boolean;
  /** Integral results are returned as SQLite integers (a JS number would bind as REAL). */
  int?: boolean;
  /** Registered for exactly two arguments only, so SQLite's own one-argument form stays (`round`). */
  binary?: boolean;
  /** The fewest and most arguments the function takes; other counts fail the call. */
  args?: readonly [number, number];
}

/** A numeric argument, or null. */
export const num = (v: Arg): number | null => (v === null || v instanceof Uint8Array ? null : Number(v));
/** A one-argument math function that maps NaN to NULL. */
export const math1 = (f: (x: number) => number): ScalarDef => ({
  args: [1, 1],
  fn: (x) => {
    const n = num(x);
    if (n === null) return null;
    const r = f(n);
    return Number.isNaN(r) ? null : r;
  },
});
/** A text argument, or null. */
export const str = (
  v: Arg,
): string | null => (v === null ? null : v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));
/** An integer argument as bigint, or null. */
export const big = (v: Arg): bigint | null => {
  if (v === null || v instanceof Uint8Array) return null;
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return BigInt(Math.trunc(v));
  const n = Number(v);
  return Number.isFinite(n) ? BigInt(Math.trunc(n)) : null;
};
/** A time unit argument added by the rewriter. */
export const unitArg = (
  v: Arg,
): TimeUnit => (["s", "ms", "us", "ns"].includes(String(v)) ? (String(v) as TimeUnit) : "ms");

/** A timestamp argument (integer in `unit`, or a string) as nanoseconds. */
export function toNs(v: Arg, unit: TimeUnit, tz?: string): bigint | null {
  if (v === null) return null;
  if (typeof v === "string") {
    const ns = parseTimestampNs(v, tz);
    if (ns !== undefined) return ns;
    const n = Number(v);
    return Number.isFinite(n) ? unitToNs(BigInt(Math.trunc(n)), unit) : null;
  }
  const b = big(v);
  return b === null ? null : unitToNs(b, unit);
}

/** An aggregate function of the table. */
export interface AggDef {
  start: () => unknown;
  step: (acc: unknown, ...args: Arg[]) => unknown;
  result: (acc: unknown) => Ret;
  inverse?: (acc: unknown, ...args: Arg[]) => unknown;
  /** Integer arguments arrive as bigints (exact past 2^53). */
  bigint?: boolean;
  /** The fewest and most arguments the function takes; other counts fail the call. */
  args?: readonly [number, number];
}

/** Fails a call of `name` with an argument count outside `[min, max]`, as DataFusion refuses its plan. */
export function checkArgCount(name: string, count: number, [min, max]: readonly [number, number]): void {
  if (count >= min && count <= max) return;
  const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
  const one = max === 1 || (min === 1 && max === Infinity);
  throw new Error(`'${name}' expects ${expected} argument${one ? "" : "s"}, got ${count}`);
}
