import { httpStatusOf } from "../../src/http/render_error.ts";
/** Queries in a worker: same answers as on the main thread, and a runaway query is cancellable. */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { executeSqlAsync, stopQueryWorkers } from "../../src/sql/async.ts";

const SETUP =
  "CREATE TABLE m (host STRING PRIMARY KEY, ts TIMESTAMP(9) TIME INDEX, v DOUBLE) WITH (ttl='forever'); " +
  "INSERT INTO m VALUES ('a', '2024-01-01T00:00:00.000000001Z', 1.5), (NULL, 2, 2.5); " +
  "CREATE TABLE f (ts TIMESTAMP TIME INDEX, v DOUBLE) WITH (skip_wal='true'); INSERT INTO f VALUES (1, 1)";

Deno.test("async queries answer exactly as executeSql, including errors with positions", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-async-" });
  const s = Storage.open({ dataHome: dir });
  try {
    executeSql(s, SETUP, { db: "public" });
    const queries = [
      "SELECT * FROM m ORDER BY ts",
      "SELECT host, count(*), date_bin(INTERVAL '1 hour', ts) AS b FROM m GROUP BY host, b ORDER BY host",
      "SELECT * FROM f",
      "SHOW TABLES; SELECT count(*) FROM information_schema.tables",
      "USE public; SELECT 1 + 1",
    ];
    for (const q of queries) {
      assert.deepEqual(await executeSqlAsync(s, q, { db: "public" }), executeSql(s, q, { db: "public" }), q);
    }
    for (
      const q of ["SELECT * FROM nope", "SELECT * FROM m WHERE", "SELECT 1/0", "SELECT nofunc(v) FROM m"]
    ) {
      let sync: unknown, async: unknown;
      try {
        executeSql(s, q, { db: "public" });
      } catch (e) {
        sync = e;
      }
      try {
        await executeSqlAsync(s, q, { db: "public" });
      } catch (e) {
        async = e;
      }
      assert.ok(async instanceof PetrelError && sync instanceof PetrelError, q);
      assert.deepEqual([async.code, async.message], [sync.code, sync.message], q);
    }
  } finally {
    stopQueryWorkers();
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a runaway query does not block the event loop and is cancelled by its signal", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-async-" });
  const s = Storage.open({ dataHome: dir });
  try {
    executeSql(s, SETUP, { db: "public" });
    const runaway = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
    const signal = AbortSignal.timeout(300);
    const started = Date.now();
    const query = executeSqlAsync(s, runaway, { db: "public" }, { signal });
    // a query blocking this thread would settle before a timer shorter than its timeout could fire
    // (counting interval ticks instead measured the machine's load: a starved process misses ticks)
    const first = await Promise.race([
      query.then(() => "query", () => "query"),
      new Promise((resolve) => setTimeout(() => resolve("timer"), 50)),
    ]);
    assert.equal(first, "timer", "the event loop kept running while the query ran");
    await assert.rejects(query, (e: PetrelError) => httpStatusOf(e) === 408);
    assert.ok(Date.now() - started < 3000);
    // the next query gets a fresh worker
    const [out] = await executeSqlAsync(s, "SELECT count(*) FROM m", { db: "public" });
    assert.deepEqual(out.kind === "records" ? out.rows : [], [[2]]);
  } finally {
    stopQueryWorkers();
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a database dropped and created again is read from its new files", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-async-" });
  const s = Storage.open({ dataHome: dir });
  try {
    executeSql(
      s,
      "CREATE DATABASE d; CREATE TABLE d.t (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO d.t VALUES (1, 1)",
      {
        db: "public",
      },
    );
    assert.equal((await executeSqlAsync(s, "SELECT count(*) FROM t", { db: "d" }))[0].kind, "records");
    executeSql(
      s,
      "DROP DATABASE d; CREATE DATABASE d; CREATE TABLE d.t (ts TIMESTAMP TIME INDEX, v DOUBLE)",
      { db: "public" },
    );
    const [out] = await executeSqlAsync(s, "SELECT count(*) FROM t", { db: "d" });
    assert.deepEqual(out.kind === "records" ? out.rows : [], [[0]]);
  } finally {
    stopQueryWorkers();
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
