/**
 * OpenTSDB-style JSON put (`/v1/opentsdb/api/put`, reference §6.13 and §7.7): one point object or
 * an array of them, `{"metric","timestamp","value","tags"}`, all four required. Table = metric,
 * tags → String TAG, `greptime_value` Float64 FIELD, `greptime_timestamp` TimestampMillisecond.
 *
 * With `?summary` or `?details` the route writes each point on its own and reports per point
 * (`tsjsonPutSummary`); without them one failure fails the request.
 */

import { invalidArguments } from "../../common/errors.ts";
import type { ColumnSchema, Value, WriteBatch } from "../../common/rows.ts";

/** One data point as sent; `timestamp` is as given (seconds or milliseconds). */
export interface TsJsonPoint {
  metric: string;
  timestamp: number;
  value: number;
  tags: Record<string, string>;
}

const PREFIX = "Invalid OpenTSDB Json request: ";
const SHAPE = "data did not match any variant of untagged enum DataPointRequests";

/** Line and column (1-based, as serde_json reports them) of a character offset. */
function lineColumn(text: string, offset: number): [number, number] {
  let line = 1, col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) line++, col = 1;
    else col++;
  }
  return [line, col];
}

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
    doc = JSON.parse(body);
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

/** Name of the value column of tables created by JSON put. */
export const TSJSON_VALUE = "greptime_value";
/** Name of the time index column of tables created by JSON put. */
export const TSJSON_TIME_INDEX = "greptime_timestamp";

/** Groups points into one batch per metric: tags (first-seen order), value, timestamp (ms). */
export function tsjsonToBatches(points: TsJsonPoint[]): WriteBatch[] {
  const tables = new Map<
    string,
    { tagIndex: Map<string, number>; tags: string[]; rows: [Record<string, string>, number, number][] }
  >();
  for (const p of points) {
    let t = tables.get(p.metric);
    if (t === undefined) {
      t = { tagIndex: new Map(), tags: [], rows: [] };
      tables.set(p.metric, t);
    }
    for (const k of Object.keys(p.tags)) {
      if (!t.tagIndex.has(k)) t.tagIndex.set(k, t.tags.push(k) - 1);
    }
    t.rows.push([p.tags, p.value, tsjsonTimestampMs(p.timestamp)]);
  }
  const out: WriteBatch[] = [];
  for (const [metric, t] of tables) {
    const columns: ColumnSchema[] = t.tags.map((name) => ({ name, type: "String", semantic: "TAG" }));
    columns.push({ name: TSJSON_VALUE, type: "Float64", semantic: "FIELD" });
    columns.push({ name: TSJSON_TIME_INDEX, type: "TimestampMillisecond", semantic: "TIMESTAMP" });
    const rows = t.rows.map(([tags, value, ts]) => {
      const row: Value[] = t.tags.map((k) => (Object.hasOwn(tags, k) ? tags[k] : null));
      row.push(value, ts);
      return row;
    });
    out.push({ table: metric, columns, rows, createType: "physical" });
  }
  return out;
}

/** A float as serde_json prints it: integral values keep `.0`, exponents have no `+`. */
function formatF64(v: number): string {
  const abs = Math.abs(v);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-5)) return v.toExponential().replace("e+", "e");
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

/**
 * The 200 body of a put with `?summary`/`?details`: `errors[i]` is the failure of `points[i]` or null.
 * With `details` the failed points are echoed as `{"datapoint":{…},"error":"…"}`.
 */
export function tsjsonPutSummary(points: TsJsonPoint[], errors: (string | null)[], details: boolean): string {
  let failed = 0;
  const shown: string[] = [];
  for (let i = 0; i < points.length; i++) {
    const err = errors[i];
    if (err === null || err === undefined) continue;
    failed++;
    if (details) {
      const p = points[i];
      shown.push(
        `{"datapoint":{"metric":${JSON.stringify(p.metric)},"timestamp":${p.timestamp},"value":${
          formatF64(p.value)
        },"tags":${JSON.stringify(p.tags)}},"error":${JSON.stringify(err)}}`,
      );
    }
  }
  const head = `{"success":${points.length - failed},"failed":${failed}`;
  return details ? `${head},"errors":[${shown.join(",")}]}` : `${head}}`;
}
