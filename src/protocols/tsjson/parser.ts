/**
 * OpenTSDB-style JSON put (`/v1/opentsdb/api/put`, reference §6.13 and §7.7): one point object or
 * an array of them, `{"metric","timestamp","value","tags"}`, all four required. Table = metric,
 * tags → String TAG, `greptime_value` Float64 FIELD, `greptime_timestamp` TimestampMillisecond.
 *
 * With `?summary` or `?details` the route writes each point on its own and reports per point
 * (`tsjsonPutSummary`); without them one failure fails the request.
 */

import { invalidArguments } from "../../common/errors.ts";
import { lineColumn, parseJsonBody } from "../../common/json_text.ts";

/** One data point as sent; `timestamp` is as given (seconds or milliseconds). */
export interface TsJsonPoint {
  metric: string;
  timestamp: number;
  value: number;
  tags: Record<string, string>;
}

const PREFIX = "Invalid OpenTSDB Json request: ";
const SHAPE = "data did not match any variant of untagged enum DataPointRequests";

function syntaxError(body: string, e: Error): never {
  const first = body.search(/\S/);
  if (first < 0) {
    const [line] = lineColumn(body, body.length);
    throw invalidArguments(
      `${PREFIX}EOF while parsing a value at line ${line} column ${body.length === 0 ? 0 : 1}`,
    );
  }
  if (!'{["-0123456789tfn'.includes(body[first])) {
    const [line, col] = lineColumn(body, first);
    throw invalidArguments(`${PREFIX}expected value at line ${line} column ${col}`);
  }
  if (/end of JSON input/.test(e.message)) {
    const [line, col] = lineColumn(body, body.length);
    throw invalidArguments(`${PREFIX}EOF while parsing a value at line ${line} column ${col - 1}`);
  }
  const at = /position (\d+)/.exec(e.message);
  const where = at ? lineColumn(body, Number(at[1])) : undefined;
  const message = e.message.replace(/ (in JSON )?at position \d+.*$/s, "").replace(
    /,? ".*" is not valid JSON$/s,
    "",
  );
  throw invalidArguments(`${PREFIX}${message}${where ? ` at line ${where[0]} column ${where[1]}` : ""}`);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a sequence";
  if (typeof v === "object") return "a map";
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  if (typeof v === "number") return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  return `boolean \`${v}\``;
}

/** Checks one point's shape; returns the problem, or undefined when it is a valid point. */
function pointProblem(v: unknown): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    return `invalid type: ${describe(v)}, expected a data point`;
  }
  const o = v as Record<string, unknown>;
  for (const f of ["metric", "timestamp", "value", "tags"]) if (!(f in o)) return `missing field \`${f}\``;
  if (typeof o.metric !== "string") return `metric: invalid type: ${describe(o.metric)}, expected a string`;
  if (typeof o.timestamp !== "number" || !Number.isInteger(o.timestamp)) {
    return `timestamp: invalid type: ${describe(o.timestamp)}, expected i64`;
  }
  if (!Number.isSafeInteger(o.timestamp)) {
    // beyond 2^53 JSON.parse has rounded it already (1e20 was stored as a REAL, 2^63 - 1 as 2^63)
    return `timestamp: invalid value: ${describe(o.timestamp)}, expected at most ±(2^53 - 1) ms`;
  }
  if (typeof o.value !== "number") return `value: invalid type: ${describe(o.value)}, expected f64`;
  if (o.tags === null || typeof o.tags !== "object" || Array.isArray(o.tags)) {
    return `tags: invalid type: ${describe(o.tags)}, expected a map`;
  }
  for (const [k, t] of Object.entries(o.tags)) {
    if (typeof t !== "string") return `tags.${k}: invalid type: ${describe(t)}, expected a string`;
  }
  return undefined;
}

/** Parses a put body (one object or an array); bad JSON or a malformed point → 400 for the whole request. */
export function parseTsJsonPut(body: string): TsJsonPoint[] {
  let doc: unknown;
  try {
    doc = parseJsonBody(body);
  } catch (e) {
    syntaxError(body, e as Error);
  }
  const list = Array.isArray(doc) ? doc : [doc];
  const points: TsJsonPoint[] = [];
  for (let i = 0; i < list.length; i++) {
    const problem = pointProblem(list[i]);
    if (problem !== undefined) {
      throw invalidArguments(`${PREFIX}${SHAPE}: ${Array.isArray(doc) ? `point ${i + 1}: ` : ""}${problem}`);
    }
    const o = list[i] as TsJsonPoint;
    points.push({ metric: o.metric, timestamp: o.timestamp, value: o.value, tags: { ...o.tags } });
  }
  return points;
}

/** Milliseconds of a put timestamp: fewer than 13 digits means seconds. */
export function tsjsonTimestampMs(timestamp: number): number {
  return String(timestamp).length < 13 ? timestamp * 1000 : timestamp;
}
