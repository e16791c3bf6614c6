/**
 * The bound on request-body memory in flight (`[http] max_total_body_memory`, GreptimeDB's memory
 * limiter): every request body is reserved against one budget as it is read (its Content-Length up
 * front, else chunk by chunk) and again once its Content-Encoding is undone, and released when the
 * request is answered. A request that does not fit is answered 429 with `Retry-After` at once,
 * before its body is read, so a burst of uploads cannot grow the process instead (GreptimeDB's
 * `fail` policy); a body larger than the whole budget can never fit and is a 413. 0 = unlimited.
 */
import { PetrelError, StatusCode, tooLarge } from "../common/errors.ts";

/** The process-wide budget of one server. */
export class BodyMemory {
  private used = 0;
  constructor(readonly limit: number) {}

  /** Bytes reserved by requests in flight. */
  get inUse(): number {
    return this.used;
  }

  /** Reserves `n` bytes or throws (429 when the budget is taken, 413 when `n` exceeds all of it). */
  reserve(n: number): void {
    if (this.limit <= 0 || n <= 0) {
      this.used += Math.max(0, n);
      return;
    }
    if (n > this.limit) {
      throw tooLarge(
        `Request body too large: ${n} bytes exceed max_total_body_memory (${this.limit} bytes)`,
      );
    }
    if (this.used + n > this.limit) {
      throw new PetrelError(
        StatusCode.RateLimited,
        `Request body memory limit exceeded: ${n} more bytes do not fit in max_total_body_memory ` +
          `(${this.limit} bytes, ${this.used} in use); retry later`,
      );
    }
    this.used += n;
  }

  /** Returns `n` reserved bytes. */
  release(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

/** One request's reservations, released together when it is answered. */
export class BodyLease {
  private held = 0;
  constructor(private readonly memory: BodyMemory | null) {}

  /** Reserves `n` more bytes for this request (throws as {@link BodyMemory.reserve}). */
  reserve(n: number): void {
    if (!this.memory) return;
    this.memory.reserve(n);
    this.held += n;
  }

  /** Releases everything this request holds; idempotent. */
  release(): void {
    if (!this.memory || this.held === 0) return;
    this.memory.release(this.held);
    this.held = 0;
  }
}

const budgets = new WeakMap<object, BodyMemory>();

/** The budget of a server (one per app object), sized by its `max_total_body_memory`. */
export function bodyMemoryOf(app: { config: { http: { max_total_body_memory: number } } }): BodyMemory {
  let m = budgets.get(app);
  if (!m) budgets.set(app, m = new BodyMemory(app.config.http.max_total_body_memory));
  return m;
}
