/**
 * Line-protocol parsing off the request thread: a worker parses large bodies while the main thread
 * writes the previous request's rows to SQLite, so the two overlap (on this path parsing is about
 * as costly as the write). Batches come back in columnar form (`lineproto_columnar.ts`), which is
 * ~15× cheaper to receive than structured-cloned row arrays.
 *
 * The worker starts lazily on the first large body and bodies are parsed inline until it reports
 * ready, so neither server start nor the first write waits for it. Small bodies are parsed inline
 * (the thread hop would cost more than it saves). If the worker dies or fails unexpectedly, every
 * pending body is parsed inline instead and the worker is not used again: a worker problem never
 * loses a write or hangs a request, and parse errors are the same PetrelErrors either way.
 *
 * Measured and dropped: cutting a body in two for two workers. It halves the parse wait only when
 * a core is idle; on two cores the main thread's SQLite work already takes one, and the extra
 * decode and merge cost more than they saved.
 */

import type { WriteBatch } from "../../../common/rows.ts";
import { parseLineProtocolColumns, precisionToNanos } from "../parser.ts";
import { ParseWorker } from "./worker_client.ts";

export type { ParseReply, ParseRequest } from "./worker_client.ts";

/** Bodies below this many bytes are parsed inline. */
let minWorkerBytes = 64 * 1024;
/** An idle worker is stopped after this long: a live worker keeps the process from exiting. */
const IDLE_MS = 10_000;

let worker: ParseWorker | null = null;
let broken = false;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function parseInline(body: Uint8Array, precision: string | undefined, now: bigint): WriteBatch[] {
  return parseLineProtocolColumns(new TextDecoder().decode(body), precision, now);
}

/** Stops the worker; bodies it still held are parsed inline, so no request is lost or left hanging. */
export function stopLineProtocolWorker(): void {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  const w = worker;
  worker = null;
  w?.stop();
}

function fail(): void {
  broken = true;
  stopLineProtocolWorker();
}

function onSettled(): void {
  if (worker?.busy) return;
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  const timer = setTimeout(() => {
    idleTimer = undefined;
    if (!worker?.busy) stopLineProtocolWorker();
  }, IDLE_MS);
  Deno.unrefTimer(timer);
  idleTimer = timer;
}

/** The worker, started if needed; null (and inline parsing from now on) when workers are unavailable. */
function ensureWorker(): ParseWorker | null {
  if (worker !== null) return worker;
  try {
    worker = new ParseWorker({ parseInline, onFail: fail, onSettled });
  } catch (e) {
    // e.g. a compiled binary built without `--include src/protocols/lineproto_worker.ts`
    console.error(`line protocol worker unavailable, parsing inline: ${e}`);
    broken = true;
  }
  return worker;
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
  if (broken || body.byteLength < minWorkerBytes) return parseInline(body, precision, now);
  const w = ensureWorker();
  if (w === null) return parseInline(body, precision, now);
  onClose?.(stopLineProtocolWorker);
  if (!w.ready) return parseInline(body, precision, now);
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  const parsed = w.parse(body, precision, now);
  for (const wake of queuedWaiters.splice(0)) wake();
  return parsed;
}

const queuedWaiters: Array<() => void> = [];

/** Whether a body of this size goes to the worker (smaller ones, or all once workers failed, are parsed inline). */
export function parsedInWorker(bytes: number): boolean {
  return !broken && bytes >= minWorkerBytes;
}

/** Whether the worker holds a body it has not answered yet. */
export function lineProtocolWorkerBusy(): boolean {
  return worker?.busy ?? false;
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
  worker?.crash();
}

/** For tests: lets a worker be used again after a failure. */
export function reviveLineProtocolWorker(): void {
  broken = false;
}

/** For tests: resolves once the worker is up and taking bodies (false if it is broken). */
export async function lineProtocolWorkerReady(timeoutMs = 10_000): Promise<boolean> {
  if (!broken) ensureWorker();
  const until = Date.now() + timeoutMs;
  while (!(worker?.ready ?? false) && !broken && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return worker?.ready ?? false;
}
