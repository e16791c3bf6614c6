/**
 * Values between Petrel's rows and COPY's text formats (CSV, JSON lines), as GreptimeDB's Arrow
 * writers print them: timestamps as naive UTC text `2023-01-01T00:00:00[.fff]`, dates `2023-01-01`,
 * binary as hex. Reading is liberal: the writer's own shapes plus what `INSERT` accepts.
 */
import type { ColumnMeta } from "../../storage/table.ts";
import type { DataType, Value } from "../../common/rows.ts";
import { floorDiv, NS_PER_UNIT, unitOfType } from "../../common/time_unit.ts";
import { invalidArguments, PetrelError } from "../../common/errors.ts";
import { isVectorType } from "../../common/vector.ts";
import { coerceValue } from "../dml.ts";

/** Nanoseconds since the epoch as `YYYY-MM-DDTHH:MM:SS` plus 3, 6 or 9 fraction digits when needed. */
export function nsText(ns: bigint): string {
  const secs = floorDiv(ns, 1_000_000_000n);
  const frac = ns - secs * 1_000_000_000n;
  const base = new Date(Number(secs) * 1000).toISOString().replace(/\.\d+Z$/, "");
  if (frac === 0n) return base;
  const digits = frac.toString().padStart(9, "0");
  const keep = frac % 1_000_000n === 0n ? 3 : frac % 1000n === 0n ? 6 : 9;
  return `${base}.${digits.slice(0, keep)}`;
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** The text of a non-null value of a column of `type` (for CSV fields and JSON strings). */
export function valueText(v: Value, type: DataType | string): string {
  const unit = unitOfType(type);
  if (unit !== undefined && (typeof v === "number" || typeof v === "bigint")) {
    return nsText(BigInt(v) * NS_PER_UNIT[unit]);
  }
  if (type === "Date" && typeof v === "number") return nsText(BigInt(v) * 86_400_000_000_000n).slice(0, 10);
  if (v instanceof Uint8Array) return hex(v);
  return String(v);
}

/** One row as a JSON object line (nulls left out, as Arrow's line-delimited writer does). */
export function jsonLine(names: string[], types: string[], row: Value[]): string {
  const parts: string[] = [];
  for (let j = 0; j < names.length; j++) {
    const v = row[j];
    if (v === null || v === undefined) continue;
    let text: string;
    if (typeof v === "boolean") text = String(v);
    else if (typeof v === "bigint") {
      text = unitOfType(types[j]) ? JSON.stringify(valueText(v, types[j])) : String(v);
    } else if (typeof v === "number") {
      if (unitOfType(types[j]) || types[j] === "Date") text = JSON.stringify(valueText(v, types[j]));
      else text = Number.isFinite(v) ? String(v) : "null";
    } else text = JSON.stringify(valueText(v, types[j]));
    parts.push(`${JSON.stringify(names[j])}:${text}`);
  }
  return `{${parts.join(",")}}\n`;
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Where a value came from, for error messages. */
export interface ValueOrigin {
  file: string;
  row: number;
}

/**
 * Converts a value read from a file to what the column stores (`INSERT`'s conversions), naming the
 * file, row and column when it does not fit. Text for a Binary or VECTOR column is hex when it is hex.
 */
export function importValue(v: Value, col: ColumnMeta, timeIndex: string, at: ValueOrigin): Value {
  if (v === null && col.name === timeIndex) {
    throw invalidArguments(`COPY FROM ${at.file}: row ${at.row}: the time index ${col.name} is empty`);
  }
  // a vector's export is its bytes in hex, as a Binary's
  if (typeof v === "string" && (col.type === "Binary" || isVectorType(col.type)) && HEX.test(v)) {
    const bytes = new Uint8Array(v.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(v.slice(2 * i, 2 * i + 2), 16);
    return bytes;
  }
  try {
    return coerceValue(v, col);
  } catch (e) {
    if (!(e instanceof PetrelError)) throw e;
    throw invalidArguments(`COPY FROM ${at.file}: row ${at.row}, column ${col.name}: ${e.message}`);
  }
}
