/**
 * OTLP spans → GreptimeDB's older `greptime_trace_v0` table model (reference §7.4): fixed columns,
 * every attribute set as one JSON column, plus the same `<table>_services` / `<table>_operations`
 * tables as v1 (trace_aux.ts), so the Jaeger API lists a v0 table's services and operations.
 */
import type { ColumnSchema, Value, WriteBatch } from "../../common/rows.ts";
import type { ExportTraceRequest } from "../../protocols/otlp/model.ts";
import { attributesJson } from "./attributes.ts";
import { TraceAux } from "./trace_aux.ts";
import {
  durationNanos,
  eventsJson,
  linksJson,
  serviceName,
  spanKindName,
  statusCodeName,
} from "./span_fields.ts";

/** What `otlpTracesV0ToBatch` returns (the shape of `OtlpTraceBatches`). */
export interface V0Batches {
  batches: WriteBatch[];
  spans: number;
  rejectedSpans: number;
  rejectedMessage: string;
}

const s = (name: string): ColumnSchema => ({ name, type: "String", semantic: "FIELD" });
const j = (name: string): ColumnSchema => ({ name, type: "Json", semantic: "FIELD" });

const V0_COLUMNS: ColumnSchema[] = [
  { name: "timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
  { name: "timestamp_end", type: "TimestampNanosecond", semantic: "FIELD" },
  { name: "duration_nano", type: "UInt64", semantic: "FIELD" },
  s("trace_id"),
  s("span_id"),
  s("parent_span_id"),
  s("span_kind"),
  s("span_name"),
  s("span_status_code"),
  s("span_status_message"),
  s("trace_state"),
  { name: "service_name", type: "String", semantic: "TAG" },
  j("span_attributes"),
  j("span_events"),
  j("span_links"),
  s("scope_name"),
  s("scope_version"),
  j("scope_attributes"),
  j("resource_attributes"),
];

/** Translates a decoded traces request into one `greptime_trace_v0` batch. */
export function otlpTracesV0ToBatch(req: ExportTraceRequest, table: string): V0Batches {
  const rows: Value[][] = [];
  const aux = new TraceAux();
  for (const rs of req.resourceSpans) {
    const service = serviceName(rs.resource.attributes);
    // all of them, service.name too: only v1 leaves it out of its resource columns (reference §7.4)
    const resJson = attributesJson(rs.resource.attributes);
    for (const ss of rs.scopeSpans) {
      const scopeJson = attributesJson(ss.scope.attributes);
      for (const sp of ss.spans) {
        aux.add(service, sp.name, spanKindName(sp.kind));
        rows.push([
          sp.startTimeUnixNano,
          sp.endTimeUnixNano,
          durationNanos(sp),
          sp.traceId,
          sp.spanId,
          sp.parentSpanId,
          spanKindName(sp.kind),
          sp.name,
          statusCodeName(sp.status.code),
          sp.status.message,
          sp.traceState,
          service,
          attributesJson(sp.attributes),
          eventsJson(sp),
          linksJson(sp),
          ss.scope.name,
          ss.scope.version,
          scopeJson,
          resJson,
        ]);
      }
    }
  }
  const batch: WriteBatch = {
    table,
    columns: V0_COLUMNS,
    rows,
    options: {
      append_mode: "true",
      table_data_model: "greptime_trace_v0",
      "greptime.semantic.signal_type": "trace",
      "greptime.semantic.source": "opentelemetry",
      "greptime.semantic.pipeline": "greptime_trace_v0",
    },
    createType: "trace",
  };
  return {
    batches: [batch, ...aux.batches(table)],
    spans: rows.length,
    rejectedSpans: 0,
    rejectedMessage: "",
  };
}
