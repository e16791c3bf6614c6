/**
 * The one place errors become responses: the HTTP status of a GreptimeDB status code (reference
 * §4.3) or of an error's reason, and the three body shapes GreptimeDB uses (reference §4.1).
 */
import { type ErrorReason, PetrelError, StatusCode } from "../common/errors.ts";

/** Which body shape an endpoint's errors take (reference §4.1). */
export type ErrorShape = "greptime" | "plain" | "prometheus" | "splunk" | "jaeger";

const HTTP_BY_CODE: Record<number, number> = {
  0: 200,
  1000: 500,
  1001: 400,
  1002: 500,
  1003: 500,
  1004: 400,
  1005: 504,
  1006: 500,
  1007: 503,
  1008: 504,
  1009: 503,
  2000: 400,
  3000: 400,
  3001: 500,
  4007: 401,
  4008: 503,
  4009: 503,
  4010: 503,
  5000: 503,
  5001: 400,
  6000: 500,
  6001: 429,
  7000: 401,
  7001: 401,
  7002: 401,
  7003: 401,
  7004: 401,
  7005: 403,
  7006: 403,
};

const HTTP_BY_REASON: Record<ErrorReason, number> = {
  too_large: 413,
  unsupported_media_type: 415,
  timed_out: 408,
  unauthenticated: 401,
  not_implemented: 501,
  insufficient_storage: 507,
};

/** Prometheus' own `errorType` values (`web/api/v1`), as its query API answers them. */
export type PromApiErrorType =
  | "bad_data"
  | "execution"
  | "canceled"
  | "timeout"
  | "internal"
  | "not_found"
  | "unavailable";

/** The `errorType` Prometheus would give an error answered with an HTTP status. */
export function promApiErrorTypeOfStatus(status: number): PromApiErrorType {
  if (status === 408 || status === 504) return "timeout";
  if (status === 422) return "execution";
  if (status === 404) return "not_found";
  if (status === 503) return "unavailable";
  return status < 500 ? "bad_data" : "internal";
}

/** GreptimeDB's status code → HTTP status mapping (reference §4.3). */
export function httpStatusOfCode(code: number): number {
  if (code in HTTP_BY_CODE) return HTTP_BY_CODE[code];
  if (code >= 4000 && code < 5000) return 400;
  if (code >= 8000 && code < 10000) return 400;
  return 500;
}

/** The HTTP status an error is answered with: its reason's, else its code's. */
export function httpStatusOf(err: PetrelError): number {
  return err.reason !== undefined ? HTTP_BY_REASON[err.reason] : httpStatusOfCode(err.code);
}

/**
 * An error a route wants rendered its own way: in another shape than the route's (insert-stage
 * failures of `/v1/ingest`) or with extra headers (remote write 2.0's written counts).
 */
export class HttpError extends Error {
  constructor(readonly error: PetrelError, readonly shape?: ErrorShape, readonly headers: HeadersInit = {}) {
    super(error.message);
    this.name = "HttpError";
  }
}

/** GreptimeDB masks internal failures (reference §4.2). */
function visibleMessage(err: PetrelError): string {
  if (err.code === StatusCode.Unknown || err.code === StatusCode.Internal) {
    return `Internal error: ${err.code}`;
  }
  return err.message;
}

/** Escapes non-ASCII and control bytes so the message is a valid header value. */
function headerSafe(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += c >= 0x20 && c < 0x7f ? ch : `\\u{${c.toString(16)}}`;
    if (out.length > MAX_HEADER_MESSAGE) return out.slice(0, MAX_HEADER_MESSAGE) + "...";
  }
  return out;
}

/**
 * The longest error message a header carries (the body has it whole): a message quoting a huge
 * token of the request made a header clients refuse (curl: "Out of memory", and the fuzzer's fetch
 * lost the connection), so the client never saw its 400.
 */
const MAX_HEADER_MESSAGE = 4096;

/** Renders a PetrelError in the given shape, with extra headers. */
export function renderError(
  err: PetrelError,
  shape: ErrorShape,
  executionTimeMs: number,
  extraHeaders: HeadersInit = {},
): Response {
  const message = visibleMessage(err);
  const headers = new Headers(extraHeaders);
  headers.set("content-type", "application/json");
  let body: unknown;
  if (shape === "greptime") {
    body = { code: err.code, error: message, execution_time_ms: executionTimeMs };
    headers.set("x-greptime-err-code", String(err.code));
    headers.set("x-greptime-err-msg", headerSafe(`error: ${message}, execution_time_ms: ${executionTimeMs}`));
  } else if (shape === "prometheus") {
    // Prometheus' own errorType values and key order, as its clients (Grafana, promtool) expect.
    body = { status: "error", errorType: promApiErrorTypeOfStatus(httpStatusOf(err)), error: message };
  } else if (shape === "splunk") {
    const hec = splunkError(err);
    if (hec) return splunkResponse(hec.status, { text: hec.text, code: hec.code }, headers);
    body = { text: message, code: splunkCodeOfStatus(httpStatusOf(err)) };
  } else if (shape === "jaeger") {
    // Jaeger's envelope, the error inside it with its HTTP status (GreptimeDB's `jaeger.rs::error_response`).
    body = { data: null, total: 0, limit: 0, offset: 0, errors: [{ code: httpStatusOf(err), msg: message }] };
  } else {
    body = { error: message };
  }
  const status = httpStatusOf(err);
  // A client told "not now" (429 rate limited, 503 busy or unavailable, 507 full) is told when to come back.
  if ((status === 429 || status === 503 || status === 507) && !headers.has("retry-after")) {
    headers.set("retry-after", "1");
  }
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * Splunk HEC's answers to authentication and permission failures (reference §3.3): no credentials
 * → 401 code 2; a malformed header or unknown scheme → 401 code 3 (Splunk's "Invalid
 * authorization"); wrong credentials, a bearer token or a user without write permission → 403 code 4.
 */
function splunkError(err: PetrelError): { status: number; text: string; code: number } | null {
  if (err.code === StatusCode.AuthHeaderNotFound) return { status: 401, text: "Token is required", code: 2 };
  if (err.code === StatusCode.InvalidAuthHeader) {
    return { status: 401, text: "Invalid authorization", code: 3 };
  }
  if (err.reason === "unauthenticated") return { status: 403, text: "Invalid token", code: 4 };
  if (err.code === StatusCode.PermissionDenied) return { status: 403, text: err.message, code: 4 };
  return null;
}

/** The HEC code of any other failure: 9 server busy (try later), 8 internal error, else 6 invalid data format. */
function splunkCodeOfStatus(status: number): number {
  if (status === 408 || status === 429 || status === 503) return 9;
  return status >= 500 ? 8 : 6;
}

function splunkResponse(status: number, body: unknown, headers: Headers): Response {
  return new Response(JSON.stringify(body), { status, headers });
}
