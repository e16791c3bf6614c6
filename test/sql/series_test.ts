/**
 * The table functions `generate_series(start, stop[, step])` and `range(start, stop[, step])` in FROM
 * over HTTP: one Int64 column `value`, the stop included by generate_series and excluded by range,
 * negative steps, NULL bounds (no rows), joins and aliases, timestamps with an interval step; a zero
 * step, non-integer bounds and series past 10M rows fail with a 400 instead of running on.
 */
import { runOnServer, type TypedCase } from "../http/fixtures/sql_client.ts";

const V: Array<[string, string]> = [["value", "Int64"]];

const CASES: TypedCase[] = [
  { sql: "SELECT * FROM generate_series(1, 3)", columns: V, rows: [[1], [2], [3]] },
  { sql: "SELECT * FROM range(1, 3)", columns: V, rows: [[1], [2]] },
  { sql: "SELECT * FROM generate_series(0, 10, 4)", columns: V, rows: [[0], [4], [8]] },
  { sql: "SELECT * FROM range(0, 12, 4)", columns: V, rows: [[0], [4], [8]] },
  { sql: "SELECT * FROM generate_series(10, 1, -3)", columns: V, rows: [[10], [7], [4], [1]] },
  { sql: "SELECT * FROM range(10, 1, -3)", columns: V, rows: [[10], [7], [4]] },
  // one argument: from 0
  { sql: "SELECT * FROM range(3)", columns: V, rows: [[0], [1], [2]] },
  { sql: "SELECT * FROM generate_series(2)", columns: V, rows: [[0], [1], [2]] },
  // empty: the stop before the start, or a NULL bound; the column keeps its type
  { sql: "SELECT * FROM generate_series(3, 1)", columns: V, rows: [] },
  { sql: "SELECT * FROM range(1, NULL)", columns: V, rows: [] },
  { sql: "SELECT * FROM range(2, 2)", columns: V, rows: [] },
  {
    sql: "SELECT g.value * 2 AS x FROM generate_series(1, 1 + 2) AS g WHERE g.value > 1 ORDER BY x DESC",
    columns: [["x", "Int64"]],
    rows: [[6], [4]],
  },
  {
    sql: "SELECT a.value AS a, b.value AS b FROM generate_series(1, 2) a, range(5, 7) b ORDER BY a, b",
    columns: [["a", "Int64"], ["b", "Int64"]],
    rows: [[1, 5], [1, 6], [2, 5], [2, 6]],
  },
  {
    sql: "SELECT count(*) AS c, sum(value) AS s FROM range(0, 1000000)",
    columns: [["c", "Int64"], ["s", "Int64"]],
    rows: [[1_000_000, 499_999_500_000]],
  },
  // timestamps with an interval step: values of the start's type
  {
    sql: "SELECT * FROM generate_series(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 03:00:00', " +
      "INTERVAL '1 hour')",
    columns: [["value", "TimestampMillisecond"]],
    rows: [[1704067200000], [1704070800000], [1704074400000], [1704078000000]],
  },
  {
    sql: "SELECT value AS t FROM range('2024-01-01 00:00:00'::TIMESTAMP, '2024-01-01 03:00:00'::TIMESTAMP, " +
      "INTERVAL '1 hour' + INTERVAL '30 minutes') ORDER BY t DESC",
    columns: [["t", "TimestampMillisecond"]],
    rows: [[1704072600000], [1704067200000]],
  },
  {
    sql: "SELECT count(*) AS c FROM generate_series(now() - INTERVAL '1 hour', now(), INTERVAL '1 minute')",
    columns: [["c", "Int64"]],
    rows: [[61]],
  },
  {
    sql: "SELECT * FROM generate_series(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-02 00:00:00')",
    code: 1004,
    error: /generate_series over timestamps needs an interval step/,
  },
  {
    sql: "SELECT * FROM range(DATE '2024-01-01', DATE '2024-01-03', INTERVAL '1 day')",
    code: 1004,
    error: /range over dates is not supported/,
  },
  {
    sql: "SELECT * FROM generate_series(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 03:00:00', " +
      "INTERVAL '1 ms')",
    code: 3000,
    error: /would generate 10800001 rows/,
  },
  {
    sql: "SELECT * FROM generate_series(1, 20000000)",
    code: 3000,
    error: /generate_series would generate 20000000 rows \(more than 10000000\)/,
  },
  { sql: "SELECT * FROM range(0, 9223372036854775807, 1)", code: 3000, error: /more than 10000000/ },
  {
    sql: "SELECT * FROM generate_series(1, 3, 0)",
    code: 3000,
    error: /generate_series: the step cannot be zero/,
  },
  {
    sql: "SELECT * FROM range(1, 3.5)",
    code: 3000,
    error: /range: the start, stop and step must be integers/,
  },
  { sql: "SELECT * FROM generate_series(1, 2, 3, 4)", code: 1004, error: /expects 1 to 3 arguments/ },
];

Deno.test("generate_series and range table functions over /v1/sql", (t) =>
  runOnServer(t, [], { kind: "typed", cases: CASES }));
