/**
 * Worker entry for background WAL checkpoints (see `checkpointer.ts`): keeps one connection per
 * database file it is poked about and runs `wal_checkpoint(PASSIVE)` on it, at most every
 * `THROTTLE_MS`. PASSIVE never waits for and never blocks the writer or readers.
 */
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
    conns.get(m.path)?.close();
    conns.delete(m.path);
  } else {
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
    dirty.clear();
    closeAll();
    // Tell the waiting owner the files are released for good; it terminates this thread then.
    Atomics.store(m.done, 0, 1);
    Atomics.notify(m.done, 0);
  }
});
