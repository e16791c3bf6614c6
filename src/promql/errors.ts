/**
 * The error kinds of a PromQL query, so the API can render Prometheus' `errorType`:
 * `bad_data` (parse and type errors: {@link ParseError}, or bad arguments found before evaluation),
 * `execution` (many-to-many matching, duplicate label sets, bad function arguments at run time, the
 * sample limit), `timeout` (the request's deadline) and `canceled` (the client went away).
 */
import { PetrelError, StatusCode } from "../common/errors.ts";
import { ParseError } from "./parse_error.ts";

/** Prometheus' `errorType` values an engine error maps to. */
export type PromErrorType = "bad_data" | "execution" | "timeout" | "canceled" | "internal";

/** An error raised while evaluating a query. */
export class PromQLError extends PetrelError {
  readonly errorType: Exclude<PromErrorType, "internal">;

  constructor(errorType: Exclude<PromErrorType, "internal">, message: string) {
    super(
      errorType === "bad_data"
        ? StatusCode.InvalidArguments
        : errorType === "timeout"
        ? StatusCode.DeadlineExceeded
        : errorType === "canceled"
        ? StatusCode.Cancelled
        : StatusCode.EngineExecuteQuery,
      message,
      errorType === "timeout" ? { reason: "timed_out" } : {},
    );
    this.name = "PromQLError";
    this.errorType = errorType;
  }
}

/** An execution error (Prometheus' `errorType: "execution"`, HTTP 422). */
export function executionError(message: string): PromQLError {
  return new PromQLError("execution", message);
}

/** Prometheus' `ErrTooManySamples`. */
export function tooManySamples(): PromQLError {
  return executionError("query processing would load too many samples into memory in query execution");
}

/** The `errorType` Prometheus' API shows for an error thrown by the engine. */
export function promErrorType(e: unknown): PromErrorType {
  if (e instanceof PromQLError) return e.errorType;
  if (e instanceof ParseError) return "bad_data";
  if (e instanceof PetrelError && e.code === StatusCode.InvalidArguments) return "bad_data";
  return "internal";
}

/**
 * Throws `timeout` past the deadline (a clock reading; evaluation is synchronous, so timers cannot
 * fire during it), or `timeout`/`canceled` when the signal has fired (a `TimeoutError` reason is a timeout).
 */
export function checkAbort(
  signal: AbortSignal | undefined,
  where = "expression evaluation",
  deadline?: { at: number; now: () => number },
): void {
  if (deadline !== undefined && deadline.now() > deadline.at) {
    throw new PromQLError("timeout", `query timed out in ${where}`);
  }
  if (signal === undefined || !signal.aborted) return;
  const reason = signal.reason;
  const isTimeout = reason instanceof DOMException
    ? reason.name === "TimeoutError"
    : (reason instanceof PetrelError && reason.code === StatusCode.DeadlineExceeded);
  throw isTimeout
    ? new PromQLError("timeout", `query timed out in ${where}`)
    : new PromQLError("canceled", `query was canceled in ${where}`);
}
