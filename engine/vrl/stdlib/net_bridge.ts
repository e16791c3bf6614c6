/**
 * Synchronous network calls for VRL (`dns_lookup`, `reverse_dns`, `http_request`). VRL functions are
 * synchronous and Deno's resolver and fetch are not, so the work runs on one worker thread (a
 * `WorkerPool` of one) while the calling thread blocks in `Atomics.wait` on a SharedArrayBuffer the
 * worker writes its JSON answer into. The calling thread runs nothing else meanwhile: its timers,
 * its HTTP server and its other requests wait too, which is why every call has a deadline.
 */

import { WorkerPool } from "../../../src/common/worker_pool.ts";
import { fail } from "./def.ts";
import { HEADER_BYTES, MAX_REPLY_BYTES, type NetOp, type NetReply, type NetRequest } from "./net_protocol.ts";

const INITIAL_BYTES = 4096;
// Starting the thread (first call, or after it stopped idle) takes part of a second; more when the
// host is busy. Only an answer that never comes costs the whole grace.
const START_GRACE_MS = 5_000;

const pool = new WorkerPool<Omit<NetRequest, "id">, { id: number }>({
  name: "vrl network",
  url: new URL("./net_worker.ts", import.meta.url),
  // node threads can be unref'd: an idle network thread never keeps Petrel alive.
  runtime: "node",
  maxThreads: 1,
  // Replies are read when the caller's event loop runs again, so a burst of blocking calls leaves
  // many "pending"; the thread itself handles them one after another as they come.
  perThread: Number.MAX_SAFE_INTEGER,
  idleMs: 30_000,
});

/** Stops the network thread (tests, shutdown); the next call starts it again. */
export function stopNetworkWorker(): void {
  pool.stop();
}

/**
 * Runs `op` on the network thread and blocks until its answer, failing with the worker's message,
 * or with a timeout when no answer came within `timeoutMs` (plus the thread's start-up grace).
 */
export function callBlocking(op: NetOp, args: unknown, timeoutMs: number, what: string): unknown {
  if (pool.broken) return fail(`${what} unavailable: the network worker failed`);
  const sab = new SharedArrayBuffer(INITIAL_BYTES, { maxByteLength: HEADER_BYTES + MAX_REPLY_BYTES });
  const head = new Int32Array(sab, 0, 2);
  // The reply message only settles the pool's bookkeeping; the answer comes through `sab`.
  pool.request({ op, args, timeoutMs, sab }).catch(() => {});
  if (Atomics.wait(head, 0, 0, timeoutMs + START_GRACE_MS) === "timed-out") {
    return fail(`${what} timed out after ${timeoutMs} ms`);
  }
  const text = new TextDecoder().decode(new Uint8Array(sab, HEADER_BYTES, Atomics.load(head, 1)));
  const reply = JSON.parse(text) as NetReply;
  return "err" in reply ? fail(reply.err) : reply.ok;
}
