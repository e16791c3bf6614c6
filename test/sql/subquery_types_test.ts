/**
 * Output types seen through CTEs, comma joins and scalar subqueries: a time column computed inside
 * one (`max(ts)`) is reported as the table's timestamp type, as the inner query alone reports it and
 * as GreptimeDB does, not as the Int64 SQLite's value would say (Grafana finds the time column by
 * its type). Time literals compared with such a column are read as times.
 */
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk } from "../http/fixtures/sql_client.ts";

const TMS = "TimestampMillisecond";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE)",
  "INSERT INTO t VALUES (1000, 'a', 1), (2000, 'b', 2)",
  "CREATE TABLE u (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, w BIGINT)",
  "INSERT INTO u VALUES (1000, 'a', 10), (2000, 'b', 20)",
  "CREATE TABLE n (ts TIMESTAMP(9) TIME INDEX, host STRING PRIMARY KEY, x DOUBLE)",
  "INSERT INTO n VALUES (5000, 'a', 1.5)",
];

const CTES: SqlCase[] = [
  {
    sql:
      "WITH c AS (SELECT host, max(ts) AS last, avg(v) AS a FROM t GROUP BY host) SELECT * FROM c ORDER BY host",
    schema: [["host", "String"], ["last", TMS], ["a", "Float64"]],
    rows: [["a", 1000, 1], ["b", 2000, 2]],
  },
  {
    name: "a derived table over a CTE",
    sql: "WITH c AS (SELECT max(ts) AS last FROM t) SELECT * FROM (SELECT last FROM c) d",
    schema: [["last", TMS]],
    rows: [[2000]],
  },
  {
    name: "a CTE over an earlier CTE",
    sql: "WITH a AS (SELECT host, max(ts) AS last FROM t GROUP BY host), " +
      "b AS (SELECT last, count(*) AS k FROM a GROUP BY last) SELECT * FROM b ORDER BY last",
    schema: [["last", TMS], ["k", "Int64"]],
    rows: [[1000, 1], [2000, 1]],
  },
  {
    name: "a CTE's column list names its columns",
    sql: "WITH c(last, mean) AS (SELECT max(ts), avg(v) FROM t) SELECT last, mean FROM c",
    schema: [["last", TMS], ["mean", "Float64"]],
    rows: [[2000, 1.5]],
  },
  {
    name: "a CTE's nanosecond time column keeps its unit",
    sql: "WITH c AS (SELECT min(ts) AS first FROM n) SELECT first FROM c",
    schema: [["first", "TimestampNanosecond"]],
    rows: [[5000]],
  },
  {
    name: "a time literal compared with a CTE's computed time column",
    sql: "WITH c AS (SELECT host, max(ts) AS last FROM t GROUP BY host) " +
      "SELECT host, last FROM c WHERE last > '1970-01-01 00:00:01'",
    schema: [["host", "String"], ["last", TMS]],
    rows: [["b", 2000]],
  },
  {
    name: "a CTE joined USING a column",
    sql: "WITH c AS (SELECT host, max(ts) AS last FROM t GROUP BY host) " +
      "SELECT * FROM c JOIN u USING (host) ORDER BY host",
    schema: [["host", "String"], ["last", TMS], ["ts", TMS], ["w", "Int64"]],
    rows: [["a", 1000, 1000, 10], ["b", 2000, 2000, 20]],
  },
  {
    name: "a range query in a CTE",
    sql:
      "WITH c AS (SELECT ts, host, max(v) RANGE '5s' AS top FROM t ALIGN '5s') SELECT * FROM c ORDER BY host",
    schema: [["ts", TMS], ["host", "String"], ["top", "Float64"]],
    rows: [[0, "a", 1], [0, "b", 2]],
  },
  {
    name: "a recursive CTE beside a typed one",
    sql: "WITH RECURSIVE r(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 2), " +
      "c AS (SELECT max(ts) AS last FROM t) SELECT * FROM c, r ORDER BY k",
    schema: [["last", TMS], ["k", "Int64"]],
    rows: [[2000, 1], [2000, 2]],
  },
];

Deno.test("CTEs keep their computed columns' types, through derived tables and later CTEs", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, CTES);
  } finally {
    await server.stop();
  }
});

const COMMA_JOINS: SqlCase[] = [
  {
    name: "a derived table after a comma",
    sql: "SELECT a.ts, b.last FROM t a, (SELECT host, max(ts) AS last FROM u GROUP BY host) b " +
      "WHERE a.host = b.host ORDER BY a.ts",
    schema: [["ts", TMS], ["last", TMS]],
    rows: [[1000, 1000], [2000, 2000]],
  },
  {
    name: "a time literal compared with a derived table's column after a comma",
    sql: "SELECT a.ts, b.last FROM t a, (SELECT host, max(ts) AS last FROM u GROUP BY host) b " +
      "WHERE b.last > '1970-01-01 00:00:01' AND a.host = b.host",
    schema: [["ts", TMS], ["last", TMS]],
    rows: [[2000, 2000]],
  },
  {
    name: "aggregates of qualified columns of a comma join",
    sql: "SELECT max(a.ts) AS last, sum(b.w) AS total, avg(a.v) AS mean FROM t a, u b WHERE a.host = b.host",
    schema: [["last", TMS], ["total", "Int64"], ["mean", "Float64"]],
    rows: [[2000, 30, 1.5]],
  },
  {
    name: "derived tables on both sides of a comma",
    sql: "SELECT * FROM (SELECT max(ts) AS last FROM t) x, (SELECT min(ts) AS first FROM n) y",
    schema: [["last", TMS], ["first", "TimestampNanosecond"]],
    rows: [[2000, 5000]],
  },
  {
    name: "a derived table after a comma over a CTE",
    sql: "WITH c AS (SELECT host, max(ts) AS last FROM t GROUP BY host) " +
      "SELECT u.w, d.last FROM u, (SELECT host, last FROM c) d WHERE u.host = d.host ORDER BY u.w",
    schema: [["w", "Int64"], ["last", TMS]],
    rows: [[10, 1000], [20, 2000]],
  },
];

Deno.test("comma joins keep the types of derived tables on either side", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, COMMA_JOINS);
  } finally {
    await server.stop();
  }
});

const SCALARS: SqlCase[] = [
  {
    sql: "SELECT (SELECT max(ts) FROM t) AS last, (SELECT count(*) FROM u) AS k",
    schema: [["last", TMS], ["k", "Int64"]],
    rows: [[2000, 2]],
  },
  {
    name: "a correlated scalar subquery",
    sql: "SELECT host, (SELECT max(u.ts) FROM u WHERE u.host = t.host) AS last FROM t ORDER BY host",
    schema: [["host", "String"], ["last", TMS]],
    rows: [["a", 1000], ["b", 2000]],
  },
  {
    name: "an aggregate of a qualified time column",
    sql: "SELECT max(t.ts) AS last FROM t",
    schema: [["last", TMS]],
    rows: [[2000]],
  },
];

Deno.test("scalar subqueries in the select list are typed as their one column", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, SCALARS);
  } finally {
    await server.stop();
  }
});

const VIEWS: SqlCase[] = [
  {
    sql:
      "CREATE VIEW latest AS WITH c AS (SELECT host, max(ts) AS last FROM t GROUP BY host) SELECT * FROM c",
    affected: [0],
  },
  {
    sql: "SELECT * FROM latest ORDER BY host",
    schema: [["host", "String"], ["last", TMS]],
    rows: [["a", 1000], ["b", 2000]],
  },
  {
    sql: "SELECT last FROM latest WHERE last >= '1970-01-01 00:00:02'",
    schema: [["last", TMS]],
    rows: [[2000]],
  },
];

Deno.test("views over CTEs keep the CTEs' column types", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, VIEWS);
  } finally {
    await server.stop();
  }
});

const UNIONS: SqlCase[] = [
  {
    name: "a BIGINT and a DOUBLE column make a Float64 one",
    sql: "SELECT host, w FROM u UNION ALL SELECT host, v FROM t ORDER BY host, w",
    schema: [["host", "String"], ["w", "Float64"]],
    rows: [["a", 1], ["a", 10], ["b", 2], ["b", 20]],
  },
  {
    name: "a NULL first takes the other SELECT's type",
    sql: "SELECT NULL AS last UNION ALL SELECT max(ts) FROM t",
    schema: [["last", TMS]],
    rows: [[null], [2000]],
  },
  {
    name: "a union as a derived table",
    sql: "SELECT * FROM (SELECT v FROM t UNION ALL SELECT w FROM u) x ORDER BY v",
    schema: [["v", "Float64"]],
    rows: [[1], [2], [10], [20]],
  },
  {
    name: "a union as a CTE",
    sql: "WITH c AS (SELECT v AS k FROM t UNION ALL SELECT w FROM u) SELECT k FROM c ORDER BY k",
    schema: [["k", "Float64"]],
    rows: [[1], [2], [10], [20]],
  },
];

Deno.test("UNION ALL reports the SELECTs' common type (as DataFusion coerces them)", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, UNIONS);
  } finally {
    await server.stop();
  }
});
