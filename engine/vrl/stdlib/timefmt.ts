/** strftime/strptime in chrono's dialect (what VRL uses), RFC 3339 parsing, and time zone offsets. */

import { VrlTimestamp } from "../value.ts";
import { lenientTimeZone } from "../../../src/common/timezone.ts";
import { zoneAbbreviation } from "./zone_abbreviation.ts";
import { cachedFormat, CHRONO_FORMAT, formatTime } from "../../../src/common/strftime.ts";
import {
  compileParse,
  PARSE_FAILURE_TEXT,
  type ParseFormat,
  parseTime,
  VRL_PARSE,
} from "../../../src/common/strptime.ts";

const RFC3339 =
  /^([+-]?\d{4,6})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** Parses RFC 3339 (as `t'…'` literals and chrono's `parse_from_rfc3339` accept). */
export function parseRfc3339(s: string): VrlTimestamp | null {
  const m = RFC3339.exec(s.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, se, frac, z, sign, oh, om] = m;
  const offset = z ? 0 : (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return fromParts(
    Number(y),
    Number(mo),
    Number(d),
    Number(h),
    Number(mi),
    Number(se),
    fracToNs(frac ?? ""),
    offset,
  );
}

/** Parses a timestamp literal `t'…'`. */
export function parseTimestampLiteral(s: string): VrlTimestamp | null {
  return parseRfc3339(s);
}

function fracToNs(frac: string): number {
  if (!frac) return 0;
  return Number((frac + "000000000").slice(0, 9));
}

function daysInMonth(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}

/** Builds a timestamp from civil fields at a UTC offset in minutes; null when fields are out of range. */
export function fromParts(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ns: number,
  offsetMin: number,
): VrlTimestamp | null {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 60) return null;
  let ms: number;
  if (y >= 100) ms = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59));
  else {
    // Date.UTC maps years 0..99 to 1900..1999.
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    date.setUTCHours(h, mi, Math.min(s, 59), 0);
    ms = date.getTime();
  }
  ms -= offsetMin * 60_000;
  return new VrlTimestamp(BigInt(ms) * 1_000_000n + BigInt(ns));
}

/** Offset from UTC in minutes of time zone `tz` at instant `ms`; null for unknown zones. */
export function tzOffset(tz: string, ms: number): number | null {
  const sec = tzOffsetSeconds(tz, ms);
  return sec === null ? null : Math.round(sec / 60);
}

// The exact offset in seconds: local mean times (New York's before 1883 was -4:56:02) are not whole minutes.
function tzOffsetSeconds(tz: string, ms: number): number | null {
  if (tz === "UTC" || tz === "utc" || tz === "Z" || tz === "Etc/UTC") return 0;
  if (tz === "local") return -new Date(ms).getTimezoneOffset() * 60;
  const fixed = /^([+-])(\d{2}):?(\d{2})$/.exec(tz);
  if (fixed) return (fixed[1] === "-" ? -1 : 1) * (Number(fixed[2]) * 3600 + Number(fixed[3]) * 60);
  const zone = lenientTimeZone(tz);
  return zone ? Math.round(zone.offsetAt(ms) / 1000) : null;
}

/** True when `tz` names a zone we can resolve. */
export function validTimezone(tz: string): boolean {
  return tzOffset(tz, 0) !== null;
}

function fmtOffset(off: number): string {
  const a = Math.abs(off);
  return (off < 0 ? "-" : "+") + String(Math.floor(a / 60)).padStart(2, "0") + ":" +
    String(a % 60).padStart(2, "0");
}

// What `%Z` shows: chrono-tz's abbreviation for a named zone (`EST`, `CEST`, `+04`); chrono's `Local`
// is a fixed offset, printed `±hh:mm`, as are Petrel's own fixed-offset zones.
function zoneName(tz: string, ms: number, off: number): string {
  if (tz === "UTC" || tz === "utc" || tz === "Z") return "UTC";
  if (tz === "local" || tz.startsWith("+") || tz.startsWith("-")) return fmtOffset(off);
  return zoneAbbreviation(tz, ms, off);
}

/** chrono-style strftime of a timestamp in the given zone (`UTC` by default); throws on a bad format. */
export function strftime(ts: VrlTimestamp, fmt: string, tz = "UTC"): string {
  const ms = ts.ms;
  // A zone unknown at run time (a literal one is refused when compiling) is shown as UTC throughout.
  const known = tzOffsetSeconds(tz, ms);
  const sec = known ?? 0;
  const off = Math.round(sec / 60);
  const items = cachedFormat(fmt, CHRONO_FORMAT);
  return formatTime(items, {
    epochMs: ms,
    nanos: ts.subsecNs,
    offsetMin: off,
    offsetSec: sec,
    zoneName: known === null ? "UTC" : zoneName(tz, ms, off),
  });
}

const parseCache = new Map<string, ParseFormat | null>();

function compiledParse(fmt: string): ParseFormat {
  let f = parseCache.get(fmt);
  if (f === undefined) {
    f = compileParse(fmt, VRL_PARSE);
    if (parseCache.size > 1000) parseCache.clear();
    parseCache.set(fmt, f);
  }
  if (!f) throw new Error("bad or unsupported format string");
  return f;
}

/** chrono-style strptime; `tz` applies when the format has no offset. Throws chrono's reason on mismatch. */
export function strptime(input: string, fmt: string, tz = "UTC"): VrlTimestamp {
  const r = parseTime(input, compiledParse(fmt));
  if (typeof r === "string") throw new Error(PARSE_FAILURE_TEXT[r]);
  if (r.zoned) return VrlTimestamp.fromMs(r.ms, r.subMs);
  let off = 0;
  if (tz !== "UTC") {
    const o = tzOffset(tz, r.ms);
    if (o === null) throw new Error(`unknown timezone ${tz}`);
    off = tzOffset(tz, r.ms - o * 60_000) ?? o;
  }
  return VrlTimestamp.fromMs(r.ms - off * 60_000, r.subMs);
}
