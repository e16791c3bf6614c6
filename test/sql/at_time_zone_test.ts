/**
 * `x AT TIME ZONE 'tz'`: DataFusion's cast to `Timestamp(Nanosecond, tz)`. A zone-less timestamp is
 * wall-clock time in `tz` and becomes that instant (daylight saving included); an aware one keeps its
 * instant. GreptimeDB shows the column as TimestampNanosecond (raw nanoseconds in JSON).
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const SHANGHAI_NS = 8n * 3600n * 1_000_000_000n;

const CASES: SqlCase[] = [
  {
    name: "a millisecond time index read as Shanghai wall-clock time",
    sql: "SELECT ts AT TIME ZONE 'Asia/Shanghai' FROM cpu ORDER BY ts",
    schema: [["ts AT TIME ZONE 'Asia/Shanghai'", "TimestampNanosecond"]],
    rows: [[Number(500_000_000n - SHANGHAI_NS)], [Number(2_000_000_000n - SHANGHAI_NS)]],
  },
  {
    name: "a nanosecond column in UTC keeps its value; the alias names it",
    sql: "SELECT ts, ts AT TIME ZONE 'UTC' AS u FROM ns",
    schema: [["ts", "TimestampNanosecond"], ["u", "TimestampNanosecond"]],
    rows: [[1_000_000_001, 1_000_000_001]],
  },
  {
    sql: "SELECT '2024-01-01 00:00:00'::timestamp AT TIME ZONE 'UTC'",
    schema: [["'2024-01-01 00:00:00'::timestamp AT TIME ZONE 'UTC'", "TimestampNanosecond"]],
    rows: [[1704067200000000000]],
  },
  {
    sql: "SELECT '2024-01-01 00:00:00'::timestamp AT TIME ZONE 'Asia/Shanghai' AS t",
    schema: [["t", "TimestampNanosecond"]],
    rows: [[1704038400000000000]],
  },
  {
    name: "daylight saving time: New York in July is UTC-4",
    sql: "SELECT TIMESTAMP '2024-07-01 00:00:00' AT TIME ZONE 'America/New_York' AS t",
    schema: [["t", "TimestampNanosecond"]],
    rows: [[1719806400000000000]],
  },
  {
    name: "a second AT TIME ZONE keeps the instant the first made",
    sql: "SELECT '2024-01-01 00:00:00'::timestamp AT TIME ZONE 'Asia/Shanghai' AT TIME ZONE 'UTC' AS t",
    schema: [["t", "TimestampNanosecond"]],
    rows: [[1704038400000000000]],
  },
  {
    name: "inside a comparison it is read in the column's unit",
    sql: "SELECT host FROM cpu WHERE ts AT TIME ZONE '+01:00' < '1970-01-01 00:00:00' ORDER BY ts",
    schema: [["host", "String"]],
    rows: [["a"], ["b"]],
  },
  {
    sql: "SELECT ts AT TIME ZONE 'Mars/Olympus' FROM cpu",
    error: { code: 1004, message: "Invalid timezone: Mars/Olympus" },
  },
];

const SETUP = [
  "CREATE TABLE cpu (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, usage DOUBLE)",
  "INSERT INTO cpu VALUES (500, 'a', 1), (2000, 'b', 2)",
  "CREATE TABLE ns (ts TIMESTAMP(9) TIME INDEX, v BIGINT)",
  "INSERT INTO ns VALUES (1000000001, 1)",
];

Deno.test("AT TIME ZONE casts to a nanosecond timestamp in that zone", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
