/** OTLP JSON `ExportTraceServiceRequest` → the typed model. */
import type { ExportTraceRequest, Span } from "./model.ts";
import { SPAN_KINDS, STATUS_CODES } from "./model.ts";
import {
  asObj,
  enumField,
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

/** Decodes OTLP JSON text of an `ExportTraceServiceRequest` (throws OtlpShapeError). */
export function decodeTracesJson(text: string): ExportTraceRequest {
  const top = parseTop(text);
  return {
    resourceSpans: objs(top, "resourceSpans", "resource_spans", "ExportTraceServiceRequest").map((rs) => ({
      resource: resource(rs),
      schemaUrl: str(rs, "schemaUrl", "schema_url", "ResourceSpans"),
      scopeSpans: objs(rs, "scopeSpans", "scope_spans", "ResourceSpans").map((ss) => ({
        scope: scope(ss),
        schemaUrl: str(ss, "schemaUrl", "schema_url", "ScopeSpans"),
        spans: objs(ss, "spans", "spans", "ScopeSpans").map(span),
      })),
    })),
  };
}

function span(o: Obj): Span {
  const M = "Span";
  const st = o.status === undefined || o.status === null ? {} : asObj(o.status, "Span.status");
  return {
    traceId: hexId(o, "traceId", "trace_id", M),
    spanId: hexId(o, "spanId", "span_id", M),
    traceState: str(o, "traceState", "trace_state", M),
    parentSpanId: hexId(o, "parentSpanId", "parent_span_id", M),
    flags: int32(o, "flags", "flags", M),
    name: str(o, "name", "name", M),
    kind: enumField(o, "kind", "kind", M, SPAN_KINDS),
    startTimeUnixNano: int64Big(o, "startTimeUnixNano", "start_time_unix_nano", M),
    endTimeUnixNano: int64Big(o, "endTimeUnixNano", "end_time_unix_nano", M),
    attributes: keyValues(o, "attributes", "attributes"),
    droppedAttributesCount: int32(o, "droppedAttributesCount", "dropped_attributes_count", M),
    events: objs(o, "events", "events", M).map((e) => ({
      timeUnixNano: int64Big(e, "timeUnixNano", "time_unix_nano", "Span.Event"),
      name: str(e, "name", "name", "Span.Event"),
      attributes: keyValues(e, "attributes", "attributes"),
      droppedAttributesCount: int32(e, "droppedAttributesCount", "dropped_attributes_count", "Span.Event"),
    })),
    droppedEventsCount: int32(o, "droppedEventsCount", "dropped_events_count", M),
    links: objs(o, "links", "links", M).map((l) => ({
      traceId: hexId(l, "traceId", "trace_id", "Span.Link"),
      spanId: hexId(l, "spanId", "span_id", "Span.Link"),
      traceState: str(l, "traceState", "trace_state", "Span.Link"),
      attributes: keyValues(l, "attributes", "attributes"),
      droppedAttributesCount: int32(l, "droppedAttributesCount", "dropped_attributes_count", "Span.Link"),
      flags: int32(l, "flags", "flags", "Span.Link"),
    })),
    droppedLinksCount: int32(o, "droppedLinksCount", "dropped_links_count", M),
    status: {
      code: enumField(st, "code", "code", "Status", STATUS_CODES),
      message: str(st, "message", "message", "Status"),
    },
  };
}
