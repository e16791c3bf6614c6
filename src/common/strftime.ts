/**
 * Formatting in chrono's strftime dialect, the one every Rust-built GreptimeDB and Vector component
 * speaks. Formats compile once into items; each caller keeps its own dialect through a
 * `FormatDialect` (which specifiers exist, what an unknown one does). Parsing is `strptime.ts`.
 */

/** English month names (chrono's `%B`; `%b` is the first three letters). */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** English weekday names from Sunday (chrono's `%A`; `%a` is the first three letters). */
export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Composite specifiers and what they stand for (formatting and parsing alike). */
export const STRFTIME_EXPANSIONS: Readonly<Record<string, string>> = {
  T: "%H:%M:%S",
  R: "%H:%M",
  D: "%m/%d/%y",
  x: "%m/%d/%y",
  F: "%Y-%m-%d",
  X: "%H:%M:%S",
  r: "%I:%M:%S %p",
  c: "%a %b %e %H:%M:%S %Y",
  v: "%e-%b-%Y",
  "+": "%Y-%m-%dT%H:%M:%S%.f%:z",
  h: "%b",
};

/** The atomic specifiers (text after `%`) the formatter knows. */
const ATOMS = new Set([
  ..."YCymbBdeaAuwjHkIlMSfpPzZsUWGgVnt%",
  ".f",
  ".3f",
  ".6f",
  ".9f",
  "3f",
  "6f",
  "9f",
  ":z",
  "::z",
  ":::z",
]);

/** How a caller's format strings read. */
export interface FormatDialect {
  /** The specifiers that exist (text after `%`, e.g. `Y`, `3f`, `:z`); undefined: all of chrono's. */
  readonly only?: ReadonlySet<string>;
  /** An unknown specifier raises (chrono) or is copied through as text (GreptimeDB SQL's `date_format`). */
  readonly unknown: "error" | "literal";
}

/** chrono's formatting dialect (VRL's `format_timestamp`). */
export const CHRONO_FORMAT: FormatDialect = { unknown: "error" };

/** A compiled format: literal text, or a specifier with its padding modifier (`-`, `_`, `0` or none). */
export type FormatItem = string | { spec: string; pad: string };

/** Raised by `compileFormat` for a specifier the dialect does not know. */
export class StrftimeError extends Error {
  constructor(readonly specifier: string) {
    super(`invalid format specifier %${specifier}`);
  }
}

/** An instant to format and the zone it is shown in. */
export interface ZonedTime {
  /** Milliseconds since the epoch (floored). */
  epochMs: number;
  /** Nanoseconds within the second, 0..999_999_999. */
  nanos: number;
  /** Offset from UTC in minutes (rounded, as chrono's `%z` shows it). */
  offsetMin: number;
  /** The exact offset in seconds, when it may not be whole minutes (local mean time); else `offsetMin`. */
  offsetSec?: number;
  /** What `%Z` prints. */
  zoneName: string;
}

// Reads the specifier starting at fmt[i] (just past `%`): [spec, pad, next index], or null at the end.
function readSpec(fmt: string, i: number): [string, string, number] | null {
  let pad = "";
  let c = fmt[i];
  if (c === "-" || c === "_" || c === "0") {
    pad = c;
    c = fmt[++i];
  }
  if (c === undefined) return null;
  for (const long of [":::z", "::z", ":z", ".3f", ".6f", ".9f", ".f", "3f", "6f", "9f"]) {
    if (fmt.startsWith(long, i)) return [long, pad, i + long.length];
  }
  return [c, pad, i + 1];
}

/** Compiles `fmt`; throws `StrftimeError` for an unknown specifier when the dialect says so. */
export function compileFormat(fmt: string, dialect: FormatDialect = CHRONO_FORMAT): FormatItem[] {
  const items: FormatItem[] = [];
  let lit = "";
  const walk = (f: string) => {
    for (let i = 0; i < f.length;) {
      if (f[i] !== "%") {
        lit += f[i++];
        continue;
      }
      const read = readSpec(f, i + 1);
      const spec = read?.[0] ?? "";
      const known = read !== null && (dialect.only ? dialect.only.has(spec) : true) &&
        (ATOMS.has(spec) || spec in STRFTIME_EXPANSIONS);
      if (!known) {
        if (dialect.unknown === "error") throw new StrftimeError(spec);
        lit += f.slice(i, read ? read[2] : f.length);
        i = read ? read[2] : f.length;
        continue;
      }
      const [, pad, next] = read!;
      i = next;
      if (spec === "%") lit += "%";
      else if (spec === "n") lit += "\n";
      else if (spec === "t") lit += "\t";
      else if (spec in STRFTIME_EXPANSIONS) walk(STRFTIME_EXPANSIONS[spec]);
      else {
        if (lit) items.push(lit);
        lit = "";
        items.push({ spec, pad });
      }
    }
  };
  walk(fmt);
  if (lit) items.push(lit);
  return items;
}

const cache = new Map<FormatDialect, Map<string, FormatItem[]>>();

/** `compileFormat` with a per-dialect cache, for callers that get the format per row. */
export function cachedFormat(fmt: string, dialect: FormatDialect = CHRONO_FORMAT): FormatItem[] {
  let byFmt = cache.get(dialect);
  if (!byFmt) cache.set(dialect, byFmt = new Map());
  let items = byFmt.get(fmt);
  if (!items) {
    items = compileFormat(fmt, dialect);
    if (byFmt.size > 1000) byFmt.clear();
    byFmt.set(fmt, items);
  }
  return items;
}

const pad0 = (n: number, w: number) => String(n).padStart(w, "0");

/** Civil fields of the local time, computed once per format call. */
interface Civil {
  Y: number;
  M: number;
  D: number;
  h: number;
  mi: number;
  s: number;
  wd: number;
  doy: number;
}

function civil(t: ZonedTime): Civil {
  const d = new Date(t.epochMs + (t.offsetSec ?? t.offsetMin * 60) * 1000);
  const Y = d.getUTCFullYear(), M = d.getUTCMonth(), D = d.getUTCDate();
  const start = new Date(0);
  start.setUTCFullYear(Y, 0, 1);
  const doy = Math.floor((d.getTime() - start.getTime()) / 86_400_000) + 1;
  return { Y, M, D, h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), wd: d.getUTCDay(), doy };
}

/** Formats `t` with compiled `items`. */
export function formatTime(items: FormatItem[], t: ZonedTime): string {
  const c = civil(t);
  let out = "";
  for (const it of items) out += typeof it === "string" ? it : formatSpec(it.spec, it.pad, c, t);
  return out;
}

// A number with chrono's default padding `def` (`0` or ` `) unless a modifier overrides it.
function padNum(n: number, width: number, pad: string, def: string): string {
  if (pad === "-") return String(n);
  const fill = pad === "_" ? " " : pad === "0" ? "0" : def;
  return n < 0 ? "-" + String(-n).padStart(width - 1, fill) : String(n).padStart(width, fill);
}

// chrono's `%Y`/`%G`: a year outside 0..=9999 always carries its sign ("as per ISO 8601"), padded as
// Rust's `{:+05}` (zeros after the sign) or `{:+5}` (spaces before it).
function yearText(y: number, pad: string): string {
  if (y >= 0 && y <= 9999) return padNum(y, 4, pad, "0");
  const sign = y < 0 ? "-" : "+";
  const digits = String(Math.abs(y));
  if (pad === "-") return sign + digits;
  return pad === "_" ? (sign + digits).padStart(5, " ") : sign + digits.padStart(4, "0");
}

function offsetText(off: number, colon: boolean, seconds = false, hoursOnly = false): string {
  const a = Math.abs(off);
  const hh = (off < 0 ? "-" : "+") + pad0(Math.floor(a / 60), 2);
  if (hoursOnly) return hh;
  return hh + (colon ? ":" : "") + pad0(a % 60, 2) + (seconds ? ":00" : "");
}

// chrono's `%::z` of an offset in seconds: `+hh:mm:ss`.
function offsetWithSeconds(off: number): string {
  const a = Math.abs(off);
  return (off < 0 ? "-" : "+") + pad0(Math.floor(a / 3600), 2) + ":" + pad0(Math.floor(a / 60) % 60, 2) +
    ":" +
    pad0(a % 60, 2);
}

function fraction(nanos: number, spec: string): string {
  switch (spec) {
    case ".f":
      if (nanos === 0) return "";
      if (nanos % 1_000_000 === 0) return "." + pad0(nanos / 1_000_000, 3);
      if (nanos % 1000 === 0) return "." + pad0(nanos / 1000, 6);
      return "." + pad0(nanos, 9);
    case "f":
      return pad0(nanos, 9);
    default: {
      const dot = spec[0] === ".";
      return (dot ? "." : "") + pad0(nanos, 9).slice(0, Number(spec[dot ? 1 : 0]));
    }
  }
}

function formatSpec(spec: string, pad: string, c: Civil, t: ZonedTime): string {
  const h12 = c.h % 12 === 0 ? 12 : c.h % 12;
  switch (spec) {
    case "Y":
      return yearText(c.Y, pad);
    case "C":
      return padNum(Math.floor(c.Y / 100), 2, pad, "0");
    case "y":
      return padNum(((c.Y % 100) + 100) % 100, 2, pad, "0");
    case "m":
      return padNum(c.M + 1, 2, pad, "0");
    case "b":
      return MONTH_NAMES[c.M].slice(0, 3);
    case "B":
      return MONTH_NAMES[c.M];
    case "d":
      return padNum(c.D, 2, pad, "0");
    case "e":
      return padNum(c.D, 2, pad, " ");
    case "a":
      return DAY_NAMES[c.wd].slice(0, 3);
    case "A":
      return DAY_NAMES[c.wd];
    case "u":
      return String(c.wd === 0 ? 7 : c.wd);
    case "w":
      return String(c.wd);
    case "j":
      return padNum(c.doy, 3, pad, "0");
    case "H":
      return padNum(c.h, 2, pad, "0");
    case "k":
      return padNum(c.h, 2, pad, " ");
    case "I":
      return padNum(h12, 2, pad, "0");
    case "l":
      return padNum(h12, 2, pad, " ");
    case "M":
      return padNum(c.mi, 2, pad, "0");
    case "S":
      return padNum(c.s, 2, pad, "0");
    case "p":
      return c.h < 12 ? "AM" : "PM";
    case "P":
      return c.h < 12 ? "am" : "pm";
    case "z":
      return offsetText(t.offsetMin, false);
    case ":z":
      return offsetText(t.offsetMin, true);
    case "::z":
      return t.offsetSec === undefined ? offsetText(t.offsetMin, true, true) : offsetWithSeconds(t.offsetSec);
    case ":::z":
      return offsetText(t.offsetMin, false, false, true);
    case "Z":
      return t.zoneName;
    case "s":
      return String(Math.floor(t.epochMs / 1000));
    default:
      return weekSpec(spec, pad, c) ?? fraction(t.nanos, spec);
  }
}

// Week numbers: `%U` (weeks from the first Sunday), `%W` (from the first Monday), ISO `%G %g %V`.
function weekSpec(spec: string, pad: string, c: Civil): string | null {
  switch (spec) {
    case "U":
      return padNum(Math.floor((c.doy - 1 + 7 - c.wd) / 7), 2, pad, "0");
    case "W":
      return padNum(Math.floor((c.doy - 1 + 7 - ((c.wd + 6) % 7)) / 7), 2, pad, "0");
    case "G":
      return yearText(isoWeek(c)[0], pad);
    case "g":
      return padNum(((isoWeek(c)[0] % 100) + 100) % 100, 2, pad, "0");
    case "V":
      return padNum(isoWeek(c)[1], 2, pad, "0");
  }
  return null;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

// ISO 8601 week-numbering year and week of a civil date.
function isoWeek(c: Civil): [number, number] {
  const isoWd = (c.wd + 6) % 7; // Monday = 0
  const week = Math.floor((c.doy - isoWd + 9) / 7);
  if (week < 1) {
    const prev = c.Y - 1;
    const prevDays = isLeap(prev) ? 366 : 365;
    return [prev, Math.floor((c.doy + prevDays - isoWd + 9) / 7)];
  }
  const days = isLeap(c.Y) ? 366 : 365;
  if (week === 53 && c.doy - isoWd + 3 > days) return [c.Y + 1, 1];
  return [c.Y, week];
}
