/**
 * OTLP/HTTP responses: `Export{Metrics,Trace,Logs}ServiceResponse` with an optional `partial_success`,
 * and the `google.rpc.Status` body of an error response, each in protobuf or OTLP JSON (the
 * encoding of the request, as the OTLP/HTTP spec asks). The messages are two fields deep, so they
 * are written by hand (proto/collector.proto has the layout).
 */

/** The three OTLP signals. */
export type OtlpSignal = "metrics" | "traces" | "logs";

/** The two OTLP/HTTP body encodings. */
export type OtlpEncoding = "protobuf" | "json";

/** What the server could not accept of a request (OTLP's partial success). */
export interface PartialSuccess {
  /** Data points, spans or log records rejected. */
  rejected: number;
  errorMessage: string;
}

/** An encoded response body and its content type. */
export interface EncodedBody {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
}

const REJECTED_FIELD: Record<OtlpSignal, string> = {
  metrics: "rejectedDataPoints",
  traces: "rejectedSpans",
  logs: "rejectedLogRecords",
};

const CONTENT_TYPE: Record<OtlpEncoding, string> = {
  protobuf: "application/x-protobuf",
  json: "application/json",
};

const utf8 = new TextEncoder();

function varint(out: number[], v: number | bigint): void {
  let b = BigInt.asUintN(64, BigInt(v));
  while (b >= 0x80n) {
    out.push(Number(b & 0x7fn) | 0x80);
    b >>= 7n;
  }
  out.push(Number(b));
}

function bytesField(out: number[], field: number, bytes: ArrayLike<number>): void {
  out.push((field << 3) | 2);
  varint(out, bytes.length);
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
}

/** The body of a successful export; `partial` (when something was rejected) fills `partial_success`. */
export function encodeExportResponse(
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  partial?: PartialSuccess,
): EncodedBody {
  const contentType = CONTENT_TYPE[encoding];
  const has = partial !== undefined && (partial.rejected !== 0 || partial.errorMessage !== "");
  if (encoding === "json") {
    const body = has
      ? {
        partialSuccess: {
          [REJECTED_FIELD[signal]]: String(partial.rejected),
          errorMessage: partial.errorMessage,
        },
      }
      : {};
    return { body: utf8.encode(JSON.stringify(body)), contentType };
  }
  if (!has) return { body: new Uint8Array(0), contentType };
  const inner: number[] = [];
  if (partial.rejected !== 0) {
    inner.push(1 << 3);
    varint(inner, partial.rejected);
  }
  if (partial.errorMessage !== "") bytesField(inner, 2, utf8.encode(partial.errorMessage));
  const out: number[] = [];
  bytesField(out, 1, inner);
  return { body: Uint8Array.from(out), contentType };
}

/** A `google.rpc.Status` body (what OTLP/HTTP error responses carry). */
export function encodeRpcStatus(encoding: OtlpEncoding, code: number, message: string): EncodedBody {
  const contentType = CONTENT_TYPE[encoding];
  if (encoding === "json") return { body: utf8.encode(JSON.stringify({ code, message })), contentType };
  const out: number[] = [];
  if (code !== 0) {
    out.push(1 << 3);
    varint(out, code);
  }
  if (message !== "") bytesField(out, 2, utf8.encode(message));
  return { body: Uint8Array.from(out), contentType };
}
