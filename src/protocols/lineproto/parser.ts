/**
 * InfluxDB line protocol (v1 and v2 write bodies) → one `WriteBatch` per measurement, with
 * GreptimeDB's schema (reference §7.1): tags String TAG, fields Float64/Int64/UInt64/String/Boolean
 * FIELD, time index `greptime_timestamp` TimestampNanosecond, columns in order of first appearance.
 *
 * A hand-written scanner over the string: one pass, no regex, and the measurement+tag-set prefix of a
 * line is parsed once per distinct series (cached by its raw text), since real bodies repeat series.
 * The whole body is parsed before anything is returned, so a bad line means nothing is written.
 */

import { invalidArguments } from "../../common/errors.ts";
import type { ColumnSchema, DataType, Value, WriteBatch } from "../../common/rows.ts";
import { ColumnarBatch } from "../../common/rows.ts";
import {
  BACKSLASH,
  cachedSeries,
  COMMA,
  CR,
  ENDS_WITH_BACKSLASH,
  EQ,
  HASH,
  I64_MAX,
  I64_MIN,
  isIntegerToken,
  LineProblem,
  lookupSeries,
  NL,
  PLUS,
  precisionToNanos,
  SPACE,
  TAB,
  unescape,
} from "./syntax.ts";
import { field, readFieldValue } from "./field_values.ts";

export { precisionToNanos };

/** Name of the time index column of tables created by line-protocol writes. */
const INFLUX_TIME_INDEX = "greptime_timestamp";

interface TableBuilder {
  name: string;
  columns: ColumnSchema[];
  index: Map<string, number>;
  /** Values by column (`cols[j][r]`), each exactly `n` long between lines. */
  cols: Value[][];
  n: number;
  hasTime: boolean;
  /** The time index column, once `hasTime`. */
  timeIdx: number;
  /** Column indexes of each interned tag-key list seen in this request. */
  tagIdx: Map<string[], number[]>;
  /** The field keys (and their columns) of the previous line, by position: most lines repeat them. */
  fieldKeys: string[];
  fieldIdx: number[];
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

  run(): ColumnarBatch[] {
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

  private finish(): ColumnarBatch[] {
    const out: ColumnarBatch[] = [];
    for (const t of this.tables.values()) {
      const b = new ColumnarBatch(t.name, t.columns, t.cols, t.n);
      b.createType = "last_non_null";
      out.push(b);
    }
    return out;
  }

  private parseLine(): void {
    const { text, n } = this;
    const start = this.pos;
    // Fast path: the prefix up to the next space was seen before. A cached prefix holds no newline
    // (it was cut at one), so a hit without a backslash before that space is this line's prefix.
    let p = this.spaceAfter(start);
    let series = this.backslashAfter(start) > p ? cachedSeries(text, start, p) : undefined;
    if (series === undefined) {
      p = this.prefixEnd(start);
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
      series = lookupSeries(text, start, p);
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
    // This line is row r: a value is set by appending at index r, so the arrays stay packed.
    const r = table.n, cols = table.cols;
    const tagVals = series.vals;
    for (let k = 0; k < tagIdx.length; k++) cols[tagIdx[k]][r] = tagVals[k];
    this.parseFields(table, r);
    if (!table.hasTime) {
      table.hasTime = true;
      table.timeIdx = table.columns.length;
      table.index.set(INFLUX_TIME_INDEX, table.columns.length);
      table.columns.push({ name: INFLUX_TIME_INDEX, type: "TimestampNanosecond", semantic: "TIMESTAMP" });
      cols.push(new Array(r).fill(null));
    }
    cols[table.timeIdx][r] = this.parseTimestamp();
    for (let j = 0; j < cols.length; j++) if (cols[j].length === r) cols[j].push(null);
    table.n = r + 1;
  }

  // Next space / newline / backslash at or after the position they were searched from; searching
  // with native indexOf and reusing a hit until the scan passes it keeps the whole body O(n).
  private nextSpace = -1;
  private nextNl = -1;
  private nextBackslash = -1;

  /**
   * Where the series prefix starting at `start` ends (first space or newline), found with indexOf;
   * when a backslash comes first, returns `start` so the caller's escape-aware scan does the work.
   */
  private prefixEnd(start: number): number {
    const { text, n } = this;
    const backslash = this.backslashAfter(start), space = this.spaceAfter(start);
    if (this.nextNl < start) {
      this.nextNl = text.indexOf("\n", start);
      if (this.nextNl < 0) this.nextNl = n;
    }
    const end = space < this.nextNl ? space : this.nextNl;
    return backslash < end ? start : end;
  }

  /** The first space at or after `start` (or the end of the text). */
  private spaceAfter(start: number): number {
    if (this.nextSpace < start) {
      this.nextSpace = this.text.indexOf(" ", start);
      if (this.nextSpace < 0) this.nextSpace = this.n;
    }
    return this.nextSpace;
  }

  /** The first backslash at or after `start` (or the end of the text). */
  private backslashAfter(start: number): number {
    if (this.nextBackslash < start) {
      this.nextBackslash = this.text.indexOf("\\", start);
      if (this.nextBackslash < 0) this.nextBackslash = this.n;
    }
    return this.nextBackslash;
  }

  private table(measurement: string): TableBuilder {
    let table = this.tables.get(measurement);
    if (table === undefined) {
      table = {
        name: measurement,
        columns: [],
        index: new Map(),
        cols: [],
        n: 0,
        hasTime: false,
        timeIdx: -1,
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
    table.cols.push(new Array(table.n).fill(null));
    table.index.set(name, at);
    return at;
  }

  private parseFields(table: TableBuilder, r: number): void {
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
      readFieldValue(text, p, key);
      const { value, type } = field;
      p = field.end;
      if (idx >= 0 && table.columns[idx].type === type) {
        table.cols[idx][r] = value;
      } else {
        idx = this.column(table, key, type, "FIELD");
        table.cols[idx][r] = value;
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
 * Parses a line-protocol body into one batch per measurement (timestamps in ns, as bigint), held
 * by column as the writer and the worker transfer want them. Throws PetrelError 1004 naming the
 * line and problem, or on an unknown precision.
 */
export function parseLineProtocolColumns(
  text: string,
  precision: string | undefined,
  now: bigint,
): ColumnarBatch[] {
  const mult = precisionToNanos(precision);
  return new Parser(text, mult, now).run();
}

/** `parseLineProtocolColumns` with plain row batches, for callers that want rows. */
export function parseLineProtocol(text: string, precision: string | undefined, now: bigint): WriteBatch[] {
  return parseLineProtocolColumns(text, precision, now).map((b) => ({
    table: b.table,
    columns: b.columns,
    rows: b.rows,
    createType: b.createType,
  }));
}
