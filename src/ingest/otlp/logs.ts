/**
 * OTLP log records → GreptimeDB's `opentelemetry_logs` table (the direct model, reference §7.5),
 * or → the entries a pipeline receives when the request names one (`x-greptime-pipeline-name`).
 * Resource and scope JSON are made once per resource and scope, not per record.
 */
import { invalidArguments } from "../../common/errors.ts";
import { ColumnarBatch, type ColumnSchema, type DataType, type Value } from "../../common/rows.ts";
import type { AnyValue, ExportLogsRequest, KeyValue, LogRecord } from "../../protocols/otlp/model.ts";
import { attributesJson, attributesPlain, bodyText, valuePlain } from "./attributes.ts";
import { logTableOptions } from "../log_options.ts";

/** The table log records go to without `x-greptime-log-table-name`. */
export const DEFAULT_LOG_TABLE = "opentelemetry_logs";

/** How log records become rows. */
export interface OtlpLogOptions {
  table: string;
  /** Attribute keys promoted to tag columns (`x-greptime-log-extract-keys`), see `logExtractKeys`. */
  extractKeys: string[];
}

/** The keys of `x-greptime-log-extract-keys`: comma-separated, trimmed, sorted, deduplicated. */
export function logExtractKeys(header: string | null): string[] {
  if (header === null) return [];
  const keys = header.split(",").map((k) => k.trim()).filter((k) => k !== "");
  return [...new Set(keys)].sort();
}

const FULLTEXT = {
  kind: "fulltext",
  options: {
    analyzer: "English",
    backend: "bloom",
    case_sensitive: "false",
    false_positive_rate: "0.01",
    granularity: "10240",
  },
} as const;

const LOG_COLUMNS: ColumnSchema[] = [
  { name: "timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
  { name: "trace_id", type: "String", semantic: "FIELD" },
  { name: "span_id", type: "String", semantic: "FIELD" },
  { name: "severity_text", type: "String", semantic: "FIELD" },
  { name: "severity_number", type: "Int32", semantic: "FIELD" },
  {
    name: "body",
    type: "String",
    semantic: "FIELD",
    index: { kind: FULLTEXT.kind, options: FULLTEXT.options },
  },
  { name: "log_attributes", type: "Json", semantic: "FIELD" },
  { name: "trace_flags", type: "UInt32", semantic: "FIELD" },
  { name: "scope_name", type: "String", semantic: "TAG" },
  { name: "scope_version", type: "String", semantic: "FIELD" },
  { name: "scope_attributes", type: "Json", semantic: "FIELD" },
  { name: "scope_schema_url", type: "String", semantic: "FIELD" },
  { name: "resource_attributes", type: "Json", semantic: "FIELD" },
  { name: "resource_schema_url", type: "String", semantic: "FIELD" },
];

/** The time of a record: its own, else when it was observed. */
function recordTime(l: LogRecord): bigint {
  return l.timeUnixNano !== 0n ? l.timeUnixNano : l.observedTimeUnixNano;
}

function find(kvs: KeyValue[], lower: string): AnyValue | undefined {
  for (let i = kvs.length - 1; i >= 0; i--) if (kvs[i].key.toLowerCase() === lower) return kvs[i].value;
  return undefined;
}

function tagCell(key: string, v: AnyValue): [DataType, Value] {
  switch (v.type) {
    case "string":
      return ["String", v.value];
    case "int":
      return ["Int64", v.value];
    case "bool":
      return ["Boolean", v.value];
    default:
      throw invalidArguments(
        `Unsupported json data type for tag: extracted key '${key}' holds a ${v.type} value`,
      );
  }
}

/** Translates a decoded logs request into one batch of the direct model, by column (pure; no storage). */
export function otlpLogsToBatch(req: ExportLogsRequest, opts: OtlpLogOptions): ColumnarBatch {
  const keys = opts.extractKeys;
  const lowerKeys = keys.map((k) => k.toLowerCase());
  const keyTypes: (DataType | null)[] = keys.map(() => null);
  let n = 0;
  for (const rl of req.resourceLogs) for (const sl of rl.scopeLogs) n += sl.logRecords.length;
  const cols: Value[][] = Array.from({ length: LOG_COLUMNS.length + keys.length }, () => new Array(n));
  let r = 0;
  for (const rl of req.resourceLogs) {
    const resJson = attributesJson(rl.resource.attributes);
    for (const sl of rl.scopeLogs) {
      const scopeJson = attributesJson(sl.scope.attributes);
      const from = r;
      for (const l of sl.logRecords) {
        cols[0][r] = recordTime(l);
        cols[1][r] = l.traceId;
        cols[2][r] = l.spanId;
        cols[3][r] = l.severityText;
        cols[4][r] = l.severityNumber;
        cols[5][r] = bodyText(l.body);
        cols[6][r] = attributesJson(l.attributes);
        cols[7][r] = l.flags;
        for (let k = 0; k < keys.length; k++) {
          const v = find(l.attributes, lowerKeys[k]) ?? find(sl.scope.attributes, lowerKeys[k]) ??
            find(rl.resource.attributes, lowerKeys[k]);
          const col = cols[LOG_COLUMNS.length + k];
          if (v === undefined || v.type === "empty") {
            col[r] = null;
            continue;
          }
          const [type, value] = tagCell(keys[k], v);
          if (keyTypes[k] === null) keyTypes[k] = type;
          else if (keyTypes[k] !== type) {
            throw invalidArguments(`Extracted key '${keys[k]}' holds both ${keyTypes[k]} and ${type} values`);
          }
          col[r] = value;
        }
        r++;
      }
      // the scope's and resource's columns, one value for all its records
      const scope = [sl.scope.name, sl.scope.version, scopeJson, sl.schemaUrl, resJson, rl.schemaUrl];
      for (let k = 0; k < scope.length; k++) cols[8 + k].fill(scope[k], from, r);
    }
  }
  const tags = keys.map((name, k): ColumnSchema => ({
    name,
    type: keyTypes[k] ?? "String",
    semantic: "TAG",
  }));
  return logBatch(opts.table, cols, n, tags);
}

/**
 * The batch of `n` records whose direct-model columns (in LOG_COLUMNS' order: time, trace and span
 * id, severity text and number, body, attributes, flags, scope name, version, attributes and
 * schema URL, resource attributes and schema URL) are `cols`, then the extracted keys' `tags`.
 */
export function logBatch(
  table: string,
  cols: Value[][],
  n: number,
  tags: ColumnSchema[] = [],
): ColumnarBatch {
  const batch = new ColumnarBatch(table, [...LOG_COLUMNS, ...tags], cols, n);
  batch.options = logTableOptions("opentelemetry", true);
  batch.createType = "log";
  return batch;
}

/**
 * The entries a pipeline receives, one per record, in GreptimeDB's shape: `Timestamp`,
 * `ObservedTimestamp` (ns integers), `TraceId`, `SpanId` (hex), `TraceFlags`, `SeverityText`,
 * `SeverityNumber`, `Body` (the value itself), `ResourceSchemaUrl`, `ResourceAttributes`,
 * `ScopeSchemaUrl`, `ScopeName`, `ScopeVersion`, `ScopeAttributes`, `LogAttributes` (objects).
 * Every entry owns its objects (processors may change them).
 */
export function otlpLogsToEntries(req: ExportLogsRequest): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const rl of req.resourceLogs) {
    for (const sl of rl.scopeLogs) {
      for (const l of sl.logRecords) {
        out.push({
          Timestamp: ns(l.timeUnixNano),
          ObservedTimestamp: ns(l.observedTimeUnixNano),
          TraceId: l.traceId,
          SpanId: l.spanId,
          TraceFlags: l.flags,
          SeverityText: l.severityText,
          SeverityNumber: l.severityNumber,
          Body: l.body === null ? null : valuePlain(l.body),
          ResourceSchemaUrl: rl.schemaUrl,
          ResourceAttributes: attributesPlain(rl.resource.attributes),
          ScopeSchemaUrl: sl.schemaUrl,
          ScopeName: sl.scope.name,
          ScopeVersion: sl.scope.version,
          ScopeAttributes: attributesPlain(sl.scope.attributes),
          LogAttributes: attributesPlain(l.attributes),
        });
      }
    }
  }
  return out;
}

/** A nanosecond time as an engine integer: a number when safe, else a bigint (i64). */
function ns(t: bigint): number | bigint {
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : BigInt.asIntN(64, t);
}
