/**
 * The lexical layer of InfluxDB line protocol: character classes, escapes, number syntax, timestamp
 * precisions, and the `measurement,tag=value...` series prefix (parsed once per distinct series and
 * cached across requests). `lineproto.ts` builds tables on top of this.
 */

import { invalidArguments } from "../../common/errors.ts";
import { NS_PER_UNIT } from "../../common/time_unit.ts";

/** Char codes the scanner compares against. */
export const SPACE = 32,
  TAB = 9,
  COMMA = 44,
  EQ = 61,
  BACKSLASH = 92,
  QUOTE = 34,
  NL = 10,
  CR = 13,
  HASH = 35;
export const MINUS = 45, PLUS = 43, DOT = 46, ZERO = 48, NINE = 57, LOWER_E = 101, UPPER_E = 69;

/** Nanoseconds per `precision` name: InfluxDB's spellings of the time units, plus minutes and hours. */
const NANOS_PER: Record<string, bigint> = {
  n: NS_PER_UNIT.ns,
  ns: NS_PER_UNIT.ns,
  u: NS_PER_UNIT.us,
  us: NS_PER_UNIT.us,
  "µ": NS_PER_UNIT.us,
  "µs": NS_PER_UNIT.us,
  ms: NS_PER_UNIT.ms,
  s: NS_PER_UNIT.s,
  m: 60n * NS_PER_UNIT.s,
  h: 3600n * NS_PER_UNIT.s,
};

/** Bounds of Int64 and UInt64 field values and of timestamps. */
export const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n, U64_MAX = 2n ** 64n - 1n;
/** Bounds within which a 64-bit integer is returned as a number rather than a bigint. */
export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER), MIN_SAFE = -MAX_SAFE;

/** Exact powers of ten up to 10^15, for the exact decimal fast path. */
export const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Every spelling of a boolean field value line protocol accepts. */
export const BOOLEANS: Record<string, boolean> = {
  t: true,
  T: true,
  true: true,
  True: true,
  TRUE: true,
  f: false,
  F: false,
  false: false,
  False: false,
  FALSE: false,
};

/** Nanoseconds per unit of a `precision` query parameter; undefined means ns. */
export function precisionToNanos(precision: string | undefined): bigint {
  if (precision === undefined) return 1n;
  const m = NANOS_PER[precision];
  if (m === undefined) throw invalidArguments(`Failed to convert time precision, name: ${precision}`);
  return m;
}

/** The parser's message for an identifier ending in a backslash (as the Go and IOx parsers say it). */
export const ENDS_WITH_BACKSLASH =
  "Measurements, tag keys and values, and field keys may not end with a backslash";

/** Problems found inside a line; wrapped with the line number before leaving the parser. */
export class LineProblem extends Error {}

/** The parsed `measurement,tag=value...` prefix of a line, shared by every line of that series. */
export interface SeriesKey {
  measurement: string;
  /** Interned: equal key lists are one array, so tables can map them to columns by identity. */
  keys: string[];
  vals: string[];
}

/**
 * Series prefixes parsed by earlier requests. Writers send the same series every interval, so this
 * spares re-scanning tags; it is cleared when full rather than evicted, to stay cheap. (A hashed
 * direct-mapped table compared in place measured slower than V8's own string hashing here.)
 */
const SERIES_CACHE_MAX = 200_000;
const seriesCache = new Map<string, SeriesKey>();
const internedKeys = new Map<string, string[]>();

function internKeys(keys: string[]): string[] {
  const id = keys.join("\u0000");
  let k = internedKeys.get(id);
  if (k === undefined) {
    if (internedKeys.size >= SERIES_CACHE_MAX) internedKeys.clear();
    internedKeys.set(id, keys);
    k = keys;
  }
  return k;
}

/** Whether a char code ends an unquoted field value (NaN = end of input). */
export function isEndOfValue(c: number): boolean {
  return c === COMMA || c === SPACE || c === NL || c === CR || Number.isNaN(c);
}

/**
 * Removes identifier escapes: `\,` and `\ ` (and `\=` outside measurements) yield the char; any other
 * backslash is kept as written, as InfluxDB's Go parser does.
 */
export function unescape(s: string, measurement: boolean): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) !== BACKSLASH || i + 1 >= s.length) continue;
    const c = s.charCodeAt(i + 1);
    if (c === COMMA || c === SPACE || (!measurement && c === EQ)) {
      out += s.slice(from, i);
      from = i + 1;
      i++;
    } else if (c === BACKSLASH) {
      i++; // `\\` stays as written, but must not escape the char after it
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Removes the `\"` and `\\` escapes of a quoted string field value. */
export function unescapeString(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length - 1; i++) {
    if (s.charCodeAt(i) !== BACKSLASH) continue;
    const c = s.charCodeAt(i + 1);
    if (c === QUOTE || c === BACKSLASH) {
      out += s.slice(from, i);
      from = i + 1;
      i++;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Whether a token is a line-protocol float: `[+-]digits[.digits][e[+-]digits]`. */
export function isFloatToken(s: string): boolean {
  let i = 0;
  const n = s.length;
  let c = s.charCodeAt(0);
  if (c === MINUS || c === PLUS) i++;
  let digits = 0;
  while (i < n && (c = s.charCodeAt(i)) >= ZERO && c <= NINE) i++, digits++;
  if (i < n && s.charCodeAt(i) === DOT) {
    i++;
    while (i < n && (c = s.charCodeAt(i)) >= ZERO && c <= NINE) i++, digits++;
  }
  if (digits === 0) return false;
  if (i < n && ((c = s.charCodeAt(i)) === LOWER_E || c === UPPER_E)) {
    i++;
    if (i < n && ((c = s.charCodeAt(i)) === MINUS || c === PLUS)) i++;
    let exp = 0;
    while (i < n && (c = s.charCodeAt(i)) >= ZERO && c <= NINE) i++, exp++;
    if (exp === 0) return false;
  }
  return i === n;
}

/** Whether `s[0, end)` is an optionally signed run of decimal digits. */
export function isIntegerToken(s: string, end: number, signed: boolean): boolean {
  let i = 0;
  const c0 = s.charCodeAt(0);
  if (signed && (c0 === MINUS || c0 === PLUS)) i++;
  if (i >= end) return false;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

/** A safe-integer number when it fits, else the bigint. */
export function narrow(v: bigint): number | bigint {
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

/** Parses `measurement[,tag=value...]` in text[a, b). */
function parseSeriesKey(text: string, a: number, b: number): SeriesKey {
  let p = a;
  let escaped = false;
  while (p < b) {
    const c = text.charCodeAt(p);
    if (c === BACKSLASH) {
      escaped = true;
      p += 2;
      continue;
    }
    if (c === COMMA) break;
    p++;
  }
  if (p === a) throw new LineProblem("Invalid measurement was provided");
  const raw = text.slice(a, p);
  const measurement = escaped ? unescape(raw, true) : raw;
  const keys: string[] = [];
  const vals: string[] = [];
  while (p < b) {
    p++; // the comma
    const keyStart = p;
    escaped = false;
    while (p < b) {
      const c = text.charCodeAt(p);
      if (c === BACKSLASH) {
        escaped = true;
        p += 2;
        continue;
      }
      if (c === EQ || c === COMMA) break;
      p++;
    }
    if (p === keyStart) throw new LineProblem("Invalid tag set: empty tag key");
    const tagKey = escaped ? unescape(text.slice(keyStart, p), false) : text.slice(keyStart, p);
    if (p >= b || text.charCodeAt(p) !== EQ) {
      throw new LineProblem(`Invalid tag set: missing '=' after tag key '${tagKey}'`);
    }
    p++;
    const valStart = p;
    escaped = false;
    while (p < b) {
      const c = text.charCodeAt(p);
      if (c === BACKSLASH) {
        escaped = true;
        p += 2;
        continue;
      }
      if (c === COMMA) break;
      p++;
    }
    if (p === valStart) throw new LineProblem(`Invalid tag set: missing value for tag key '${tagKey}'`);
    const tagVal = escaped ? unescape(text.slice(valStart, p), false) : text.slice(valStart, p);
    if (keys.includes(tagKey)) {
      throw new LineProblem(`Must not contain duplicate tags, but "${tagKey}" was repeated`);
    }
    keys.push(tagKey);
    vals.push(tagVal);
  }
  return { measurement, keys, vals };
}

/** The parsed series prefix text[start, end) if this exact text was parsed before, else undefined. */
export function cachedSeries(text: string, start: number, end: number): SeriesKey | undefined {
  return seriesCache.get(text.slice(start, end));
}

/** The parsed series prefix text[start, end), from the cache when this exact text was seen before. */
export function lookupSeries(text: string, start: number, end: number): SeriesKey {
  const key = text.slice(start, end);
  let series = seriesCache.get(key);
  if (series === undefined) {
    const parsed = parseSeriesKey(text, start, end);
    series = {
      measurement: detach(parsed.measurement),
      keys: internKeys(parsed.keys.map(detach)),
      vals: parsed.vals.map(detach),
    };
    if (seriesCache.size >= SERIES_CACHE_MAX) seriesCache.clear();
    seriesCache.set(detach(key), series);
  }
  return series;
}

/**
 * A copy of `s` that does not point into its parent: V8 substrings of 13+ chars are views that keep
 * the whole request body alive, which a cache living across requests must not do.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (s + "\0").slice(0, -1);
}
