/**
 * `SELECT DISTINCT ON (…)`: the first row of each distinct ON value by the query's ORDER BY (the
 * latest row per series), with the column names and types the plain SELECT has; DataFusion's rule
 * that the ON expressions lead the ORDER BY, and its refusal beside aggregation.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const CASES: SqlCase[] = [
  {
    name: "the latest row per series",
    sql: "SELECT DISTINCT ON (host) host, ts, usage FROM cpu ORDER BY host, ts DESC",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"], ["usage", "Float64"]],
    rows: [["a", 2000, 2], ["b", 3000, null], ["c", 500, 7]],
  },
  {
    name: "the output follows the ON keys' direction; LIMIT applies after",
    sql: "SELECT DISTINCT ON (host) host, ts, usage FROM cpu ORDER BY host DESC, ts DESC LIMIT 2",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"], ["usage", "Float64"]],
    rows: [["c", 500, 7], ["b", 3000, null]],
  },
  {
    name: "DESC puts NULLs first, as DataFusion",
    sql: "SELECT DISTINCT ON (host) host, usage FROM cpu ORDER BY host, usage DESC",
    schema: [["host", "String"], ["usage", "Float64"]],
    rows: [["a", 2], ["b", null], ["c", 7]],
  },
  {
    name: "* is spelled out; the ON column need not be selected",
    sql: "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, ts",
    schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["usage", "Float64"]],
    rows: [[1000, "a", 1], [1500, "b", 5], [500, "c", 7]],
  },
  {
    sql: "SELECT DISTINCT ON (host) ts, v FROM ns ORDER BY host, ts DESC",
    schema: [["ts", "TimestampNanosecond"], ["v", "Int64"]],
    rows: [[2000000000, 2], [1500000000, 5]],
  },
  {
    name: "expressions keep their names and types; ordinals and aliases in ORDER BY",
    sql:
      "SELECT DISTINCT ON (n.host) n.host, date_trunc('second', ts) AS sec, v * 2 FROM ns n ORDER BY 1, sec",
    schema: [["host", "String"], ["sec", "TimestampNanosecond"], ["n.v * Int64(2)", "Int64"]],
    rows: [["a", 1000000000, 2], ["b", 1000000000, 10]],
  },
  {
    name: "a time literal in WHERE is read in the column's unit",
    sql: "SELECT DISTINCT ON (host) host, ts FROM ns WHERE ts < '1970-01-01 00:00:02' ORDER BY host, ts DESC",
    schema: [["host", "String"], ["ts", "TimestampNanosecond"]],
    rows: [["a", 1000000000], ["b", 1500000000]],
  },
  {
    name: "inside a CTE",
    sql: "WITH latest AS (SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, ts DESC) " +
      "SELECT host, ts FROM latest ORDER BY ts",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"]],
    rows: [["c", 500], ["a", 2000], ["b", 3000]],
  },
  {
    name: "* over a CTE and over a subquery keep their columns' names and types",
    sql: "WITH known AS (SELECT * FROM cpu WHERE usage IS NOT NULL) " +
      "SELECT DISTINCT ON (host) * FROM known ORDER BY host, ts DESC",
    schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["usage", "Float64"]],
    rows: [[2000, "a", 2], [1500, "b", 5], [500, "c", 7]],
  },
  {
    sql: "SELECT DISTINCT ON (r.host) r.*, 1 AS one FROM (SELECT * FROM ns) r ORDER BY r.host, ts DESC",
    schema: [["ts", "TimestampNanosecond"], ["host", "String"], ["v", "Int64"], ["one", "Int64"]],
    rows: [[2000000000, "a", 2, 1], [1500000000, "b", 5, 1]],
  },
  {
    name: "DISTINCT ON with * in a CTE over an earlier CTE",
    sql: "WITH a AS (SELECT * FROM cpu), b AS (SELECT DISTINCT ON (host) * FROM a ORDER BY host, ts) " +
      "SELECT * FROM b",
    schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["usage", "Float64"]],
    rows: [[1000, "a", 1], [1500, "b", 5], [500, "c", 7]],
  },
  {
    name: "inside a derived table",
    sql:
      "SELECT * FROM (SELECT DISTINCT ON (host) host, ts FROM cpu ORDER BY host, ts DESC) ORDER BY ts DESC",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"]],
    rows: [["b", 3000], ["a", 2000], ["c", 500]],
  },
  {
    name: "over a join",
    sql: "SELECT DISTINCT ON (c.host) c.host, n.v FROM cpu c JOIN ns n ON c.host = n.host " +
      "ORDER BY c.host, n.v DESC",
    schema: [["host", "String"], ["v", "Int64"]],
    rows: [["a", 2], ["b", 5]],
  },
  {
    name: "a derived table's own ORDER BY",
    sql: "SELECT * FROM (SELECT host FROM cpu ORDER BY host DESC LIMIT 2)",
    schema: [["host", "String"]],
    rows: [["c"], ["b"]],
  },
  {
    name: "an aggregate inside a scalar subquery is not the query's own",
    sql: "SELECT DISTINCT ON (host) host, (SELECT max(v) FROM ns) AS m FROM cpu ORDER BY host DESC LIMIT 1",
    schema: [["host", "String"], ["m", "Int64"]],
    rows: [["c", 5]],
  },
  {
    sql: "SELECT DISTINCT ON (host) host, ts FROM cpu ORDER BY ts",
    error: {
      code: 3000,
      message:
        "Error during planning: SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
    },
  },
  {
    sql: "SELECT DISTINCT ON (host, usage) host FROM cpu ORDER BY host",
    error: { code: 3000, message: "SELECT DISTINCT ON expressions must match initial ORDER BY expressions" },
  },
  {
    sql: "SELECT DISTINCT ON (host) host, max(ts) FROM cpu GROUP BY host",
    error: {
      message: "DISTINCT ON expressions with GROUP BY, aggregation or window functions are not supported",
    },
  },
];

const SETUP = [
  "CREATE TABLE cpu (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, usage DOUBLE)",
  "INSERT INTO cpu VALUES (1000, 'a', 1), (2000, 'a', 2), (1500, 'b', 5), (3000, 'b', NULL), (500, 'c', 7)",
  "CREATE TABLE ns (ts TIMESTAMP(9) TIME INDEX, host STRING PRIMARY KEY, v BIGINT)",
  "INSERT INTO ns VALUES (1000000000, 'a', 1), (2000000000, 'a', 2), (1500000000, 'b', 5)",
];

Deno.test("SELECT DISTINCT ON keeps the first row of each ON value", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
