/**
 * The error every layer raises: GreptimeDB's status code and a message, plus a `reason` for the few
 * transport conditions a status code cannot say (a body too large, a media type not accepted). How
 * an error becomes an HTTP response (status, body shape, headers) is the HTTP renderer's business
 * (`src/http/render_error.ts`); nothing below the routes knows about HTTP.
 */

/** GreptimeDB `StatusCode` numbers (src/common/error/src/status_code.rs). */
export const StatusCode = {
  Success: 0,
  Unknown: 1000,
  Unsupported: 1001,
  Unexpected: 1002,
  Internal: 1003,
  InvalidArguments: 1004,
  Cancelled: 1005,
  IllegalState: 1006,
  External: 1007,
  DeadlineExceeded: 1008,
  Suspended: 1009,
  InvalidSyntax: 2000,
  PlanQuery: 3000,
  EngineExecuteQuery: 3001,
  TableAlreadyExists: 4000,
  TableNotFound: 4001,
  TableColumnNotFound: 4002,
  TableColumnExists: 4003,
  DatabaseNotFound: 4004,
  RegionNotFound: 4005,
  RegionAlreadyExists: 4006,
  RegionReadonly: 4007,
  RegionNotReady: 4008,
  RegionBusy: 4009,
  TableUnavailable: 4010,
  DatabaseAlreadyExists: 4011,
  StorageUnavailable: 5000,
  RequestOutdated: 5001,
  RuntimeResourcesExhausted: 6000,
  RateLimited: 6001,
  UserNotFound: 7000,
  UnsupportedPasswordType: 7001,
  UserPasswordMismatch: 7002,
  AuthHeaderNotFound: 7003,
  InvalidAuthHeader: 7004,
  AccessDenied: 7005,
  PermissionDenied: 7006,
  FlowAlreadyExists: 8000,
  FlowNotFound: 8001,
} as const;

/** One of GreptimeDB's status code numbers. */
export type StatusCodeValue = (typeof StatusCode)[keyof typeof StatusCode];

/** The name of a status code, as the Prometheus API's `errorType` shows it. */
export function statusCodeName(code: number): string {
  for (const [name, value] of Object.entries(StatusCode)) if (value === code) return name;
  return "Unknown";
}

/**
 * What a status code alone cannot say about a failure; each transport decides what it means
 * (HTTP: 413, 415, 408, 401, 501, 507).
 */
export type ErrorReason =
  | "too_large"
  | "unsupported_media_type"
  | "timed_out"
  | "unauthenticated"
  | "not_implemented"
  | "insufficient_storage";

/** An error a request can end with: GreptimeDB's code, a message, and optionally a reason. */
export class PetrelError extends Error {
  readonly code: number;
  readonly reason?: ErrorReason;

  constructor(code: number, message: string, opts: { reason?: ErrorReason } = {}) {
    super(message);
    this.name = "PetrelError";
    this.code = code;
    if (opts.reason !== undefined) this.reason = opts.reason;
  }
}

/** 1004 InvalidArguments: the catch-all for bad user input. */
export function invalidArguments(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidArguments, message);
}

/**
 * Input nested past the stack (a RangeError out of any parser or evaluator: a PromQL expression,
 * JSON, YAML) as the client's 400; undefined for any other error.
 */
export function tooDeeplyNested(e: unknown): PetrelError | undefined {
  if (!(e instanceof RangeError) || !/Maximum call stack size exceeded/.test(e.message)) return undefined;
  return invalidArguments("The request is nested too deeply to process");
}

/** 1001 Unsupported. */
export function unsupported(message: string): PetrelError {
  return new PetrelError(StatusCode.Unsupported, message);
}

/** 2000 InvalidSyntax. */
export function invalidSyntax(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidSyntax, message);
}

/** 4001 TableNotFound. */
export function tableNotFound(name: string): PetrelError {
  return new PetrelError(StatusCode.TableNotFound, `Table not found: ${name}`);
}

/** 4004 DatabaseNotFound. */
export function databaseNotFound(db: string): PetrelError {
  return new PetrelError(StatusCode.DatabaseNotFound, `Database not found: ${db}`);
}

/** 1003 Internal; only for faults of Petrel itself, never for user input. */
export function internal(message: string): PetrelError {
  return new PetrelError(StatusCode.Internal, message);
}

/** A body (as sent or once inflated) over the configured limit. */
export function tooLarge(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidArguments, message, { reason: "too_large" });
}

/** A request in a media type or encoding the endpoint does not take. */
export function unsupportedMediaType(
  message: string,
  code: number = StatusCode.InvalidArguments,
): PetrelError {
  return new PetrelError(code, message, { reason: "unsupported_media_type" });
}

/** A request stopped at its deadline. */
export function timedOut(message: string): PetrelError {
  return new PetrelError(StatusCode.DeadlineExceeded, message, { reason: "timed_out" });
}

/** An error as plain data, to cross a worker boundary; {@link errorFromData} rebuilds it. */
export interface ErrorData {
  code: number;
  message: string;
  reason?: ErrorReason;
}

/** The data of an error (a non-PetrelError becomes an internal error). */
export function errorToData(e: unknown): ErrorData {
  if (e instanceof PetrelError) {
    return e.reason === undefined
      ? { code: e.code, message: e.message }
      : { code: e.code, message: e.message, reason: e.reason };
  }
  return { code: StatusCode.Internal, message: String((e as Error)?.message ?? e) };
}

/** The error whose data this is. */
export function errorFromData(d: ErrorData): PetrelError {
  return new PetrelError(d.code, d.message, d.reason === undefined ? {} : { reason: d.reason });
}
