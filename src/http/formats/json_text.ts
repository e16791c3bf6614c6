/**
 * Value → JSON text exactly as GreptimeDB's serde_json renders result cells (reference §9):
 * floats through ryu (`1024.0`, `1e16`, `1e-7`), NaN/±Inf as `null`, 64-bit integers as bare
 * numbers, Binary as an array of byte numbers (serde's `[u8]` sequence), Json columns as nested
 * JSON with keys sorted (jsonb keeps objects sorted), Vector columns as their text `"[1,2]"`, List
 * columns (arrays, held as JSON text) as JSON arrays whose elements follow the element type.
 */
import type { Value } from "../../common/rows.ts";
import { isVectorType, vectorText } from "../../common/vector.ts";
import { isListType, listElement } from "../../common/list_type.ts";
import { decimalSpec } from "../../common/decimal.ts";

/** Turns one cell of a column into its JSON text. */
export type CellEncoder = (value: Value) => string;

interface Decimal {
  negative: boolean;
  /** Shortest round-trip significant digits, no leading zeros. */
  digits: string;
  /** Position of the decimal point relative to `digits`: value = 0.digits × 10^point. */
  point: number;
}

/** Shortest round-trip decimal digits of a finite non-zero number (what ryu and V8 both compute). */
function shortestDecimal(x: number): Decimal {
  const negative = x < 0;
  const text = (negative ? -x : x).toExponential();
  const e = text.indexOf("e");
  const mantissa = text.slice(0, e);
  const exponent = Number(text.slice(e + 1));
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  return { negative, digits, point: exponent + 1 };
}

/**
 * A float as serde_json/ryu prints it: `1.0`, `0.001`, `1e16`, `1.5e-7`; non-finite → `null`.
 * @example formatJsonFloat(1024) === "1024.0"
 */
export function formatJsonFloat(x: number): string {
  if (!Number.isFinite(x)) return "null";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const abs = x < 0 ? -x : x;
  if (abs >= 1e-5 && abs < 1e16) {
    // Both print the same shortest digits positionally here; ryu only adds `.0` to integers.
    const text = String(x);
    return Number.isInteger(x) ? text + ".0" : text;
  }
  const { negative, digits, point } = shortestDecimal(x);
  const sign = negative ? "-" : "";
  const length = digits.length;
  const k = point - length;
  if (k >= 0 && point <= 16) return sign + digits + "0".repeat(k) + ".0";
  if (point > 0 && point <= 16) return sign + digits.slice(0, point) + "." + digits.slice(point);
  if (point > -5 && point <= 0) return sign + "0." + "0".repeat(-point) + digits;
  const exp = "e" + (point - 1);
  if (length === 1) return sign + digits + exp;
  return sign + digits[0] + "." + digits.slice(1) + exp;
}

/**
 * A float as Rust's `f64::to_string()` prints it (positional, no `.0`): `1`, `0.1`, `1e21` as
 * twenty-two digits. Non-finite values use Prometheus' spellings `NaN`, `+Inf`, `-Inf`.
 * @example formatDisplayFloat(2) === "2"
 */
export function formatDisplayFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "+Inf";
  if (x === -Infinity) return "-Inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const { negative, digits, point } = shortestDecimal(x);
  const sign = negative ? "-" : "";
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  if (point > 0) return sign + digits.slice(0, point) + "." + digits.slice(point);
  return sign + "0." + "0".repeat(-point) + digits;
}

/** An integral number as a JSON integer without exponent or precision loss in its digits. */
function integerText(n: number): string {
  if (n > -1e21 && n < 1e21) return n === 0 ? "0" : String(n);
  return BigInt(n).toString();
}

/** Bytes as serde serializes `[u8]` into a JSON value: an array of numbers. */
function bytesJson(bytes: Uint8Array): string {
  if (bytes.length === 0) return "[]";
  let out = "[" + bytes[0];
  for (let i = 1; i < bytes.length; i++) out += "," + bytes[i];
  return out + "]";
}

/** Any cell value with no column type to guide it: integral numbers print as integers. */
export function encodeValue(value: Value): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isInteger(value) ? integerText(value) : formatJsonFloat(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "true" : "false";
  }
  return bytesJson(value);
}

/** GreptimeDB widens an f32 to f64 before ryu prints it, so `0.1` shows as `0.10000000149011612`. */
function encodeFloat32(value: Value): string {
  if (typeof value === "number") return formatJsonFloat(Math.fround(value));
  return encodeFloat(value);
}

function encodeFloat(value: Value): string {
  if (typeof value === "number") return formatJsonFloat(value);
  if (typeof value === "bigint") return formatJsonFloat(Number(value));
  return encodeValue(value);
}

/** A number literal kept as written, so `1.0` and `1` stay distinct while re-rendering JSON text. */
class NumberLiteral {
  constructor(readonly source: string) {}
}

const U64_MAX = 18446744073709551615n;
const I64_MIN = -9223372036854775808n;

/** A JSON number literal as jsonb stores it: integers as i64/u64, anything else as f64. */
function numberLiteralText(source: string): string {
  if (!/[.eE]/.test(source)) {
    const n = BigInt(source);
    if (n >= I64_MIN && n <= U64_MAX) return n.toString();
  }
  return formatJsonFloat(Number(source));
}

function reviveNumber(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === "number" && context?.source !== undefined) return new NumberLiteral(context.source);
  return value;
}

function renderParsed(value: unknown): string {
  if (value === null) return "null";
  if (value instanceof NumberLiteral) return numberLiteralText(value.source);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return encodeValue(value);
  if (Array.isArray(value)) return "[" + value.map(renderParsed).join(",") + "]";
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ",";
    out += JSON.stringify(keys[i]) + ":" + renderParsed(record[keys[i]]);
  }
  return out + "}";
}

/**
 * JSON text stored in a Json column, re-rendered compactly as GreptimeDB shows jsonb values (keys
 * sorted, floats via ryu). Text that is not JSON is shown as a JSON string.
 */
export function renderJsonText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, reviveNumber);
  } catch {
    return JSON.stringify(text);
  }
  return renderParsed(parsed);
}

function encodeJsonColumn(value: Value): string {
  return typeof value === "string" ? renderJsonText(value) : encodeValue(value);
}

/** A vector column's cell as GreptimeDB's HTTP output shows it: its text `[1,2,3]` as a JSON string. */
function encodeVectorColumn(value: Value): string {
  const text = value instanceof Uint8Array ? vectorText(value) : undefined;
  return text === undefined ? encodeValue(value) : JSON.stringify(text);
}

/** One parsed element of a list of `element` type, as GreptimeDB prints that type's values. */
function renderElement(value: unknown, element: string | undefined): string {
  if (value === null || value === undefined) return "null";
  const inner = element === undefined ? undefined : listElement(element);
  if (inner !== undefined) {
    // a nested array that lost its JSON-ness on the way (held as a string)
    const items = typeof value === "string" ? parseJsonArray(value) : value;
    return Array.isArray(items) ? "[" + items.map((x) => renderElement(x, inner)).join(",") + "]" : "null";
  }
  const source = value instanceof NumberLiteral ? value.source : undefined;
  if (element === "Float64" || element === "Float32") {
    return source !== undefined ? formatJsonFloat(Number(source)) : renderParsed(value);
  }
  const dec = element === undefined ? undefined : decimalSpec(element);
  // a decimal reaches the array as its number, and is shown as its text (as a decimal column is)
  if (dec && source !== undefined) return JSON.stringify(Number(source).toFixed(dec.scale));
  if (element === "Boolean") return source !== undefined ? String(Number(source) !== 0) : renderParsed(value);
  if (element === "String") {
    return JSON.stringify(source ?? (typeof value === "string" ? value : renderParsed(value)));
  }
  return renderParsed(value);
}

function parseJsonArray(text: string): unknown {
  try {
    return JSON.parse(text, reviveNumber);
  } catch {
    return undefined;
  }
}

/** The encoder of a List column: its JSON text re-rendered element by element. */
function listEncoder(dataType: string): CellEncoder {
  return (value: Value) => (typeof value === "string" ? renderElement(value, dataType) : encodeValue(value));
}

/** Whether a `data_type` name is GreptimeDB's JSON type (cells hold JSON text to render nested). */
export function isJsonType(dataType: string): boolean {
  return dataType === "Json" || dataType.startsWith("Json(") || dataType.startsWith("Json<");
}

/** The encoder for cells of a column with this `data_type`, chosen once per column. */
export function cellEncoderFor(dataType: string): CellEncoder {
  if (dataType === "Float32") return encodeFloat32;
  if (dataType === "Float64") return encodeFloat;
  if (isJsonType(dataType)) return encodeJsonColumn;
  if (isVectorType(dataType)) return encodeVectorColumn;
  if (isListType(dataType)) return listEncoder(dataType);
  return encodeValue;
}

/** Encodes one row as a JSON array with the per-column encoders. */
export function encodeRowArray(row: Value[], encoders: CellEncoder[]): string {
  let out = "[";
  for (let i = 0; i < row.length; i++) {
    if (i > 0) out += ",";
    out += (encoders[i] ?? encodeValue)(row[i]);
  }
  return out + "]";
}

/** Encodes rows as a JSON array of arrays (`[[0],[1]]`). */
export function encodeRowsArray(rows: Value[][], encoders: CellEncoder[]): string {
  if (rows.length === 0) return "[]";
  const parts = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) parts[r] = encodeRowArray(rows[r], encoders);
  return "[" + parts.join(",") + "]";
}
