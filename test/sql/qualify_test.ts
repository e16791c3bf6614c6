/**
 * QUALIFY filters rows on window-function results (DataFusion's extension): the query keeps its
 * visible columns, their names and types, and ORDER BY / LIMIT apply after the filter.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";
import { HOST_REGION_SETUP } from "./fixtures_host_region.ts";

const CASES: SqlCase[] = [
  {
    name: "the latest row of each host",
    sql: "SELECT ts, host, v FROM t QUALIFY row_number() OVER (PARTITION BY host ORDER BY ts DESC) = 1 " +
      "ORDER BY host",
    schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["v", "Float64"]],
    rows: [[2000, "a", 3], [4000, "b", 7]],
  },
  {
    name: "QUALIFY on a select item's alias",
    sql:
      "SELECT host, v, rank() OVER (PARTITION BY host ORDER BY v) AS r FROM t QUALIFY r <= 1 ORDER BY v DESC",
    schema: [["host", "String"], ["v", "Float64"], ["r", "UInt64"]],
    rows: [["b", 5, 1], ["a", 1, 1]],
  },
  {
    name: "after WHERE and GROUP BY, ordered by a column it does not select",
    sql: "SELECT host, avg(v), max(ts) AS last FROM t WHERE v > 1 GROUP BY host " +
      "QUALIFY sum(count(*)) OVER () > 2 ORDER BY min(ts) DESC LIMIT 1",
    schema: [["host", "String"], ["avg(t.v)", "Float64"], ["last", "TimestampMillisecond"]],
    rows: [["b", 6, 4000]],
  },
  {
    name: "ORDER BY a column number and a window alias",
    sql: "SELECT host, ts, lag(v) OVER (PARTITION BY host ORDER BY ts) AS prev FROM t " +
      "QUALIFY prev IS NOT NULL ORDER BY 1, prev DESC",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"], ["prev", "Float64"]],
    rows: [["a", 2000, 1], ["b", 4000, 5]],
  },
  {
    name: "in a CTE's query and with select *",
    sql: "WITH latest AS (SELECT * FROM t QUALIFY row_number() OVER (PARTITION BY host ORDER BY ts) = 1) " +
      "SELECT host, ts FROM latest ORDER BY host",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"]],
    rows: [["a", 1000], ["b", 3000]],
  },
  {
    name: "select * keeps the table's columns and types",
    sql: "SELECT * FROM t QUALIFY count(*) OVER (PARTITION BY region) = 1",
    schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["region", "String"], ["v", "Float64"]],
    rows: [[2000, "a", "west", 3]],
  },
  {
    name: "QUALIFY in a member of a UNION is refused",
    sql: "SELECT host FROM t QUALIFY row_number() OVER () = 1 UNION ALL SELECT 'x'",
    error: { status: 400, message: "QUALIFY in a member of UNION" },
  },
];

Deno.test("QUALIFY filters on window functions", (t) =>
  runOnServer(t, HOST_REGION_SETUP, { kind: "cases", cases: CASES }));
