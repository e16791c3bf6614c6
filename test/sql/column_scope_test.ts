/**
 * A column reference is typed (and its time literals converted) through the relation it reads, as
 * DataFusion resolves it: two tables share the names `ts` (milliseconds here, nanoseconds there)
 * and `v` (BIGINT, DOUBLE), and `b.ts`, or a bare `ts` in a subquery or UNION member over the
 * nanosecond table, is the nanosecond one. A compound of timestamps of different units answers the
 * coarsest unit, every member's values converted to it; two time columns compare in the coarser.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const T0_MS = 1704067200000; // 2024-01-01 00:00:00
const T0_NS = 1704067200000000000;
const NS = 1_000_000;

const SETUP = [
  "CREATE TABLE ms_t (k STRING, v BIGINT, ts TIMESTAMP(3) TIME INDEX, PRIMARY KEY(k))",
  "CREATE TABLE ns_t (k STRING, v DOUBLE, ts TIMESTAMP(9) TIME INDEX, PRIMARY KEY(k))",
  "INSERT INTO ms_t VALUES ('a', 1, '2024-01-01 00:00:00'), ('b', 2, '2024-01-01 00:00:02')",
  "INSERT INTO ns_t VALUES ('a', 1.5, '2024-01-01 00:00:00'), ('b', 2.5, '2024-01-01 00:00:02')",
];

const AFTER_1S = "'2024-01-01 00:00:01'";

const SCOPED: SqlCase[] = [
  {
    name: "a qualified time column of the second table of a join compares in its own unit",
    sql: `SELECT b.ts, a.v, b.v FROM ms_t a JOIN ns_t b ON a.k = b.k WHERE b.ts > ${AFTER_1S}`,
    schema: [["ts", "TimestampNanosecond"], ["v", "Int64"], ["v", "Float64"]],
    rows: [[T0_NS + 2000 * NS, 2, 2.5]],
  },
  {
    name: "a table name as qualifier, and the first table's column of the same name",
    sql: "SELECT ns_t.ts, ms_t.ts, max(ns_t.v) FROM ms_t JOIN ns_t ON ms_t.k = ns_t.k " +
      `WHERE ns_t.ts > ${AFTER_1S} GROUP BY ns_t.ts, ms_t.ts`,
    schema: [["ts", "TimestampNanosecond"], ["ts", "TimestampMillisecond"], [
      "max(ns_t.v)",
      "Float64",
    ]],
    rows: [[T0_NS + 2000 * NS, T0_MS + 2000, 2.5]],
  },
  {
    name: "an unqualified column in an IN subquery reads the subquery's table",
    sql: `SELECT k FROM ms_t WHERE k IN (SELECT k FROM ns_t WHERE ts > ${AFTER_1S})`,
    schema: [["k", "String"]],
    rows: [["b"]],
  },
  {
    name: "and in a scalar subquery",
    sql: `SELECT k FROM ms_t WHERE v <= (SELECT count(*) FROM ns_t WHERE ts > ${AFTER_1S})`,
    schema: [["k", "String"]],
    rows: [["a"]],
  },
  {
    name: "a derived table's column joined with a table of the same column name",
    sql: "SELECT a.ts, d.ts FROM ms_t a JOIN (SELECT k, ts FROM ns_t) d ON a.k = d.k " +
      `WHERE d.ts > ${AFTER_1S}`,
    schema: [["ts", "TimestampMillisecond"], ["ts", "TimestampNanosecond"]],
    rows: [[T0_MS + 2000, T0_NS + 2000 * NS]],
  },
  {
    name: "a CTE over the second table, in a UNION member",
    sql: "WITH c AS (SELECT k, ts FROM ns_t) SELECT k FROM ms_t WHERE ts < " + AFTER_1S +
      ` UNION ALL SELECT k FROM c WHERE ts > ${AFTER_1S}`,
    schema: [["k", "String"]],
    rows: [["a"], ["b"]],
  },
  {
    name: "a qualified time column shifted by an interval keeps its own type",
    sql: "SELECT b.ts + INTERVAL '1 second' AS t FROM ms_t a JOIN ns_t b ON a.k = b.k ORDER BY t",
    schema: [["t", "TimestampNanosecond"]],
    rows: [[T0_NS + 1000 * NS], [T0_NS + 3000 * NS]],
  },
  {
    name: "two time columns of different units compare in the coarser (a join on the instants)",
    sql: "SELECT a.k, b.v, b.ts > a.ts AS later FROM ms_t a JOIN ns_t b ON a.ts = b.ts ORDER BY a.k",
    schema: [["k", "String"], ["v", "Float64"], ["later", "Boolean"]],
    rows: [["a", 1.5, false], ["b", 2.5, false]],
  },
  {
    name: "and a time column IN a subquery's time column of another unit",
    sql: `SELECT count(*) FROM ms_t WHERE ts IN (SELECT ts FROM ns_t WHERE ts > ${AFTER_1S})`,
    schema: [["count(*)", "Int64"]],
    rows: [[1]],
  },
  {
    name: "NOT IN, the finer column outside",
    sql: "SELECT k FROM ns_t WHERE ts NOT IN (SELECT ts AS x FROM ms_t WHERE k = 'a')",
    schema: [["k", "String"]],
    rows: [["b"]],
  },
];

const COMPOUND: SqlCase[] = [
  {
    name: "each UNION member's time literal is converted in its own table's unit",
    sql: `SELECT k FROM ms_t WHERE ts > ${AFTER_1S} UNION ALL SELECT k FROM ns_t WHERE ts > ${AFTER_1S}`,
    schema: [["k", "String"]],
    rows: [["b"], ["b"]],
  },
  {
    name: "milliseconds UNION ALL nanoseconds is milliseconds, the nanoseconds converted",
    sql: "SELECT ts, v FROM ms_t UNION ALL SELECT ts, v FROM ns_t",
    schema: [["ts", "TimestampMillisecond"], ["v", "Float64"]],
    rows: [[T0_MS, 1], [T0_MS + 2000, 2], [T0_MS, 1.5], [T0_MS + 2000, 2.5]],
  },
  {
    name: "nanoseconds first: the first member's values converted, its names kept",
    sql: "SELECT ts, max(ts) AS m FROM ns_t GROUP BY ts UNION ALL SELECT ts, ts FROM ms_t ORDER BY 1, 2",
    schema: [["ts", "TimestampMillisecond"], ["m", "TimestampMillisecond"]],
    rows: [[T0_MS, T0_MS], [T0_MS, T0_MS], [T0_MS + 2000, T0_MS + 2000], [T0_MS + 2000, T0_MS + 2000]],
  },
  {
    name: "an expression member is converted whole",
    sql: "SELECT ts + INTERVAL '1 second' AS t FROM ns_t UNION ALL SELECT ts FROM ms_t ORDER BY t",
    schema: [["t", "TimestampMillisecond"]],
    rows: [[T0_MS], [T0_MS + 1000], [T0_MS + 2000], [T0_MS + 3000]],
  },
  {
    name: "a later member's cast to seconds is its own output column: seconds are the common unit",
    sql: "SELECT ts FROM ms_t UNION ALL SELECT CAST(ts AS TIMESTAMP(0)) FROM ns_t",
    schema: [["ts", "TimestampSecond"]],
    rows: [[T0_MS / 1000], [T0_MS / 1000 + 2], [T0_MS / 1000], [T0_MS / 1000 + 2]],
  },
  {
    name: "and a later member's cast to microseconds, converted to the common milliseconds",
    sql:
      "SELECT ts FROM ms_t WHERE k = 'a' UNION ALL SELECT CAST(ts AS TIMESTAMP(6)) FROM ns_t WHERE k = 'a'",
    schema: [["ts", "TimestampMillisecond"]],
    rows: [[T0_MS], [T0_MS]],
  },
  {
    name: "AT TIME ZONE in every member answers nanoseconds in every member",
    sql: "SELECT ts AT TIME ZONE 'UTC' AS z FROM ms_t WHERE k = 'a' " +
      "UNION ALL SELECT ts AT TIME ZONE 'UTC' FROM ms_t WHERE k = 'a'",
    schema: [["z", "TimestampNanosecond"]],
    rows: [[T0_NS], [T0_NS]],
  },
  {
    name: "UNION removes the instants both tables hold",
    sql: "SELECT ts FROM ms_t UNION SELECT ts FROM ns_t ORDER BY ts",
    schema: [["ts", "TimestampMillisecond"]],
    rows: [[T0_MS], [T0_MS + 2000]],
  },
  {
    name: "INTERSECT compares the instants in the common unit",
    sql: "SELECT ts FROM ns_t INTERSECT SELECT ts FROM ms_t WHERE k = 'b'",
    schema: [["ts", "TimestampMillisecond"]],
    rows: [[T0_MS + 2000]],
  },
  {
    name: "and EXCEPT",
    sql: "SELECT ts FROM ns_t EXCEPT SELECT ts FROM ms_t WHERE k = 'a'",
    schema: [["ts", "TimestampMillisecond"]],
    rows: [[T0_MS + 2000]],
  },
  {
    name: "a nanosecond time before 1970 truncates toward zero, as arrow's cast divides",
    sql: "INSERT INTO ns_t VALUES ('c', 3, -1); " +
      "SELECT ts FROM ms_t WHERE k = 'z' UNION ALL SELECT ts FROM ns_t WHERE k = 'c'",
    outputs: [{ affectedrows: 1 }, {
      records: {
        schema: { column_schemas: [{ name: "ts", data_type: "TimestampMillisecond" }] },
        rows: [[0]],
        total_rows: 1,
      },
    }],
  },
];

Deno.test("column references resolve through their own relation", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: SCOPED }));

Deno.test("compounds of timestamps of different units meet in the coarsest", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: COMPOUND }));
