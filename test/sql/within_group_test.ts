/**
 * DataFusion's ordered-set aggregate syntax: `approx_percentile_cont(p) WITHIN GROUP (ORDER BY x)`,
 * `percentile_cont` and `approx_percentile_cont_with_weight(w, p)`, DESC reading from the other
 * end, the column named as written, and malformed forms refused as syntax errors.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE lat (host STRING, ms DOUBLE, w DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))",
  "INSERT INTO lat VALUES ('a', 1, 1, 0), ('a', 3, 1, 10000), ('b', 5, 2, 5000), ('b', 7, 1, 20000), " +
  "('b', 9, 1, 30000)",
];

const CASES: SqlCase[] = [
  {
    name: "the median of all rows, named as written",
    sql: "SELECT approx_percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM lat",
    schema: [["approx_percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)", "Float64"]],
    rows: [[5]],
  },
  {
    name: "per group, DESC reads 1 - p",
    sql: "SELECT host, approx_percentile_cont(0.25) WITHIN GROUP (ORDER BY ms DESC) AS p, " +
      "percentile_cont(0.25) WITHIN GROUP (ORDER BY ms ASC) AS q FROM lat GROUP BY host ORDER BY host",
    schema: [["host", "String"], ["p", "Float64"], ["q", "Float64"]],
    // approx_percentile_cont is DataFusion's t-digest estimate (percentile_cont interpolates exactly)
    rows: [["a", 3, 1.5], ["b", 8.5, 6]],
  },
  {
    name: "weighted",
    sql: "SELECT approx_percentile_cont_with_weight(w, 0.5) WITHIN GROUP (ORDER BY ms) AS m FROM lat",
    schema: [["m", "Float64"]],
    rows: [[5]],
  },
  {
    name: "two ORDER BY keys are refused",
    sql: "SELECT approx_percentile_cont(0.5) WITHIN GROUP (ORDER BY ms, ts) FROM lat",
    error: { status: 400, code: 2000, message: "takes one ORDER BY expression" },
  },
  {
    name: "WITHIN without GROUP is refused",
    sql: "SELECT approx_percentile_cont(0.5) WITHIN (ORDER BY ms) FROM lat",
    error: { status: 400, code: 2000, message: "Expected: GROUP (ORDER BY …) after WITHIN" },
  },
  {
    name: "a percentile and a column before WITHIN GROUP is one argument too many",
    sql: "SELECT approx_percentile_cont(ms, 0.5) WITHIN GROUP (ORDER BY ms) FROM lat",
    error: { status: 400, code: 2000, message: "takes 1 argument before WITHIN GROUP" },
  },
];

Deno.test("WITHIN GROUP (ORDER BY …) of the percentile aggregates", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
