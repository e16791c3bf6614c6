/**
 * The engine's value model (reference §2): entries are plain JS objects; integers are safe-integer
 * numbers or bigints, floats are non-integer numbers, and instants are `Timestamp` values with
 * nanosecond precision (what the `date`/`epoch` processors and VRL produce).
 */

/** One log entry as processors see it. */
export type Entry = Record<string, unknown>;

/** A UTC instant with nanosecond precision: floor epoch milliseconds plus 0..999_999 ns. */
export class Timestamp {
  constructor(readonly ms: number, readonly subMs: number = 0) {}

  /** The instant `ns` nanoseconds after the epoch. */
  static fromNs(ns: bigint): Timestamp {
    let ms = ns / 1_000_000n;
    let r = ns % 1_000_000n;
    if (r < 0n) {
      ms -= 1n;
      r += 1_000_000n;
    }
    return new Timestamp(Number(ms), Number(r));
  }

  #ns: bigint | undefined = undefined;

  /** Nanoseconds since the epoch (computed once: shared timestamps are common). */
  get ns(): bigint {
    return this.#ns ??= this.subMs === 0
      ? BigInt(this.ms) * 1_000_000n
      : BigInt(this.ms) * 1_000_000n + BigInt(this.subMs);
  }

  /** RFC 3339 in UTC with automatic sub-second digits (0, 3, 6 or 9), as chrono's `AutoSi` prints. */
  toRfc3339(zulu = true): string {
    const secs = Math.floor(this.ms / 1000);
    const subNs = (this.ms - secs * 1000) * 1_000_000 + this.subMs;
    const iso = new Date(secs * 1000).toISOString().slice(0, 19);
    let frac = "";
    if (subNs !== 0) {
      if (subNs % 1_000_000 === 0) frac = "." + String(subNs / 1_000_000).padStart(3, "0");
      else if (subNs % 1000 === 0) frac = "." + String(subNs / 1000).padStart(6, "0");
      else frac = "." + String(subNs).padStart(9, "0");
    }
    return iso + frac + (zulu ? "Z" : "+00:00");
  }
}

const I64_LIMIT = 9.223372036854776e18;

/** True when `v` is an engine Integer (i64): a bigint or an integral number within i64 range. */
export function isInteger(v: unknown): v is number | bigint {
  return typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v) && Math.abs(v) < I64_LIMIT);
}

/** True when `v` is an engine Float: a number that is not an i64 integer. */
export function isFloat(v: unknown): v is number {
  return typeof v === "number" && !(Number.isInteger(v) && Math.abs(v) < I64_LIMIT);
}

/** True for plain objects (entries and nested maps), false for arrays, timestamps and null. */
export function isObject(v: unknown): v is Entry {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Timestamp) &&
    !(v instanceof Uint8Array);
}

/** Rust `f64` Display: shortest round-trip digits, never exponent notation. */
export function formatFloat(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (f === Infinity) return "inf";
  if (f === -Infinity) return "-inf";
  if (Object.is(f, -0)) return "-0";
  const s = String(f);
  const e = s.indexOf("e");
  if (e < 0) return s;
  // Expand exponent notation by shifting the decimal point of the mantissa digits.
  const neg = s[0] === "-";
  const mant = s.slice(neg ? 1 : 0, e);
  const exp = Number(s.slice(e + 1));
  const dot = mant.indexOf(".");
  const digits = mant.replace(".", "");
  const pointPos = (dot < 0 ? mant.length : dot) + exp;
  let out: string;
  if (pointPos <= 0) out = "0." + "0".repeat(-pointPos) + digits;
  else if (pointPos >= digits.length) out = digits + "0".repeat(pointPos - digits.length);
  else out = digits.slice(0, pointPos) + "." + digits.slice(pointPos);
  return (neg ? "-" : "") + out;
}

/** VRL's `to_string_lossy` (reference §2): how hints, join and suffixes stringify values. */
export function toStringLossy(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return isInteger(v) ? String(v) : formatFloat(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v === null || v === undefined) return "<null>";
  if (v instanceof Timestamp) return v.toRfc3339();
  return toCompactJson(v);
}

/** Compact JSON with object keys sorted (VRL objects are BTreeMaps); timestamps as RFC 3339 strings. */
export function toCompactJson(v: unknown, zuluTimestamps = true): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return "null";
    return isInteger(v) ? String(v) : formatFloat(v);
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof Timestamp) return JSON.stringify(v.toRfc3339(zuluTimestamps));
  if (v instanceof Uint8Array) return JSON.stringify(new TextDecoder().decode(v));
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i ? "," : "") + toCompactJson(v[i], zuluTimestamps);
    return out + "]";
  }
  const o = v as Entry;
  const keys = Object.keys(o);
  if (keys.length > 1) keys.sort(compareKeys);
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    out += (i ? "," : "") + JSON.stringify(keys[i]) + ":" + toCompactJson(o[keys[i]], zuluTimestamps);
  }
  return out + "}";
}

/** Byte-order comparison of keys (BTreeMap order); UTF-16 order equals it outside astral planes. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rust-debug-like rendering of a value for "expect string value, but got …" messages. */
export function debugRepr(v: unknown): string {
  if (typeof v === "string") return `Bytes(${JSON.stringify(v)})`;
  if (typeof v === "bigint") return `Integer(${v})`;
  if (typeof v === "number") return isInteger(v) ? `Integer(${v})` : `Float(${formatFloat(v)})`;
  if (typeof v === "boolean") return `Boolean(${v})`;
  if (v === null || v === undefined) return "Null";
  if (v instanceof Timestamp) return `Timestamp(${v.toRfc3339()})`;
  if (Array.isArray(v)) return `Array(${toCompactJson(v)})`;
  return `Object(${toCompactJson(v)})`;
}

/** VRL kind name of a value (`string`, `integer`, `float`, `boolean`, `timestamp`, `map`, `array`, `null`). */
export function kindName(v: unknown): string {
  if (typeof v === "string") return "string";
  if (isInteger(v)) return "integer";
  if (typeof v === "number") return "float";
  if (typeof v === "boolean") return "boolean";
  if (v === null || v === undefined) return "null";
  if (v instanceof Timestamp) return "timestamp";
  if (Array.isArray(v)) return "array";
  return "map";
}

/** Copies a JSON-like value deeply (used where GreptimeDB clones, e.g. dispatcher fan-out). */
export function deepClone<T>(v: T): T {
  if (v === null || typeof v !== "object" || v instanceof Timestamp) return v;
  if (Array.isArray(v)) return v.map(deepClone) as T;
  if (v instanceof Uint8Array) return v.slice() as T;
  const out: Entry = {};
  for (const k in v as Entry) out[k] = deepClone((v as Entry)[k]);
  return out as T;
}
