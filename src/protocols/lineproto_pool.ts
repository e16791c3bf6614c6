/**
 * Line-protocol parsing off the request thread: one worker parses large bodies while the main thread
 * writes the previous request's rows to SQLite, so the two overlap (on this path parsing is about
 * as costly as the write). Batches come back in columnar form (`lineproto_columnar.ts`), which is
 * ~15× cheaper to receive than structured-cloned row arrays.
 *
 * The worker starts lazily on the first large body and bodies are parsed inline until it reports
 * ready, so neither server start nor the first write waits for it. Small bodies are parsed inline
 * (the thread hop would cost more than it saves). If the worker dies or fails unexpectedly, every
 * pending body is parsed inline instead and the worker is not used again: a worker problem never
 * loses a write or hangs a request, and parse errors are the same PetrelErrors either way.
 */

import { PetrelError } from "../http/errors.ts";
import type { WriteBatch } from "../storage/types.ts";
import { parseLineProtocol, precisionToNanos } from "./lineproto.ts";
import { decodeBatches, type EncodedBatches } from "./lineproto_columnar.ts";

/** A body to parse, as posted to the worker. */
export interface ParseRequest {
  id: number;
  body: Uint8Array;
  precision: string | undefined;
  now: bigint;
}

/** The worker's answer to request `id` (id 0 with `ready` once it has loaded). */
export interface ParseReply {
  id: number;
  ready?: true;
  encoded?: EncodedBatches;
  error?: { code: number; message: string; status: number };
  crashed?: string;
}

interface Pending {
  body: Uint8Array;
  precision: string | undefined;
  now: bigint;
  resolve(b: WriteBatch[]): void;
  reject(e: unknown): void;
}

/** Bodies below this many bytes are parsed inline. */
let minWorkerBytes = 64 * 1024;
/** An idle worker is stopped after this long: a live worker keeps the process from exiting. */
const IDLE_MS = 10_000;

let worker: Worker | null = null;
let ready = false;
let broken = false;
let nextId = 1;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
const pending = new Map<number, Pending>();
/** The receiving side of the worker's `StringTable`; a new worker starts with an empty one. */
let mirror: string[] = [];

function parseInline(body: Uint8Array, precision: string | undefined, now: bigint): WriteBatch[] {
  return parseLineProtocol(new TextDecoder().decode(body), precision, now);
}

/** Settles a request by parsing inline (after a worker failure); parse errors reject as usual. */
function settleInline(p: Pending): void {
  try {
    p.resolve(parseInline(p.body, p.precision, p.now));
  } catch (e) {
    p.reject(e);
  }
}

/** Stops the worker; bodies it still held are parsed inline, so no request is lost or left hanging. */
export function stopLineProtocolWorker(): void {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  if (worker !== null) worker.terminate();
  worker = null;
  ready = false;
  const left = [...pending.values()];
  pending.clear();
  for (const p of left) settleInline(p);
}

function fail(): void {
  broken = true;
  stopLineProtocolWorker();
}

function armIdleTimer(): void {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  const timer = setTimeout(() => {
    idleTimer = undefined;
    if (pending.size === 0) stopLineProtocolWorker();
  }, IDLE_MS);
  Deno.unrefTimer(timer);
  idleTimer = timer;
}

function onReply(e: MessageEvent<ParseReply>): void {
  const r = e.data;
  if (r.ready) {
    ready = true;
    return;
  }
  const p = pending.get(r.id);
  if (p === undefined) return;
  pending.delete(r.id);
  if (pending.size === 0) armIdleTimer();
  if (r.encoded !== undefined) {
    let batches: WriteBatch[];
    try {
      batches = decodeBatches(r.encoded, mirror);
    } catch (e) {
      // Cannot happen while messages arrive in order; if it does, stay correct without the worker.
      console.error(`line protocol worker reply unusable, parsing inline from now on: ${e}`);
      settleInline(p);
      fail();
      return;
    }
    p.resolve(batches);
  } else if (r.error !== undefined) {
    p.reject(new PetrelError(r.error.code, r.error.message, { status: r.error.status }));
  } else {
    // An unexpected failure inside the worker: the inline parse reproduces it (or succeeds).
    settleInline(p);
  }
}

function spawn(): Worker {
  const w = new Worker(new URL("./lineproto_worker.ts", import.meta.url).href, { type: "module" });
  mirror = [];
  // A stopped worker's last replies are dropped: their requests were already parsed inline.
  w.onmessage = (e: MessageEvent<ParseReply>) => w === worker && onReply(e);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    console.error(`line protocol worker failed, parsing inline from now on: ${e.message}`);
    fail();
  };
  w.onmessageerror = () => fail();
  return w;
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
  if (worker === null) {
    try {
      worker = spawn();
    } catch (e) {
      // e.g. a compiled binary built without `--include src/protocols/lineproto_worker.ts`
      console.error(`line protocol worker unavailable, parsing inline: ${e}`);
      broken = true;
      return parseInline(body, precision, now);
    }
    onClose?.(stopLineProtocolWorker);
  }
  if (!ready) return parseInline(body, precision, now);
  onClose?.(stopLineProtocolWorker);
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  const id = nextId++;
  const w = worker;
  return new Promise<WriteBatch[]>((resolve, reject) => {
    pending.set(id, { body, precision, now, resolve, reject });
    w.postMessage({ id, body, precision, now } satisfies ParseRequest);
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
  worker?.postMessage({ crash: true });
}

/** For tests: lets a worker be used again after a failure. */
export function reviveLineProtocolWorker(): void {
  broken = false;
}

/** For tests: resolves once the worker is up and taking bodies (false if it is broken). */
export async function lineProtocolWorkerReady(timeoutMs = 10_000): Promise<boolean> {
  if (worker === null && !broken) {
    worker = spawn();
  }
  const until = Date.now() + timeoutMs;
  while (!ready && !broken && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return ready;
}
