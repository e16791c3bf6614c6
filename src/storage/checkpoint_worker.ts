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
let scheduled = false;

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
  scheduled = false;
  const paths = [...dirty];
  dirty.clear();
  for (const p of paths) checkpoint(p);
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
  if (m.kind === "poke") {
    dirty.add(m.path);
    if (!scheduled) {
      scheduled = true;
      setTimeout(run, THROTTLE_MS);
    }
  } else if (m.kind === "forget") {
    dirty.delete(m.path);
    conns.get(m.path)?.close();
    conns.delete(m.path);
  } else {
    closeAll();
    // Tell the waiting owner the files are released; it terminates this thread then.
    Atomics.store(m.done, 0, 1);
    Atomics.notify(m.done, 0);
  }
});
