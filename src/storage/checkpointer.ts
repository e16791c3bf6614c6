/**
 * WAL checkpoints off the writer's thread. SQLite's automatic checkpoint runs inside the COMMIT
 * that crosses its threshold, so the writer copied pages into the database file and fsynced it
 * while requests waited: ~7 % of line-protocol throughput here. A worker thread with its own
 * connections runs PASSIVE checkpoints shortly after writes instead, and the writer's own automatic
 * checkpoint moves to a higher threshold, a safety net for when the worker falls behind (PASSIVE
 * cannot finish while the writer keeps appending) or is unavailable.
 *
 * The worker (a `node:worker_threads` thread of a {@link WorkerPool}: unref'd, so it never keeps the
 * process alive; a checkpoint cut short is harmless, SQLite redoes it) starts on the first write and
 * stops after `IDLE_MS` without writes. Durability is unchanged: a commit is as durable as before
 * (WAL, synchronous=NORMAL); only who copies the WAL into the database file changes.
 */

import { WorkerPool } from "../common/worker_pool.ts";
import { Logger } from "../common/log.ts";
import type { CheckpointMessage } from "./checkpoint_messages.ts";

/**
 * The writer's automatic checkpoint threshold (WAL bytes) while the worker runs: the safety net.
 * PASSIVE checkpoints cannot restart the WAL while writes keep coming, so under sustained ingest it
 * grows to this size before the writer checkpoints the (few) frames left and restarts it: 32 MiB
 * bounds the disk it takes (128 MiB measured ~3 % faster; SQLite's default, 16 MiB here, ~5 % slower).
 */
export const SAFETY_NET_BYTES = 32 * 1024 * 1024;
/**
 * Pokes for one file closer together than this are held back (the worker throttles anyway); the
 * last one held back is sent when the spacing allows, so the last write of a burst is checkpointed.
 */
const POKE_EVERY_MS = 20;
/** The worker is stopped after this long without writes. */
const IDLE_MS = 10_000;
/**
 * How long a stop or forget waits for the worker to close its connections: normally well under a
 * millisecond, longer only while the worker still loads or finishes a checkpoint (seconds under load).
 */
const STOP_WAIT_MS = 10_000;

const log = new Logger("petrel::storage");

/** A database file the checkpointer looks after, and how to set its writer's own threshold. */
export interface CheckpointTarget {
  path: string;
  /** Sets the writer's own threshold in WAL bytes; null restores SQLite's default (1000 pages). */
  setAutoCheckpoint(bytes: number | null): void;
}

/** Background WAL checkpoints for the database files of one storage. */
export class Checkpointer {
  private readonly pool: WorkerPool<never>;
  private readonly targets = new Map<string, CheckpointTarget>();
  private readonly lastPoke = new Map<string, number>();
  /** Pokes held back by `POKE_EVERY_MS`, sent when it allows. */
  private readonly heldBack = new Map<string, ReturnType<typeof setTimeout>>();

  /** `workerUrl` is for tests (a worker that fails to load). */
  constructor(workerUrl = new URL("./checkpoint_worker.ts", import.meta.url)) {
    this.pool = new WorkerPool({
      name: "checkpoint",
      url: workerUrl,
      runtime: "node",
      maxThreads: 1,
      perThread: 0,
      idleMs: IDLE_MS,
      onStop: () => this.restoreDefaults(),
    });
  }

  /** Notes a committed write to `target`'s file; starts the worker if needed. */
  wrote(target: CheckpointTarget): void {
    if (this.pool.broken || this.heldBack.has(target.path)) return;
    const now = performance.now();
    const since = now - (this.lastPoke.get(target.path) ?? -Infinity);
    if (since < POKE_EVERY_MS) {
      // Dropping it would leave this write in the WAL if no other write follows (the worker's run
      // for the previous poke may already be over): send it once the spacing allows.
      const timer = setTimeout(() => {
        this.heldBack.delete(target.path);
        this.wrote(target);
      }, POKE_EVERY_MS - since);
      Deno.unrefTimer(timer); // a checkpoint is not worth keeping the process alive for
      this.heldBack.set(target.path, timer);
      return;
    }
    if (!this.pool.post({ kind: "poke", path: target.path } satisfies CheckpointMessage)) return;
    this.lastPoke.set(target.path, now);
    if (!this.targets.has(target.path)) {
      this.targets.set(target.path, target);
      target.setAutoCheckpoint(SAFETY_NET_BYTES);
    }
  }

  /** Closes the worker's connection to a file about to be deleted; returns once it is closed. */
  forget(path: string): void {
    this.dropHeldBack(path);
    if (!this.targets.delete(path)) return;
    this.lastPoke.delete(path);
    const done = new Int32Array(new SharedArrayBuffer(4));
    if (this.pool.post({ kind: "forget", path, done } satisfies CheckpointMessage)) {
      awaitRelease(done, "forget");
    }
  }

  /**
   * Stops the worker after it has closed its connections for good (waits at most `STOP_WAIT_MS`):
   * once this returns, the worker neither holds nor opens the files, so they may be reopened or deleted.
   */
  stop(): void {
    for (const path of [...this.heldBack.keys()]) this.dropHeldBack(path);
    this.pool.stop((post) => {
      const done = new Int32Array(new SharedArrayBuffer(4));
      post({ kind: "stop", done } satisfies CheckpointMessage);
      awaitRelease(done, "stop");
    });
  }

  private dropHeldBack(path: string): void {
    clearTimeout(this.heldBack.get(path));
    this.heldBack.delete(path);
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
}

/** Blocks until the worker has released its file(s), at most `STOP_WAIT_MS` (logged when it gives up). */
function awaitRelease(done: Int32Array, what: "stop" | "forget"): void {
  if (Atomics.wait(done, 0, 0, STOP_WAIT_MS) === "timed-out") {
    log.warn("checkpoint worker did not release its files in time", { on: what, waited_ms: STOP_WAIT_MS });
  }
}
