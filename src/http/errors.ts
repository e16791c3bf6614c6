/**
 * Typed errors carrying GreptimeDB's status code; the HTTP status is derived from the code
 * (reference §4.3) unless a handler overrides it. Errors are raised once and rendered in one
 * place (`src/http/render_error.ts`), in the error shape the route declares.
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

/** GreptimeDB's status code → HTTP status mapping (reference §4.3). */
export function httpStatusOf(code: number): number {
  if (code in HTTP_BY_CODE) return HTTP_BY_CODE[code];
  if (code >= 4000 && code < 5000) return 400;
  if (code >= 8000 && code < 10000) return 400;
  return 500;
}

/** The name of a status code, as the Prometheus API's `errorType` shows it. */
export function statusCodeName(code: number): string {
  for (const [name, value] of Object.entries(StatusCode)) if (value === code) return name;
  return "Unknown";
}

/** Which body shape an endpoint's errors take (reference §4.1). */
export type ErrorShape = "greptime" | "plain" | "prometheus";

/** An error a request can end with; `status` overrides the HTTP status derived from `code`. */
export class PetrelError extends Error {
  readonly code: number;
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Overrides the route's error shape (e.g. insert-stage failures of `/v1/ingest` use ErrorResponse). */
  readonly shape?: ErrorShape;

  constructor(
    code: number,
    message: string,
    opts: { status?: number; headers?: Record<string, string>; shape?: ErrorShape } = {},
  ) {
    super(message);
    this.name = "PetrelError";
    this.code = code;
    this.status = opts.status ?? httpStatusOf(code);
    this.headers = opts.headers ?? {};
    this.shape = opts.shape;
  }

  /** The same error rendered in another shape. */
  withShape(shape: ErrorShape): PetrelError {
    return new PetrelError(this.code, this.message, { status: this.status, headers: this.headers, shape });
  }
}

/** 1004 InvalidArguments → 400: the catch-all for bad user input. */
export function invalidArguments(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidArguments, message);
}

/** 1001 Unsupported → 400. */
export function unsupported(message: string): PetrelError {
  return new PetrelError(StatusCode.Unsupported, message);
}

/** 2000 InvalidSyntax → 400. */
export function invalidSyntax(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidSyntax, message);
}

/** 4001 TableNotFound → 400. */
export function tableNotFound(name: string): PetrelError {
  return new PetrelError(StatusCode.TableNotFound, `Table not found: ${name}`);
}

/** 4004 DatabaseNotFound → 400. */
export function databaseNotFound(db: string): PetrelError {
  return new PetrelError(StatusCode.DatabaseNotFound, `Database not found: ${db}`);
}

/** 1003 Internal → 500; only for faults of Petrel itself, never for user input. */
export function internal(message: string): PetrelError {
  return new PetrelError(StatusCode.Internal, message);
}
