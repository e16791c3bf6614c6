/**
 * InfluxDB line protocol (v1 and v2 write bodies) → one `WriteBatch` per measurement, with
 * GreptimeDB's schema (reference §7.1): tags String TAG, fields Float64/Int64/UInt64/String/Boolean
 * FIELD, time index `greptime_timestamp` TimestampNanosecond, columns in order of first appearance.
 *
 * A hand-written scanner over the string: one pass, no regex, and the measurement+tag-set prefix of a
 * line is parsed once per distinct series (cached by its raw text), since real bodies repeat series.
 * The whole body is parsed before anything is returned, so a bad line means nothing is written.
 */

import { invalidArguments, PetrelError } from "../http/errors.ts";
import type { ColumnSchema, DataType, Value, WriteBatch } from "../storage/types.ts";

/** Name of the time index column of tables created by line-protocol writes. */
export const INFLUX_TIME_INDEX = "greptime_timestamp";

const SPACE = 32, TAB = 9, COMMA = 44, EQ = 61, BACKSLASH = 92, QUOTE = 34, NL = 10, CR = 13, HASH = 35;
const MINUS = 45, PLUS = 43, DOT = 46, ZERO = 48, NINE = 57, LOWER_E = 101, UPPER_E = 69;

const NANOS_PER: Record<string, bigint> = {
  n: 1n,
  ns: 1n,
  u: 1_000n,
  us: 1_000n,
  "µ": 1_000n,
  "µs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n, U64_MAX = 2n ** 64n - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER), MIN_SAFE = -MAX_SAFE;

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

const BOOLEANS: Record<string, boolean> = {
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

const ENDS_WITH_BACKSLASH = "Measurements, tag keys and values, and field keys may not end with a backslash";

/** Problems found inside a line; wrapped with the line number before leaving the parser. */
class LineProblem extends Error {}

interface TableBuilder {
  name: string;
  columns: ColumnSchema[];
  index: Map<string, number>;
  rows: Value[][];
  hasTime: boolean;
  /** Column indexes of each interned tag-key list seen in this request. */
  tagIdx: Map<string[], number[]>;
  /** The field keys (and their columns) of the previous line, by position: most lines repeat them. */
  fieldKeys: string[];
  fieldIdx: number[];
}

/** The parsed `measurement,tag=value...` prefix of a line, shared by every line of that series. */
interface SeriesKey {
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

function isEndOfValue(c: number): boolean {
  return c === COMMA || c === SPACE || c === NL || c === CR || Number.isNaN(c);
}

/** Removes escapes: `\` + one of `escapable` yields that char; any other `\` is kept as written. */
function unescape(s: string, measurement: boolean): string {
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

function unescapeString(s: string): string {
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

function isFloatToken(s: string): boolean {
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

function isIntegerToken(s: string, end: number, signed: boolean): boolean {
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
function narrow(v: bigint): number | bigint {
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
  return { measurement, keys: internKeys(keys), vals };
}

class Parser {
  private pos = 0;
  private line = 1;
  private readonly n: number;
  private readonly tables = new Map<string, TableBuilder>();
  private lastTsToken = "";
  private lastTs = 0n;

  constructor(private readonly text: string, private readonly mult: bigint, private readonly now: bigint) {
    this.n = text.length;
  }

  run(): WriteBatch[] {
    const { text, n } = this;
    while (this.pos < n) {
      let c = text.charCodeAt(this.pos);
      while (c === SPACE || c === TAB || c === CR) c = text.charCodeAt(++this.pos);
      if (this.pos >= n) break;
      if (c === NL) {
        this.pos++;
        this.line++;
        continue;
      }
      if (c === HASH) {
        const nl = text.indexOf("\n", this.pos);
        this.pos = nl < 0 ? n : nl;
        continue;
      }
      try {
        this.parseLine();
      } catch (e) {
        if (e instanceof LineProblem) {
          throw invalidArguments(
            `Failed to parse InfluxDB line protocol: error parsing line ${this.line} (1-based): ${e.message}`,
          );
        }
        throw e;
      }
    }
    return this.finish();
  }

  private finish(): WriteBatch[] {
    const out: WriteBatch[] = [];
    for (const t of this.tables.values()) {
      const width = t.columns.length;
      for (const row of t.rows) {
        for (let j = row.length; j < width; j++) row.push(null);
      }
      out.push({ table: t.name, columns: t.columns, rows: t.rows, createType: "last_non_null" });
    }
    return out;
  }

  private parseLine(): void {
    const { text, n } = this;
    const start = this.pos;
    let p = start;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === BACKSLASH) {
        const next = text.charCodeAt(p + 1);
        if (next === NL || next === CR || p + 1 >= n) throw new LineProblem(ENDS_WITH_BACKSLASH);
        p += 2;
        continue;
      }
      if (c === SPACE || c === NL) break;
      p++;
    }
    const key = text.slice(start, p);
    let series = seriesCache.get(key);
    if (series === undefined) {
      series = parseSeriesKey(text, start, p);
      if (seriesCache.size >= SERIES_CACHE_MAX) seriesCache.clear();
      seriesCache.set(key, series);
    }
    this.pos = p;
    while (text.charCodeAt(this.pos) === SPACE) this.pos++;
    const c = text.charCodeAt(this.pos);
    if (this.pos >= n || c === NL || c === CR || c === TAB) throw new LineProblem("No fields were provided");

    const table = this.table(series.measurement);
    let tagIdx = table.tagIdx.get(series.keys);
    if (tagIdx === undefined) {
      tagIdx = series.keys.map((k) => this.column(table, k, "String", "TAG"));
      table.tagIdx.set(series.keys, tagIdx);
    }
    const row: Value[] = new Array(table.columns.length).fill(null);
    const tagVals = series.vals;
    for (let k = 0; k < tagIdx.length; k++) row[tagIdx[k]] = tagVals[k];
    this.parseFields(table, row);
    if (!table.hasTime) {
      table.hasTime = true;
      table.index.set(INFLUX_TIME_INDEX, table.columns.length);
      table.columns.push({ name: INFLUX_TIME_INDEX, type: "TimestampNanosecond", semantic: "TIMESTAMP" });
    }
    row[table.index.get(INFLUX_TIME_INDEX)!] = this.parseTimestamp();
    table.rows.push(row);
  }

  private table(measurement: string): TableBuilder {
    let table = this.tables.get(measurement);
    if (table === undefined) {
      table = {
        name: measurement,
        columns: [],
        index: new Map(),
        rows: [],
        hasTime: false,
        tagIdx: new Map(),
        fieldKeys: [],
        fieldIdx: [],
      };
      this.tables.set(measurement, table);
    }
    return table;
  }

  /** The index of a column, adding it on first sight; a kind or type clash is a line error. */
  private column(table: TableBuilder, name: string, type: DataType, semantic: "TAG" | "FIELD"): number {
    const idx = table.index.get(name);
    if (idx !== undefined) {
      const col = table.columns[idx];
      if (col.semantic !== semantic) {
        throw new LineProblem(
          `column '${name}' of measurement '${table.name}' is a ${col.semantic.toLowerCase()} ` +
            `and cannot also be a ${semantic.toLowerCase()}`,
        );
      }
      if (col.type !== type) {
        throw new LineProblem(
          `field type conflict: field '${name}' of measurement '${table.name}' is ${type} here ` +
            `but ${col.type} earlier in the request`,
        );
      }
      return idx;
    }
    if (name === INFLUX_TIME_INDEX) {
      throw new LineProblem(`column name '${name}' is reserved for the time index`);
    }
    const at = table.columns.length;
    table.columns.push({ name, type, semantic });
    table.index.set(name, at);
    return at;
  }

  private parseFields(table: TableBuilder, row: Value[]): void {
    const { text, n } = this;
    let p = this.pos;
    for (let k = 0;; k++) {
      let key: string;
      let idx = -1;
      let escaped = false;
      const cached = table.fieldKeys[k];
      if (cached !== undefined && text.startsWith(cached, p) && text.charCodeAt(p + cached.length) === EQ) {
        key = cached;
        idx = table.fieldIdx[k];
        p += cached.length + 1;
      } else {
        const keyStart = p;
        while (p < n) {
          const c = text.charCodeAt(p);
          if (c === BACKSLASH) {
            const next = text.charCodeAt(p + 1);
            if (next === NL || next === CR || p + 1 >= n) throw new LineProblem(ENDS_WITH_BACKSLASH);
            escaped = true;
            p += 2;
            continue;
          }
          if (c === EQ || c === COMMA || c === SPACE || c === NL) break;
          p++;
        }
        const rawKey = text.slice(keyStart, p);
        if (p === keyStart) throw new LineProblem("Invalid field set: empty field key");
        key = escaped ? unescape(rawKey, false) : rawKey;
        if (text.charCodeAt(p) !== EQ) {
          throw new LineProblem(`Invalid field set: missing '=' after field key '${key}'`);
        }
        p++;
      }
      const c = text.charCodeAt(p);
      let value: Value;
      let type: DataType;
      if (c === QUOTE) {
        const valStart = p + 1;
        p = valStart;
        let esc = false;
        for (;;) {
          if (p >= n) throw new LineProblem(`Unterminated string value for field key '${key}'`);
          const d = text.charCodeAt(p);
          if (d === BACKSLASH) {
            esc = true;
            p += 2;
            continue;
          }
          if (d === QUOTE) break;
          p++;
        }
        const raw = text.slice(valStart, p);
        p++;
        value = esc ? unescapeString(raw) : raw;
        type = "String";
      } else if (this.scanNumber(p, c)) {
        value = this.numValue;
        type = this.numType;
        p = this.numEnd;
      } else {
        const valStart = p;
        while (!isEndOfValue(text.charCodeAt(p))) p++;
        if (p === valStart) throw new LineProblem(`Invalid field set: missing value for field key '${key}'`);
        const tok = text.slice(valStart, p);
        const last = tok.charCodeAt(tok.length - 1);
        if (last === 105 /* i */) {
          value = this.parseInt(tok, true);
          type = "Int64";
        } else if (last === 117 /* u */) {
          value = this.parseInt(tok, false);
          type = "UInt64";
        } else if ((c >= ZERO && c <= NINE) || c === MINUS || c === PLUS || c === DOT) {
          if (!isFloatToken(tok)) throw new LineProblem(`Unable to parse floating-point value '${tok}'`);
          value = Number(tok);
          type = "Float64";
        } else {
          const b = BOOLEANS[tok];
          if (b === undefined) throw new LineProblem(`Invalid field value for field key '${key}': '${tok}'`);
          value = b;
          type = "Boolean";
        }
      }
      if (idx >= 0 && table.columns[idx].type === type) {
        row[idx] = value;
      } else {
        idx = this.column(table, key, type, "FIELD");
        row[idx] = value;
        if (!escaped) {
          table.fieldKeys[k] = key;
          table.fieldIdx[k] = idx;
        }
      }
      const after = text.charCodeAt(p);
      if (after === COMMA) {
        p++;
        continue;
      }
      if (!(after === SPACE || after === NL || after === CR || after === TAB || p >= n)) {
        throw new LineProblem(`Could not parse entire line. Found trailing content: '${this.restOfLine(p)}'`);
      }
      this.pos = p;
      return;
    }
  }

  private numValue = 0;
  private numType: DataType = "Float64";
  private numEnd = 0;

  /**
   * Fast path for plain numbers (`-?digits[.digits]` with at most 15 digits, optional `i`/`u`): the
   * digits fit a double exactly, so `mantissa / 10^k` is the correctly rounded value and no substring
   * or `Number()` call is needed. Anything else returns false for the general path.
   */
  private scanNumber(p: number, c: number): boolean {
    const text = this.text;
    let neg = false;
    if (c === MINUS) {
      neg = true;
      c = text.charCodeAt(++p);
    }
    let mant = 0, digits = 0, frac = 0, dot = false;
    for (;;) {
      if (c >= ZERO && c <= NINE) {
        mant = mant * 10 + (c - ZERO);
        digits++;
        if (dot) frac++;
      } else if (c === DOT && !dot) {
        dot = true;
      } else break;
      c = text.charCodeAt(++p);
    }
    if (digits === 0 || digits > 15) return false;
    if (isEndOfValue(c)) {
      this.numValue = neg
        ? -(frac === 0 ? mant : mant / POW10[frac])
        : frac === 0
        ? mant
        : mant / POW10[frac];
      this.numType = "Float64";
      this.numEnd = p;
      return true;
    }
    if ((c === 105 /* i */ || (c === 117 /* u */ && !neg)) && !dot && isEndOfValue(text.charCodeAt(p + 1))) {
      this.numValue = neg ? 0 - mant : mant;
      this.numType = c === 105 ? "Int64" : "UInt64";
      this.numEnd = p + 1;
      return true;
    }
    return false;
  }

  private parseInt(tok: string, signed: boolean): number | bigint {
    const end = tok.length - 1;
    if (!isIntegerToken(tok, end, signed)) {
      throw new LineProblem(
        signed ? `Unable to parse integer value '${tok}'` : `Unable to parse unsigned integer value '${tok}'`,
      );
    }
    const digits = tok.slice(0, end);
    if (end <= 15) return Number(digits) + 0; // + 0 turns -0 into 0
    const v = BigInt(digits);
    if (signed ? v < I64_MIN || v > I64_MAX : v > U64_MAX) {
      throw new LineProblem(
        signed ? `Unable to parse integer value '${tok}'` : `Unable to parse unsigned integer value '${tok}'`,
      );
    }
    return narrow(v);
  }

  /** Reads the optional timestamp and the end of the line; returns nanoseconds. */
  private parseTimestamp(): bigint {
    const { text, n } = this;
    let p = this.pos;
    while (text.charCodeAt(p) === SPACE) p++;
    const start = p;
    let c = text.charCodeAt(p);
    while (p < n && c !== SPACE && c !== NL && c !== CR && c !== TAB) c = text.charCodeAt(++p);
    let ts: bigint;
    if (p === start) {
      ts = this.now;
    } else {
      const tok = text.slice(start, p);
      if (tok === this.lastTsToken) {
        ts = this.lastTs;
      } else {
        if (!isIntegerToken(tok, tok.length, true) || tok.charCodeAt(0) === PLUS) {
          throw new LineProblem(`Unable to parse timestamp value '${tok}'`);
        }
        ts = BigInt(tok) * this.mult;
        if (ts < I64_MIN || ts > I64_MAX) throw new LineProblem(`timestamp overflow: '${tok}'`);
        this.lastTsToken = tok;
        this.lastTs = ts;
      }
    }
    while ((c = text.charCodeAt(p)) === SPACE || c === TAB || c === CR) p++;
    if (p < n && c !== NL) {
      throw new LineProblem(`Could not parse entire line. Found trailing content: '${this.restOfLine(p)}'`);
    }
    this.pos = p;
    return ts;
  }

  private restOfLine(p: number): string {
    const nl = this.text.indexOf("\n", p);
    return this.text.slice(p, nl < 0 ? this.n : nl).trimEnd();
  }
}

/**
 * Parses a line-protocol body into one batch per measurement (timestamps in ns, as bigint).
 * Throws PetrelError 1004 naming the line and problem, or on an unknown precision.
 */
export function parseLineProtocol(text: string, precision: string | undefined, now: bigint): WriteBatch[] {
  const mult = precisionToNanos(precision);
  return new Parser(text, mult, now).run();
}

/** True when `e` is a line-protocol parse error (for callers that map errors themselves). */
export function isLineProtocolError(e: unknown): e is PetrelError {
  return e instanceof PetrelError && e.message.startsWith("Failed to parse InfluxDB line protocol: ");
}
