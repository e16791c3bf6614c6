/**
 * A window call over a time column answers the column's timestamp type, as DataFusion types it:
 * `max(ts) OVER (…)`, `first_value(ts) OVER (…)`, `lag(ts) OVER (…)` are timestamps in the column's
 * unit (SQLite reports no type for them, and the values alone read as Int64).
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const T0 = 1704067200; // 2024-01-01 00:00:00, in seconds

const SETUP = [
  "CREATE TABLE s_t (k STRING, v DOUBLE, ts TIMESTAMP(0) TIME INDEX, PRIMARY KEY(k))",
  "CREATE TABLE ns_t (k STRING, v DOUBLE, ts TIMESTAMP(9) TIME INDEX, PRIMARY KEY(k))",
  "INSERT INTO s_t VALUES ('a', 1, '2024-01-01 00:00:00'), ('b', 2, '2024-01-01 00:00:02')",
  "INSERT INTO ns_t VALUES ('a', 1, '2024-01-01 00:00:00')",
];

const CASES: SqlCase[] = [
  {
    name: "aggregates, value functions and ranking over a window",
    sql: "SELECT max(ts) OVER (PARTITION BY k) AS mx, first_value(ts) OVER (ORDER BY ts) AS f, " +
      "lag(ts) OVER (ORDER BY ts) AS p, lead(ts, 1) OVER (ORDER BY ts) AS n, count(*) OVER () AS c, " +
      "row_number() OVER (ORDER BY ts) AS r FROM s_t ORDER BY ts",
    schema: [
      ["mx", "TimestampSecond"],
      ["f", "TimestampSecond"],
      ["p", "TimestampSecond"],
      ["n", "TimestampSecond"],
      ["c", "Int64"],
      ["r", "UInt64"],
    ],
    rows: [[T0, T0, null, T0 + 2, 2, 1], [T0 + 2, T0, T0, null, 2, 2]],
  },
  {
    name: "a window of a nanosecond column is nanoseconds",
    sql: "SELECT last_value(ts) OVER (ORDER BY ts) AS l FROM ns_t",
    schema: [["l", "TimestampNanosecond"]],
    rows: [[T0 * 1e9]],
  },
];

Deno.test("window calls over a time column keep its timestamp type", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
