/**
 * Rows of a log table in GreptimeDB's OpenTelemetry model (`opentelemetry_logs`, written by OTLP
 * ingest, `src/ingest/otlp/logs.ts`) back into an OTLP/HTTP JSON `ExportLogsServiceRequest`:
 * records grouped by resource and scope again, attributes from their JSON columns. Tables of any
 * other shape have no OTLP form (the caller skips them). Attribute values come back from JSON, so an
 * integer attribute beyond 2^53 loses precision, and a bytes attribute (stored as hex text) comes
 * back as a string.
 */
import type { Value } from "../common/rows.ts";
import type { TableMeta } from "../storage/mod.ts";

/** The columns a table needs to be sent as OTLP logs. */
const LOG_COLUMNS = ["timestamp", "body", "severity_text", "severity_number", "log_attributes"];

/** Whether a table has the OpenTelemetry logs shape. */
export function isOtlpLogTable(table: TableMeta): boolean {
  return LOG_COLUMNS.every((name) => table.columns.some((c) => c.name === name));
}

type AnyValue = Record<string, unknown>;

/** A JSON value as an OTLP JSON `AnyValue`. */
export function anyValueOf(v: unknown): AnyValue {
  return anyValue(v);
}

/** A JSON object (or its text) as OTLP JSON attributes. */
export function attributesOf(o: unknown): Array<{ key: string; value: AnyValue }> {
  if (typeof o === "string") return attributes(o);
  return o !== null && typeof o === "object" && !Array.isArray(o)
    ? keyValues(o as Record<string, unknown>)
    : [];
}

function anyValue(v: unknown): AnyValue {
  if (v === null || v === undefined) return {};
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number") return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { kvlistValue: { values: keyValues(v as Record<string, unknown>) } };
}

function keyValues(o: Record<string, unknown>): Array<{ key: string; value: AnyValue }> {
  return Object.entries(o).map(([key, v]) => ({ key, value: anyValue(v) }));
}

function attributes(json: Value | undefined): Array<{ key: string; value: AnyValue }> {
  if (typeof json !== "string" || json === "") return [];
  try {
    const o = JSON.parse(json);
    return o !== null && typeof o === "object" && !Array.isArray(o) ? keyValues(o) : [];
  } catch {
    return [];
  }
}

const text = (v: Value | undefined) => (v === null || v === undefined ? "" : String(v));

/** The rows (values in the table's column order) as an OTLP JSON logs request; "" when none. */
export function encodeOtlpLogs(table: TableMeta, rows: Value[][]): string {
  const at = new Map(table.columns.map((c, i) => [c.name, i]));
  const get = (row: Value[], name: string) => {
    const i = at.get(name);
    return i === undefined ? undefined : row[i];
  };
  const resources = new Map<
    string,
    { schemaUrl: string; attrs: Value | undefined; scopes: Map<string, unknown[]> }
  >();
  const scopeOf = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const resKey = `${text(get(row, "resource_attributes"))}\u0000${text(get(row, "resource_schema_url"))}`;
    let res = resources.get(resKey);
    if (res === undefined) {
      resources.set(
        resKey,
        res = {
          schemaUrl: text(get(row, "resource_schema_url")),
          attrs: get(row, "resource_attributes"),
          scopes: new Map(),
        },
      );
    }
    const scope = {
      name: text(get(row, "scope_name")),
      version: text(get(row, "scope_version")),
      attributes: attributes(get(row, "scope_attributes")),
    };
    const scopeKey = `${resKey}\u0001${JSON.stringify(scope)}\u0000${text(get(row, "scope_schema_url"))}`;
    scopeOf.set(scopeKey, { scope, schemaUrl: text(get(row, "scope_schema_url")) });
    let records = res.scopes.get(scopeKey);
    if (records === undefined) res.scopes.set(scopeKey, records = []);
    const record: Record<string, unknown> = {
      timeUnixNano: String(BigInt(get(row, "timestamp") as number | bigint)),
      severityNumber: Number(get(row, "severity_number") ?? 0),
      severityText: text(get(row, "severity_text")),
      body: { stringValue: text(get(row, "body")) },
      attributes: attributes(get(row, "log_attributes")),
    };
    const flags = get(row, "trace_flags");
    if (flags !== null && flags !== undefined) record.flags = Number(flags);
    if (text(get(row, "trace_id"))) record.traceId = text(get(row, "trace_id"));
    if (text(get(row, "span_id"))) record.spanId = text(get(row, "span_id"));
    records.push(record);
  }
  if (resources.size === 0) return "";
  return JSON.stringify({
    resourceLogs: [...resources.values()].map((res) => ({
      resource: { attributes: attributes(res.attrs) },
      schemaUrl: res.schemaUrl,
      scopeLogs: [...res.scopes].map(([key, logRecords]) => ({ ...scopeOf.get(key), logRecords })),
    })),
  });
}
