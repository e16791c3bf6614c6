/**
 * GreptimeDB/PostgreSQL functions SQLite lacks, as one table of SQLite user functions registered on
 * every connection SQL runs on. Time functions take their column's unit as an extra argument that
 * the rewriter adds.
 */
import type { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";
import type { TimeUnit } from "../storage/datatypes.ts";
import {
  convertUnit,
  nsToUnit,
  parseIntervalNs,
  parseTimestampNs,
  timezoneOffsetMinutes,
  unitToNs,
} from "./time.ts";

type Arg = string | number | bigint | null | Uint8Array;
type Ret = string | number | bigint | null | Uint8Array;

interface ScalarDef {
  fn: (...args: Arg[]) => Ret;
  deterministic?: boolean;
  bigint?: boolean;
  /** Integral results are returned as SQLite integers (a JS number would bind as REAL). */
  int?: boolean;
}

const num = (v: Arg): number | null => (v === null || v instanceof Uint8Array ? null : Number(v));
const math1 = (f: (x: number) => number): ScalarDef => ({
  fn: (x) => {
    const n = num(x);
    if (n === null) return null;
    const r = f(n);
    return Number.isNaN(r) ? null : r;
  },
});
const str = (
  v: Arg,
): string | null => (v === null ? null : v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));
const big = (v: Arg): bigint | null => {
  if (v === null || v instanceof Uint8Array) return null;
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return BigInt(Math.trunc(v));
  const n = Number(v);
  return Number.isFinite(n) ? BigInt(Math.trunc(n)) : null;
};
const unitArg = (
  v: Arg,
): TimeUnit => (["s", "ms", "us", "ns"].includes(String(v)) ? (String(v) as TimeUnit) : "ms");

/** A timestamp argument (integer in `unit`, or a string) as nanoseconds. */
function toNs(v: Arg, unit: TimeUnit, tz?: string): bigint | null {
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

const TRUNC_FIELDS = [
  "microsecond",
  "millisecond",
  "second",
  "minute",
  "hour",
  "day",
  "week",
  "month",
  "quarter",
  "year",
];

function dateTrunc(field: string, ns: bigint, offsetMin: number): bigint {
  const f = field.toLowerCase().replace(/s$/, "");
  const fixed: Record<string, bigint> = {
    microsecond: 1_000n,
    millisecond: 1_000_000n,
    second: 1_000_000_000n,
    minute: 60_000_000_000n,
    hour: 3_600_000_000_000n,
  };
  const offNs = BigInt(offsetMin) * 60_000_000_000n;
  const local = ns + offNs;
  if (fixed[f]) {
    const d = fixed[f];
    const r = local % d;
    return local - (r < 0n ? r + d : r) - offNs;
  }
  const ms = Number(local / 1_000_000n) - (local % 1_000_000n < 0n ? 1 : 0);
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  let mo = d.getUTCMonth(), day = d.getUTCDate();
  if (f === "day") { /* keep */ }
  else if (f === "week") {
    const dow = (d.getUTCDay() + 6) % 7;
    day -= dow;
  } else if (f === "month") day = 1;
  else if (f === "quarter") {
    day = 1;
    mo = mo - (mo % 3);
  } else if (f === "year") {
    day = 1;
    mo = 0;
  } else {
    throw new Error(`Unsupported date_trunc field: ${field} (expected one of ${TRUNC_FIELDS.join(", ")})`);
  }
  return BigInt(Date.UTC(y, mo, day)) * 1_000_000n - offNs;
}

function datePart(field: string, ns: bigint): number | null {
  const ms = Number(ns / 1_000_000n);
  const d = new Date(ms);
  switch (field.toLowerCase()) {
    case "year":
      return d.getUTCFullYear();
    case "quarter":
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case "month":
      return d.getUTCMonth() + 1;
    case "week": {
      const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      const dayNum = (t.getUTCDay() + 6) % 7;
      t.setUTCDate(t.getUTCDate() - dayNum + 3);
      const firstThursday = new Date(Date.UTC(t.getUTCFullYear(), 0, 4));
      return 1 +
        Math.round(
          ((t.getTime() - firstThursday.getTime()) / 86400000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) /
            7,
        );
    }
    case "day":
      return d.getUTCDate();
    case "dow":
      return d.getUTCDay();
    case "doy":
      return Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
    case "hour":
      return d.getUTCHours();
    case "minute":
      return d.getUTCMinutes();
    case "second":
      return d.getUTCSeconds() + Number(ns % 1_000_000_000n) / 1e9;
    case "millisecond":
      return d.getUTCSeconds() * 1000 + d.getUTCMilliseconds();
    case "epoch":
      return Number(ns) / 1e9;
    default:
      return null;
  }
}

function strftime(fmt: string, ns: bigint): string {
  const d = new Date(Number(ns / 1_000_000n));
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return fmt.replace(/%([YmdHMSfzZjaAbBe%]|3f|6f|9f)/g, (_, c: string) => {
    switch (c) {
      case "Y":
        return String(d.getUTCFullYear());
      case "m":
        return p(d.getUTCMonth() + 1);
      case "d":
        return p(d.getUTCDate());
      case "e":
        return String(d.getUTCDate()).padStart(2, " ");
      case "H":
        return p(d.getUTCHours());
      case "M":
        return p(d.getUTCMinutes());
      case "S":
        return p(d.getUTCSeconds());
      case "3f":
        return p(d.getUTCMilliseconds(), 3);
      case "6f":
        return p(Number((ns % 1_000_000_000n) / 1000n), 6);
      case "9f":
      case "f":
        return p(Number(ns % 1_000_000_000n), 9);
      case "z":
        return "+0000";
      case "Z":
        return "UTC";
      case "j":
        return p(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1, 3);
      case "a":
        return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()];
      case "A":
        return ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][d.getUTCDay()];
      case "b":
        return d.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
      case "B":
        return d.toLocaleString("en-US", { month: "long", timeZone: "UTC" });
      default:
        return "%";
    }
  });
}

const ARROW_UNITS: Record<string, TimeUnit> = {
  second: "s",
  millisecond: "ms",
  microsecond: "us",
  nanosecond: "ns",
};

function arrowCast(v: Arg, target: string, srcUnit: TimeUnit): Ret {
  if (v === null) return null;
  const t = target.trim();
  const ts = /^Timestamp\((\w+)/i.exec(t);
  if (ts) {
    const unit = ARROW_UNITS[ts[1].toLowerCase()] ?? "ms";
    const ns = toNs(v, srcUnit);
    return ns === null ? null : nsToUnit(ns, unit);
  }
  if (/^(U?Int\d+)$/i.test(t)) {
    const b = big(v);
    return b;
  }
  if (/^Float\d+$/i.test(t)) return num(v);
  if (/^(Utf8|LargeUtf8|Utf8View)$/i.test(t)) return str(v);
  if (/^Boolean$/i.test(t)) return num(v) ? 1 : 0;
  throw new Error(`Unsupported arrow_cast type: ${target}`);
}

function regexpFlags(flags: Arg): string {
  return (str(flags) ?? "").replace(/[^imsu]/g, "");
}

const SCALARS: Record<string, ScalarDef> = {
  __petrel_now: {
    fn: (unit) => nsToUnit(BigInt(Date.now()) * 1_000_000n, unitArg(unit)),
    deterministic: false,
  },
  __petrel_date_bin: {
    bigint: true,
    fn: (interval, ts, origin) => {
      const i = big(interval), t = big(ts), o = big(origin ?? 0n) ?? 0n;
      if (i === null || t === null || i <= 0n) return null;
      const r = (t - o) % i;
      return t - (r < 0n ? r + i : r);
    },
  },
  __petrel_date_trunc: {
    bigint: true,
    fn: (field, ts, unit, tz) => {
      const u = unitArg(unit);
      const ns = toNs(ts, u, str(tz) ?? undefined);
      if (ns === null || field === null) return null;
      const off = timezoneOffsetMinutes(str(tz) ?? undefined, Number(ns / 1_000_000n));
      return nsToUnit(dateTrunc(String(field), ns, off), u);
    },
  },
  __petrel_date_part: {
    bigint: true,
    int: true,
    fn: (field, ts, unit, tz) => {
      const ns = toNs(ts, unitArg(unit), str(tz) ?? undefined);
      if (ns === null || field === null) return null;
      const off = BigInt(timezoneOffsetMinutes(str(tz) ?? undefined, Number(ns / 1_000_000n))) *
        60_000_000_000n;
      return datePart(String(field), ns + off);
    },
  },
  __petrel_to_unixtime: {
    bigint: true,
    fn: (v, unit, tz) => {
      const ns = toNs(v, unitArg(unit), str(tz) ?? undefined);
      return ns === null ? null : nsToUnit(ns, "s");
    },
  },
  __petrel_to_ts: {
    bigint: true,
    fn: (v, unit, tz) => {
      const ns = toNs(v, unitArg(unit), str(tz) ?? undefined);
      return ns === null ? null : nsToUnit(ns, unitArg(unit));
    },
  },
  __petrel_convert_unit: {
    bigint: true,
    fn: (v, from, to) => {
      const b = big(v);
      return b === null ? null : convertUnit(b, unitArg(from), unitArg(to));
    },
  },
  __petrel_interval: { fn: (text, unit) => nsToUnit(parseIntervalNs(String(text)), unitArg(unit)) },
  __petrel_arrow_cast: {
    bigint: true,
    fn: (v, type, unit) => arrowCast(v, String(type), unitArg(unit)),
  },
  __petrel_date_format: {
    bigint: true,
    fn: (ts, fmt, unit) => {
      const ns = toNs(ts, unitArg(unit));
      return ns === null || fmt === null ? null : strftime(String(fmt), ns);
    },
  },
  __petrel_nonzero: {
    bigint: true,
    fn: (v) => {
      if (v === 0 || v === 0n) throw new Error("Divide by zero error");
      return v;
    },
  },
  sqrt: math1(Math.sqrt),
  cbrt: math1(Math.cbrt),
  exp: math1(Math.exp),
  ln: math1(Math.log),
  log10: math1(Math.log10),
  log2: math1(Math.log2),
  log: {
    fn: (a, b) => {
      const x = num(a);
      if (x === null) return null;
      if (b === undefined) return Math.log10(x);
      const y = num(b);
      return y === null ? null : Math.log(y) / Math.log(x);
    },
  },
  pow: { fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.pow(num(a)!, num(b)!)) },
  power: { fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.pow(num(a)!, num(b)!)) },
  floor: math1(Math.floor),
  ceil: math1(Math.ceil),
  ceiling: math1(Math.ceil),
  trunc: math1(Math.trunc),
  sin: math1(Math.sin),
  cos: math1(Math.cos),
  tan: math1(Math.tan),
  asin: math1(Math.asin),
  acos: math1(Math.acos),
  atan: math1(Math.atan),
  atan2: { fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.atan2(num(a)!, num(b)!)) },
  sinh: math1(Math.sinh),
  cosh: math1(Math.cosh),
  tanh: math1(Math.tanh),
  degrees: math1((x) => (x * 180) / Math.PI),
  radians: math1((x) => (x * Math.PI) / 180),
  signum: math1(Math.sign),
  sign: math1(Math.sign),
  pi: { fn: () => Math.PI },
  isnan: { int: true, fn: (a) => (typeof a === "number" && Number.isNaN(a) ? 1 : 0) },
  greatest: { fn: (...a) => (a.some((x) => x === null) ? null : a.reduce((m, x) => (x! > m! ? x : m))) },
  least: { fn: (...a) => (a.some((x) => x === null) ? null : a.reduce((m, x) => (x! < m! ? x : m))) },
  strpos: { int: true, fn: (s, sub) => (s === null || sub === null ? null : str(s)!.indexOf(str(sub)!) + 1) },
  left: { fn: (s, n) => (s === null || n === null ? null : str(s)!.slice(0, Number(n))) },
  right: {
    fn: (s, n) => (s === null || n === null ? null : Number(n) <= 0 ? "" : str(s)!.slice(-Number(n))),
  },
  lpad: {
    fn: (
      s,
      n,
      p,
    ) => (s === null || n === null
      ? null
      : str(s)!.padStart(Number(n), str(p ?? " ") ?? " ").slice(0, Number(n))),
  },
  rpad: {
    fn: (
      s,
      n,
      p,
    ) => (s === null || n === null
      ? null
      : str(s)!.padEnd(Number(n), str(p ?? " ") ?? " ").slice(0, Number(n))),
  },
  starts_with: {
    int: true,
    fn: (s, p) => (s === null || p === null ? null : str(s)!.startsWith(str(p)!) ? 1 : 0),
  },
  ends_with: {
    int: true,
    fn: (s, p) => (s === null || p === null ? null : str(s)!.endsWith(str(p)!) ? 1 : 0),
  },
  split_part: {
    fn: (
      s,
      d,
      n,
    ) => (s === null || d === null || n === null ? null : str(s)!.split(str(d)!)[Number(n) - 1] ?? ""),
  },
  btrim: {
    fn: (s, chars) => {
      if (s === null) return null;
      const c = chars === undefined || chars === null ? " " : str(chars)!;
      let v = str(s)!;
      while (v.length > 0 && c.includes(v[0])) v = v.slice(1);
      while (v.length > 0 && c.includes(v[v.length - 1])) v = v.slice(0, -1);
      return v;
    },
  },
  initcap: {
    fn: (
      s,
    ) => (s === null
      ? null
      : str(s)!.toLowerCase().replace(/(^|[^a-zA-Z0-9])([a-z])/g, (_, a, b) => a + b.toUpperCase())),
  },
  reverse: { fn: (s) => (s === null ? null : [...str(s)!].reverse().join("")) },
  repeat: { fn: (s, n) => (s === null || n === null ? null : str(s)!.repeat(Math.max(0, Number(n)))) },
  char_length: { int: true, fn: (s) => (s === null ? null : [...str(s)!].length) },
  character_length: { int: true, fn: (s) => (s === null ? null : [...str(s)!].length) },
  octet_length: { int: true, fn: (s) => (s === null ? null : new TextEncoder().encode(str(s)!).length) },
  chr: { fn: (n) => (n === null ? null : String.fromCodePoint(Number(n))) },
  ascii: { int: true, fn: (s) => (s === null ? null : (str(s)!.codePointAt(0) ?? 0)) },
  md5: { fn: (s) => (s === null ? null : createHash("md5").update(str(s)!).digest("hex")) },
  to_hex: { fn: (n) => (n === null ? null : BigInt.asUintN(64, big(n)!).toString(16)) },
  regexp: {
    int: true,
    fn: (p, s) => (p === null || s === null ? null : new RegExp(str(p)!).test(str(s)!) ? 1 : 0),
  },
  regexp_like: {
    fn: (
      s,
      p,
      f,
    ) => (s === null || p === null
      ? null
      : new RegExp(str(p)!, regexpFlags(f ?? null)).test(str(s)!)
      ? 1
      : 0),
  },
  regexp_replace: {
    fn: (s, p, r, f) => {
      if (s === null || p === null || r === null) return null;
      const flags = regexpFlags(f ?? null) + ((str(f ?? null) ?? "").includes("g") ? "g" : "");
      return str(s)!.replace(new RegExp(str(p)!, flags), str(r)!.replace(/\\(\d)/g, "$$$1"));
    },
  },
  regexp_match: {
    fn: (s, p, f) => {
      if (s === null || p === null) return null;
      const m = new RegExp(str(p)!, regexpFlags(f ?? null)).exec(str(s)!);
      return m ? JSON.stringify(m.length > 1 ? m.slice(1) : [m[0]]) : null;
    },
  },
  uuid: { fn: () => crypto.randomUUID(), deterministic: false },
  version: { fn: () => "8.0.0-petrel" },
  database: { fn: () => null },
};

interface AggDef {
  start: () => unknown;
  step: (acc: unknown, ...args: Arg[]) => unknown;
  result: (acc: unknown) => Ret;
  inverse?: (acc: unknown, ...args: Arg[]) => unknown;
}

interface Moments {
  n: number;
  sum: number;
  sq: number;
}

const moments = (result: (m: Moments) => number | null): AggDef => ({
  start: () => ({ n: 0, sum: 0, sq: 0 }),
  step: (acc, v) => {
    const m = acc as Moments;
    const x = num(v);
    if (x !== null) {
      m.n++;
      m.sum += x;
      m.sq += x * x;
    }
    return m;
  },
  inverse: (acc, v) => {
    const m = acc as Moments;
    const x = num(v);
    if (x !== null) {
      m.n--;
      m.sum -= x;
      m.sq -= x * x;
    }
    return m;
  },
  result: (acc) => result(acc as Moments),
});
const varSamp = (m: Moments) => (m.n < 2 ? null : Math.max(0, (m.sq - (m.sum * m.sum) / m.n) / (m.n - 1)));
const varPop = (m: Moments) => (m.n < 1 ? null : Math.max(0, (m.sq - (m.sum * m.sum) / m.n) / m.n));

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const rank = p * (s.length - 1);
  const lo = Math.floor(rank), hi = Math.ceil(rank);
  return s[lo] + (s[hi] - s[lo]) * (rank - lo);
}

const collect = (result: (values: number[], p: number) => Ret): AggDef => ({
  start: () => ({ values: [] as number[], p: 0.5 }),
  step: (acc, v, p) => {
    const a = acc as { values: number[]; p: number };
    const x = num(v);
    if (x !== null) a.values.push(x);
    if (p !== undefined && p !== null) a.p = Number(p);
    return a;
  },
  result: (acc) => {
    const a = acc as { values: number[]; p: number };
    return result(a.values, a.p);
  },
});

const AGGREGATES: Record<string, AggDef> = {
  stddev: moments((m) => (varSamp(m) === null ? null : Math.sqrt(varSamp(m)!))),
  stddev_samp: moments((m) => (varSamp(m) === null ? null : Math.sqrt(varSamp(m)!))),
  stddev_pop: moments((m) => (varPop(m) === null ? null : Math.sqrt(varPop(m)!))),
  variance: moments(varSamp),
  var_samp: moments(varSamp),
  var_pop: moments(varPop),
  median: collect((v) => percentile(v, 0.5)),
  approx_median: collect((v) => percentile(v, 0.5)),
  approx_percentile_cont: collect((v, p) => percentile(v, p)),
  percentile_cont: collect((v, p) => percentile(v, p)),
  approx_distinct: {
    start: () => new Set<unknown>(),
    step: (acc, v) => {
      if (v !== null) (acc as Set<unknown>).add(typeof v === "object" ? String(v) : v);
      return acc;
    },
    result: (acc) => BigInt((acc as Set<unknown>).size),
  },
  bool_and: {
    start: () => null,
    step: (acc, v) => (v === null ? acc : (acc ?? 1) && num(v) ? 1 : 0),
    result: (acc) => acc as Ret,
  },
  bool_or: {
    start: () => null,
    step: (acc, v) => (v === null ? acc : acc === 1 || num(v) ? 1 : 0),
    result: (acc) => acc as Ret,
  },
  array_agg: {
    start: () => [] as unknown[],
    step: (acc, v) => {
      (acc as unknown[]).push(typeof v === "bigint" ? Number(v) : v);
      return acc;
    },
    result: (acc) => JSON.stringify(acc),
  },
};

/** Names of the functions this module provides, for the rewriter's checks. */
export const FUNCTION_NAMES = new Set([...Object.keys(SCALARS), ...Object.keys(AGGREGATES)]);

const registered = new WeakSet<DatabaseSync>();

/*
 * An exception thrown inside a user function hangs node:sqlite under Deno 2.9.6 (measured), so
 * every function catches, returns NULL, and parks the error here for the caller to rethrow.
 */
let parkedError: unknown = undefined;

/** Returns (and clears) the first error a user function raised since the last call. */
export function takeFunctionError(): unknown {
  const e = parkedError;
  parkedError = undefined;
  return e;
}

function guarded<A extends unknown[], R>(fn: (...args: A) => R, fallback: R): (...args: A) => R {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch (e) {
      parkedError ??= e;
      return fallback;
    }
  };
}

/** Registers the function table on a connection, once. */
export function registerSqlFunctions(db: DatabaseSync): void {
  if (registered.has(db)) return;
  registered.add(db);
  for (const [name, def] of Object.entries(SCALARS)) {
    const fn = def.int
      ? (...args: Arg[]) => {
        const r = def.fn(...args);
        return typeof r === "number" && Number.isInteger(r) ? BigInt(r) : r;
      }
      : def.fn;
    db.function(
      name,
      { deterministic: def.deterministic ?? true, varargs: true, useBigIntArguments: def.bigint ?? false },
      guarded(fn as (...args: unknown[]) => Ret, null),
    );
  }
  for (const [name, def] of Object.entries(AGGREGATES)) {
    db.aggregate(
      name,
      {
        start: def.start,
        step: def.step as (acc: unknown, ...args: unknown[]) => unknown,
        result: def.result as (acc: unknown) => Ret,
        ...(def.inverse ? { inverse: def.inverse as (acc: unknown, ...args: unknown[]) => unknown } : {}),
        varargs: true,
      } as Parameters<DatabaseSync["aggregate"]>[1],
    );
  }
}
