/**
 * GreptimeDB's `to_timezone(ts, tz)`: the instant as a String of its wall-clock time in `tz` (named
 * zone or offset), `%Y-%m-%d %H:%M:%S` with the fraction only when there is one; NULL for a NULL
 * argument or a zone it cannot read. The session time zone plays no part.
 */
import { runOnServer, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP TIME INDEX, n TIMESTAMP(9))",
  "INSERT INTO t VALUES (1000, 1000000001), (1500, NULL)",
];

const CASES: TypedCase[] = [
  {
    sql: "SELECT to_timezone(ts, 'Asia/Shanghai') AS sh, to_timezone(ts, 'America/New_York') AS ny, " +
      "to_timezone(ts, '+05:30') AS ist, to_timezone(n, 'UTC') AS nano FROM t ORDER BY ts",
    columns: [["sh", "String"], ["ny", "String"], ["ist", "String"], ["nano", "String"]],
    rows: [
      ["1970-01-01 08:00:01", "1969-12-31 19:00:01", "1970-01-01 05:30:01", "1970-01-01 00:00:01.000000001"],
      ["1970-01-01 08:00:01.500", "1969-12-31 19:00:01.500", "1970-01-01 05:30:01.500", null],
    ],
  },
  // unaliased, DataFusion's name; the session's zone does not change the answer
  {
    sql: "SELECT to_timezone(ts, 'Europe/Berlin') FROM t WHERE ts = 1000",
    headers: { "x-greptime-timezone": "Asia/Tokyo" },
    columns: [['to_timezone(t.ts,Utf8("Europe/Berlin"))', "String"]],
    rows: [["1970-01-01 01:00:01"]],
  },
  // a string is read as a timestamp; summer time applies
  {
    sql: "SELECT to_timezone('2022-09-20T14:16:43.012345+08:00', 'Europe/Berlin') AS b",
    columns: [["b", "String"]],
    rows: [["2022-09-20 08:16:43.012345"]],
  },
  {
    sql: "SELECT to_timezone(ts, 'Mars/Olympus') AS x, to_timezone(ts, NULL) AS y FROM t WHERE ts = 1000",
    columns: [["x", "String"], ["y", "String"]],
    rows: [[null, null]],
  },
  { sql: "SELECT to_timezone(ts) FROM t", code: 3000, error: /'to_timezone' expects 2 arguments, got 1/ },
  // a number is no timestamp (GreptimeDB's signature takes timestamps only)
  {
    sql: "SELECT to_timezone(1000, 'UTC')",
    code: 3000,
    error: /'to_timezone' expects a timestamp and a time zone, got Int64/,
  },
];

Deno.test("to_timezone answers the wall-clock time in a zone as a String", (t) =>
  runOnServer(t, SETUP, { kind: "typed", cases: CASES }));
