/**
 * `IGNORE NULLS` / `RESPECT NULLS` on window functions over HTTP, with DataFusion's answers:
 * first_value, last_value and nth_value over the non-null values of their frame (default frames,
 * ROWS frames, EXCLUDE), lag and lead to the n-th non-null row before or after, with a default.
 */
import { runOnServer, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 1, 10), (2000, 'a', NULL, NULL), (3000, 'a', 3, 30), " +
  "(4000, 'a', NULL, NULL), (5000, 'a', 5, 50), (1000, 'b', NULL, NULL), (2000, 'b', 2, 20)",
];

const W = "PARTITION BY host ORDER BY ts";

const CASES: TypedCase[] = [
  {
    sql: `SELECT host, ts, first_value(v) IGNORE NULLS OVER (PARTITION BY host ORDER BY ts DESC) AS f, ` +
      `last_value(v) IGNORE NULLS OVER (${W}) AS l, ` +
      `nth_value(n, 2) IGNORE NULLS OVER (${W} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n2 ` +
      `FROM m ORDER BY host, ts`,
    columns: [["host", "String"], ["ts", "TimestampMillisecond"], ["f", "Float64"], ["l", "Float64"], [
      "n2",
      "Int64",
    ]],
    rows: [
      ["a", 1000, 5, 1, 30],
      ["a", 2000, 5, 1, 30],
      ["a", 3000, 5, 3, 30],
      ["a", 4000, 5, 3, 30],
      ["a", 5000, 5, 5, 30],
      ["b", 1000, 2, null, null],
      ["b", 2000, 2, 2, null],
    ],
  },
  // sliding frames: values leave the frame as it moves; EXCLUDE CURRENT ROW
  {
    sql:
      "SELECT ts, first_value(v) IGNORE NULLS OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS f, " +
      "last_value(v) IGNORE NULLS OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS l, " +
      "first_value(v) IGNORE NULLS OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING " +
      "EXCLUDE CURRENT ROW) AS x, " +
      "first_value(v) RESPECT NULLS OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS r " +
      "FROM m WHERE host = 'a' ORDER BY ts",
    columns: [["ts", "TimestampMillisecond"], ["f", "Float64"], ["l", "Float64"], ["x", "Float64"], [
      "r",
      "Float64",
    ]],
    rows: [
      [1000, 1, 1, null, 1],
      [2000, 1, 1, 1, 1],
      [3000, 3, 3, null, null],
      [4000, 3, 3, 3, 3],
      [5000, 5, 5, null, null],
    ],
  },
  {
    sql:
      `SELECT host, ts, lag(v) IGNORE NULLS OVER (${W}) AS lg, lag(v, 2) IGNORE NULLS OVER (${W}) AS lg2, ` +
      `lead(n, 1, -1) IGNORE NULLS OVER (${W}) AS ld, lag(v) RESPECT NULLS OVER (${W}) AS r FROM m ORDER BY host, ts`,
    columns: [
      ["host", "String"],
      ["ts", "TimestampMillisecond"],
      ["lg", "Float64"],
      ["lg2", "Float64"],
      ["ld", "Int64"],
      ["r", "Float64"],
    ],
    rows: [
      ["a", 1000, null, null, 30, null],
      ["a", 2000, 1, null, 30, 1],
      ["a", 3000, 1, null, 50, null],
      ["a", 4000, 3, 1, 50, 3],
      ["a", 5000, 3, 1, -1, null],
      ["b", 1000, null, null, 20, null],
      ["b", 2000, null, null, -1, null],
    ],
  },
  // lag and lead ignore the frame written (as without IGNORE NULLS); a negative lag looks ahead
  {
    sql:
      "SELECT ts, lead(v) IGNORE NULLS OVER (ORDER BY ts ROWS BETWEEN CURRENT ROW AND CURRENT ROW) AS ld, " +
      "lag(v, -1) IGNORE NULLS OVER (ORDER BY ts) AS back FROM m WHERE host = 'a' ORDER BY ts",
    columns: [["ts", "TimestampMillisecond"], ["ld", "Float64"], ["back", "Float64"]],
    rows: [[1000, 3, 3], [2000, 3, 3], [3000, 5, 5], [4000, 5, 5], [5000, null, null]],
  },
  // a subquery's ORDER BY inside a call keeps one NULLS ordering
  {
    sql: "SELECT char_length((SELECT host FROM m ORDER BY ts DESC LIMIT 1)) AS c",
    columns: [["c", "Int32"]],
    rows: [[1]],
  },
  {
    sql: "SELECT first_value(v) IGNORE NULLS FROM m",
    code: 1004,
    error: /IGNORE NULLS needs a window/,
  },
  {
    sql: "SELECT lag(v, n) IGNORE NULLS OVER (ORDER BY ts) FROM m",
    code: 1004,
    error: /lag … IGNORE NULLS needs an integer literal offset, got n/,
  },
];

Deno.test("IGNORE NULLS and RESPECT NULLS on window functions over /v1/sql", (t) =>
  runOnServer(t, SETUP, { kind: "typed", cases: CASES }));
