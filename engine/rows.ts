/**
 * Collects rows of one pipeline run: the evolving column list (GreptimeDB's `SchemaInfo`), the
 * auto-typing of untransformed keys (reference §8), and grouping by destination table + options.
 */
import type { ColumnSchema, DataType, Value } from "../src/common/rows.ts";
import { execError, unexpected } from "./errors.ts";
import { intCell, type PipelineBatch, type PipelineColumn, timestampCellOf } from "./types.ts";
import { compareKeys, isInteger, Timestamp, toCompactJson, toStringLossy } from "./value.ts";

interface Group {
  table: string;
  options?: Record<string, string>;
  rows: Value[][];
}

const encoder = new TextEncoder();

/** Rows and columns of one run, grouped by destination. */
export class RowCollector {
  readonly columns: PipelineColumn[] = [];
  private readonly index = new Map<string, number>();
  private readonly groups = new Map<string, Group>();
  private readonly existing?: Map<string, ColumnSchema>;
  private readonly adopted = new Set<string>();

  /** `existing` are the destination table's columns, whose types auto-typed keys adopt. */
  constructor(initial: PipelineColumn[] = [], existing?: ColumnSchema[]) {
    for (const c of initial) this.addColumn(c);
    if (existing?.length) this.existing = new Map(existing.map((c) => [c.name, c]));
  }

  /** Appends a column and returns its position. */
  addColumn(c: PipelineColumn): number {
    const i = this.columns.length;
    this.columns.push(c);
    this.index.set(c.name, i);
    return i;
  }

  /** Position of an auto-typed column, created on first sight; a type change is an error. */
  autoColumn(name: string, type: DataType): number {
    const i = this.index.get(name);
    if (i === undefined) {
      const ex = this.existing?.get(name);
      if (!ex) return this.addColumn({ name, type, semantic: "FIELD" });
      // The table's type wins; a conflicting value is the storage layer's error (reference §11).
      this.adopted.add(name);
      return this.addColumn({ name, type: ex.type, semantic: ex.semantic });
    }
    const have = this.columns[i].type;
    // JSON `2.0` arrives as the JS number 2: an integral value in a Float64 column is still a float.
    if (have !== type && !this.adopted.has(name) && !(have === "Float64" && type === "Int64")) {
      throw execError(
        `Column datatype mismatch. For column: ${name}, expected datatype: ${have}, actual datatype: ${type}`,
      );
    }
    return i;
  }

  /** Auto-types every non-null key of `entry` (sorted order) into `row`. */
  autoTypeInto(entry: Record<string, unknown>, row: Value[], skip?: ReadonlySet<string>): void {
    const keys = this.sortedKeys(entry);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      if (skip?.has(key)) continue;
      this.autoTypeValue(key, entry[key], row);
    }
  }

  /** Auto-types one value into `row` under column `key` (nulls are skipped). */
  autoTypeValue(key: string, v: unknown, row: Value[]): void {
    if (v === null || v === undefined) return;
    let type: DataType;
    let cell: Value;
    if (typeof v === "string") {
      type = "String";
      cell = v;
    } else if (typeof v === "number") {
      if (isInteger(v)) type = "Int64";
      else type = "Float64";
      cell = v;
    } else if (typeof v === "bigint") {
      type = "Int64";
      cell = intCell(v);
    } else if (typeof v === "boolean") {
      type = "Boolean";
      cell = v;
    } else if (v instanceof Timestamp) {
      type = "TimestampNanosecond";
      cell = v.ns;
    } else if (v instanceof Uint8Array) {
      type = "Binary";
      cell = v;
    } else {
      // Nested objects/arrays are stored whole (GreptimeDB: JSONB bytes in a BINARY column).
      type = "Binary";
      cell = encoder.encode(toCompactJson(v));
    }
    const col = this.autoColumn(key, type);
    row[col] = typeof cell === "bigint" && this.columns[col].type === "Float64" ? Number(cell) : cell;
  }

  private lastKeys: string[] = [];
  private lastSorted: string[] = [];

  // Entries of one request usually share their key order: reuse the last sort when they do.
  private sortedKeys(entry: Record<string, unknown>): string[] {
    const last = this.lastKeys;
    let i = 0;
    let same = true;
    for (const k in entry) {
      if (k !== last[i++]) {
        same = false;
        break;
      }
    }
    if (same && i === last.length) return this.lastSorted;
    const keys = Object.keys(entry);
    this.lastKeys = keys;
    this.lastSorted = keys.slice().sort(compareKeys);
    return this.lastSorted;
  }

  /** Adds a finished row to the group of (table, options). */
  push(row: Value[], table: string, options: Record<string, string> | undefined): void {
    const key = options ? table + "\u0000" + JSON.stringify(options) : table;
    let g = this.groups.get(key);
    if (!g) {
      g = { table, options, rows: [] };
      this.groups.set(key, g);
    }
    g.rows.push(row);
  }

  /** The batches, every row padded with nulls to the final column list. */
  finish(): PipelineBatch[] {
    const n = this.columns.length;
    const out: PipelineBatch[] = [];
    for (const g of this.groups.values()) {
      for (const row of g.rows) {
        for (let j = 0; j < n; j++) if (row[j] === undefined) row[j] = null;
      }
      const batch: PipelineBatch = {
        table: g.table,
        // Copies, so a consumer that annotates columns cannot alter the compiled pipeline.
        columns: this.columns.map((c) => ({ ...c })),
        rows: g.rows,
        createType: "log",
      };
      if (g.options) batch.options = { ...g.options };
      out.push(batch);
    }
    return out;
  }
}

/** Converts the auto-transform / identity time-index value (§8), failing as "Unexpected" (500). */
export function timeIndexCell(v: unknown, unit: "s" | "ms" | "us" | "ns"): Value {
  if (v === undefined || v === null) throw unexpected("Failed to cast type, msg: missing field");
  if (v instanceof Timestamp) return timestampCellOf(v, unit);
  if (isInteger(v)) return typeof v === "bigint" ? intCell(v) : v;
  if (typeof v === "string" && /^[+-]?[0-9]+$/.test(v)) return intCell(BigInt(v));
  throw unexpected(
    `Failed to cast type, msg: unsupported value type to convert to timestamp: ${toStringLossy(v)}`,
  );
}
