/**
 * `/v1/sql` errors: the GreptimeDB codes and messages of the specified failures, and a list of hostile or
 * broken inputs none of which may produce a 5xx.
 */
import assert from "node:assert/strict";
import { spawnServer, startTestServer } from "../helpers/server.ts";
import { checkCase, runCases, type SqlCase, sqlRequest, sqlRows } from "./fixtures/sql_client.ts";

const SPECIFIED: SqlCase[] = [
  { name: "empty sql", sql: "", error: { code: 1004, message: "sql parameter is required." } },
  { name: "blank sql", sql: "  \n ", error: { code: 1004, message: "sql parameter is required." } },
  {
    name: "empty sql in a form",
    sql: "",
    via: "form",
    error: { code: 1004, message: "sql parameter is required." },
  },
  {
    name: "unknown database",
    sql: "SELECT 1",
    db: "nope",
    error: { code: 4004, message: "Database not found: nope" },
  },
  {
    name: "unknown table",
    sql: "SELECT * FROM nope",
    error: { code: 4001, message: "Table not found: greptime.public.nope" },
  },
  { sql: "DESC TABLE nope", error: { code: 4001 } },
  { sql: "SHOW CREATE TABLE nope", error: { code: 4001 } },
  { sql: "DROP TABLE nope", error: { code: 4001 } },
  { sql: "TRUNCATE TABLE nope", error: { code: 4001 } },
  { sql: "ALTER TABLE nope ADD COLUMN x BIGINT", error: { code: 4001 } },
  { sql: "INSERT INTO nope VALUES (1)", error: { code: 4001 } },
  { sql: "DELETE FROM nope WHERE ts = 0", error: { code: 4001 } },
  { sql: "DROP DATABASE nope", error: { code: 4004 } },
  {
    name: "syntax error names its position",
    sql: "SELEC 1",
    error: { code: 2000, message: /^Invalid SQL syntax: sql parser error: .*SELEC.* at Line: 1, Column: 1/ },
  },
  {
    name: "syntax error further in",
    sql: "SELECT 1,\n  FROM t WHERE",
    error: { code: 2000, message: /Line: 2, Column: \d+/ },
  },
  { name: "unknown column", sql: "SELECT nope FROM t", error: { code: 3000, message: "nope" } },
  { name: "unknown function", sql: "SELECT no_such_fn(1)", error: { code: 3000, message: "no_such_fn" } },
  { name: "no time index", sql: "CREATE TABLE x (a STRING)", error: { code: 1004 } },
  {
    name: "bad ttl",
    sql: "CREATE TABLE x (ts TIMESTAMP TIME INDEX) WITH(ttl='soon')",
    error: { code: 1004 },
  },
  {
    name: "bad append_mode",
    sql: "CREATE TABLE x (ts TIMESTAMP TIME INDEX) WITH(append_mode='maybe')",
    error: { code: 1004 },
  },
  {
    name: "unknown table option",
    sql: "CREATE TABLE x (ts TIMESTAMP TIME INDEX) WITH(colour='blue')",
    error: { code: 1004, message: "colour" },
  },
  {
    name: "two time indexes",
    sql: "CREATE TABLE two_ti (ts TIMESTAMP TIME INDEX, t2 TIMESTAMP TIME INDEX)",
    error: { code: 2000 },
  },
  {
    name: "a string time index",
    sql: "CREATE TABLE str_ti (ts STRING TIME INDEX)",
    error: {},
  },
  {
    name: "an unparsable timestamp literal in a filter",
    sql: "SELECT * FROM t WHERE ts = 'not a time'",
    error: {},
  },
  {
    name: "placeholders are not values",
    sql: "SELECT $1, ?, :a, @x",
    error: {},
  },
  {
    name: "division by zero",
    sql: "SELECT 1/0",
    error: {},
  },
  {
    name: "a negative LIMIT",
    sql: "SELECT * FROM t LIMIT -1",
    error: {},
  },
  {
    name: "arithmetic on a non-numeric string",
    sql: "SELECT 'a' + 1",
    error: {},
  },
  { name: "abs of a string", sql: "SELECT abs('x')", error: {} },
  {
    name: "sum of a string column",
    sql: "SELECT sum(host) FROM t",
    error: {},
  },
  {
    name: "date_bin with a bad stride",
    sql: "SELECT date_bin('nonsense', ts) FROM t",
    error: {},
  },
  {
    name: "an impossible date in a filter",
    sql: "SELECT * FROM t WHERE ts > '2024-13-45 25:61:61'",
    error: {},
  },
  {
    name: "unknown timezone header",
    sql: "SELECT 1",
    headers: { "x-greptime-timezone": "Mars/Olympus" },
    error: { code: 1004 },
  },
  {
    name: "a timezone header offset of a day or more",
    sql: "SELECT '2024-01-01 00:00:00'::timestamp",
    headers: { "x-greptime-timezone": "+25:00" },
    error: { code: 1004, message: "Invalid timezone: +25:00" },
  },
];

/** Inputs that must be answered with a 2xx or a 4xx GreptimeDB error, never a 5xx. */
const HOSTILE: string[] = [
  "SELECT",
  "SELECT * FROM",
  "'",
  '"',
  "`",
  "(",
  ")",
  ";",
  " ; ; ",
  "-- only a comment",
  "/* unclosed comment",
  "SELECT 'unclosed",
  'SELECT "unclosed',
  "SELECT 1/0",
  "SELECT 1 % 0",
  "SELECT 'a' + 1",
  "SELECT abs('x')",
  "SELECT 9223372036854775808",
  "SELECT -9223372036854775809",
  "SELECT 1e400",
  "SELECT x'zz'",
  "SELECT $1",
  "SELECT ?",
  "SELECT :a",
  "SELECT @x",
  "SELECT '\\'",
  "SELECT '\u0000'",
  "SELECT * FROM t WHERE ts = 'not a time'",
  "SELECT * FROM t WHERE ts > '2024-13-45 25:61:61'",
  "SELECT date_bin('nonsense', ts) FROM t",
  "SELECT date_bin(INTERVAL '0 seconds', ts) FROM t",
  "SELECT date_trunc('fortnight', ts) FROM t",
  "SELECT arrow_cast(1, 'NoSuchType')",
  "SELECT 'yesterday'::timestamp",
  "SELECT ts + INTERVAL 'a while' FROM t",
  "SELECT count(*) FROM t GROUP BY nope",
  "SELECT * FROM t ORDER BY 99",
  "SELECT * FROM t LIMIT -1",
  "SELECT * FROM t LIMIT 'x'",
  "INSERT INTO t VALUES",
  "INSERT INTO t VALUES ()",
  "INSERT INTO t VALUES ('a')",
  "INSERT INTO t VALUES ('a', 1, 2, 3, 4)",
  "INSERT INTO t VALUES ('a', 1, 99999999999999999999999)",
  "INSERT INTO t VALUES ('a', 1, 'not a time')",
  "INSERT INTO t VALUES ('a', 1, NULL)",
  "INSERT INTO t (ts, ts) VALUES (1, 2)",
  "INSERT INTO t SELECT * FROM nope",
  "DELETE FROM t WHERE nope = 1",
  "CREATE TABLE",
  "CREATE TABLE y1 (",
  "CREATE TABLE y2 (ts TIMESTAMP TIME INDEX, ts TIMESTAMP)",
  "CREATE TABLE y3 (ts TIMESTAMP TIME INDEX, t2 TIMESTAMP TIME INDEX)",
  "CREATE TABLE y4 (ts STRING TIME INDEX)",
  "CREATE TABLE y5 (ts TIMESTAMP TIME INDEX, v NOSUCHTYPE)",
  "CREATE TABLE y6 (ts TIMESTAMP TIME INDEX, PRIMARY KEY(nope))",
  "CREATE TABLE y7 (ts TIMESTAMP(7) TIME INDEX)",
  "CREATE TABLE y8 (ts TIMESTAMP TIME INDEX) ENGINE=nosuch",
  'CREATE TABLE "" (ts TIMESTAMP TIME INDEX)',
  "CREATE DATABASE",
  'CREATE DATABASE ""',
  "ALTER TABLE t",
  "ALTER TABLE t ADD COLUMN",
  "ALTER TABLE t ADD COLUMN ts TIMESTAMP",
  "ALTER TABLE t DROP COLUMN ts",
  "ALTER TABLE t DROP COLUMN host",
  "ALTER TABLE t SET 'ttl'='never ever'",
  "ALTER TABLE t RENAME TO",
  "ALTER TABLE t RENAME TO t",
  "ALTER TABLE t MODIFY COLUMN host INT",
  "ALTER TABLE t MODIFY COLUMN ts STRING",
  "DROP TABLE",
  "DROP DATABASE",
  "SHOW",
  "SHOW NONSENSE",
  "SHOW TABLES LIKE",
  "SHOW TABLES WHERE nope = 1",
  "DESC",
  "EXPLAIN SELECT * FROM t",
  "TQL EVAL (0, 10, '5s') up",
  "COPY t TO '/tmp/petrel_copy_out'",
  "SET time_zone = 'nowhere'",
  "USE nope",
  "BEGIN",
  "COMMIT",
  "SELECT 1; SELEC 2",
  "SELECT * FROM information_schema.nope",
  "SELECT * FROM information_schema.tables t1, information_schema.columns t2, information_schema.columns t3 LIMIT 1",
  "SELECT " + "(".repeat(3000) + "1" + ")".repeat(3000),
  "SELECT " + Array.from({ length: 3000 }, () => "1").join(" + "),
  "SELECT * FROM t WHERE host IN (" + Array.from({ length: 40_000 }, (_, i) => `'h${i}'`).join(",") + ")",
];

Deno.test("/v1/sql specified errors", async (t) => {
  const server = await startTestServer();
  try {
    await checkCase(server.url, {
      sql: "CREATE TABLE t (host STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))",
    });
    await runCases(t, server.url, SPECIFIED);
    await t.step("GET without the sql parameter", async () => {
      const res = await fetch(`${server.url}/v1/sql?db=public`);
      assert.equal(res.status, 400);
      assert.equal(res.headers.get("x-greptime-err-code"), "1004");
      const body = await res.json();
      assert.deepEqual({ ...body, execution_time_ms: 0 }, {
        code: 1004,
        error: "sql parameter is required.",
        execution_time_ms: 0,
      });
    });
    await t.step("a failing statement fails the request; earlier statements still ran", async () => {
      await checkCase(server.url, {
        sql: "INSERT INTO t VALUES ('first', 1, 0); SELECT * FROM nope; INSERT INTO t VALUES ('third', 1, 0)",
        error: { code: 4001 },
      });
      assert.deepEqual(await sqlRows(server.url, "SELECT host FROM t ORDER BY host"), [["first"]]);
    });
  } finally {
    await server.stop();
  }
});

Deno.test("/v1/sql: nothing a user types produces a 5xx", async (t) => {
  const server = await startTestServer();
  try {
    await checkCase(server.url, {
      sql: "CREATE TABLE t (host STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host));" +
        "INSERT INTO t VALUES ('a', 1, 0)",
    });
    for (const sql of HOSTILE) {
      await t.step(sql.length > 80 ? `${sql.slice(0, 60)}… (${sql.length} chars)` : sql, async () => {
        // Long statements go only in a form body: a URL that size is the framework's business.
        for (const via of sql.length > 4000 ? ["form" as const] : ["get" as const, "form" as const]) {
          const reply = await sqlRequest(server.url, sql, { via });
          const where = `${via} ${sql.slice(0, 200)}\n→ ${reply.status} ${reply.text.slice(0, 500)}`;
          assert.ok(reply.status < 500, where);
          if (reply.status !== 200) {
            assert.ok(reply.status >= 400, where);
            const body = JSON.parse(reply.text) as { code: number; error: string };
            assert.equal(typeof body.code, "number", where);
            assert.ok(body.error.length > 0, where);
            assert.equal(reply.headers.get("x-greptime-err-code"), String(body.code), where);
          }
        }
      });
    }
    await t.step("the server still answers and the table is intact", async () => {
      assert.deepEqual(await sqlRows(server.url, "SELECT host, ts FROM t WHERE host = 'a'"), [["a", 0]]);
    });
  } finally {
    await server.stop();
  }
});

Deno.test({
  name: "/v1/sql a runaway query times out and does not stall other requests",
  // Reads run in a worker that the request's timeout can stop; GreptimeDB answers 408 too.
  fn: async () => {
    const dataHome = await Deno.makeTempDir({ prefix: "petrel_sql_runaway_" });
    // A child process, so that a stuck server can still be killed.
    const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome]);
    try {
      const sql = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
      const runaway = fetch(`${server.url}/v1/sql?sql=${encodeURIComponent(sql)}`, {
        headers: { "x-greptime-timeout": "1s" },
        signal: AbortSignal.timeout(5_000),
      }).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 200));
      const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(3_000) })
        .catch((e: Error) => e);
      const res = await runaway;
      assert.ok(health instanceof Response, `/health while the query runs: ${health}`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
      assert.ok(res instanceof Response, `the runaway query: ${res}`);
      assert.equal(res.status, 408);
      await res.body?.cancel();
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dataHome, { recursive: true });
    }
  },
});
