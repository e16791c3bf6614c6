/**
 * A promise-shaped `node:inspector` session on this isolate (Deno 2.9.6 implements `Profiler.*` and
 * `HeapProfiler.*` through it; see reference/deno-platform.md §5). Only the main isolate is
 * reachable: worker threads (SQL, line-protocol parsing, checkpoints) are not profiled.
 */
import { Session } from "node:inspector";

/** A connected inspector session. */
export class InspectorSession {
  private readonly session = new Session();

  constructor() {
    this.session.connect();
  }

  /** Sends an inspector command and resolves with its result. */
  post<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The typed overloads list each method; this wrapper is generic over them.
      (this.session.post as (m: string, p: object, cb: (e: Error | null, r: unknown) => void) => void)(
        method,
        params,
        (err, result) => err ? reject(err) : resolve(result as T),
      );
    });
  }

  /** Disconnects; the session cannot be used afterwards. */
  close(): void {
    try {
      this.session.disconnect();
    } catch { /* already disconnected */ }
  }
}
