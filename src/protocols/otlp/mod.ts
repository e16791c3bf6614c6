/**
 * OTLP/HTTP request bodies → typed requests (model.ts), in protobuf (`application/x-protobuf`, also
 * when the content type is missing or anything but JSON) or the OTLP JSON mapping (a content type
 * whose subtype is or ends in `json`). Every malformed body is a 400 (`InvalidArguments`) naming the
 * encoding and what was wrong. Responses are in response.ts.
 */
import { ProtoDecodeError } from "../../codec/protobuf.ts";
import { invalidArguments, type PetrelError } from "../../common/errors.ts";
import type { ExportLogsRequest, ExportMetricsRequest, ExportTraceRequest } from "./model.ts";
import { OtlpShapeError } from "./json_common.ts";
import { decodeMetricsProto } from "./pb_metrics.ts";
import { decodeTracesProto } from "./pb_traces.ts";
import { decodeLogsProto } from "./pb_logs.ts";
import { decodeMetricsJson } from "./json_metrics.ts";
import { decodeTracesJson } from "./json_traces.ts";
import { decodeLogsJson } from "./json_logs.ts";
import type { OtlpEncoding } from "./response.ts";

export type * from "./model.ts";
export { encodeExportResponse, encodeRpcStatus } from "./response.ts";
export type { EncodedBody, OtlpEncoding, OtlpSignal, PartialSuccess } from "./response.ts";

/** The encoding a request's `Content-Type` names: JSON for `…/json` and `…+json`, else protobuf. */
export function otlpEncoding(contentType: string | null | undefined): OtlpEncoding {
  const mime = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return mime.endsWith("/json") || mime.endsWith("+json") ? "json" : "protobuf";
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeWith<T>(
  body: Uint8Array,
  contentType: string | null | undefined,
  proto: (b: Uint8Array) => T,
  json: (t: string) => T,
): T {
  const encoding = otlpEncoding(contentType);
  try {
    if (encoding === "protobuf") return proto(body);
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      throw new OtlpShapeError("body is not valid UTF-8");
    }
    return json(text);
  } catch (e) {
    if (e instanceof ProtoDecodeError || e instanceof OtlpShapeError) {
      throw decodeError(contentType, encoding, e);
    }
    if (e instanceof RangeError) {
      // Only pathological nesting reaches the engine's own limits (JSON.parse's recursion).
      throw decodeError(contentType, encoding, e);
    }
    throw e;
  }
}

/** GreptimeDB's hint after a protobuf decode failure (reference §6.11); a JSON body has no need of it. */
const PROTOBUF_ONLY = " The endpoint only accepts 'application/x-protobuf' format.";

function decodeError(ct: string | null | undefined, encoding: OtlpEncoding, e: Error): PetrelError {
  const what = encoding === "json" ? "OTLP JSON" : "protobuf";
  const head = `Failed to decode OTLP request (content-type: ${
    ct ?? "none"
  }): invalid ${what} body: ${e.message}`;
  return invalidArguments(encoding === "json" ? head : `${head.replace(/\.$/, "")}.${PROTOBUF_ONLY}`);
}

/**
 * Decodes a protobuf OTLP/HTTP body with another reader of the wire format (one that writes
 * columns directly); its ProtoDecodeErrors are the same 400s. Only for protobuf content types.
 */
export function decodeOtlpProtoWith<T>(
  body: Uint8Array,
  contentType: string | null,
  proto: (b: Uint8Array) => T,
): T {
  return decodeWith(body, contentType, proto, () => {
    throw new OtlpShapeError("not a protobuf body");
  });
}

/** Decodes an OTLP/HTTP metrics body; 400 when malformed. */
export function decodeOtlpMetrics(body: Uint8Array, contentType?: string | null): ExportMetricsRequest {
  return decodeWith(body, contentType, decodeMetricsProto, decodeMetricsJson);
}

/** Decodes an OTLP/HTTP traces body; 400 when malformed. */
export function decodeOtlpTraces(body: Uint8Array, contentType?: string | null): ExportTraceRequest {
  return decodeWith(body, contentType, decodeTracesProto, decodeTracesJson);
}

/** Decodes an OTLP/HTTP logs body; 400 when malformed. */
export function decodeOtlpLogs(body: Uint8Array, contentType?: string | null): ExportLogsRequest {
  return decodeWith(body, contentType, decodeLogsProto, decodeLogsJson);
}

/** The number of data points in a metrics request (what partial success counts). */
export function countDataPoints(req: ExportMetricsRequest): number {
  let n = 0;
  for (const rm of req.resourceMetrics) {
    for (const sm of rm.scopeMetrics) for (const m of sm.metrics) n += m.data?.dataPoints.length ?? 0;
  }
  return n;
}

/** The number of spans in a traces request. */
export function countSpans(req: ExportTraceRequest): number {
  let n = 0;
  for (const rs of req.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  return n;
}

/** The number of log records in a logs request. */
export function countLogRecords(req: ExportLogsRequest): number {
  let n = 0;
  for (const rl of req.resourceLogs) for (const sl of rl.scopeLogs) n += sl.logRecords.length;
  return n;
}
