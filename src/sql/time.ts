/** Timestamp strings, timezones and intervals of the SQL dialect, as integers in a time unit. */
import { parseDurationMs } from "../storage/options.ts";
import { lenientTimeZone } from "../common/timezone.ts";
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import { nsToUnit, type TimeUnit } from "../common/time_unit.ts";

const TS_RE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

/** The offset of a timezone (`UTC`, `+08:00`, `Asia/Shanghai`) at an instant, in minutes east of UTC. */
export function timezoneOffsetMinutes(tz: string | undefined, atMs: number): number {
  if (!tz) return 0;
  const t = tz.trim();
  if (t === "" || /^(utc|z|gmt)$/i.test(t)) return 0;
  const m = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(t);
  if (m) {
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
    // chrono's FixedOffset, which GreptimeDB builds, holds less than a day
    if (minutes >= 24 * 60) throw invalidArguments(`Invalid timezone: ${tz}`);
    return (m[1] === "-" ? -1 : 1) * minutes;
  }
  const zone = lenientTimeZone(t);
  if (!zone) throw invalidArguments(`Invalid timezone: ${tz}`);
  return Math.round(zone.offsetAt(atMs) / 60000);
}

/** Validates a timezone name; throws 1004 for unknown ones. */
export function checkTimezone(tz: string): void {
  timezoneOffsetMinutes(tz, Date.now());
}

/**
 * A valid timezone as GreptimeDB shows it (`timezone()`, `SHOW VARIABLES time_zone`): an offset as
 * `±HH:MM` (`+8:00` → `+08:00`, chrono's FixedOffset), a name as written. Throws 1004 for unknown ones.
 */
export function canonicalTimezone(tz: string): string {
  const offset = timezoneOffsetMinutes(tz, Date.now());
  if (!/^[+-]\d{1,2}:?(\d{2})?$/.test(tz.trim())) return tz;
  // `+05:75` is the offset of 6 h 15 min, which chrono prints `+06:15`
  const abs = Math.abs(offset), two = (n: number) => String(n).padStart(2, "0");
  return `${offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** Parses a timestamp string into nanoseconds since the epoch; undefined if it is not one. */
export function parseTimestampNs(text: string, timezone?: string): bigint | undefined {
  const m = TS_RE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const baseMs = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
  );
  if (Number.isNaN(baseMs)) return undefined;
  // Date.UTC rolls 2024-02-30 over into March: an impossible date is not a timestamp
  const check = new Date(baseMs);
  if (
    check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) ||
    check.getUTCHours() !== Number(h ?? 0) || check.getUTCMinutes() !== Number(mi ?? 0) ||
    check.getUTCSeconds() !== Number(s ?? 0)
  ) return undefined;
  let offsetMin: number;
  if (zone) offsetMin = /^(z|utc)$/i.test(zone) ? 0 : timezoneOffsetMinutes(zone, baseMs);
  else offsetMin = timezoneOffsetMinutes(timezone, baseMs - timezoneOffsetMinutes(timezone, baseMs) * 60000);
  const fracNs = frac ? BigInt(frac.padEnd(9, "0")) : 0n;
  return BigInt(baseMs - offsetMin * 60000) * 1_000_000n + fracNs;
}

/** Parses a timestamp string into an integer in `unit`. */
export function parseTimestampIn(text: string, unit: TimeUnit, timezone?: string): bigint | undefined {
  const ns = parseTimestampNs(text, timezone);
  return ns === undefined ? undefined : nsToUnit(ns, unit);
}

const INTERVAL_WORDS: Record<string, string> = {
  year: "y",
  years: "y",
  month: "M",
  months: "M",
  week: "w",
  weeks: "w",
  day: "d",
  days: "d",
  hour: "h",
  hours: "h",
  minute: "m",
  minutes: "m",
  second: "s",
  seconds: "s",
  millisecond: "ms",
  milliseconds: "ms",
  microsecond: "us",
  microseconds: "us",
  nanosecond: "ns",
  nanoseconds: "ns",
};

/** Parses an interval (`5 minutes`, `1h30m`, `1 day 2 hours`, `PT5M`) into nanoseconds. */
export function parseIntervalNs(text: string, unitWord?: string): bigint {
  let s = text.trim();
  if (unitWord) s = `${s} ${unitWord}`;
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(s);
  if (iso && s.length > 1) {
    const ms = (Number(iso[1] ?? 0) * 86400 + Number(iso[2] ?? 0) * 3600 + Number(iso[3] ?? 0) * 60 +
      Number(iso[4] ?? 0)) * 1000;
    return BigInt(Math.round(ms * 1e6));
  }
  const normalized = s.replace(/([a-zA-Z]+)/g, (w) => INTERVAL_WORDS[w.toLowerCase()] ?? w);
  checkIntervalRange(normalized);
  const ms = parseDurationMs(normalized);
  if (ms === undefined) {
    throw invalidArguments(`Invalid interval: '${text}${unitWord ? " " + unitWord : ""}'`);
  }
  return BigInt(Math.round(ms * 1e6));
}

const I32_MAX = 2n ** 31n - 1n;
const I64_MAX = 2n ** 63n - 1n;

/** Nanoseconds per unit of the fixed-length units of a normalized interval. */
const UNIT_NANOS: Record<string, bigint> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  ns: 1n,
};

/**
 * Refuses an interval component DataFusion (arrow's interval parser) cannot hold: months and days
 * are 32-bit integers of an IntervalMonthDayNano, nanoseconds 64-bit; arrow's own words, under
 * GreptimeDB's planning error.
 */
function checkIntervalRange(normalized: string): void {
  const component = /(-?\d+)(?:\.\d*)?\s*(ms|us|ns|y|M|w|d|h|m|s)(?![a-zA-Z])/g;
  for (const [, digits, unit] of normalized.matchAll(component)) {
    const n = BigInt(digits);
    const abs = n < 0n ? -n : n;
    const tooBig = (what: string) =>
      new PetrelError(
        StatusCode.PlanQuery,
        `Failed to plan SQL: Parser error: Unable to represent ${n} ${what} in a signed 32-bit integer`,
      );
    if (unit === "y" && abs * 12n > I32_MAX) throw tooBig("years as months");
    if (unit === "M" && abs > I32_MAX) throw tooBig("months");
    if (unit === "w" && abs * 7n > I32_MAX) throw tooBig("weeks as days");
    if (unit === "d" && abs > I32_MAX) throw tooBig("days");
    const nanos = UNIT_NANOS[unit];
    if (nanos !== undefined && abs * nanos > I64_MAX) {
      throw new PetrelError(
        StatusCode.PlanQuery,
        `Failed to plan SQL: Arithmetic overflow: Overflow happened on: ${n} * ${nanos}`,
      );
    }
  }
}
