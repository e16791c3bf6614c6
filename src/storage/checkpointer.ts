/**
 * WAL checkpoints off the writer's thread. SQLite's automatic checkpoint runs inside the COMMIT
 * that crosses its threshold, so the writer copied pages into the database file and fsynced it
 * while requests waited: ~7 % of line-protocol throughput here. A worker thread with its own
 * connections runs PASSIVE checkpoints shortly after writes instead, and the writer's own automatic
 * checkpoint moves to a higher threshold, a safety net for when the worker falls behind (PASSIVE
 * cannot finish while the writer keeps appending) or is unavailable.
 *
 * The worker starts on the first write and stops after `IDLE_MS` without writes, so an idle server
 * runs no extra thread; it never keeps the process alive (`unref`), so a script that writes and
 * ends without `close()` exits at once (a checkpoint cut short is harmless: SQLite redoes it).
 * It is a `node:worker_threads` worker because Deno's web workers cannot be unref'd. Durability is
 * unchanged: a commit is as durable as before (WAL, synchronous=NORMAL); only who copies the WAL
 * into the database file changes.
 */

import { Worker } from "node:worker_threads";

/** Messages to the checkpoint worker. */
export type CheckpointMessage =
  | { kind: "poke"; path: string }
  | { kind: "forget"; path: string }
  | { kind: "stop"; done: Int32Array };

/**
 * The writer's automatic checkpoint threshold (WAL bytes) while the worker runs: the safety net.
 * PASSIVE checkpoints cannot restart the WAL while writes keep coming, so under sustained ingest it
 * grows to this size before the writer checkpoints the (few) frames left and restarts it: 32 MiB
 * bounds the disk it takes (128 MiB measured ~3 % faster; SQLite's default, 16 MiB here, ~5 % slower).
 */
export const SAFETY_NET_BYTES = 32 * 1024 * 1024;
/** Pokes for one file closer together than this are dropped (the worker throttles anyway). */
const POKE_EVERY_MS = 20;
/** The worker is stopped after this long without writes. */
const IDLE_MS = 10_000;
/** How long a stop waits for the worker to close its connections. */
const STOP_WAIT_MS = 2_000;

/** A database file the checkpointer looks after, and how to set its writer's own threshold. */
export interface CheckpointTarget {
  path: string;
  /** Sets the writer's own threshold in WAL bytes; null restores SQLite's default (1000 pages). */
  setAutoCheckpoint(bytes: number | null): void;
}

/** Background WAL checkpoints for the database files of one storage. */
export class Checkpointer {
  /** `workerUrl` is for tests (a worker that fails to load). */
  constructor(private readonly workerUrl = new URL("./checkpoint_worker.ts", import.meta.url)) {}

  private worker: Worker | null = null;
  private broken = false;
  private readonly targets = new Map<string, CheckpointTarget>();
  private readonly lastPoke = new Map<string, number>();
  private lastWrite = 0;
  private idleTimer: ReturnType<typeof setInterval> | undefined;

  /** Notes a committed write to `target`'s file; starts the worker if needed. */
  wrote(target: CheckpointTarget): void {
    if (this.broken) return;
    const now = performance.now();
    this.lastWrite = now;
    if (now - (this.lastPoke.get(target.path) ?? -Infinity) < POKE_EVERY_MS) return;
    if (this.worker === null && !this.start()) return;
    if (!this.targets.has(target.path)) {
      this.targets.set(target.path, target);
      target.setAutoCheckpoint(SAFETY_NET_BYTES);
    }
    this.lastPoke.set(target.path, now);
    this.worker!.postMessage({ kind: "poke", path: target.path } satisfies CheckpointMessage);
  }

  /** Closes the worker's connection to a file about to be deleted. */
  forget(path: string): void {
    const target = this.targets.get(path);
    if (target === undefined) return;
    this.targets.delete(path);
    this.lastPoke.delete(path);
    this.worker?.postMessage({ kind: "forget", path } satisfies CheckpointMessage);
  }

  /** Stops the worker after it has closed its connections (waits at most `STOP_WAIT_MS`). */
  stop(): void {
    if (this.idleTimer !== undefined) clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    const w = this.worker;
    if (w === null) return;
    this.worker = null;
    const done = new Int32Array(new SharedArrayBuffer(4));
    try {
      w.postMessage({ kind: "stop", done } satisfies CheckpointMessage);
      Atomics.wait(done, 0, 0, STOP_WAIT_MS);
    } finally {
      void w.terminate();
      this.restoreDefaults();
    }
  }

  private restoreDefaults(): void {
    for (const t of this.targets.values()) {
      try {
        t.setAutoCheckpoint(null);
      } catch { /* closed */ }
    }
    this.targets.clear();
    this.lastPoke.clear();
  }

  private start(): boolean {
    try {
      const w = new Worker(this.workerUrl);
      w.unref();
      w.on("error", (e: Error) => {
        void w.terminate();
        // A worker already stopped is no longer ours to judge.
        if (this.worker !== w) return;
        console.error(`checkpoint worker failed, checkpoints stay with the writer: ${e.message}`);
        this.broken = true;
        this.worker = null;
        this.restoreDefaults();
      });
      this.worker = w;
    } catch (e) {
      // e.g. a compiled binary built without `--include src/storage/checkpoint_worker.ts`
      console.error(`checkpoint worker unavailable, checkpoints stay with the writer: ${e}`);
      this.broken = true;
      return false;
    }
    const timer = setInterval(() => {
      if (performance.now() - this.lastWrite >= IDLE_MS) this.stop();
    }, IDLE_MS / 2);
    Deno.unrefTimer(timer);
    this.idleTimer = timer;
    return true;
  }
}
