/**
 * Worker entry for background WAL checkpoints (see `checkpointer.ts`): keeps one connection per
 * database file it is poked about and runs `wal_checkpoint(PASSIVE)` on it, at most every
 * `THROTTLE_MS`. PASSIVE never waits for and never blocks the writer or readers.
 */
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { parentPort } from "node:worker_threads";
import type { CheckpointMessage } from "./checkpoint_messages.ts";

const THROTTLE_MS = 50;
const conns = new Map<string, DatabaseSync>();
const dirty = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;
/**
 * Set by `stop`: the owner is closing or deleting the files and only terminates this thread after
 * our reply, so nothing may open them again (a throttled run still due would have reopened them,
 * recreating `-wal`/`-shm` files in a directory being removed, or locking a file being reopened).
 */
let stopped = false;

function checkpoint(path: string): void {
  let conn = conns.get(path);
  try {
    if (conn === undefined) {
      // Opening creates a missing file: a dropped database must not come back empty.
      if (!existsSync(path)) return;
      conn = new DatabaseSync(path);
      conns.set(path, conn);
    }
    conn.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // busy (the writer's own safety-net checkpoint) or gone (a dropped database): the next poke retries
  }
}

function run(): void {
  timer = undefined;
  const paths = [...dirty];
  dirty.clear();
  for (const p of paths) if (!stopped) checkpoint(p);
}

function closeAll(): void {
  for (const c of conns.values()) {
    try {
      c.close();
    } catch { /* already closed */ }
  }
  conns.clear();
}

parentPort?.on("message", (m: CheckpointMessage) => {
  if (stopped) return;
  if (m.kind === "poke") {
    dirty.add(m.path);
    timer ??= setTimeout(run, THROTTLE_MS);
  } else if (m.kind === "forget") {
    dirty.delete(m.path);
    try {
      conns.get(m.path)?.close();
    } catch { /* already closed */ }
    conns.delete(m.path);
    released(m.done); // the owner deletes the file now
  } else {
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
    dirty.clear();
    closeAll();
    released(m.done); // the owner terminates this thread now
  }
});

/** Tells the owner waiting on `done` that the file(s) are released for good. */
function released(done: Int32Array): void {
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}
