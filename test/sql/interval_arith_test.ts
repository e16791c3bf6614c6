/**
 * Interval arithmetic over HTTP, typed as DataFusion types it: `interval ± interval` is
 * IntervalMonthDayNano (a count of nanoseconds in the JSON rows), adding such an interval to a time
 * column keeps the column's timestamp type and unit, and scaling an interval by a number is refused.
 */
import { runOnServer, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE ms (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE)",
  "INSERT INTO ms VALUES (1000, 'a', 1), (2000, 'a', 2)",
  "CREATE TABLE ns (ts TIMESTAMP(9) TIME INDEX, v DOUBLE)",
  "INSERT INTO ns VALUES (5, 1)",
];

const IV = "IntervalMonthDayNano";
const HOUR_NS = 3_600_000_000_000;

const CASES: TypedCase[] = [
  {
    sql: "SELECT INTERVAL '1 hour' AS h, INTERVAL '1 hour' + INTERVAL '30 minutes' AS s, " +
      "INTERVAL '1 hour' - INTERVAL '90 minutes' AS d",
    columns: [["h", IV], ["s", IV], ["d", IV]],
    rows: [[HOUR_NS, 1.5 * HOUR_NS, -0.5 * HOUR_NS]],
  },
  // unaliased: the column keeps the expression's text, parentheses included
  {
    sql: "SELECT (INTERVAL '1h' + INTERVAL '30m'), INTERVAL '1 hour' - INTERVAL '1 minute'",
    columns: [
      ["(INTERVAL '1h' + INTERVAL '30m')", IV],
      ["INTERVAL '1 hour' - INTERVAL '1 minute'", IV],
    ],
    rows: [[1.5 * HOUR_NS, 59 * 60_000_000_000]],
  },
  // the same in a query over a table: one value per row
  {
    sql: "SELECT host, INTERVAL '1ms' + INTERVAL '1us' AS i FROM ms ORDER BY ts",
    columns: [["host", "String"], ["i", IV]],
    rows: [["a", 1_001_000], ["a", 1_001_000]],
  },
  {
    sql: "SELECT arrow_typeof(INTERVAL '1h' + INTERVAL '1m') AS t",
    columns: [["t", "String"]],
    rows: [["Interval(MonthDayNano)"]],
  },
  // a timestamp shifted by an interval expression keeps the column's type and unit
  {
    sql: "SELECT ts + (INTERVAL '1h' + INTERVAL '30m') AS a, ts - INTERVAL '2s' AS b FROM ms ORDER BY ts",
    columns: [["a", "TimestampMillisecond"], ["b", "TimestampMillisecond"]],
    rows: [[5_401_000, -1000], [5_402_000, 0]],
  },
  {
    sql: "SELECT ts + (INTERVAL '1h' + INTERVAL '30m') AS a, INTERVAL '1h' + INTERVAL '1ns' AS i FROM ns",
    columns: [["a", "TimestampNanosecond"], ["i", IV]],
    rows: [[5_400_000_000_005, HOUR_NS + 1]],
  },
  {
    sql:
      "SELECT count(*) AS c FROM ms WHERE ts > '1970-01-01 01:00:00' - (INTERVAL '1h' - INTERVAL '1500ms')",
    columns: [["c", "Int64"]],
    rows: [[1]],
  },
  // arrow's multiply kernel takes no interval: DataFusion's planner refuses an interval times any number
  // (SQLite would scale the interval's integer form)
  {
    sql: "SELECT INTERVAL '1 hour' * 2",
    code: 3000,
    error: /Cannot coerce arithmetic expression Interval\(MonthDayNano\) \* Int64 to valid types/,
  },
  { sql: "SELECT 3 * INTERVAL '1 second'", code: 3000, error: /Int64 \* Interval\(MonthDayNano\)/ },
  {
    sql: "SELECT (INTERVAL '1h' + INTERVAL '30m') * 2",
    code: 3000,
    error: /Interval\(MonthDayNano\) \* Int64/,
  },
  { sql: "SELECT ts - INTERVAL '1s' * 2 FROM ms", code: 3000, error: /Interval\(MonthDayNano\) \* Int64/ },
  // a numeric column is no different (its own type in the message)
  { sql: "SELECT INTERVAL '1s' * v FROM ms", code: 3000, error: /Interval\(MonthDayNano\) \* Float64/ },
  {
    sql: "SELECT INTERVAL '1 hour' * 2.5",
    code: 3000,
    error: /Cannot coerce arithmetic expression Interval\(MonthDayNano\) \* Float64/,
  },
  { sql: "SELECT 2.5 * INTERVAL '1 hour'", code: 3000, error: /Float64 \* Interval\(MonthDayNano\)/ },
  {
    sql: "SELECT ts + INTERVAL '1 hour' * 1.5 FROM ms",
    code: 3000,
    error: /Interval\(MonthDayNano\) \* Float64/,
  },
  { sql: "SELECT (INTERVAL '1h' + INTERVAL '30m') * 0.5", code: 3000, error: /\* Float64/ },
  // arrow has no interval division: DataFusion refuses it (SQLite answered an Int64 count of ms)
  {
    sql: "SELECT INTERVAL '1 hour' / 2",
    code: 3000,
    error: /Cannot coerce arithmetic expression Interval\(MonthDayNano\) \/ Int64 to valid types/,
  },
  { sql: "SELECT 7200 / INTERVAL '1 hour'", code: 3000, error: /Int64 \/ Interval\(MonthDayNano\)/ },
  {
    sql: "SELECT ts + (INTERVAL '1h' + INTERVAL '30m') / 1.5 FROM ms",
    code: 3000,
    error: /Interval\(MonthDayNano\) \/ Float64/,
  },
  // a computed factor is refused as a literal is, with the type DataFusion gives it where it is known
  {
    sql: "SELECT INTERVAL '1s' * (v + 1) FROM ms",
    code: 3000,
    error: /Cannot coerce arithmetic expression Interval\(MonthDayNano\) \* Float64 to valid types/,
  },
  { sql: "SELECT (1 + 2) * INTERVAL '1s'", code: 3000, error: /Int64 \* Interval\(MonthDayNano\)/ },
  {
    sql: "SELECT ts + INTERVAL '1s' * CAST(v AS INT) FROM ms",
    code: 3000,
    error: /Interval\(MonthDayNano\) \* Int32 to valid types/,
  },
  { sql: "SELECT INTERVAL '1m' * count(*) FROM ms", code: 3000, error: /Interval\(MonthDayNano\) \* Int64/ },
  {
    sql: "SELECT INTERVAL '1s' / abs(v) FROM ms",
    code: 3000,
    error: /Interval\(MonthDayNano\) \/ abs\(v\) to valid types/,
  },
  {
    sql: "SELECT INTERVAL '1s' * INTERVAL '2s'",
    code: 3000,
    error: /Interval\(MonthDayNano\) \* Interval\(MonthDayNano\) to valid types/,
  },
  { sql: "SELECT INTERVAL '1s' * host FROM ms", code: 3000, error: /Interval\(MonthDayNano\) \* Utf8/ },
  {
    sql: "SELECT m.v * INTERVAL '1s' FROM ms AS m",
    code: 3000,
    error: /Float64 \* Interval\(MonthDayNano\)/,
  },
  // an IntervalMonthDayNano holds months and days as 32-bit integers, nanoseconds as 64-bit ones
  {
    sql: "SELECT INTERVAL '1000000000 years'",
    code: 3000,
    error:
      /^Failed to plan SQL: Parser error: Unable to represent 1000000000 years as months in a signed 32-bit integer$/,
  },
  {
    sql: "SELECT INTERVAL '178956970 years' > INTERVAL '1 year' AS c",
    columns: [["c", "Boolean"]],
    rows: [[true]],
  },
  {
    sql: "SELECT ts - INTERVAL '3000000000 months' FROM ms",
    code: 3000,
    error: /Unable to represent 3000000000 months in a signed 32-bit integer$/,
  },
  {
    sql: "SELECT INTERVAL '3000000000' DAY",
    code: 3000,
    error: /Unable to represent 3000000000 days in a signed/,
  },
  {
    sql: "SELECT INTERVAL '1000000000000 hours'",
    code: 3000,
    error: /Arithmetic overflow: Overflow happened on: 1000000000000 \* 3600000000000$/,
  },
];

Deno.test("interval arithmetic answers intervals over /v1/sql", (t) =>
  runOnServer(t, SETUP, { kind: "typed", cases: CASES }));
