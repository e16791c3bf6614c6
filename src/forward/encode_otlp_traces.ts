/**
 * Rows of a trace table in GreptimeDB's `greptime_trace_v1` model (written by OTLP ingest,
 * `src/ingest/otlp/traces.ts`: one row per span, one typed column per `span_attributes.<key>`,
 * `scope_attributes.<key>` and `resource_attributes.<key>`, events and links as JSON) back into an
 * OTLP/HTTP JSON `ExportTraceServiceRequest`, spans regrouped by resource and scope. Attribute values
 * from Json columns come back through JSON (integers beyond 2^53 lose precision).
 */
import type { Value } from "../common/rows.ts";
import { SPAN_KINDS, STATUS_CODES } from "../protocols/otlp/model.ts";
import type { TableMeta } from "../storage/mod.ts";
import { anyValueOf, attributesOf } from "./encode_otlp.ts";

const SPAN_COLUMNS = ["timestamp", "timestamp_end", "trace_id", "span_id", "span_name", "span_kind"];
const PREFIXES = ["span_attributes.", "scope_attributes.", "resource_attributes."] as const;

/** Whether a table has the `greptime_trace_v1` shape. */
export function isOtlpTraceTable(table: TableMeta): boolean {
  return SPAN_COLUMNS.every((name) => table.columns.some((c) => c.name === name));
}

type KeyValue = { key: string; value: Record<string, unknown> };

function cellValue(type: string, v: Value): Record<string, unknown> | null {
  if (v === null) return null;
  if (v instanceof Uint8Array) return { bytesValue: btoa(String.fromCharCode(...v)) };
  switch (type) {
    case "Int64":
      return { intValue: String(v) };
    case "Float64":
      return { doubleValue: Number(v) };
    case "Boolean":
      return { boolValue: v === true || v === 1 || v === 1n };
    case "Json":
      try {
        return anyValueOf(JSON.parse(String(v)));
      } catch {
        return { stringValue: String(v) };
      }
    default:
      return { stringValue: String(v) };
  }
}

/** `2024-01-02T03:04:05.123456789Z` → ns since the epoch, as a decimal string. */
function rfc3339ToNanos(text: unknown): string {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(String(text));
  if (m === null) return "0";
  const seconds = BigInt(Date.parse(`${m[1]}${m[3]}`)) / 1000n;
  return String(seconds * 1_000_000_000n + BigInt((m[2] ?? "").padEnd(9, "0")));
}

function jsonList(v: Value | undefined): Array<Record<string, unknown>> {
  if (typeof v !== "string") return [];
  try {
    const list = JSON.parse(v);
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The rows (values in the table's column order) as an OTLP JSON traces request; "" when none. */
export function encodeOtlpTraces(table: TableMeta, rows: Value[][]): string {
  const at = new Map(table.columns.map((c, i) => [c.name, i]));
  const attrCols = PREFIXES.map((p) => table.columns.flatMap((c, i) => c.name.startsWith(p) ? [i] : []));
  const get = (row: Value[], name: string) => {
    const i = at.get(name);
    return i === undefined ? null : row[i];
  };
  const text = (row: Value[], name: string) => String(get(row, name) ?? "");
  const attrs = (row: Value[], which: number): KeyValue[] =>
    attrCols[which].flatMap((i) => {
      const value = cellValue(table.columns[i].type, row[i]);
      return value === null ? [] : [{ key: table.columns[i].name.slice(PREFIXES[which].length), value }];
    });
  const resources = new Map<
    string,
    { attributes: KeyValue[]; scopes: Map<string, { scope: unknown; spans: unknown[] }> }
  >();
  for (const row of rows) {
    const resAttrs = attrs(row, 2);
    const service = get(row, "service_name");
    if (service !== null) resAttrs.unshift({ key: "service.name", value: { stringValue: String(service) } });
    const resKey = JSON.stringify(resAttrs);
    let res = resources.get(resKey);
    if (res === undefined) resources.set(resKey, res = { attributes: resAttrs, scopes: new Map() });
    const scope = {
      name: text(row, "scope_name"),
      version: text(row, "scope_version"),
      attributes: attrs(row, 1),
    };
    const scopeKey = JSON.stringify(scope);
    let group = res.scopes.get(scopeKey);
    if (group === undefined) res.scopes.set(scopeKey, group = { scope, spans: [] });
    group.spans.push({
      traceId: text(row, "trace_id"),
      spanId: text(row, "span_id"),
      parentSpanId: text(row, "parent_span_id"),
      traceState: text(row, "trace_state"),
      name: text(row, "span_name"),
      kind: Math.max(0, SPAN_KINDS.indexOf(text(row, "span_kind") as typeof SPAN_KINDS[number])),
      startTimeUnixNano: String(BigInt(get(row, "timestamp") as number | bigint)),
      endTimeUnixNano: String(
        BigInt((get(row, "timestamp_end") ?? get(row, "timestamp")) as number | bigint),
      ),
      attributes: attrs(row, 0),
      events: jsonList(get(row, "span_events")).map((e) => ({
        name: String(e.name ?? ""),
        timeUnixNano: rfc3339ToNanos(e.time),
        attributes: attributesOf(e.attributes),
      })),
      links: jsonList(get(row, "span_links")).map((l) => ({
        traceId: String(l.trace_id ?? ""),
        spanId: String(l.span_id ?? ""),
        traceState: String(l.trace_state ?? ""),
        attributes: attributesOf(l.attributes),
      })),
      status: {
        code: Math.max(0, STATUS_CODES.indexOf(text(row, "span_status_code") as typeof STATUS_CODES[number])),
        message: text(row, "span_status_message"),
      },
    });
  }
  if (resources.size === 0) return "";
  return JSON.stringify({
    resourceSpans: [...resources.values()].map((r) => ({
      resource: { attributes: r.attributes },
      scopeSpans: [...r.scopes.values()].map((g) => ({ scope: g.scope, spans: g.spans })),
    })),
  });
}
