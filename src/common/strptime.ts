/**
 * Parsing in chrono's strftime dialect (GreptimeDB's `date` processor, VRL's `parse_timestamp`),
 * compiled once per format: whitespace matches any run of whitespace, numeric fields take 1..width
 * digits after optional whitespace, `%.f`-style fractions are optional, trailing input fails.
 * Failures are chrono's `ParseErrorKind`s, so each caller can word them its own way.
 */

import { STRFTIME_EXPANSIONS } from "./strftime.ts";
import {
  Fields,
  type Num,
  type ParseDialect,
  type ParseFailure,
  type ParseFormat,
  type ParseItem,
  scan,
} from "./strptime_scan.ts";

export type { ParseDialect, ParseFailure, ParseFormat, ParseItem };

/** GreptimeDB's `date` processor: chrono as it is. */
export const CHRONO_PARSE: ParseDialect = {
  lenientOffset: false,
  zoneNameOffsets: false,
  epochZoned: false,
  checkWeekday: true,
};
/** VRL's `parse_timestamp` and the log parsers built on it. */
export const VRL_PARSE: ParseDialect = {
  lenientOffset: true,
  zoneNameOffsets: true,
  epochZoned: true,
  checkWeekday: false,
};

/** The result of parsing: a UTC instant (zoned) or a wall-clock time (naive): ms + sub-ms ns. */
export interface ParsedTime {
  ms: number;
  subMs: number;
  zoned: boolean;
}

/** chrono's wording of each failure (what VRL shows). */
export const PARSE_FAILURE_TEXT: Record<ParseFailure, string> = {
  out_of_range: "input is out of range",
  impossible: "no possible date and time matching input",
  not_enough: "input is not enough for unique date and time",
  invalid: "input contains invalid characters",
  too_short: "premature end of input",
  too_long: "trailing input",
};

const NUMS: Record<string, [Num, number, boolean?]> = {
  Y: ["Y", 4, true],
  C: ["C", 2],
  y: ["y", 2],
  m: ["m", 2],
  d: ["d", 2],
  e: ["d", 2],
  H: ["H", 2],
  k: ["H", 2],
  I: ["I", 2],
  l: ["I", 2],
  M: ["M", 2],
  S: ["S", 2],
  j: ["j", 3],
  u: ["u", 1],
  w: ["w", 1],
  f: ["f", 9],
  s: ["s", 20, true],
  U: ["skip", 2],
  W: ["skip", 2],
  V: ["skip", 2],
  G: ["skip", 4, true],
  g: ["skip", 2],
};

const SIMPLE: Record<string, ParseItem> = {
  b: { k: "month", long: false },
  B: { k: "month", long: true },
  a: { k: "weekday", long: false },
  A: { k: "weekday", long: true },
  p: { k: "ampm" },
  P: { k: "ampm" },
  Z: { k: "tzname" },
  z: { k: "offset", permissive: false, words: false },
  ":z": { k: "offset", permissive: false, words: false },
  "::z": { k: "offset", permissive: false, words: false },
  "#z": { k: "offset", permissive: true, words: false },
  ".f": { k: "frac", digits: 0, dot: true },
  ".3f": { k: "frac", digits: 3, dot: true },
  ".6f": { k: "frac", digits: 6, dot: true },
  ".9f": { k: "frac", digits: 9, dot: true },
  "3f": { k: "frac", digits: 3, dot: false },
  "6f": { k: "frac", digits: 6, dot: false },
  "9f": { k: "frac", digits: 9, dot: false },
};

const LONG_SPECS = ["::z", ":z", "#z", ".3f", ".6f", ".9f", ".f", "3f", "6f", "9f"];

/** Compiles a format; null for an invalid one (chrono: `BadFormat`). */
export function compileParse(fmt: string, dialect: ParseDialect = CHRONO_PARSE): ParseFormat | null {
  const items = compileItems(fmt, dialect);
  return items ? { items, dialect } : null;
}

function compileItems(fmt: string, dialect: ParseDialect): ParseItem[] | null {
  const items: ParseItem[] = [];
  let lit = "";
  const flush = () => {
    if (lit) items.push({ k: "lit", s: lit });
    lit = "";
  };
  const space = () => {
    flush();
    if (items[items.length - 1]?.k !== "space") items.push({ k: "space" });
  };
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== "%") {
      if (/\s/.test(c)) space();
      else lit += c;
      continue;
    }
    // Padding modifiers (`%-d`, `%_d`, `%0d`) do not change parsing.
    if (fmt[i + 1] === "-" || fmt[i + 1] === "_" || fmt[i + 1] === "0") i++;
    const long = LONG_SPECS.find((s) => fmt.startsWith(s, i + 1));
    const spec = long ?? fmt[i + 1];
    if (spec === undefined) return null;
    i += spec.length;
    if (spec === "%") lit += "%";
    else if (spec === "n" || spec === "t") space();
    else if (NUMS[spec]) {
      flush();
      const [f, width, signed] = NUMS[spec];
      items.push({ k: "num", f, width, signed: signed ?? false });
    } else if (SIMPLE[spec]) {
      flush();
      const it = SIMPLE[spec];
      items.push(
        it.k === "offset" && dialect.lenientOffset ? { k: "offset", permissive: true, words: true } : it,
      );
    } else if (spec === "+") {
      // RFC 3339 takes `Z` as well as an offset.
      const sub = compileItems("%Y-%m-%dT%H:%M:%S%.f%#z", dialect)!;
      flush();
      items.push(...sub);
    } else {
      const exp = STRFTIME_EXPANSIONS[spec];
      const sub = exp ? compileItems(exp, dialect) : null;
      if (!sub) return null;
      flush();
      items.push(...sub);
    }
  }
  flush();
  return items;
}

export function parseTime(s: string, format: ParseFormat): ParsedTime | ParseFailure {
  const f = new Fields();
  const failed = scan(s, format, f);
  return failed ?? resolve(f, format.dialect);
}

/** Parses `s`; null when it does not match completely (the `date` processor's question). */
export function parseTimeOrNull(s: string, format: ParseFormat): ParsedTime | null {
  const r = parseTime(s, format);
  return typeof r === "string" ? null : r;
}

// Turns the scanned fields into a time, checking they agree (chrono's `Parsed::to_*`).
function resolve(f: Fields, dialect: ParseDialect): ParsedTime | ParseFailure {
  const nanos = f.nanos;
  const subMs = nanos % 1_000_000;
  const nanoMs = (nanos - subMs) / 1_000_000;
  if (f.epoch !== undefined) {
    return { ms: f.epoch * 1000 + nanoMs, subMs, zoned: dialect.epochZoned || f.offset !== undefined };
  }
  let year = f.year;
  if (year === undefined) {
    if (f.yy === undefined) return "not_enough";
    year = f.century !== undefined ? f.century * 100 + f.yy : (f.yy < 70 ? 2000 + f.yy : 1900 + f.yy);
  } else if (f.century !== undefined || f.yy !== undefined) {
    if (f.century !== undefined && Math.floor(year / 100) !== f.century) return "impossible";
    if (f.yy !== undefined && year % 100 !== f.yy) return "impossible";
  }
  let hour = f.hour;
  if (hour === undefined) {
    if (f.hour12 === undefined || f.pm === undefined) return "not_enough";
    if (f.hour12 < 1 || f.hour12 > 12) return "out_of_range";
    hour = (f.hour12 % 12) + (f.pm ? 12 : 0);
  } else if (hour > 23) return "out_of_range";
  if (f.minute === undefined) return "not_enough";
  if (f.minute > 59) return "out_of_range";
  const sec = f.second ?? 0;
  if (sec > 60) return "out_of_range";
  let dayMs: number;
  if (f.month !== undefined && f.day !== undefined) {
    if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysIn(year, f.month)) return "out_of_range";
    dayMs = Date.UTC(year, f.month - 1, f.day);
  } else if (f.ordinal !== undefined) {
    if (f.ordinal < 1 || f.ordinal > (isLeap(year) ? 366 : 365)) return "out_of_range";
    dayMs = Date.UTC(year, 0, f.ordinal);
  } else return "not_enough";
  if (year >= 0 && year < 100) dayMs = setFullYear(dayMs, year);
  if (dialect.checkWeekday && f.weekday !== undefined && new Date(dayMs).getUTCDay() !== f.weekday) {
    return "impossible";
  }
  // A leap second (:60) folds into the next second's start, as chrono's timestamp does.
  const ms = dayMs + (hour * 3600 + f.minute * 60 + sec - (f.offset ?? 0)) * 1000 + nanoMs;
  if (!Number.isFinite(ms)) return "out_of_range";
  return { ms, subMs, zoned: f.offset !== undefined };
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function daysIn(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1];
}

// Date.UTC maps years 0..99 to 1900..1999; put the real year back.
function setFullYear(ms: number, year: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(year);
  return d.getTime();
}
