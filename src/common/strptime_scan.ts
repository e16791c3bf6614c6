/**
 * The scanning half of the chrono-style parser: reads input item by item into `Fields`
 * (`strptime.ts` compiles formats and turns fields into a time).
 */

import { DAY_NAMES, MONTH_NAMES } from "./strftime.ts";

export type Num = "Y" | "C" | "y" | "m" | "d" | "H" | "I" | "M" | "S" | "j" | "f" | "s" | "u" | "w" | "skip";
/** One compiled piece of a parse format. */
export type ParseItem =
  | { k: "lit"; s: string }
  | { k: "space" }
  | { k: "num"; f: Num; width: number; signed: boolean }
  | { k: "frac"; digits: 0 | 3 | 6 | 9; dot: boolean }
  | { k: "offset"; permissive: boolean; words: boolean }
  | { k: "tzname" }
  | { k: "month"; long: boolean }
  | { k: "weekday"; long: boolean }
  | { k: "ampm" };

/** How a caller's formats parse where chrono leaves room or callers differ. */
export interface ParseDialect {
  /** `%z`/`%:z` also take `Z`, `UTC`, `GMT` and hours without minutes (VRL); chrono wants `±hh[:]mm`. */
  readonly lenientOffset: boolean;
  /** `%Z` values `UTC`, `GMT`, `Z` and `±hh:mm` set the offset (VRL); otherwise the name is skipped. */
  readonly zoneNameOffsets: boolean;
  /** `%s` gives a zoned instant (VRL) rather than a wall-clock time (the pipeline `date` processor). */
  readonly epochZoned: boolean;
  /** A parsed weekday must agree with the date (chrono); VRL's log parsers take it as decoration. */
  readonly checkWeekday: boolean;
}

/** A compiled format and the dialect it parses in. */
export interface ParseFormat {
  items: ParseItem[];
  dialect: ParseDialect;
}

/** Why a parse failed: chrono's `ParseErrorKind`. */
export type ParseFailure =
  | "out_of_range"
  | "impossible"
  | "not_enough"
  | "invalid"
  | "too_short"
  | "too_long";

/** The fields a parse has seen so far. */
export class Fields {
  year: number | undefined = undefined;
  century: number | undefined = undefined;
  yy: number | undefined = undefined;
  month: number | undefined = undefined;
  day: number | undefined = undefined;
  ordinal: number | undefined = undefined;
  hour: number | undefined = undefined;
  hour12: number | undefined = undefined;
  pm: boolean | undefined = undefined;
  minute: number | undefined = undefined;
  second: number | undefined = undefined;
  nanos = 0;
  offset: number | undefined = undefined;
  epoch: number | undefined = undefined;
  weekday: number | undefined = undefined;
}

/** Parses `s` with a compiled format: the time, or why it failed. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

// Reads the input item by item into `f`; returns a failure or undefined.
export function scan(s: string, format: ParseFormat, f: Fields): ParseFailure | undefined {
  let pos = 0;
  const len = s.length;
  for (const it of format.items) {
    if (it.k === "space") {
      while (pos < len && isSpace(s.charCodeAt(pos))) pos++;
      continue;
    }
    if (pos >= len && it.k !== "frac" && it.k !== "tzname") return "too_short";
    switch (it.k) {
      case "lit":
        if (it.s.length === 1 ? s.charCodeAt(pos) !== it.s.charCodeAt(0) : !s.startsWith(it.s, pos)) {
          return "invalid";
        }
        pos += it.s.length;
        break;
      case "num":
        pos = scanNum(s, pos, it, f);
        break;
      case "frac":
        pos = scanFrac(s, pos, it, f);
        break;
      case "offset":
        pos = scanOffset(s, pos, it, f);
        break;
      case "tzname":
        pos = scanZoneName(s, pos, format.dialect, f);
        break;
      case "month": {
        const idx = matchName(s, pos, MONTHS, it.long ? MONTHS_LONG : undefined);
        if (idx >= 0) f.month = (idx >> 4) + 1;
        pos = idx < 0 ? -1 : pos + (idx & 15);
        break;
      }
      case "weekday": {
        const idx = matchName(s, pos, DAYS, it.long ? DAYS_LONG : undefined);
        if (idx >= 0) f.weekday = idx >> 4;
        pos = idx < 0 ? -1 : pos + (idx & 15);
        break;
      }
      case "ampm": {
        const t = s.slice(pos, pos + 2).toLowerCase();
        f.pm = t === "pm";
        pos = t === "am" || t === "pm" ? pos + 2 : -1;
        break;
      }
    }
    if (pos < 0) return pos === -2 ? "out_of_range" : "invalid";
  }
  return pos === len ? undefined : "too_long";
}

// Returns the new position, -1 for no digits, -2 for a value out of the field's range.
function scanNum(s: string, pos: number, it: { f: Num; width: number; signed: boolean }, f: Fields): number {
  const len = s.length;
  while (pos < len && isSpace(s.charCodeAt(pos))) pos++;
  let neg = false;
  let maxW = it.width;
  if (it.signed && (s[pos] === "-" || s[pos] === "+")) {
    neg = s[pos] === "-";
    pos++;
    maxW = 40;
  }
  const start = pos;
  let acc = 0;
  while (pos < len && pos - start < maxW) {
    const c = s.charCodeAt(pos) - 48;
    if (c < 0 || c > 9) break;
    acc = acc * 10 + c;
    pos++;
  }
  if (pos === start) return -1;
  const v = neg ? -acc : acc;
  switch (it.f) {
    case "Y":
      f.year = v;
      break;
    case "C":
      f.century = v;
      break;
    case "y":
      f.yy = v;
      break;
    case "m":
      f.month = v;
      break;
    case "d":
      f.day = v;
      break;
    case "H":
      f.hour = v;
      break;
    case "I":
      f.hour12 = v;
      break;
    case "M":
      f.minute = v;
      break;
    case "S":
      f.second = v;
      break;
    case "j":
      f.ordinal = v;
      break;
    case "f":
      f.nanos = v;
      break;
    case "s":
      f.epoch = v;
      break;
    case "u":
      if (v < 1 || v > 7) return -2;
      f.weekday = v % 7;
      break;
    case "w":
      if (v > 6) return -2;
      f.weekday = v;
      break;
  }
  return pos;
}

function scanFrac(s: string, pos: number, it: { digits: 0 | 3 | 6 | 9; dot: boolean }, f: Fields): number {
  if (it.dot) {
    if (s[pos] !== ".") return pos;
    pos++;
  }
  const start = pos;
  const want = it.digits === 0 ? 9 : it.digits;
  let acc = 0;
  let taken = 0;
  while (pos < s.length) {
    const c = s.charCodeAt(pos) - 48;
    if (c < 0 || c > 9) break;
    if (taken < want) {
      acc = acc * 10 + c;
      taken++;
    } else if (it.digits !== 0) break;
    pos++;
  }
  if (pos === start || taken < (it.digits === 0 ? 1 : it.digits)) return -1;
  f.nanos = acc * POW10[9 - taken];
  return pos;
}

function scanOffset(s: string, pos: number, it: { permissive: boolean; words: boolean }, f: Fields): number {
  while (pos < s.length && isSpace(s.charCodeAt(pos))) pos++;
  if (it.permissive) {
    const word = (it.words ? /^(?:Z|z|UTC|GMT)/ : /^[Zz]/).exec(s.slice(pos, pos + 3));
    if (word) {
      f.offset = 0;
      return pos + word[0].length;
    }
  }
  const sign = s[pos];
  if (sign !== "+" && sign !== "-") return -1;
  pos++;
  const hh = twoDigits(s, pos);
  if (hh < 0) return -1;
  pos += 2;
  if (s[pos] === ":" || s[pos] === " ") pos++;
  const mm = twoDigits(s, pos);
  if (mm < 0) {
    if (!it.permissive) return -1;
    f.offset = (sign === "-" ? -1 : 1) * hh * 3600;
    return pos;
  }
  f.offset = (sign === "-" ? -1 : 1) * (hh * 3600 + mm * 60);
  return pos + 2;
}

function scanZoneName(s: string, pos: number, dialect: ParseDialect, f: Fields): number {
  const start = pos;
  while (pos < s.length && !isSpace(s.charCodeAt(pos))) pos++;
  if (dialect.zoneNameOffsets) {
    const name = s.slice(start, pos);
    if (/^(UTC|GMT|Z)$/i.test(name)) f.offset = 0;
    else if (/^[+-]\d{2}:?\d{2}$/.test(name)) scanOffset(name, 0, { permissive: false, words: false }, f);
  }
  return pos;
}

function twoDigits(s: string, pos: number): number {
  const a = s.charCodeAt(pos) - 48;
  const b = s.charCodeAt(pos + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

const MONTHS_LONG = MONTH_NAMES.map((m) => m.toLowerCase());
const MONTHS = MONTHS_LONG.map((m) => m.slice(0, 3));
const DAYS_LONG = DAY_NAMES.map((d) => d.toLowerCase());
const DAYS = DAYS_LONG.map((d) => d.slice(0, 3));

// ASCII case-insensitive prefix test without allocating.
function startsWithCi(s: string, pos: number, lower: string): boolean {
  if (pos + lower.length > s.length) return false;
  for (let i = 0; i < lower.length; i++) {
    if ((s.charCodeAt(pos + i) | 32) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

// Returns index * 16 + matched length, or -1 (packed to avoid allocating a result per call).
function matchName(s: string, pos: number, short: string[], long?: string[]): number {
  if (long) {
    for (let i = 0; i < long.length; i++) if (startsWithCi(s, pos, long[i])) return i * 16 + long[i].length;
  }
  for (let i = 0; i < short.length; i++) if (startsWithCi(s, pos, short[i])) return i * 16 + 3;
  return -1;
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];
