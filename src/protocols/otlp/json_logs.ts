/** OTLP JSON `ExportLogsServiceRequest` → the typed model. */
import type { ExportLogsRequest, LogRecord } from "./model.ts";
import { SEVERITY_NAMES } from "./model.ts";
import {
  anyValue,
  enumField,
  field,
  hexId,
  int32,
  int64Big,
  keyValues,
  type Obj,
  objs,
  parseTop,
  resource,
  scope,
  str,
} from "./json_common.ts";

const SEVERITY_ENUM = SEVERITY_NAMES.map((n) => `SEVERITY_NUMBER_${n}`);

/** Decodes OTLP JSON text of an `ExportLogsServiceRequest` (throws OtlpShapeError). */
export function decodeLogsJson(text: string): ExportLogsRequest {
  const top = parseTop(text);
  return {
    resourceLogs: objs(top, "resourceLogs", "resource_logs", "ExportLogsServiceRequest").map((rl) => ({
      resource: resource(rl),
      schemaUrl: str(rl, "schemaUrl", "schema_url", "ResourceLogs"),
      scopeLogs: objs(rl, "scopeLogs", "scope_logs", "ResourceLogs").map((sl) => ({
        scope: scope(sl),
        schemaUrl: str(sl, "schemaUrl", "schema_url", "ScopeLogs"),
        logRecords: objs(sl, "logRecords", "log_records", "ScopeLogs").map(logRecord),
      })),
    })),
  };
}

function logRecord(o: Obj): LogRecord {
  const M = "LogRecord";
  const body = field(o, "body", "body");
  return {
    timeUnixNano: int64Big(o, "timeUnixNano", "time_unix_nano", M),
    observedTimeUnixNano: int64Big(o, "observedTimeUnixNano", "observed_time_unix_nano", M),
    severityNumber: enumField(o, "severityNumber", "severity_number", M, SEVERITY_ENUM),
    severityText: str(o, "severityText", "severity_text", M),
    body: body === undefined ? null : anyValue(body, 0),
    attributes: keyValues(o, "attributes", "attributes"),
    droppedAttributesCount: int32(o, "droppedAttributesCount", "dropped_attributes_count", M),
    flags: int32(o, "flags", "flags", M),
    traceId: hexId(o, "traceId", "trace_id", M),
    spanId: hexId(o, "spanId", "span_id", M),
    eventName: str(o, "eventName", "event_name", M),
  };
}
