/**
 * Background WAL checkpoints (`src/storage/checkpointer.ts`): after writes, a worker copies the
 * WAL into the database file without the writer running a checkpoint, the writer's own threshold
 * is raised while it does, and close() still leaves a fully checkpointed, truncated WAL.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Checkpointer, SAFETY_NET_BYTES } from "../../src/storage/checkpointer.ts";
import { Storage } from "../../src/storage/mod.ts";
import type { ColumnSchema, Value } from "../../src/common/rows.ts";
import { waitFor } from "../helpers/debian.ts";
import { Worker as NodeWorker } from "node:worker_threads";
import type { CheckpointMessage } from "../../src/storage/checkpoint_messages.ts";

const COLS: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  { name: "v", type: "Float64", semantic: "FIELD" },
];

function rows(from: number, n: number): Value[][] {
  return Array.from({ length: n }, (_, i) => [`host-${(from + i) % 100}`, from + i, i / 3]);
}

const size = (path: string) => {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
};

Deno.test("checkpointer: the WAL reaches the database file without a checkpoint on the writer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_ckpt_" });
  const storage = Storage.open({ dataHome: dir });
  const file = `${dir}/data/public.sqlite`;
  try {
    // ~1 MB of rows: far below the writer's own automatic threshold (1000 pages of 16 KiB).
    for (let k = 0; k < 10; k++) {
      storage.write("public", [{ table: "m", columns: COLS, rows: rows(k * 2000, 2000) }]);
    }
    const before = size(file);
    const conn = storage.database("public").conn;
    // The writer's own threshold is raised to the safety net: 32 MiB of 16 KiB pages.
    assert.equal(conn.prepare("PRAGMA wal_autocheckpoint").get()?.wal_autocheckpoint, 2048);
    const until = Date.now() + 10_000;
    while (size(file) <= before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.ok(size(file) > before, `database file still ${size(file)} bytes: nothing was checkpointed`);
    // Everything reaches the file: a reader of the file alone (WAL ignored) sees all rows. The file
    // starts growing while the checkpoint is still copying pages, so poll a copy until it is whole.
    const copy = `${dir}/copy.sqlite`;
    const rowsInFile = () => {
      Deno.copyFileSync(file, copy);
      const reader = new DatabaseSync(copy, { readOnly: true });
      try {
        return Number(reader.prepare('SELECT count(*) AS n FROM "m"').get()?.n ?? 0);
      } catch {
        return -1; // a copy taken mid-checkpoint may not be a consistent database yet
      } finally {
        reader.close();
      }
    };
    let n = rowsInFile();
    while (n !== 20000 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      n = rowsInFile();
    }
    assert.equal(n, 20000);
  } finally {
    storage.close();
  }
  assert.equal(size(`${file}-wal`), 0, "close() leaves a truncated WAL");
  const reopened = Storage.open({ dataHome: dir });
  try {
    const conn = reopened.database("public").conn;
    assert.equal(conn.prepare('SELECT count(*) AS n FROM "m"').get()?.n, 20000);
    assert.equal(conn.prepare("PRAGMA wal_autocheckpoint").get()?.wal_autocheckpoint, 1000);
  } finally {
    reopened.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpointer: a dropped and recreated database is written and checkpointed afresh", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_ckpt_" });
  const storage = Storage.open({ dataHome: dir });
  try {
    storage.createDatabase("d");
    storage.write("d", [{ table: "m", columns: COLS, rows: rows(0, 2000) }]);
    storage.dropDatabase("d");
    storage.createDatabase("d");
    storage.write("d", [{ table: "m", columns: COLS, rows: rows(0, 500) }]);
    const file = `${dir}/data/d.sqlite`;
    const before = size(file);
    const until = Date.now() + 10_000;
    while (size(file) <= before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.ok(size(file) > before, "the new database's WAL was not checkpointed");
    assert.equal(storage.database("d").conn.prepare('SELECT count(*) AS n FROM "m"').get()?.n, 500);
  } finally {
    storage.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpointer: a worker that cannot load leaves checkpoints with the writer", async () => {
  const thresholds: (number | null)[] = [];
  const checkpointer = new Checkpointer(new URL("./no_such_checkpoint_worker.ts", import.meta.url));
  const target = {
    path: "/nonexistent/db.sqlite",
    setAutoCheckpoint: (b: number | null) => thresholds.push(b),
  };
  try {
    checkpointer.wrote(target);
    const until = Date.now() + 10_000;
    while (!thresholds.includes(null) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    // Raised while the worker was expected, then back to SQLite's default once it failed…
    assert.deepEqual(thresholds, [SAFETY_NET_BYTES, null]);
    // …and no further attempt is made.
    await new Promise((r) => setTimeout(r, 30));
    checkpointer.wrote(target);
    assert.deepEqual(thresholds, [SAFETY_NET_BYTES, null]);
  } finally {
    checkpointer.stop();
  }
});

Deno.test("checkpointer: after a stop (idle or close) the next write starts a worker again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_ckpt_" });
  const path = `${dir}/x.sqlite`;
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t(x)");
  const thresholds: (number | null)[] = [];
  const checkpointer = new Checkpointer();
  const target = { path, setAutoCheckpoint: (b: number | null) => thresholds.push(b) };
  const writeAndWaitForCheckpoint = async () => {
    const before = size(path);
    db.exec("BEGIN");
    const insert = db.prepare("INSERT INTO t VALUES (randomblob(200))");
    for (let i = 0; i < 2000; i++) insert.run();
    db.exec("COMMIT");
    checkpointer.wrote(target);
    const until = Date.now() + 10_000;
    while (size(path) <= before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return size(path) > before;
  };
  try {
    assert.ok(await writeAndWaitForCheckpoint(), "first write not checkpointed");
    checkpointer.stop();
    // Whatever the stopped worker does as it ends must not count as a failure of the checkpointer.
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(await writeAndWaitForCheckpoint(), "write after a stop not checkpointed");
    assert.deepEqual(thresholds, [SAFETY_NET_BYTES, null, SAFETY_NET_BYTES]);
  } finally {
    checkpointer.stop();
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Rows of table `t` in the database file alone (its WAL ignored), read from a copy. */
function rowsInFile(path: string): number {
  const copy = `${path}.copy`;
  Deno.copyFileSync(path, copy);
  const reader = new DatabaseSync(copy, { readOnly: true });
  try {
    return Number(reader.prepare("SELECT count(*) AS n FROM t").get()?.n ?? 0);
  } catch {
    return -1; // a copy taken mid-checkpoint may not be a consistent database yet
  } finally {
    reader.close();
    Deno.removeSync(copy);
  }
}

Deno.test("checkpointer: the last write of a burst reaches the file, though it came right after a poke", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_ckpt_" });
  const path = `${dir}/x.sqlite`;
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t(x)");
  const checkpointer = new Checkpointer();
  const target = { path, setAutoCheckpoint: () => {} };
  const insert = db.prepare("INSERT INTO t VALUES (randomblob(100))");
  let written = 0;
  try {
    // Writes every few ms: pokes closer than the checkpointer's spacing are held back, and the
    // worker's throttled runs fall between writes, so the burst's last rows come after its last run.
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 30; i++) {
        insert.run();
        written++;
        checkpointer.wrote(target);
        await new Promise((r) => setTimeout(r, 3));
      }
      const whole = await waitFor(() => Promise.resolve(rowsInFile(path) === written || null), 10_000, 20);
      assert.ok(whole, `burst ${burst}: ${rowsInFile(path)} of ${written} rows reached the database file`);
    }
  } finally {
    checkpointer.stop();
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpointer: a stopped worker never opens a file again, though a checkpoint was due", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_ckpt_" });
  // The worker module itself, left running after its stop reply: Storage.close() terminates it only
  // then, and under load the thread may run on a while (its throttled checkpoint fired, reopening
  // the files of a storage being reopened or a directory being removed).
  const worker = new NodeWorker(new URL("../../src/storage/checkpoint_worker.ts", import.meta.url));
  const path = `${dir}/due.sqlite`;
  try {
    const done = new Int32Array(new SharedArrayBuffer(4));
    worker.postMessage({ kind: "poke", path } satisfies CheckpointMessage);
    worker.postMessage({ kind: "stop", done } satisfies CheckpointMessage);
    assert.equal(Atomics.wait(done, 0, 0, 10_000), "ok", "the worker answered the stop");
    worker.postMessage({ kind: "poke", path } satisfies CheckpointMessage);
    // Past the worker's 50 ms throttle: a checkpoint it still ran would have created the file.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(size(path), 0);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing created in the directory");
  } finally {
    await worker.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpointer: the worker never recreates a forgotten or deleted database file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_ckpt_" });
  const worker = new NodeWorker(new URL("../../src/storage/checkpoint_worker.ts", import.meta.url));
  const kept = `${dir}/kept.sqlite`, dropped = `${dir}/dropped.sqlite`, missing = `${dir}/missing.sqlite`;
  try {
    for (const path of [kept, dropped]) {
      const db = new DatabaseSync(path);
      db.exec("PRAGMA journal_mode=WAL; CREATE TABLE t(x)");
      db.close();
    }
    for (const path of [kept, dropped, missing]) {
      worker.postMessage({ kind: "poke", path } satisfies CheckpointMessage);
    }
    // DROP DATABASE: forget answers once the connection is closed; the files go right after.
    const done = new Int32Array(new SharedArrayBuffer(4));
    worker.postMessage({ kind: "forget", path: dropped, done } satisfies CheckpointMessage);
    assert.equal(Atomics.wait(done, 0, 0, 10_000), "ok", "the worker answered the forget");
    Deno.removeSync(dropped);
    await waitFor(() => Promise.resolve(Deno.statSync(`${kept}-wal`).isFile || null), 10_000, 20);
    await new Promise((r) => setTimeout(r, 200)); // past the worker's 50 ms throttle, once more
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => !n.startsWith("kept")),
      [],
      "neither the dropped nor the missing file was created",
    );
  } finally {
    await worker.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});
