/**
 * `ADMIN flush_table` and `ADMIN compact_table` as GreptimeDB answers them (one UInt64 column named
 * after the statement), on plain, skip_wal and metric-engine tables; `flush_region`/`compact_region` by
 * the region id information_schema shows; and the refusals: a missing table or region, migrate_region
 * (standalone), functions Petrel lacks, wrong arguments.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

async function ok(url: string, sql: string) {
  const r = await sqlRequest(url, sql);
  assert.equal(r.status, 200, `${sql}: ${r.text}`);
  return JSON.parse(r.text).output[0];
}

Deno.test("ADMIN flush_table and compact_table answer as GreptimeDB and leave the data readable", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_admin_" });
  const server = await startTestServer({ storage: { data_home: dir } });
  try {
    await ok(server.url, "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE)");
    await ok(server.url, "CREATE DATABASE other");
    await ok(server.url, "CREATE TABLE other.q (ts TIMESTAMP TIME INDEX, v DOUBLE) WITH (skip_wal='true')");
    await ok(server.url, "INSERT INTO m VALUES (1, 'a', 1.5), (2, 'b', 2.5)");
    await ok(server.url, "INSERT INTO other.q VALUES (1, 7)");
    const flushed = await ok(server.url, "ADMIN flush_table('m')");
    assert.deepEqual(flushed.records.schema.column_schemas, [
      { name: "ADMIN flush_table('m')", data_type: "UInt64" },
    ]);
    assert.deepEqual(flushed.records.rows, [[0]]);
    // flushed: the database file alone (no WAL beside it) holds the rows
    const copy = `${dir}/copy.sqlite`;
    await Deno.copyFile(`${dir}/data/public.sqlite`, copy);
    const db = new DatabaseSync(copy, { readOnly: true });
    try {
      assert.deepEqual({ ...db.prepare(`SELECT count(*) AS n FROM "m"`).get() }, { n: 2 });
    } finally {
      db.close();
    }
    for (const stmt of ["ADMIN flush_table('other.q')", "ADMIN FLUSH_TABLE('greptime.other.q')"]) {
      assert.deepEqual((await ok(server.url, stmt)).records.rows, [[0]]);
    }
    const compacted = await ok(server.url, "ADMIN compact_table('m', 'regular', 'parallelism=2')");
    assert.deepEqual(compacted.records.schema.column_schemas, [
      { name: "ADMIN compact_table('m', 'regular', 'parallelism=2')", data_type: "UInt64" },
    ]);
    for (
      const opts of [
        "'swcs', '3600'",
        "'strict_window', 'window=3600, parallelism=2'",
        "'swcs'",
        "'twcs', ''",
      ]
    ) {
      assert.deepEqual((await ok(server.url, `ADMIN compact_table('m', ${opts})`)).records.rows, [[0]], opts);
    }
    const rows = await ok(server.url, "SELECT host, v FROM m ORDER BY host");
    assert.deepEqual(rows.records.rows, [["a", 1.5], ["b", 2.5]]);
    const q = await ok(server.url, "SELECT v FROM other.q");
    assert.deepEqual(q.records.rows, [[7]]);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ADMIN compact_table on a metric compacts its closed windows; samples read back the same", async () => {
  const server = await startTestServer();
  try {
    const old = Date.now() - 3_600_000;
    const body = Array.from({ length: 50 }, (_, i) => `up,job=j${i % 5} value=${i} ${(old + i * 1000) * 1e6}`)
      .join("\n");
    const write = await fetch(`${server.url}/v1/influxdb/write?db=public`, { method: "POST", body });
    assert.equal(write.status, 204, await write.text());
    const before = await ok(server.url, "SELECT job, count(*), sum(value) FROM up GROUP BY job ORDER BY job");
    await ok(server.url, "ADMIN compact_table('up')");
    const after = await ok(server.url, "SELECT job, count(*), sum(value) FROM up GROUP BY job ORDER BY job");
    assert.deepEqual(after.records.rows, before.records.rows);
  } finally {
    await server.stop();
  }
});

Deno.test("ADMIN flush_region and compact_region take the region ids information_schema shows", async () => {
  const server = await startTestServer();
  try {
    await ok(server.url, "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE)");
    await ok(server.url, "INSERT INTO m VALUES (1, 'a', 1.5)");
    const old = Date.now() - 3_600_000;
    const body = Array.from({ length: 20 }, (_, i) => `up,job=j${i % 2} value=${i} ${(old + i * 1000) * 1e6}`)
      .join("\n");
    const write = await fetch(`${server.url}/v1/influxdb/write?db=public`, { method: "POST", body });
    assert.equal(write.status, 204, await write.text());
    const peers = await ok(
      server.url,
      "SELECT table_name, region_id FROM information_schema.region_peers WHERE table_name IN ('m', 'up')",
    );
    const ids = new Map<string, number>(peers.records.rows);
    assert.equal(ids.size, 2);
    const before = await ok(server.url, "SELECT job, count(*), sum(value) FROM up GROUP BY job ORDER BY job");
    for (const id of ids.values()) {
      for (const fn of ["flush_region", "compact_region"]) {
        const r = await ok(server.url, `ADMIN ${fn}(${id})`);
        assert.deepEqual(r.records.schema.column_schemas, [{
          name: `ADMIN ${fn}(${id})`,
          data_type: "UInt64",
        }]);
        assert.deepEqual(r.records.rows, [[0]]);
      }
    }
    const after = await ok(server.url, "SELECT job, count(*), sum(value) FROM up GROUP BY job ORDER BY job");
    assert.deepEqual(after.records.rows, before.records.rows);
    assert.deepEqual((await ok(server.url, "SELECT v FROM m")).records.rows, [[1.5]]);
  } finally {
    await server.stop();
  }
});

Deno.test("table ids are one sequence over every database, so a region id names one table", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  const tableIds = async () =>
    new Map<string, number>(
      (await ok(
        server.url,
        "SELECT table_schema || '.' || table_name, table_id FROM information_schema.tables " +
          "WHERE table_schema IN ('public', 'd2', 'd3') AND table_id >= 1024 ORDER BY table_id",
      )).records.rows,
    );
  try {
    await ok(server.url, "CREATE TABLE m (ts TIMESTAMP TIME INDEX, v DOUBLE)");
    await ok(server.url, "CREATE DATABASE d2");
    await ok(server.url, "CREATE TABLE d2.t2 (ts TIMESTAMP TIME INDEX, v DOUBLE)");
    await ok(server.url, "CREATE VIEW d2.w AS SELECT 1 AS one");
    await ok(server.url, "CREATE TABLE m2 (ts TIMESTAMP TIME INDEX, v DOUBLE)");
    assert.deepEqual(
      [...await tableIds()],
      [["public.m", 1024], ["d2.t2", 1025], ["d2.w", 1026], ["public.m2", 1027]],
    );
    // each region id (table id << 32) belongs to one table, and ADMIN flush_region finds it
    const regions = await ok(
      server.url,
      "SELECT table_schema, table_name, region_id FROM information_schema.region_peers " +
        "WHERE table_schema IN ('public', 'd2') ORDER BY region_id",
    );
    assert.deepEqual(regions.records.rows, [
      ["public", "m", 1024 * 2 ** 32],
      ["d2", "t2", 1025 * 2 ** 32],
      ["public", "m2", 1027 * 2 ** 32],
    ]);
    const partitions = await ok(
      server.url,
      "SELECT table_schema, table_name, greptime_partition_id FROM information_schema.partitions " +
        "WHERE table_schema = 'd2'",
    );
    assert.deepEqual(partitions.records.rows, [["d2", "t2", 1025 * 2 ** 32]]);
    assert.deepEqual((await ok(server.url, `ADMIN flush_region(${1025 * 2 ** 32})`)).records.rows, [[0]]);
    await server.stop();

    // after a restart the sequence goes on above every id in use, in whichever database it is
    server = await startTestServer({ storage: { data_home: dataHome } });
    await ok(server.url, "CREATE DATABASE d3");
    await ok(server.url, "CREATE TABLE d3.t3 (ts TIMESTAMP TIME INDEX, v DOUBLE)");
    await ok(server.url, "DROP TABLE m2");
    await ok(server.url, "CREATE TABLE d2.t4 (ts TIMESTAMP TIME INDEX, v DOUBLE)");
    assert.deepEqual(
      [...await tableIds()],
      [["public.m", 1024], ["d2.t2", 1025], ["d2.w", 1026], ["d3.t3", 1028], ["d2.t4", 1029]],
    );
  } finally {
    await server.stop();
  }
});

Deno.test("ADMIN refusals: missing table, regions, unknown functions, bad arguments", async () => {
  const server = await startTestServer();
  try {
    const cases: Array<[string, number, RegExp]> = [
      ["ADMIN flush_table('nope')", 4001, /Table not found: greptime\.public\.nope/],
      ["ADMIN flush_table('nodb.t')", 4001, /Table not found: greptime\.nodb\.t/],
      ["ADMIN flush_region(4398046511104)", 4005, /^Region 4398046511104\(1024, 0\) not found$/],
      ["ADMIN compact_region(4398046511105)", 4005, /^Region 4398046511105\(1024, 1\) not found$/],
      ["ADMIN flush_region('4398046511104')", 2000, /a region id argument of flush_region/],
      ["ADMIN flush_region(1.5)", 2000, /a region id argument of flush_region/],
      ["ADMIN flush_region(1, 2)", 2000, /flush_region takes one region id/],
      ["ADMIN migrate_region(1, 1, 2)", 1001, /^Unsupported operation migrate_region$/],
      ["ADMIN procedure_state('x')", 1001, /Unsupported ADMIN function: procedure_state/],
      ["ADMIN flush_table()", 2000, /flush_table takes one string argument/],
      ["ADMIN flush_table(m)", 2000, /a string argument of flush_table/],
      ["ADMIN compact_table('a', 'b', 'c', 'd')", 2000, /one to three string arguments/],
      [
        "ADMIN compact_table('m', 'swcs', 'window=abc')",
        1004,
        /^Invalid function args: Invalid value for window: abc$/,
      ],
      [
        "ADMIN compact_table('m', 'swcs', 'hour')",
        1004,
        /Invalid option format: hour\. Expected format: key=value/,
      ],
      ["ADMIN compact_table('m', 'regular', 'window=3600')", 1004, /Unknown option: window/],
      ["ADMIN compact_table('m', 'regular', 'parallelism=-1')", 1004, /Invalid value for parallelism: -1/],
    ];
    for (const [stmt, code, error] of cases) {
      const r = await sqlRequest(server.url, stmt);
      assert.equal(r.status, 400, `${stmt}: ${r.text}`);
      const body = JSON.parse(r.text);
      assert.equal(body.code, code, `${stmt}: ${r.text}`);
      assert.match(body.error, error);
    }
  } finally {
    await server.stop();
  }
});
