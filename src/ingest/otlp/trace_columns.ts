/**
 * The per-attribute columns of `greptime_trace_v1` (`span_attributes.<key>`, …): each column's type
 * comes from the OTLP value (string → String, int → Int64, double → Float64, bool → Boolean,
 * bytes → Binary, array/kvlist → Json). Across one request the types are reconciled as GreptimeDB
 * does (reference §7.4): a table's existing type wins, except that a double for an Int64 column
 * widens the column to Float64; otherwise ints and doubles widen to Float64 and a non-string type
 * is preferred over String. A cell that cannot take its column's type
 * rejects its span.
 */
import type { DataType, Value } from "../../common/rows.ts";
import type { AnyValue } from "../../protocols/otlp/model.ts";
import { hex, valueJson } from "./attributes.ts";
import { rustF64 } from "./metric_names.ts";

/** The column type an attribute value asks for (null: the value makes no cell). */
export function attributeType(v: AnyValue): DataType | null {
  switch (v.type) {
    case "string":
      return "String";
    case "int":
      return "Int64";
    case "double":
      return "Float64";
    case "bool":
      return "Boolean";
    case "bytes":
      return "Binary";
    case "array":
    case "kvlist":
      return "Json";
    case "empty":
      return null;
  }
}

/** Picks one type for a column from the types its cells asked for (in order of appearance). */
export function reconcileTypes(seen: DataType[], existing: DataType | undefined): DataType {
  if (existing !== undefined) return existing === "Int64" && seen.includes("Float64") ? "Float64" : existing;
  const set = new Set(seen);
  if (set.size === 1) return seen[0];
  if (set.has("Float64") && [...set].every((t) => t === "Float64" || t === "Int64" || t === "String")) {
    return "Float64";
  }
  return seen.find((t) => t !== "String") ?? "String";
}

const INT = /^[+-]?[0-9]+$/;

/** A cell converted to `type`; `undefined` when it cannot be. */
export function coerceAttribute(v: AnyValue, type: DataType): Value | undefined {
  switch (type) {
    case "String":
      return v.type === "string" ? v.value : textOf(v);
    case "Json":
      return valueJson(v);
    case "Int64":
      if (v.type === "int") return v.value;
      if (v.type === "string" && INT.test(v.value.trim())) {
        const b = BigInt(v.value.trim());
        if (b < -(2n ** 63n) || b >= 2n ** 63n) return undefined;
        return Number.isSafeInteger(Number(b)) ? Number(b) : b;
      }
      return undefined;
    case "Float64":
      if (v.type === "double") return v.value;
      if (v.type === "int") return Number(v.value);
      if (v.type === "string") {
        const n = Number(v.value);
        return v.value.trim() !== "" && !Number.isNaN(n) ? n : undefined;
      }
      return undefined;
    case "Boolean":
      if (v.type === "bool") return v.value;
      if (v.type === "string") {
        const s = v.value.trim().toLowerCase();
        return s === "true" ? true : s === "false" ? false : undefined;
      }
      return undefined;
    case "Binary":
      if (v.type === "bytes") return v.value;
      if (v.type === "string") return new TextEncoder().encode(v.value);
      return undefined;
    default:
      return undefined;
  }
}

function textOf(v: AnyValue): string {
  switch (v.type) {
    case "string":
      return v.value;
    case "int":
      return String(v.value);
    case "double":
      return rustF64(v.value);
    case "bool":
      return v.value ? "true" : "false";
    case "bytes":
      return hex(v.value);
    default:
      return valueJson(v);
  }
}
