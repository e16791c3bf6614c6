/** The one place errors become responses, in the three body shapes GreptimeDB uses (reference §4.1). */
import { type ErrorShape, PetrelError, StatusCode, statusCodeName } from "./errors.ts";

export type { ErrorShape };

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
  }
  return out;
}

/** Renders a PetrelError in the given shape. */
export function renderError(err: PetrelError, shape: ErrorShape, executionTimeMs: number): Response {
  const message = visibleMessage(err);
  const headers = new Headers({ "content-type": "application/json", ...err.headers });
  let body: unknown;
  if (shape === "greptime") {
    body = { code: err.code, error: message, execution_time_ms: executionTimeMs };
    headers.set("x-greptime-err-code", String(err.code));
    headers.set("x-greptime-err-msg", headerSafe(`error: ${message}, execution_time_ms: ${executionTimeMs}`));
  } else if (shape === "prometheus") {
    body = { status: "error", error: message, errorType: statusCodeName(err.code) };
  } else {
    body = { error: message };
  }
  return new Response(JSON.stringify(body), { status: err.status, headers });
}
