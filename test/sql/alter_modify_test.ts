/**
 * `ALTER TABLE t MODIFY COLUMN c <type>`: stored values converted as TRY_CAST would (NULL where they
 * do not convert), the new type in results, DESC, SHOW CREATE TABLE and information_schema, kept
 * across a restart, and the refusals (tags, the time index, NOT NULL columns, unknown columns).
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { checkCase, type SqlCase, sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";

Deno.test("ALTER TABLE MODIFY COLUMN changes a field's type, converting its values", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_alter_modify_" });
  let server = await startTestServer({ storage: { data_home: dir } });
  try {
    await sqlOk(
      server.url,
      "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v STRING, n DOUBLE, k INT NOT NULL DEFAULT 0)",
    );
    await sqlOk(
      server.url,
      "INSERT INTO m VALUES (1, 'a', '42', 3.7, 1), (2, 'b', 'x', -2.5, 2), (3, 'c', NULL, NULL, 3)",
    );
    // a query before the change: the reading connection learns of the new schema when it runs again
    assert.deepEqual(await sqlRows(server.url, "SELECT v FROM m ORDER BY ts"), [["42"], ["x"], [null]]);
    await sqlOk(server.url, "ALTER TABLE m MODIFY COLUMN v INT");
    await sqlOk(server.url, "ALTER TABLE m MODIFY COLUMN n BIGINT");
    const cases: SqlCase[] = [
      {
        sql: "SELECT v FROM m ORDER BY ts",
        schema: [["v", "Int32"]],
        rows: [[42], [null], [null]],
      },
      {
        sql: "SELECT * FROM m ORDER BY ts",
        schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["v", "Int32"], ["n", "Int64"], [
          "k",
          "Int32",
        ]],
        rows: [[1, "a", 42, 3, 1], [2, "b", null, -2, 2], [3, "c", null, null, 3]],
      },
      {
        sql:
          "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'm' AND column_name IN ('v', 'n') ORDER BY column_name",
        rows: [["n", "bigint"], ["v", "int"]],
      },
      {
        sql: "ALTER TABLE m MODIFY COLUMN host INT",
        error: { status: 400, code: 1004, message: "cannot modify column host: it is a tag" },
      },
      {
        sql: "ALTER TABLE m MODIFY COLUMN ts BIGINT",
        error: { status: 400, code: 1004, message: "cannot modify column ts: it is the time index" },
      },
      {
        sql: "ALTER TABLE m MODIFY COLUMN k BIGINT",
        error: { status: 400, code: 1004, message: "cannot modify column k: it is not nullable" },
      },
      {
        sql: "ALTER TABLE m MODIFY COLUMN nope INT",
        error: { status: 400, code: 4002, message: "Column nope not exists in table m" },
      },
      {
        sql: "ALTER TABLE m MODIFY COLUMN v WIDGET",
        error: { status: 400, code: 2000, message: "Unsupported data type: WIDGET" },
      },
      // the write path takes the new type at once
      { sql: "INSERT INTO m (ts, host, v, n) VALUES (4, 'd', 7, 8)", affected: [1] },
    ];
    for (const c of cases) await checkCase(server.url, c);

    await sqlOk(
      server.url,
      "CREATE TABLE a (ts TIMESTAMP TIME INDEX, s STRING, f DOUBLE, t TIMESTAMP(3) NULL, d DECIMAL(10,2), b BOOLEAN) WITH (append_mode = 'true')",
    );
    await sqlOk(
      server.url,
      "INSERT INTO a VALUES (1, '2024-01-02 03:04:05', 1.5, 86400000, 12.34, true), (2, 'nope', 2.5, 1, -1.5, false)",
    );
    for (
      const alter of [
        "s TIMESTAMP(3)",
        "f STRING",
        "t TIMESTAMP(0)",
        "d INT",
        "b STRING",
      ]
    ) await sqlOk(server.url, `ALTER TABLE a MODIFY COLUMN ${alter}`);
    await server.stop();
    server = await startTestServer({ storage: { data_home: dir } });
    const after: SqlCase[] = [
      {
        sql: "SELECT * FROM a ORDER BY ts",
        schema: [
          ["ts", "TimestampMillisecond"],
          ["s", "TimestampMillisecond"],
          ["f", "String"],
          ["t", "TimestampSecond"],
          ["d", "Int32"],
          ["b", "String"],
        ],
        rows: [[1, 1704164645000, "1.5", 86400, 12, "true"], [2, null, "2.5", 0, -1, "false"]],
      },
      {
        sql: "DESC m",
        rows: [
          ["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"],
          ["host", "String", "PRI", "YES", "", "TAG"],
          ["v", "Int32", "", "YES", "", "FIELD"],
          ["n", "Int64", "", "YES", "", "FIELD"],
          ["k", "Int32", "", "NO", "0", "FIELD"],
        ],
      },
      { sql: "SELECT v, n FROM m WHERE host = 'd'", rows: [[7, 8]] },
    ];
    for (const c of after) await checkCase(server.url, c);
    const show = await sqlRows(server.url, "SHOW CREATE TABLE a");
    assert.match(
      String(show[0][1]),
      /"s" TIMESTAMP\(3\) NULL,\n {2}"f" STRING NULL,\n {2}"t" TIMESTAMP\(0\) NULL,\n {2}"d" INT NULL,/,
    );
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ALTER TABLE MODIFY COLUMN and RENAME refuse metric engine tables", async () => {
  const server = await startTestServer();
  try {
    await sqlOk(
      server.url,
      "CREATE TABLE phy (ts TIMESTAMP TIME INDEX, val DOUBLE) ENGINE = metric WITH ('physical_metric_table' = 'true')",
    );
    await checkCase(server.url, {
      sql: "ALTER TABLE phy MODIFY COLUMN val STRING",
      error: { status: 400, message: "only SET/UNSET options are supported on metric engine tables" },
    });
    await checkCase(server.url, {
      sql: "ALTER TABLE phy RENAME phy2",
      error: { status: 400, message: "Cannot rename phy: it is a metric engine table" },
    });
  } finally {
    await server.stop();
  }
});

Deno.test("ALTER TABLE RENAME gives a table a new name, kept across a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_alter_rename_" });
  let server = await startTestServer({ storage: { data_home: dir } });
  try {
    await sqlOk(server.url, "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE)");
    await sqlOk(server.url, "INSERT INTO m VALUES (1, 'a', 1.5)");
    await sqlOk(server.url, "CREATE TABLE a (ts TIMESTAMP TIME INDEX, v DOUBLE) WITH (append_mode = 'true')");
    await sqlOk(server.url, "INSERT INTO a VALUES (5, 2)");
    await sqlOk(
      server.url,
      "CREATE TABLE tr (timestamp TIMESTAMP(9) TIME INDEX, trace_id STRING, span_id STRING) " +
        "WITH (table_data_model = 'greptime_trace_v1', append_mode = 'true')",
    );
    await sqlOk(server.url, "INSERT INTO tr VALUES (1, 'abc', 's1')");
    await sqlOk(
      server.url,
      "CREATE TABLE cpu (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, usage DOUBLE)",
    );
    await sqlOk(
      server.url,
      "CREATE FLOW cpu_5m SINK TO cpu_usage_5m AS SELECT host, avg(usage) AS avg_usage, " +
        "date_bin(INTERVAL '5 minutes', ts) AS time_window FROM cpu GROUP BY host, time_window",
    );
    const cases: SqlCase[] = [
      { sql: "ALTER TABLE m RENAME m2", affected: [0] },
      { sql: "ALTER TABLE a RENAME TO a2", affected: [0] },
      { sql: "ALTER TABLE tr RENAME TO spans", affected: [0] },
      {
        sql: "SELECT * FROM m",
        error: { status: 400, code: 4001, message: "Table not found: greptime.public.m" },
      },
      { sql: "INSERT INTO a2 VALUES (6, 3)", affected: [1] },
      {
        sql: "ALTER TABLE a2 RENAME m2",
        error: { status: 400, code: 4000, message: "Table already exists: `greptime.public.m2`" },
      },
      {
        sql: "ALTER TABLE cpu RENAME cpu2",
        error: { status: 400, code: 1004, message: "Cannot rename cpu: flow cpu_5m#1024 reads it" },
      },
      { sql: "ALTER TABLE nope RENAME x", error: { status: 400, code: 4001 } },
      {
        sql: "ALTER TABLE a2 RENAME __petrel_x",
        error: { status: 400, code: 1004, message: "Invalid table name" },
      },
    ];
    for (const c of cases) await checkCase(server.url, c);
    await server.stop();
    server = await startTestServer({ storage: { data_home: dir } });
    const after: SqlCase[] = [
      { sql: "SELECT * FROM m2", rows: [[1, "a", 1.5]] },
      { sql: "SELECT * FROM a2 ORDER BY ts", rows: [[5, 2], [6, 3]] },
      { sql: "SELECT trace_id FROM spans", rows: [["abc"]] },
      // by its trace map and log, renamed with it
      { sql: "SELECT span_id FROM spans WHERE trace_id = 'abc'", rows: [["s1"]] },
      // cpu_usage_5m: the flow's sink, made by CREATE FLOW
      { sql: "SHOW TABLES", rows: [["a2"], ["cpu"], ["cpu_usage_5m"], ["m2"], ["numbers"], ["spans"]] },
      { sql: "SELECT * FROM a", error: { status: 400, code: 4001 } },
      // the old names are free again
      { sql: "CREATE TABLE m (ts TIMESTAMP TIME INDEX, w STRING)", affected: [0] },
      { sql: "INSERT INTO a2 VALUES (7, 4)", affected: [1] },
      { sql: "SELECT count(*) FROM a2", rows: [[3]] },
    ];
    for (const c of after) await checkCase(server.url, c);
    const show = await sqlRows(server.url, "SHOW CREATE TABLE a2");
    assert.match(String(show[0][1]), /^CREATE TABLE IF NOT EXISTS "a2"/);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
