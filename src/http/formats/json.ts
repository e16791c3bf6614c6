/**
 * The `json` format (GreptimeDB `http/result/json_result.rs`): one object per row keyed by column
 * name, in column order (a repeated name keeps its first position and its last value).
 */
import type { QueryOutput } from "../../common/rows.ts";
import { type CellEncoder, cellEncoderFor } from "./json_text.ts";
import {
  CONTENT_TYPE,
  formatResponse,
  type LimitOptions,
  limitRows,
  singleOutput,
  wholeMillis,
} from "./response.ts";

/** `data` of a records output: `[{"col":val,…},…]`. */
function rowObjects(output: QueryOutput & { kind: "records" }, limit?: number): string {
  const keyIndex = new Map<string, number>();
  output.columns.forEach((c, i) => keyIndex.set(c.name, i));
  const fields: { prefix: string; column: number; encode: CellEncoder }[] = [];
  const seen = new Set<string>();
  for (const c of output.columns) {
    if (seen.has(c.name)) continue;
    seen.add(c.name);
    const column = keyIndex.get(c.name)!;
    const encode = cellEncoderFor(output.columns[column].data_type);
    fields.push({ prefix: (fields.length === 0 ? "{" : ",") + JSON.stringify(c.name) + ":", column, encode });
  }
  const rows = limitRows(output.rows, limit);
  const parts = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    let out = fields.length === 0 ? "{" : "";
    for (const f of fields) out += f.prefix + f.encode(row[f.column] ?? null);
    parts[r] = out + "}";
  }
  return "[" + parts.join(",") + "]";
}

/** The json body of a single statement's output (empty when there is none). */
export function jsonBody(output: QueryOutput | undefined, executionTimeMs: number, limit?: number): string {
  if (output === undefined) return "";
  const ms = wholeMillis(executionTimeMs);
  if (output.kind === "affected") {
    return `{"data":[],"affected_rows":${output.rows},"execution_time_ms":${ms}}`;
  }
  return `{"data":${rowObjects(output, limit)},"execution_time_ms":${ms}}`;
}

/** Renders a single statement as `{"data":[…],"execution_time_ms":N}`; several statements are a 400. */
export function renderJson(outputs: QueryOutput[], opts: LimitOptions): Response {
  const body = jsonBody(singleOutput(outputs, "json"), opts.executionTimeMs, opts.limit);
  return formatResponse(body, CONTENT_TYPE.json, "json", opts.executionTimeMs);
}
