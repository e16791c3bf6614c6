/**
 * The writer's value handling: a batch's values as columns in table-key order (`ColumnSource`,
 * from a row batch or a `ColumnarBatch` without copying it), and their conversion to what SQLite
 * stores (time unit changes, UInt64, booleans, the null-tag stand-in; a float, or an integer past the
 * type's range, refused for an integer column; a client's number scaled for a Decimal column), one
 * loop per column. The converted values stay by column (the statements read them from there), and a
 * column that stores as it is is not copied at all: with the attribute JSON change in
 * `src/ingest/otlp/attributes.ts`, that (and no n×width row-major array) took the OTLP logs bench's
 * Petrel CPU from ~6.4 to ~5.9 µs a record (all threads, mean of 9 noisy runs each).
 */
import { type DecimalSpec, decimalSpec, toScaled } from "../common/decimal.ts";
import { invalidArguments, PetrelError } from "../common/errors.ts";
import { encodeUInt64, fromSqliteInteger, INTEGER_RANGES, NULL_TAG } from "./datatypes.ts";
import { storedText } from "./nul_text.ts";
import type { ColumnMeta } from "./table.ts";
import type { ColumnarBatch, ColumnValues, Value, WriteBatch } from "../common/rows.ts";
import { rescaleTime } from "../common/time_unit.ts";
import { vectorDim, vectorValueFor } from "../common/vector.ts";

export type SqlValue = string | number | bigint | null | Uint8Array;

/** The JS value kinds a column accepts (anything else would be stored with the wrong SQLite type). */
type ValueKind = "text" | "binary" | "vector" | "boolean" | "number";

/** The JS value kind a column of this type stores. */
export function kindOf(type: ColumnMeta["type"]): ValueKind {
  if (vectorDim(type) !== undefined) return "vector";
  switch (type) {
    case "String":
    case "Json":
      return "text";
    case "Binary":
      return "binary";
    case "Boolean":
      return "boolean";
    default:
      return "number";
  }
}

/**
 * A value of the wrong kind for its column. The client's value (`clientNumbers`: a pipeline's JSON,
 * whose auto-typed keys adopt the existing table's type) is GreptimeDB's datatype mismatch, naming
 * the type the pipeline would give it (a JSON string for an integer column: `actual datatype: String`).
 */
function mismatch(plan: ColumnPlan, v: Value): never {
  const col = plan.col;
  if (plan.clientNumbers) datatypeMismatch(col, clientType(v));
  const shown = typeof v === "string" ? `'${v.length > 40 ? v.slice(0, 40) + "…" : v}'` : String(v);
  throw invalidArguments(`Invalid value ${shown} for column ${col.name} of type ${col.type}`);
}

/** GreptimeDB's refusal of a value whose type is not the column's (reference pipelines.md §8). */
function datatypeMismatch(col: ColumnMeta, actual: string): never {
  throw invalidArguments(
    `Column datatype mismatch. For column: ${col.name}, expected datatype: ${col.type}, actual datatype: ${actual}`,
  );
}

/** The type a pipeline gives a JSON value when auto-typing it. */
function clientType(v: Value): string {
  if (typeof v === "string") return "String";
  if (typeof v === "bigint") return "Int64";
  if (typeof v === "number") return Number.isInteger(v) ? "Int64" : "Float64";
  if (typeof v === "boolean") return "Boolean";
  return "Binary";
}

/**
 * A float for an integer column: GreptimeDB's datatype mismatch for the integer types (their
 * pipelines refuse a JSON float for an existing integer column), the value for the others.
 */
function floatMismatch(plan: ColumnPlan, v: number): never {
  if (!/^U?Int\d+$/.test(plan.col.type)) mismatch(plan, v);
  datatypeMismatch(plan.col, "Float64");
}

/**
 * An integer past its column's type (SQLite would keep 300 in a UInt8 column). The client's is
 * GreptimeDB's datatype mismatch (its pipeline refuses an Int64 for a narrower column; Petrel takes
 * the ones in range), a negative one for an unsigned column included; a stored value's names the range.
 */
function outOfRange(plan: ColumnPlan, v: number | bigint): never {
  if (plan.clientNumbers) datatypeMismatch(plan.col, "Int64");
  throw invalidArguments(`Value ${v} is out of range for column ${plan.col.name} of type ${plan.col.type}`);
}

/**
 * The range a column's integers are checked against, decided once per column: a narrower integer
 * type's always; UInt64's only for the client's numbers (a stored UInt64 past 2^63 is negative).
 */
function integerRange(plan: ColumnPlan): readonly [bigint, bigint] | undefined {
  const type = plan.col.type;
  if (type === "Int64" || (type === "UInt64" && !plan.clientNumbers)) return undefined;
  return INTEGER_RANGES[type];
}

/**
 * A client's number as the unscaled integer a Decimal column stores: scaled and rounded by the
 * code SQL INSERT uses, a value past the precision a 400 naming the column.
 */
function scaledDecimal(v: number | bigint, spec: DecimalSpec, col: ColumnMeta): number | bigint {
  try {
    return fromSqliteInteger(toScaled(v, spec));
  } catch (e) {
    if (e instanceof PetrelError) throw invalidArguments(`${e.message}, for column ${col.name}`);
    throw e;
  }
}

/** What one column's conversion needs to know, decided once per batch. */
export interface ColumnPlan {
  col: ColumnMeta;
  kind: ValueKind;
  isTime: boolean;
  /** Stores the null-tag stand-in for a null (a tag of a keyed table). */
  isTag: boolean;
  timeConversion?: { from: bigint; to: bigint };
  /**
   * The batch holds the client's values, not stored ones: a Decimal column's numbers are scaled by
   * 10^s, a negative one for an unsigned column is refused (a stored UInt64 past 2^63 is negative),
   * and a value of the wrong kind is GreptimeDB's datatype mismatch.
   */
  clientNumbers?: boolean;
}

/** The value a null becomes in a column (or the error it is); records the column in `sawNull`. */
function nullFor(plan: ColumnPlan, sawNull: Set<string>): SqlValue {
  if (plan.isTime) throw invalidArguments("Time index must be non null.");
  if (!plan.col.nullable) throw invalidArguments(`Column ${plan.col.name} is NOT NULL but the value is null`);
  sawNull.add(plan.col.name);
  return plan.isTag ? NULL_TAG : null;
}

/** A converted column: row k of the insert is `[k]`. */
export type SqlColumn = ArrayLike<SqlValue>;

/** A copy of `values` that conversion may change. */
function copyOf(values: ArrayLike<Value>, n: number): SqlValue[] {
  return (Array.isArray(values)
    ? values.slice(0, n)
    : Array.from({ length: n }, (_, r) => values[r])) as SqlValue[];
}

/**
 * Converts one column to what SQLite stores, in insert order: one loop per column, branching on
 * the column's kind once instead of calling a converter per cell. A column whose values all store
 * as they are (the usual case: strings, numbers, in input order) is returned itself, not copied;
 * otherwise the copy is made at the first value that changes.
 */
export function convertColumn(
  plan: ColumnPlan,
  source: ColumnSource,
  j: number,
  sawNull: Set<string>,
): SqlColumn {
  const { n } = source, col = plan.col;
  const values = source.order === null ? source.cols[j] : inOrder(source.cols[j], source.order, n);
  // a column of our own is changed in place; the batch's own column is copied before a change
  let out: SqlValue[] | null = source.order !== null || source.owned ? values as SqlValue[] : null;
  switch (plan.kind) {
    case "text": {
      // a string holding a NUL is stored as bytes (nul_text.ts); the same string keeps the same
      // bytes, so a run of it still binds once as a constant column
      let nulText = "", nulBytes: string | Uint8Array = "";
      // the last string found clean: a column repeating one value (resource attributes) is
      // searched for NUL once, not once a row
      let clean = "";
      for (let r = 0; r < n; r++) {
        const v = values[r];
        if (typeof v === "string") {
          if (v === clean) continue;
          if (v.indexOf("\u0000") === -1) {
            clean = v;
            continue;
          }
          out ??= copyOf(values, n);
          out[r] = v === nulText ? nulBytes : (nulBytes = storedText(nulText = v));
        } else if (v === null || v === undefined) {
          const c = nullFor(plan, sawNull);
          if (c !== v) (out ??= copyOf(values, n))[r] = c;
        } else mismatch(plan, v);
      }
      break;
    }
    case "binary":
      for (let r = 0; r < n; r++) {
        const v = values[r];
        if (v instanceof Uint8Array) continue;
        const c = typeof v === "string"
          ? storedText(v)
          : v === null || v === undefined
          ? nullFor(plan, sawNull)
          : mismatch(plan, v);
        if (c !== v) (out ??= copyOf(values, n))[r] = c;
      }
      break;
    case "vector": {
      // every write path lands here, so a vector of the wrong dimension never reaches the table
      const dim = vectorDim(col.type)!;
      for (let r = 0; r < n; r++) {
        const v = values[r];
        const c = v instanceof Uint8Array || typeof v === "string"
          ? vectorValueFor(v, dim, col.name)
          : v === null || v === undefined
          ? nullFor(plan, sawNull)
          : mismatch(plan, v);
        if (c !== v) (out ??= copyOf(values, n))[r] = c;
      }
      break;
    }
    case "boolean": {
      // a stored boolean is 0/1; the client's number is GreptimeDB's mismatch, not a truth value
      const numbers = !plan.clientNumbers;
      for (let r = 0; r < n; r++) {
        const v = values[r];
        const c = v === null || v === undefined
          ? nullFor(plan, sawNull)
          : typeof v === "boolean" || (numbers && (typeof v === "number" || typeof v === "bigint"))
          ? (v ? 1 : 0)
          : mismatch(plan, v);
        if (c !== v) (out ??= copyOf(values, n))[r] = c;
      }
      break;
    }
    case "number": {
      const conv = plan.timeConversion;
      const uint64 = col.type === "UInt64";
      // every column but a float one stores SQLite integers: a fraction, an infinity or a number past
      // 64 bits would be kept as a REAL under the integer type (a pipeline adopts the table's type
      // for the float its JSON holds), so it is refused here, where every write path meets
      const decimal = plan.clientNumbers ? decimalSpec(col.type) : undefined;
      const whole = !decimal && col.type !== "Float64" && col.type !== "Float32";
      // a narrower integer type's range (±Infinity: none), as numbers for the usual number values
      const range = integerRange(plan);
      const lo = range ? Number(range[0]) : -Infinity, hi = range ? Number(range[1]) : Infinity;
      for (let r = 0; r < n; r++) {
        const v = values[r];
        let c: SqlValue;
        if (typeof v === "number") {
          if (decimal) c = scaledDecimal(v, decimal, col);
          else {
            if (whole && !isInt64(v)) floatMismatch(plan, v);
            if (v < lo || v > hi) outOfRange(plan, v);
            if (!conv) continue;
            c = int64(rescaleTime(v, conv.from, conv.to), col);
          }
        } else if (typeof v === "bigint") {
          if (decimal) c = scaledDecimal(v, decimal, col);
          else {
            if (range && (v < range[0] || v > range[1])) outOfRange(plan, v);
            c = int64(conv ? rescaleTime(v, conv.from, conv.to) : uint64 ? encodeUInt64(v) : v, col);
          }
        } else if (v === null || v === undefined) c = nullFor(plan, sawNull);
        else mismatch(plan, v);
        if (c !== v) (out ??= copyOf(values, n))[r] = c;
      }
    }
  }
  return out ?? (values as SqlColumn);
}

/** `values` in the order `order` gives (a new array). */
function inOrder(values: ArrayLike<Value>, order: ArrayLike<number>, n: number): Value[] {
  const out: Value[] = new Array(n);
  for (let r = 0; r < n; r++) out[r] = values[order[r]];
  return out;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT64_LIMIT = 2 ** 63;

/** Whether a number is an integer a 64-bit SQLite column stores as one (not a REAL). */
function isInt64(v: number): boolean {
  return Number.isInteger(v) && Math.abs(v) < INT64_LIMIT;
}

/** An integer SQLite can store (64-bit); beyond, the client's value is out of range (400, not a bind error). */
function int64(v: number | bigint, col: ColumnMeta): number | bigint {
  if (typeof v === "bigint" && (v < INT64_MIN || v > INT64_MAX)) {
    throw invalidArguments(`Value ${v} of column ${col.name} is out of the 64-bit integer range`);
  }
  return v;
}

function compareValues(a: Value | undefined, b: Value | undefined): number {
  // mirrors SQLite's order for the stored values: the null-tag blob sorts after text
  if (a === b) return 0;
  if (a === null || a === undefined || (a instanceof Uint8Array && a.length === 0)) return 1;
  if (b === null || b === undefined || (b instanceof Uint8Array && b.length === 0)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts rows by the table key (stable, so later duplicates still win) unless they are sorted already. */
function sortByKey(rows: Value[][], keyPositions: number[]): Value[][] {
  const cmp = (x: Value[], y: Value[]): number => {
    for (const p of keyPositions) {
      const c = compareValues(x[p], y[p]);
      if (c !== 0) return c;
    }
    return 0;
  };
  for (let i = 1; i < rows.length; i++) {
    if (cmp(rows[i - 1], rows[i]) > 0) return [...rows].sort(cmp);
  }
  return rows;
}

/** A batch's values by column, with the order rows are inserted in. */
export interface ColumnSource {
  cols: ColumnValues[];
  /** `order[k]` is the k-th row inserted; null: input order. */
  order: ArrayLike<number> | null;
  /** Whether `cols` were made for this write (conversion may change them in place). */
  owned: boolean;
  n: number;
}

/** Columns of a columnar batch, ordered by the table key (ties keep input order, so later duplicates win). */
export function columnarSource(batch: ColumnarBatch, keyPositions: number[] | null): ColumnSource {
  const n = batch.rowCount, cols = batch.cols;
  // A key column with one value throughout (the time index of a typical write) never decides.
  const keys = (keyPositions ?? []).map((p) => cols[p]).filter((k) => !isConstant(k, n));
  if (keys.length === 0) return { cols, order: null, owned: false, n };
  const cmp = (a: number, b: number): number => {
    for (const k of keys) {
      const c = compareValues(k[a], k[b]);
      if (c !== 0) return c;
    }
    return a - b;
  };
  for (let r = 1; r < n; r++) {
    if (cmp(r - 1, r) > 0) {
      const order = new Int32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      return { cols, order: order.sort(cmp), owned: false, n };
    }
  }
  return { cols, order: null, owned: false, n };
}

function isConstant(values: ColumnValues, n: number): boolean {
  const first = values[0];
  for (let r = 1; r < n; r++) if (values[r] !== first) return false;
  return true;
}

/** Columns of a row batch (rows sorted by the table key first when `keyPositions` is given). */
export function rowSource(batch: WriteBatch, width: number, keyPositions: number[] | null): ColumnSource {
  for (const row of batch.rows) {
    if (row.length > width) {
      throw invalidArguments(`Row has ${row.length} values for ${width} columns in table ${batch.table}`);
    }
  }
  const rows = keyPositions === null ? batch.rows : sortByKey(batch.rows, keyPositions);
  const n = rows.length;
  const cols: Value[][] = [];
  for (let j = 0; j < width; j++) {
    const col: Value[] = new Array(n);
    for (let r = 0; r < n; r++) col[r] = rows[r][j];
    cols.push(col);
  }
  return { cols, order: null, owned: true, n };
}
