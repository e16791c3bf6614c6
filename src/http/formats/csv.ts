/**
 * `csv`, `csvwithnames`, `csvwithnamesandtypes` (GreptimeDB `http/result/csv_result.rs`): RFC 4180
 * with CRLF and minimal quoting, as the Rust `csv` crate writes it with `QuoteStyle::Necessary`.
 */
import type { QueryOutput, Value } from "../../common/rows.ts";
import { csvField } from "../../codec/csv.ts";
import { cellEncoderFor, isJsonType } from "./json_text.ts";
import { isListType } from "../../common/list_type.ts";
import { CONTENT_TYPE, formatResponse, type LimitOptions, limitRows, singleOutput } from "./response.ts";

/** Options of the CSV renderer. */
export interface CsvOptions extends LimitOptions {
  /** Writes a first row of column names. */
  withNames?: boolean;
  /** Writes a row of data type names after the names (implies `withNames`). */
  withTypes?: boolean;
}

/** One CSV record with its CRLF; a record with no bytes is written `""` so it is not a blank line. */
function csvRecord(fields: string[]): string {
  if (fields.length === 0 || (fields.length === 1 && fields[0] === "")) return '""\r\n';
  let out = csvField(fields[0]);
  for (let i = 1; i < fields.length; i++) out += "," + csvField(fields[i]);
  return out + "\r\n";
}

/** The text of one cell: null → empty, strings raw, everything else its JSON text. */
function cellTextFn(dataType: string): (v: Value) => string {
  const encode = cellEncoderFor(dataType);
  // a list (JSON text) is written as its JSON array, elements rendered by their type
  const json = isJsonType(dataType) || isListType(dataType);
  return (v: Value) => {
    if (v === null) return "";
    if (typeof v === "string" && !json) return v;
    const text = encode(v);
    // NaN and JSON null are serde_json nulls (empty fields); a JSON column holding a JSON string
    // shows the string itself, as the csv crate writes Value::String.
    if (text === "null") return "";
    return text.charCodeAt(0) === 34 ? JSON.parse(text) as string : text;
  };
}

/** The CSV body of a single statement's output (empty when there is none). */
export function csvBody(output: QueryOutput | undefined, opts: CsvOptions): string {
  if (output === undefined) return "";
  if (output.kind === "affected") return `${output.rows}\n`;
  const withNames = opts.withNames === true || opts.withTypes === true;
  let out = "";
  if (withNames) out += csvRecord(output.columns.map((c) => c.name));
  if (opts.withTypes) out += csvRecord(output.columns.map((c) => String(c.data_type)));
  const texts = output.columns.map((c) => cellTextFn(c.data_type));
  const rows = limitRows(output.rows, opts.limit);
  const fields = new Array<string>(texts.length);
  for (const row of rows) {
    for (let i = 0; i < texts.length; i++) fields[i] = texts[i](row[i] ?? null);
    out += csvRecord(fields);
  }
  return out;
}

/** Renders a single statement as CSV; several statements are a 400. */
export function renderCsv(outputs: QueryOutput[], opts: CsvOptions): Response {
  const body = csvBody(singleOutput(outputs, "csv"), opts);
  return formatResponse(body, CONTENT_TYPE.csv, "csv", opts.executionTimeMs);
}
