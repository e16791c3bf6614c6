/**
 * The to_timestamp functions answer DataFusion's units over `/v1/sql`: to_timestamp is
 * Timestamp(Nanosecond) (seconds in, nanoseconds out), to_timestamp_seconds/millis/micros/nanos are
 * Second/Millisecond/Microsecond/Nanosecond, and JSON renders the number in the column's unit.
 * Inside an expression the value meets other times in the segment's unit, its type and value agreeing.
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 1), (2000, 'b', 2)",
];

const CASES: TypedCase[] = [
  {
    sql: "SELECT to_timestamp(1), to_timestamp_seconds(1), to_timestamp_millis(1), to_timestamp_micros(1), " +
      "to_timestamp_nanos(1)",
    columns: [
      ["to_timestamp(Int64(1))", "TimestampNanosecond"],
      ["to_timestamp_seconds(Int64(1))", "TimestampSecond"],
      ["to_timestamp_millis(Int64(1))", "TimestampMillisecond"],
      ["to_timestamp_micros(Int64(1))", "TimestampMicrosecond"],
      ["to_timestamp_nanos(Int64(1))", "TimestampNanosecond"],
    ],
    rows: [[1_000_000_000, 1, 1, 1, 1]],
  },
  {
    // a string keeps the precision of the result's unit; a fraction of a second counts
    sql: "SELECT to_timestamp('2024-01-01T00:00:00.123456789Z') AS a, " +
      "to_timestamp_seconds('2024-01-01T00:00:00.9Z') AS b, to_timestamp(1.5) AS c, to_timestamp(NULL) AS d",
    columns: [["a", "TimestampNanosecond"], ["b", "TimestampSecond"], ["c", "TimestampNanosecond"], [
      "d",
      "TimestampNanosecond",
    ]],
    rows: [[1704067200123456789, 1704067200, 1_500_000_000, null]],
  },
  {
    // a column's values, and a derived table's item keeps the unit too
    sql: "SELECT t FROM (SELECT to_timestamp_micros(n) AS t FROM m) ORDER BY t",
    columns: [["t", "TimestampMicrosecond"]],
    rows: [[1], [2]],
  },
  {
    // inside expressions the times compare as instants
    sql: "SELECT host FROM m WHERE ts = to_timestamp_seconds(n) ORDER BY host",
    columns: [["host", "String"]],
    rows: [["a"], ["b"]],
  },
  {
    sql: "SELECT to_timestamp_seconds('2024-01-01T00:00:00.9Z') = to_timestamp_millis(1704067200000) AS eq",
    columns: [["eq", "Boolean"]],
    rows: [[true]],
  },
  {
    // shifted by an interval the value is in the segment's unit, and so is its type
    sql:
      "SELECT to_timestamp_seconds(1) + INTERVAL '1 second' AS a, CAST(1 AS TIMESTAMP(0)) + INTERVAL '1 second' AS b",
    columns: [["a", "TimestampMillisecond"], ["b", "TimestampMillisecond"]],
    rows: [[2000, 2000]],
  },
];

Deno.test("to_timestamp units over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});
