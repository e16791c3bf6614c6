/**
 * OTLP logs into a log table that already exists (reference §7.5): GreptimeDB aligns the request
 * to the table instead of failing on the first difference. Each cell is cast to the table's column
 * type (an int attribute into a String column becomes `"42"`, nanosecond times are floored to the
 * table's unit, a number for a Decimal column is scaled by the writer), extracted keys the table
 * lacks are added as fields (only a new table gets them as tags), and a value that cannot be cast
 * fails the request with GreptimeDB's message.
 */
import { invalidArguments, PetrelError } from "../../common/errors.ts";
import type { ColumnarBatch, ColumnSchema, DataType, Value } from "../../common/rows.ts";
import { rescaleTime, unitOf, UNITS_PER_SECOND } from "../../common/time_unit.ts";
import { decimalSpec, toScaled } from "../../common/decimal.ts";
import { INTEGER_RANGES } from "../../storage/datatypes.ts";

const isTime = (t: DataType) => t.startsWith("Timestamp");

function integer(v: Value): bigint | undefined {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : undefined;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) return BigInt(v.trim());
  return undefined;
}

function asNumber(b: bigint): number | bigint {
  return Number.isSafeInteger(Number(b)) ? Number(b) : b;
}

/** `v` (of type `from`) as a value of type `to`; undefined when it has none. */
function cast(v: Value, from: DataType, to: DataType): Value | undefined {
  if (v === null || from === to) return v;
  if (isTime(to) && isTime(from)) {
    return rescaleTime(
      v as number | bigint,
      BigInt(UNITS_PER_SECOND[unitOf(from)]),
      BigInt(UNITS_PER_SECOND[unitOf(to)]),
    );
  }
  const range = INTEGER_RANGES[to];
  if (range !== undefined || isTime(to)) {
    const b = integer(v);
    if (b === undefined) return undefined;
    const [lo, hi] = range ?? INTEGER_RANGES.Int64;
    return b < lo || b > hi ? undefined : asNumber(b);
  }
  switch (to) {
    case "String":
      return typeof v === "string" ? v : v instanceof Uint8Array ? undefined : String(v);
    case "Float32":
    case "Float64": {
      if (typeof v === "number" || typeof v === "bigint") return Number(v);
      const n = typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
      return Number.isNaN(n) ? undefined : n;
    }
    case "Boolean":
      if (typeof v === "number" || typeof v === "bigint") return Number(v) !== 0;
      if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
      return undefined;
    case "Json":
      return from === "String" && typeof v === "string" && isJson(v) ? v : undefined;
    case "Binary":
      return typeof v === "string" ? new TextEncoder().encode(v) : undefined;
    default:
      return decimalSpec(to) ? asDecimal(v, to) : undefined;
  }
}

/**
 * A number for a Decimal column, as it is: the writer scales the client's numbers as SQL INSERT does
 * (a value past the precision is its 400 naming the column). A numeric string is its number when that
 * keeps the string's digits at the column's scale (arrow's cast reads the text).
 */
function asDecimal(v: Value, to: DataType): Value | undefined {
  if (typeof v === "number" || typeof v === "bigint") return v;
  if (typeof v !== "string") return undefined;
  const n = Number(v);
  const spec = decimalSpec(to)!;
  try {
    return Number.isFinite(n) && toScaled(v, spec) === toScaled(n, spec) ? n : undefined;
  } catch (e) {
    if (e instanceof PetrelError) return undefined;
    throw e;
  }
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Casts the batch's columns to the existing table's types and makes its new tag columns fields. */
export function alignLogBatch(batch: ColumnarBatch, table: { name: string; columns: ColumnSchema[] }): void {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const byLower = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  batch.columns = batch.columns.map((c, j): ColumnSchema => {
    const existing = byName.get(c.name) ?? byLower.get(c.name.toLowerCase());
    if (existing === undefined) return c.semantic === "TAG" ? { ...c, semantic: "FIELD" } : c;
    if (existing.type === c.type) return c;
    const values = batch.cols[j];
    const converted: Value[] = new Array(batch.rowCount);
    for (let r = 0; r < batch.rowCount; r++) {
      const v = cast(values[r], c.type, existing.type);
      if (v === undefined) {
        throw invalidArguments(
          `failed to align log column '${c.name}' in table '${table.name}' from ${c.type} to ${existing.type}`,
        );
      }
      converted[r] = v;
    }
    batch.cols[j] = converted;
    return { ...c, type: existing.type };
  });
}
