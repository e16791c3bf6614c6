/**
 * Writes right after a schema change use statements of the changed table, not stale ones cached
 * before it: line protocol writes (the writer's cached multi-row INSERTs) around ALTER TABLE ADD
 * COLUMN, DROP + re-CREATE with another key, RENAME, TRUNCATE and a dropped and re-created
 * database, read back through SQL.
 */
import assert from "node:assert/strict";
import { post, sqlExec, sqlRows, withServer } from "./util.ts";
import type { TestServer } from "../helpers/server.ts";

const T = 1_700_000_000_000;

async function write(s: TestServer, lines: string, db = "public"): Promise<void> {
  const r = await post(`${s.url}/v1/influxdb/write?db=${db}&precision=ms`, lines);
  assert.equal(r.status, 204, r.text);
}

Deno.test("writes after a schema change: add column, drop + re-create, rename, truncate, database drop", async () => {
  await withServer(async (s) => {
    // ALTER TABLE ADD COLUMN: the same write shape before and after, then one naming the new column
    await write(s, `t,host=a v=1 ${T}`);
    await sqlExec(s.url, "ALTER TABLE t ADD COLUMN note STRING");
    await write(s, `t,host=b v=2 ${T}\nt,host=c v=3,note="x" ${T}`);
    assert.deepEqual(await sqlRows(s.url, "SELECT host, v, note FROM t ORDER BY host"), [
      ["a", 1, null],
      ["b", 2, null],
      ["c", 3, "x"],
    ]);

    // DROP + re-CREATE under another key (ts alone), in the other file (skip_wal): a write of the
    // same shape goes to the new table and keeps the new key's rows
    await sqlExec(s.url, "DROP TABLE t");
    await sqlExec(
      s.url,
      "CREATE TABLE t (host STRING, v DOUBLE, greptime_timestamp TIMESTAMP(3) TIME INDEX) WITH (skip_wal='true')",
    );
    await write(s, `t,host=a v=1 ${T}`);
    await write(s, `t,host=b v=2 ${T}`);
    assert.deepEqual(await sqlRows(s.url, "SELECT host, v FROM t"), [["b", 2]]);

    // RENAME: writes to the new name land there; the old name is a new table
    await write(s, `r,host=a v=1 ${T}`);
    await sqlExec(s.url, "ALTER TABLE r RENAME r2");
    await write(s, `r2,host=b v=2 ${T}`);
    await write(s, `r,host=c v=3 ${T}`);
    assert.deepEqual(await sqlRows(s.url, "SELECT host, v FROM r2 ORDER BY host"), [["a", 1], ["b", 2]]);
    assert.deepEqual(await sqlRows(s.url, "SELECT host, v FROM r"), [["c", 3]]);

    // TRUNCATE: the next write is the only row
    await sqlExec(s.url, "TRUNCATE TABLE r2");
    await write(s, `r2,host=d v=4 ${T}`);
    assert.deepEqual(await sqlRows(s.url, "SELECT host, v FROM r2"), [["d", 4]]);

    // a dropped database: its re-created table of the same name has another key
    await sqlExec(s.url, "CREATE DATABASE d");
    await write(s, `x,host=a v=1 ${T}`, "d");
    await sqlExec(s.url, "DROP DATABASE d");
    await sqlExec(s.url, "CREATE DATABASE d");
    await sqlExec(
      s.url,
      "CREATE TABLE x (host STRING, v DOUBLE, greptime_timestamp TIMESTAMP(3) TIME INDEX)",
      "d",
    );
    await write(s, `x,host=a v=1 ${T}\nx,host=b v=2 ${T}`, "d");
    assert.deepEqual(await sqlRows(s.url, "SELECT host, v FROM x", "d"), [["b", 2]]);
  });
});

Deno.test("/metrics counts the statements prepared, by kind: a schema change elsewhere prepares none", async () => {
  await withServer(async (s) => {
    const inserts = async () => {
      const m = await (await fetch(`${s.url}/metrics`)).text();
      return Number(/^petrel_statement_prepares_total\{kind="insert"\} (\S+)/m.exec(m)?.[1] ?? NaN);
    };
    await write(s, `a,host=h v=1 ${T}`);
    await write(s, `b,host=h v=1 ${T}`);
    const before = await inserts();
    assert.ok(before >= 2, `insert prepares: ${before}`);
    await sqlExec(s.url, "ALTER TABLE b ADD COLUMN more STRING");
    await write(s, `a,host=h v=2 ${T + 1}`);
    assert.equal(await inserts(), before);
  });
});

Deno.test("/metrics statement prepares never go back: a dropped database's count stays in the total", async () => {
  await withServer(async (s) => {
    const inserts = async () => {
      const m = await (await fetch(`${s.url}/metrics`)).text();
      return Number(/^petrel_statement_prepares_total\{kind="insert"\} (\S+)/m.exec(m)?.[1] ?? NaN);
    };
    await sqlExec(s.url, "CREATE DATABASE gone");
    await write(s, `a,host=h v=1 ${T}`, "gone");
    const before = await inserts();
    assert.ok(before >= 1, `insert prepares: ${before}`);
    await sqlExec(s.url, "DROP DATABASE gone");
    assert.equal(await inserts(), before);
  });
});
