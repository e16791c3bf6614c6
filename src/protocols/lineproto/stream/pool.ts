/**
 * Line-protocol parsing off the request thread: a worker parses large bodies while the main thread
 * writes the previous request's rows to SQLite, so the two overlap (on this path parsing is about
 * as costly as the write). Batches come back in columnar form (`columnar.ts`), which is ~15×
 * cheaper to receive than structured-cloned row arrays; tag values the worker has sent before come
 * as numbers only, so this side mirrors the worker's string table (reset with each new worker).
 *
 * The worker starts lazily on the first large body and bodies are parsed inline until it reports
 * ready, so neither server start nor the first write waits for it. Small bodies are parsed inline
 * (the thread hop would cost more than it saves). If the worker fails, every body it held is
 * parsed inline instead and the worker is not used again: a worker problem never loses a write or
 * hangs a request, and parse errors are the same PetrelErrors either way.
 *
 * Measured and dropped: cutting a body in two for two workers. It halves the parse wait only when
 * a core is idle; on two cores the main thread's SQLite work already takes one, and the extra
 * decode and merge cost more than they saved.
 */

import { errorFromData } from "../../../common/errors.ts";
import type { WriteBatch } from "../../../common/rows.ts";
import { WorkerPool, WorkerUnavailable } from "../../../common/worker_pool.ts";
import { decodeBatches } from "../columnar.ts";
import { parseLineProtocolColumns, precisionToNanos } from "../parser.ts";
import type { ParseReply, ParseRequest } from "./messages.ts";

/** Bodies below this many bytes are parsed inline. */
let minWorkerBytes = 64 * 1024;

/** The receiving side of the worker's `StringTable`. */
const mirror: string[] = [];

const worker = new WorkerPool<Omit<ParseRequest, "id">, ParseReply>({
  name: "line protocol",
  url: new URL("./worker.ts", import.meta.url),
  runtime: "web",
  maxThreads: 1,
  perThread: Infinity,
  idleMs: 10_000,
  onStart: () => mirror.length = 0,
});

function parseInline(body: Uint8Array, precision: string | undefined, now: bigint): WriteBatch[] {
  return parseLineProtocolColumns(new TextDecoder().decode(body), precision, now);
}

/** Stops the worker; bodies it still held are parsed inline, so no request is lost or left hanging. */
export function stopLineProtocolWorker(): void {
  worker.stop();
}

/** Parses in the worker; any worker trouble ends in an inline parse of the same body. */
async function parseInWorker(
  body: Uint8Array,
  precision: string | undefined,
  now: bigint,
): Promise<WriteBatch[]> {
  // Shared memory crosses to the worker uncopied; one memcpy into it is still several times
  // cheaper than structured-cloning the bytes.
  let shared = body;
  if (!(body.buffer instanceof SharedArrayBuffer)) {
    shared = new Uint8Array(new SharedArrayBuffer(body.byteLength));
    shared.set(body);
  }
  let reply: ParseReply;
  try {
    reply = await worker.request({ body: shared, precision, now });
  } catch (e) {
    if (e instanceof WorkerUnavailable) return parseInline(body, precision, now);
    throw e;
  }
  if (reply.error !== undefined) throw errorFromData(reply.error);
  // An unexpected failure inside the worker: the inline parse reproduces it (or succeeds).
  if (reply.encoded === undefined) return parseInline(body, precision, now);
  try {
    return decodeBatches(reply.encoded, mirror);
  } catch (e) {
    // Cannot happen while replies arrive in order; if it does, stay correct without the worker.
    worker.fail(`reply unusable: ${e}`);
    return parseInline(body, precision, now);
  }
}

/**
 * Parses a line-protocol body (raw bytes, content encoding already removed) into one batch per
 * measurement, in the worker when the body is large and the worker is up, else inline. Results and
 * errors equal `parseLineProtocol`'s. `onClose` (e.g. `storage.onClose`) gets the worker's stop.
 */
export function parseLineProtocolBody(
  body: Uint8Array,
  precision: string | undefined,
  now: bigint,
  onClose?: (stop: () => void) => void,
): Promise<WriteBatch[]> | WriteBatch[] {
  precisionToNanos(precision); // an unknown precision is a 400 before any thread hop
  if (!parsedInWorker(body.byteLength)) return parseInline(body, precision, now);
  worker.warm();
  onClose?.(stopLineProtocolWorker);
  if (!worker.ready) return parseInline(body, precision, now);
  const parsed = parseInWorker(body, precision, now);
  for (const wake of queuedWaiters.splice(0)) wake();
  return parsed;
}

const queuedWaiters: Array<() => void> = [];

/** Whether a body of this size goes to the worker (smaller ones, or all once workers failed, are parsed inline). */
export function parsedInWorker(bytes: number): boolean {
  return !worker.broken && bytes >= minWorkerBytes;
}

/** Whether the worker holds a body it has not answered yet. */
export function lineProtocolWorkerBusy(): boolean {
  return worker.busy;
}

/** Resolves when a body is next handed to the worker, or after `ms` milliseconds. */
export function nextBodyQueued(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      const at = queuedWaiters.indexOf(done);
      if (at >= 0) queuedWaiters.splice(at, 1);
      resolve();
    }
    queuedWaiters.push(done);
  });
}

/** For tests: the size from which bodies go to the worker; returns the previous value. */
export function setLineProtocolWorkerMinBytes(bytes: number): number {
  const old = minWorkerBytes;
  minWorkerBytes = bytes;
  return old;
}

/** For tests: makes the worker throw outside any parse, as a bug in it would. */
export function crashLineProtocolWorker(): void {
  worker.post({ crash: true });
}

/** For tests: lets a worker be used again after a failure. */
export function reviveLineProtocolWorker(): void {
  worker.revive();
}

/** For tests: resolves once the worker is up and taking bodies (false if it is broken). */
export async function lineProtocolWorkerReady(timeoutMs = 10_000): Promise<boolean> {
  worker.warm();
  const until = Date.now() + timeoutMs;
  while (!worker.ready && !worker.broken && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return worker.ready;
}
