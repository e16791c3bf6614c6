/** Pieces every SQL result format shares: headers, the single-statement rule, `limit` truncation. */
import { invalidArguments } from "../../common/errors.ts";
import type { QueryOutput } from "../../common/rows.ts";

/** Options every renderer takes. */
export interface RenderOptions {
  /** Elapsed time of the request in ms; shown in the header (and body for JSON formats). */
  executionTimeMs: number;
}

/** Options of the renderers that honour `limit` (greptimedb_v1, csv*, table, json). */
export interface LimitOptions extends RenderOptions {
  /** Keeps at most this many rows per records output and sets `total_rows` to it. */
  limit?: number;
}

/** `x-greptime-format` values (reference §2.9). */
export type FormatName = "greptimedb_v1" | "influxdb_v1" | "csv" | "table" | "arrow" | "json" | "null";

/** Content types of the formats, as GreptimeDB sends them. */
export const CONTENT_TYPE = {
  json: "application/json",
  csv: "text/csv; charset=utf-8",
  text: "text/plain; charset=utf-8",
  arrow: "application/arrow",
} as const;

/** Execution time as the whole milliseconds GreptimeDB reports (`as_millis()` truncates). */
export function wholeMillis(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms) : 0;
}

/** A 200 response carrying a result body with the format and execution-time headers. */
export function formatResponse(
  body: BodyInit | null,
  contentType: string,
  format: FormatName,
  executionTimeMs: number,
): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": contentType,
      "x-greptime-format": format,
      "x-greptime-execution-time": String(wholeMillis(executionTimeMs)),
    },
  });
}

/**
 * The only output of a single-statement format (undefined when there is none); several outputs
 * are a 400 `cannot output multi-statements result in <format> format`.
 */
export function singleOutput(outputs: QueryOutput[], format: string): QueryOutput | undefined {
  if (outputs.length > 1) {
    throw invalidArguments(`cannot output multi-statements result in ${format} format`);
  }
  return outputs[0];
}

/** Rows of a records output after `limit`: truncated only when there are more rows than the limit. */
export function limitRows<T>(rows: T[], limit: number | undefined): T[] {
  if (limit === undefined || !(limit >= 0) || rows.length <= limit) return rows;
  return rows.slice(0, Math.floor(limit));
}
