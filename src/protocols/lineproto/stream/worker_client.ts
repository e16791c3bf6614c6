/**
 * The main thread's side of one line-protocol parse worker (`lineproto_worker.ts`): posts bodies,
 * matches replies to requests, and keeps the mirror of the worker's string table. A failure of the
 * worker itself settles every body it held by parsing inline, so no request is lost or left hanging.
 */

import { type ErrorData, errorFromData } from "../../../common/errors.ts";
import type { WriteBatch } from "../../../common/rows.ts";
import { decodeBatches, type EncodedBatches } from "../columnar.ts";

/** A body to parse, as posted to the worker (in shared memory, so posting it copies nothing). */
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
  error?: ErrorData;
  crashed?: string;
}

/** What a worker needs from its pool. */
export interface WorkerHooks {
  /** Parses a body on the calling thread, exactly as the worker would. */
  parseInline(body: Uint8Array, precision: string | undefined, now: bigint): WriteBatch[];
  /** The worker failed: the pool stops using it (its pending bodies are already settled). */
  onFail(): void;
  /** A request was answered (to restart the pool's idle timer when nothing is pending). */
  onSettled(): void;
}

interface Pending {
  request: Omit<ParseRequest, "id">;
  resolve(b: WriteBatch[]): void;
  reject(e: unknown): void;
}

/** One parse worker thread and the requests it holds. */
export class ParseWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  /** The receiving side of the worker's `StringTable`. */
  private readonly mirror: string[] = [];
  private nextId = 1;
  private stopped = false;
  /** True once the worker has loaded and takes bodies. */
  ready = false;

  /** Starts the thread; throws when workers cannot be created here. */
  constructor(private readonly hooks: WorkerHooks) {
    const w = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
    // A stopped worker's last replies are dropped: their requests were already parsed inline.
    w.onmessage = (e: MessageEvent<ParseReply>) => !this.stopped && this.onReply(e.data);
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      // A worker already stopped (idle, or the storage closing) is no longer ours to judge.
      if (this.stopped) return;
      console.error(`line protocol worker failed, parsing inline from now on: ${e.message}`);
      this.fail();
    };
    w.onmessageerror = () => !this.stopped && this.fail();
    this.worker = w;
  }

  /** Whether the worker holds bodies not yet answered. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Parses `body` in the worker; this thread keeps the bytes too, for an inline retry. */
  parse(body: Uint8Array, precision: string | undefined, now: bigint): Promise<WriteBatch[]> {
    const id = this.nextId++;
    // Shared memory crosses to the worker uncopied; one memcpy into it is still several times
    // cheaper than structured-cloning the bytes.
    let shared = body;
    if (!(body.buffer instanceof SharedArrayBuffer)) {
      shared = new Uint8Array(new SharedArrayBuffer(body.byteLength));
      shared.set(body);
    }
    const request = { body: shared, precision, now };
    return new Promise<WriteBatch[]>((resolve, reject) => {
      this.pending.set(id, { request, resolve, reject });
      this.worker.postMessage({ id, ...request } satisfies ParseRequest);
    });
  }

  /** Terminates the thread; bodies it still held are parsed inline. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.ready = false;
    this.worker.terminate();
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const p of left) this.settleInline(p);
  }

  /** For tests: makes the worker throw outside any parse, as a bug in it would. */
  crash(): void {
    this.worker.postMessage({ crash: true });
  }

  private fail(): void {
    this.stop();
    this.hooks.onFail();
  }

  /** Settles a request by parsing inline (after a worker failure); parse errors reject as usual. */
  private settleInline(p: Pending): void {
    const { body, precision, now } = p.request;
    try {
      p.resolve(this.hooks.parseInline(body, precision, now));
    } catch (e) {
      p.reject(e);
    }
  }

  private onReply(r: ParseReply): void {
    if (r.ready) {
      this.ready = true;
      return;
    }
    const p = this.pending.get(r.id);
    if (p === undefined) return;
    this.pending.delete(r.id);
    this.hooks.onSettled();
    if (r.encoded !== undefined) {
      let batches: WriteBatch[];
      try {
        batches = decodeBatches(r.encoded, this.mirror);
      } catch (e) {
        // Cannot happen while messages arrive in order; if it does, stay correct without workers.
        console.error(`line protocol worker reply unusable, parsing inline from now on: ${e}`);
        this.settleInline(p);
        this.fail();
        return;
      }
      p.resolve(batches);
    } else if (r.error !== undefined) {
      p.reject(errorFromData(r.error));
    } else {
      // An unexpected failure inside the worker: the inline parse reproduces it (or succeeds).
      this.settleInline(p);
    }
  }
}
