/**
 * A compact, transferable form of parsed `WriteBatch`es for moving them between threads: each column
 * becomes one typed array (strings as indexes into one per-message string table), so posting a
 * 5000-row batch moves a handful of buffers instead of structured-cloning 5000 small row arrays.
 * Columns whose values do not share one JS type fall back to a plain array (cloned as is).
 */

import type { ColumnSchema, CreateType, TableOptions, Value, WriteBatch } from "../storage/types.ts";

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

/** Batches of one message plus the strings their `str` columns index. */
export interface EncodedBatches {
  batches: EncodedBatch[];
  strings: string[];
}

const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n;
const BOOL_NULL = 2;

function encodeColumn(
  rows: Value[][],
  j: number,
  strings: string[],
  stringIds: Map<string, number>,
  transfer: ArrayBuffer[],
): EncodedColumn {
  const n = rows.length;
  let kind: "str" | "f64" | "i64" | "bool" | "null" | "any" = "null";
  let hasNull = false;
  for (let r = 0; r < n; r++) {
    const v = rows[r][j];
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
      return { kind, v: rows.map((row) => row[j] ?? null) };
    case "str": {
      const idx = new Int32Array(n);
      for (let r = 0; r < n; r++) {
        const v = rows[r][j] as string | null;
        if (v === null || v === undefined) {
          idx[r] = -1;
          continue;
        }
        let id = stringIds.get(v);
        if (id === undefined) {
          id = strings.length;
          strings.push(v);
          stringIds.set(v, id);
        }
        idx[r] = id;
      }
      transfer.push(idx.buffer);
      return { kind, idx };
    }
    case "bool": {
      const v = new Uint8Array(n);
      for (let r = 0; r < n; r++) {
        const x = rows[r][j];
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
        const x = rows[r][j];
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

/** Batches → columnar form, plus the buffers to list as transferables when posting it. */
export function encodeBatches(batches: WriteBatch[]): { encoded: EncodedBatches; transfer: ArrayBuffer[] } {
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const transfer: ArrayBuffer[] = [];
  const out: EncodedBatch[] = batches.map((b) => {
    const e: EncodedBatch = {
      table: b.table,
      columns: b.columns,
      rowCount: b.rows.length,
      values: b.columns.map((_, j) => encodeColumn(b.rows, j, strings, stringIds, transfer)),
    };
    if (b.options !== undefined) e.options = b.options;
    if (b.createType !== undefined) e.createType = b.createType;
    return e;
  });
  return { encoded: { batches: out, strings }, transfer };
}

/** Columnar form → batches whose rows equal the encoded ones (numbers stay numbers, bigints bigints). */
export function decodeBatches(encoded: EncodedBatches): WriteBatch[] {
  const { strings } = encoded;
  return encoded.batches.map((e) => {
    const n = e.rowCount, width = e.columns.length;
    const rows: Value[][] = new Array(n);
    for (let r = 0; r < n; r++) rows[r] = new Array(width);
    for (let j = 0; j < width; j++) {
      const col = e.values[j];
      switch (col.kind) {
        case "str": {
          const idx = col.idx;
          for (let r = 0; r < n; r++) rows[r][j] = idx[r] < 0 ? null : strings[idx[r]];
          break;
        }
        case "f64":
        case "i64": {
          const { v, nulls } = col;
          if (nulls === null) { for (let r = 0; r < n; r++) rows[r][j] = v[r]; }
          else for (let r = 0; r < n; r++) rows[r][j] = nulls[r] === 1 ? null : v[r];
          break;
        }
        case "bool": {
          const v = col.v;
          for (let r = 0; r < n; r++) rows[r][j] = v[r] === BOOL_NULL ? null : v[r] === 1;
          break;
        }
        case "null":
          for (let r = 0; r < n; r++) rows[r][j] = null;
          break;
        case "any": {
          const v = col.v;
          for (let r = 0; r < n; r++) rows[r][j] = v[r];
          break;
        }
      }
    }
    const b: WriteBatch = { table: e.table, columns: e.columns, rows };
    if (e.options !== undefined) b.options = e.options;
    if (e.createType !== undefined) b.createType = e.createType;
    return b;
  });
}
