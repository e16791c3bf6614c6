/** The default `greptimedb_v1` JSON result (GreptimeDB `http/result/greptime_result_v1.rs`). */
import type { QueryOutput } from "../../common/rows.ts";
import { cellEncoderFor, encodeRowsArray } from "./json_text.ts";
import { CONTENT_TYPE, formatResponse, type LimitOptions, limitRows, wholeMillis } from "./response.ts";

/** One statement's element of `output`: `{"records":{…}}` or `{"affectedrows":N}`. */
export function greptimeOutputJson(output: QueryOutput, limit?: number): string {
  if (output.kind === "affected") return `{"affectedrows":${output.rows}}`;
  const schemas = output.columns.map((c) =>
    `{"name":${JSON.stringify(c.name)},"data_type":${JSON.stringify(c.data_type)}}`
  );
  const rows = limitRows(output.rows, limit);
  const encoders = output.columns.map((c) => cellEncoderFor(c.data_type));
  return `{"records":{"schema":{"column_schemas":[${schemas.join(",")}]},"rows":${
    encodeRowsArray(rows, encoders)
  },"total_rows":${rows.length}}}`;
}

/**
 * `{"output":[…],"execution_time_ms":N}`; `output` is left out when there are no statements.
 * @example renderGreptimedbV1([{ kind: "affected", rows: 1 }], { executionTimeMs: 3 })
 */
export function renderGreptimedbV1(outputs: QueryOutput[], opts: LimitOptions): Response {
  const ms = wholeMillis(opts.executionTimeMs);
  const parts = outputs.map((o) => greptimeOutputJson(o, opts.limit));
  const body = parts.length === 0
    ? `{"execution_time_ms":${ms}}`
    : `{"output":[${parts.join(",")}],"execution_time_ms":${ms}}`;
  return formatResponse(body, CONTENT_TYPE.json, "greptimedb_v1", ms);
}
