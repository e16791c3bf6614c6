/**
 * protobufjs over the repo's OTLP .proto files, as an independent reference: it encodes test
 * messages and turns protobuf bodies into OTLP JSON (ids as hex, int64 as strings), so the two
 * decoders can be checked against each other on the same bytes.
 */
import protobuf from "protobufjs";

const root = protobuf.loadSync([
  new URL("../../../src/protocols/otlp/proto/collector.proto", import.meta.url).pathname,
]);

/** The request and response types by signal. */
export const types = {
  metrics: root.lookupType("opentelemetry.proto.collector.v1.ExportMetricsServiceRequest"),
  traces: root.lookupType("opentelemetry.proto.collector.v1.ExportTraceServiceRequest"),
  logs: root.lookupType("opentelemetry.proto.collector.v1.ExportLogsServiceRequest"),
  metricsResponse: root.lookupType("opentelemetry.proto.collector.v1.ExportMetricsServiceResponse"),
  tracesResponse: root.lookupType("opentelemetry.proto.collector.v1.ExportTraceServiceResponse"),
  logsResponse: root.lookupType("opentelemetry.proto.collector.v1.ExportLogsServiceResponse"),
  status: root.lookupType("opentelemetry.proto.collector.v1.Status"),
};

const ID_FIELDS = new Set(["traceId", "spanId", "parentSpanId"]);

function hexIds(v: unknown, key = ""): unknown {
  if (Array.isArray(v)) return v.map((x) => hexIds(x));
  if (typeof v === "string" && ID_FIELDS.has(key)) {
    return Array.from(atob(v), (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  }
  if (typeof v === "object" && v !== null) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = hexIds(x, k);
    return o;
  }
  return v;
}

/** A protobuf body decoded by protobufjs and written as OTLP JSON text. */
export function protoToOtlpJson(type: protobuf.Type, body: Uint8Array): string {
  const obj = type.toObject(type.decode(body), {
    longs: String,
    enums: Number,
    bytes: String,
    oneofs: false,
  });
  return JSON.stringify(hexIds(obj));
}

/** Encodes a plain object (protobufjs field names, int64 as strings, ids as Uint8Array) as protobuf. */
export function encode(type: protobuf.Type, obj: Record<string, unknown>): Uint8Array {
  return type.encode(type.fromObject(obj)).finish();
}
