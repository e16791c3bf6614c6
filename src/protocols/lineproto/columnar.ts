/**
 * A compact, transferable form of parsed `WriteBatch`es for moving them between threads: each column
 * becomes one typed array (strings as indexes into one per-message string table), so posting a
 * 5000-row batch moves a handful of buffers instead of structured-cloning 5000 small row arrays.
 * Columns whose values do not share one JS type fall back to a plain array (cloned as is).
 *
 * Short strings (tag values, mostly) can be numbered by a `StringTable` that lives as long as the
 * worker: a message then carries only the strings not sent before, and the receiver keeps a mirror
 * array, so a steady stream of the same series moves and allocates no strings at all.
 */

import type {
  ColumnSchema,
  ColumnValues,
  CreateType,
  TableOptions,
  Value,
  WriteBatch,
} from "../../common/rows.ts";
import { ColumnarBatch, columnsOf } from "../../common/rows.ts";

/** One column's values; `nulls[i] === 1` marks a null where the typed array cannot say so. */
export type EncodedColumn =
  | { kind: "str"; idx: Int32Array<ArrayBuffer> }
  | { kind: "f64"; v: Float64Array<ArrayBuffer>; nulls: Uint8Array<ArrayBuffer> | null }
  | { kind: "i64"; v: BigInt64Array<ArrayBuffer>; nulls: Uint8Array<ArrayBuffer> | null }
  | { kind: "bool"; v: Uint8Array<ArrayBuffer> }
  | { kind: "null" }
  | { kind: "any"; v: Value[] };

/** One batch in columnar form. */
export interface EncodedBatch {
  table: string;
  columns: ColumnSchema[];
  rowCount: number;
  values: EncodedColumn[];
  options?: TableOptions;
  createType?: CreateType;
}

/**
 * Batches of one message plus the strings their `str` columns index: index i ≥ 0 is entry i of the
 * (possibly shared) table, of which this message adds `strings` from `base` on (after emptying it
 * first when `reset`); -1 is null; i ≤ -2 is `extra[-2 - i]`, strings too long to keep.
 */
export interface EncodedBatches {
  batches: EncodedBatch[];
  strings: string[];
  base: number;
  reset: boolean;
  extra: string[];
}

/** Strings longer than this are sent with each message rather than kept in a table. */
const KEEP_MAX_CHARS = 128;
/** A shared table is emptied (and the receiver told so) once it holds this many strings. */
const TABLE_MAX = 100_000;

/** The sender's numbering of short strings, kept across messages (one per receiver). */
export class StringTable {
  readonly ids = new Map<string, number>();
}

interface EncodeState {
  ids: Map<string, number>;
  added: string[];
  extra: string[];
}

const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n;
const BOOL_NULL = 2;

function encodeColumn(
  values: ArrayLike<Value>,
  n: number,
  st: EncodeState,
  transfer: ArrayBuffer[],
): EncodedColumn {
  let kind: "str" | "f64" | "i64" | "bool" | "null" | "any" = "null";
  let hasNull = false;
  for (let r = 0; r < n; r++) {
    const v = values[r];
    const t = v === null || v === undefined
      ? "null"
      : typeof v === "string"
      ? "str"
      : typeof v === "number"
      ? "f64"
      : typeof v === "bigint"
      ? (v >= I64_MIN && v <= I64_MAX ? "i64" : "any")
      : typeof v === "boolean"
      ? "bool"
      : "any";
    if (t === "null") hasNull = true;
    else if (kind === "null") kind = t;
    else if (kind !== t) kind = "any";
    if (kind === "any") break;
  }
  switch (kind) {
    case "null":
      return { kind };
    case "any":
      return { kind, v: Array.from({ length: n }, (_, r) => values[r] ?? null) };
    case "str": {
      const idx = new Int32Array(n);
      for (let r = 0; r < n; r++) {
        const v = values[r] as string | null;
        if (v === null || v === undefined) {
          idx[r] = -1;
          continue;
        }
        let id = st.ids.get(v);
        if (id === undefined) {
          if (v.length > KEEP_MAX_CHARS) {
            id = -2 - st.extra.length;
            st.extra.push(v);
          } else {
            id = st.ids.size;
            st.added.push(v);
            st.ids.set(v, id);
          }
        }
        idx[r] = id;
      }
      transfer.push(idx.buffer);
      return { kind, idx };
    }
    case "bool": {
      const v = new Uint8Array(n);
      for (let r = 0; r < n; r++) {
        const x = values[r];
        v[r] = x === null || x === undefined ? BOOL_NULL : x ? 1 : 0;
      }
      transfer.push(v.buffer);
      return { kind, v };
    }
    case "f64":
    case "i64": {
      const v = kind === "f64" ? new Float64Array(n) : new BigInt64Array(n);
      const nulls = hasNull ? new Uint8Array(n) : null;
      for (let r = 0; r < n; r++) {
        const x = values[r];
        if (x === null || x === undefined) nulls![r] = 1;
        else v[r] = x as never;
      }
      transfer.push(v.buffer);
      if (nulls) transfer.push(nulls.buffer);
      return kind === "f64"
        ? { kind, v: v as Float64Array<ArrayBuffer>, nulls }
        : { kind, v: v as BigInt64Array<ArrayBuffer>, nulls };
    }
  }
}

/**
 * Batches → columnar form, plus the buffers to list as transferables when posting it. With a
 * `table`, strings it already numbered are not sent again; decode with the receiver's mirror.
 */
export function encodeBatches(
  batches: WriteBatch[],
  table?: StringTable,
): { encoded: EncodedBatches; transfer: ArrayBuffer[] } {
  let reset = table === undefined;
  if (table !== undefined && table.ids.size >= TABLE_MAX) {
    table.ids.clear();
    reset = true;
  }
  const ids = table?.ids ?? new Map<string, number>();
  const base = ids.size;
  const st: EncodeState = { ids, added: [], extra: [] };
  const transfer: ArrayBuffer[] = [];
  const out: EncodedBatch[] = batches.map((b) => {
    const held = columnsOf(b);
    const n = held ? held.rowCount : b.rows.length;
    const e: EncodedBatch = {
      table: b.table,
      columns: b.columns,
      rowCount: n,
      values: b.columns.map((_, j) =>
        encodeColumn(held ? held.cols[j] : b.rows.map((row) => row[j]), n, st, transfer)
      ),
    };
    if (b.options !== undefined) e.options = b.options;
    if (b.createType !== undefined) e.createType = b.createType;
    return e;
  });
  return { encoded: { batches: out, strings: st.added, base, reset, extra: st.extra }, transfer };
}

/**
 * Columnar form → batches (as `ColumnarBatch`es: the writer reads their columns as they are, and
 * their `rows` equal the encoded ones: numbers stay numbers, bigints bigints). `mirror` is the
 * receiver's copy of the sender's `StringTable`, updated here; without one the message must have
 * been encoded without a table. Throws when the mirror is out of step.
 */
export function decodeBatches(encoded: EncodedBatches, mirror: string[] = []): ColumnarBatch[] {
  if (encoded.reset) mirror.length = 0;
  if (mirror.length !== encoded.base) {
    throw new Error(`string table out of step: have ${mirror.length}, message starts at ${encoded.base}`);
  }
  for (const s of encoded.strings) mirror.push(s);
  return encoded.batches.map((e) => {
    const cols = e.values.map((col) => decodeColumn(col, e.rowCount, mirror, encoded.extra));
    const b = new ColumnarBatch(e.table, e.columns, cols, e.rowCount);
    if (e.options !== undefined) b.options = e.options;
    if (e.createType !== undefined) b.createType = e.createType;
    return b;
  });
}

/** One encoded column as values the writer reads directly (typed arrays kept where they hold no nulls). */
function decodeColumn(col: EncodedColumn, n: number, strings: string[], extra: string[]): ColumnValues {
  switch (col.kind) {
    case "str": {
      const idx = col.idx, out: Value[] = new Array(n);
      for (let r = 0; r < n; r++) {
        const i = idx[r];
        out[r] = i >= 0 ? strings[i] : i === -1 ? null : extra[-2 - i];
      }
      return out;
    }
    case "f64":
    case "i64": {
      const { v, nulls } = col;
      if (nulls === null) return v;
      const out: Value[] = new Array(n);
      for (let r = 0; r < n; r++) out[r] = nulls[r] === 1 ? null : v[r];
      return out;
    }
    case "bool": {
      const v = col.v, out: Value[] = new Array(n);
      for (let r = 0; r < n; r++) out[r] = v[r] === BOOL_NULL ? null : v[r] === 1;
      return out;
    }
    case "null":
      return new Array<Value>(n).fill(null);
    case "any":
      return col.v;
  }
}
