/**
 * Rows of a trace table (either model, reference §7.4) read back as spans: `greptime_trace_v1`
 * keeps each attribute in a `span_attributes.<key>` (or scope/resource) column, `greptime_trace_v0`
 * keeps each group in one JSON column.
 */
import type { DataType, Value } from "../../common/rows.ts";
import type { Storage, TableMeta } from "../../storage/mod.ts";
import { traceTimeRange } from "../../storage/trace_map.ts";
import type { JaegerKeyValue } from "./jaeger_model.ts";

/** One span as stored. Times are nanoseconds. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: string;
  startNs: bigint;
  durationNs: bigint;
  statusCode: string;
  statusMessage: string;
  scopeName: string;
  scopeVersion: string;
  service: string;
  spanAttributes: JaegerKeyValue[];
  resourceAttributes: JaegerKeyValue[];
  events: { name: string; time: string; attributes: Record<string, unknown> }[];
  links: { trace_id: string; span_id: string }[];
}

/** Every integer of the full time range (scan bounds). */
export const ALL_TIME: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];

const GROUPS = [["span_attributes.", "span"], ["resource_attributes.", "resource"]] as const;

/** A tag of a JSON value (v0 attributes, event attributes): numbers are int64 when whole. */
export function jsonTag(key: string, v: unknown): JaegerKeyValue {
  if (typeof v === "string") return { key, type: "string", value: v };
  if (typeof v === "boolean") return { key, type: "bool", value: v };
  if (typeof v === "number") return { key, type: Number.isInteger(v) ? "int64" : "float64", value: v };
  return { key, type: "string", value: JSON.stringify(v) };
}

/** A tag of a typed v1 attribute column; null for a NULL cell. */
function columnTag(key: string, v: Value, type: DataType): JaegerKeyValue | null {
  if (v === null) return null;
  switch (type) {
    case "Boolean":
      return { key, type: "bool", value: v === 1 || v === 1n || v === true };
    case "Float64":
    case "Float32":
      return { key, type: "float64", value: Number(v) };
    case "Int64":
    case "Int32":
    case "UInt64":
    case "UInt32":
      return { key, type: "int64", value: Number(v) };
    case "Json":
      return jsonTag(key, typeof v === "string" ? parseJson(v) : v);
    case "Binary":
      return {
        key,
        type: "binary",
        value: v instanceof Uint8Array ? btoa(String.fromCharCode(...v)) : str(v),
      };
    default:
      return { key, type: "string", value: str(v) };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function str(v: Value): string {
  return v === null ? "" : typeof v === "string" ? v : String(v);
}

function asArray<T>(v: unknown): T[] {
  return Array.isArray(v) ? v as T[] : [];
}

function objectTags(v: unknown): JaegerKeyValue[] {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return [];
  return Object.entries(v as Record<string, unknown>).map(([k, x]) => jsonTag(k, x));
}

/** A table's span columns and the function turning one of its rows (those columns) into a span. */
function spanReader(table: TableMeta): { columns: string[]; toSpan: (row: Value[]) => SpanRecord } {
  const names = table.columns.map((c) => c.name);
  const types = table.columns.map((c) => c.type);
  const at = new Map(names.map((n, i) => [n, i]));
  const get = (row: Value[], name: string): Value => {
    const i = at.get(name);
    return i === undefined ? null : row[i];
  };
  const v0 = types[at.get("span_attributes") ?? -1] === "Json";
  const toSpan = (row: Value[]): SpanRecord => {
    const span: JaegerKeyValue[] = [];
    const resource: JaegerKeyValue[] = [];
    if (v0) {
      span.push(...objectTags(parseJson(str(get(row, "span_attributes")))));
      // v0's JSON keeps service.name, which Jaeger shows as the service rather than a process tag
      const tags = objectTags(parseJson(str(get(row, "resource_attributes"))));
      resource.push(...tags.filter((t) => t.key !== "service.name"));
    } else {
      names.forEach((n, i) => {
        for (const [prefix, group] of GROUPS) {
          if (!n.startsWith(prefix)) continue;
          const tag = columnTag(n.slice(prefix.length), row[i], types[i]);
          if (tag !== null) (group === "span" ? span : resource).push(tag);
        }
      });
    }
    const duration = get(row, "duration_nano");
    return {
      traceId: str(get(row, "trace_id")),
      spanId: str(get(row, "span_id")),
      parentSpanId: str(get(row, "parent_span_id")) || null,
      name: str(get(row, "span_name")),
      kind: str(get(row, "span_kind")),
      startNs: BigInt(get(row, table.timeIndex) as bigint),
      durationNs: duration === null ? 0n : BigInt(duration as bigint),
      statusCode: str(get(row, "span_status_code")),
      statusMessage: str(get(row, "span_status_message")),
      scopeName: str(get(row, "scope_name")),
      scopeVersion: str(get(row, "scope_version")),
      service: str(get(row, "service_name")),
      spanAttributes: span,
      resourceAttributes: resource,
      events: asArray(parseJson(str(get(row, "span_events")) || "[]")),
      links: asArray(parseJson(str(get(row, "span_links")) || "[]")),
    };
  };
  return { columns: names, toSpan };
}

/** Reads spans of a trace table: a scan over `range` with column equalities, in start-time order. */
export function readSpans(
  storage: Storage,
  db: string,
  table: TableMeta,
  equal: Record<string, string>,
  range: [bigint, bigint] = ALL_TIME,
): SpanRecord[] {
  const { columns, toSpan } = spanReader(table);
  return storage.scanTable(db, table.name, {
    columns,
    timeRange: range,
    equal,
    orderBy: [table.timeIndex],
    bigInts: true,
  }).map(toSpan);
}

/**
 * The spans of one trace in `range`, in start-time order: the table's trace map gives the range
 * its spans lie in (`trace_map.ts`), and only that stretch of the time index is read. A table
 * without a map (not of a trace model) is read whole.
 */
export function traceSpans(
  storage: Storage,
  db: string,
  table: TableMeta,
  traceId: string,
  range: [bigint, bigint] = ALL_TIME,
): SpanRecord[] {
  const known = traceTimeRange(storage.database(db), table, traceId);
  if (known === null) return [];
  const lo = known !== undefined && known[0] > range[0] ? known[0] : range[0];
  const hi = known !== undefined && known[1] < range[1] ? known[1] : range[1];
  return lo > hi ? [] : readSpans(storage, db, table, { trace_id: traceId }, [lo, hi]);
}

/**
 * Spans of a trace table like {@link readSpans}, latest first and one at a time: a search that
 * wants the latest N traces reads only as far back as it must.
 */
export function* latestSpans(
  storage: Storage,
  db: string,
  table: TableMeta,
  equal: Record<string, string>,
  range: [bigint, bigint] = ALL_TIME,
): Generator<SpanRecord> {
  const { columns, toSpan } = spanReader(table);
  const rows = storage.iterateTable(db, table.name, {
    columns,
    timeRange: range,
    equal,
    orderBy: [table.timeIndex],
    descending: true,
    bigInts: true,
  });
  for (const row of rows) yield toSpan(row);
}
