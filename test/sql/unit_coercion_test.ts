/**
 * Timestamps of different units meet in the coarser wherever they meet, as DataFusion coerces them:
 * a compound (UNION, INTERSECT, EXCEPT) nested in a subquery (IN, scalar, EXISTS) as at the top, and
 * a time column compared with an expression whose type is a timestamp of another unit (a column ±
 * an interval, max(ts), a scalar subquery, CASE and COALESCE). Milliseconds (`ms_t`), nanoseconds
 * (`ns_t`) and seconds (`s_t`) hold the same instants, and each one instant the others do not.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const T0_MS = 1704067200000; // 2024-01-01 00:00:00

const SETUP = [
  "CREATE TABLE ms_t (k STRING, v BIGINT, ts TIMESTAMP(3) TIME INDEX, PRIMARY KEY(k))",
  "CREATE TABLE ns_t (k STRING, v DOUBLE, ts TIMESTAMP(9) TIME INDEX, PRIMARY KEY(k))",
  "CREATE TABLE s_t (k STRING, v DOUBLE, ts TIMESTAMP(0) TIME INDEX, PRIMARY KEY(k))",
  "INSERT INTO ms_t VALUES ('a', 1, '2024-01-01 00:00:00'), ('b', 2, '2024-01-01 00:00:02'), " +
  "('m', 3, '2024-01-01 00:00:05')",
  "INSERT INTO ns_t VALUES ('a', 1.5, '2024-01-01 00:00:00'), ('b', 2.5, '2024-01-01 00:00:02'), " +
  "('n', 3.5, '2024-01-01 00:01:00')",
  "INSERT INTO s_t VALUES ('a', 1, '2024-01-01 00:00:00'), ('s', 2, '2024-01-01 00:00:05')",
];

const NESTED: SqlCase[] = [
  {
    name: "a UNION inside IN (…) meets in its coarsest unit, and the column compared with it too",
    sql: "SELECT k FROM ms_t WHERE ts IN (SELECT ts FROM ns_t UNION SELECT ts FROM s_t) ORDER BY k",
    schema: [["k", "String"]],
    rows: [["a"], ["b"], ["m"]],
  },
  {
    name: "a quantified comparison with a subquery of another unit",
    sql: "SELECT k FROM ms_t WHERE ts > ANY (SELECT ts FROM ns_t WHERE k = 'b') ORDER BY k",
    schema: [["k", "String"]],
    rows: [["m"]],
  },
  {
    name: "and with a UNION of two finer units",
    sql:
      "SELECT k FROM s_t WHERE ts >= ALL (SELECT ts FROM ns_t WHERE k <> 'n' UNION ALL SELECT ts FROM ms_t " +
      "WHERE k <> 'm') ORDER BY k",
    schema: [["k", "String"]],
    rows: [["s"]],
  },
  {
    name: "a UNION ALL as a scalar subquery answers the common unit",
    sql: "SELECT k, (SELECT ts FROM ns_t WHERE k = 'b' UNION ALL SELECT ts FROM ms_t WHERE k = 'z') AS m " +
      "FROM ms_t WHERE k = 'a'",
    schema: [["k", "String"], ["m", "TimestampMillisecond"]],
    rows: [["a", T0_MS + 2000]],
  },
  {
    name: "an INTERSECT inside EXISTS compares the instants in the common unit",
    sql: "SELECT k FROM ms_t m WHERE EXISTS (SELECT ts FROM ns_t WHERE k = m.k INTERSECT " +
      "SELECT ts FROM s_t) ORDER BY k",
    schema: [["k", "String"]],
    rows: [["a"]],
  },
  {
    name: "a scalar subquery's cast to seconds answers seconds",
    sql: "SELECT (SELECT CAST(ts AS TIMESTAMP(0)) FROM ns_t WHERE k = 'b') AS t",
    schema: [["t", "TimestampSecond"]],
    rows: [[T0_MS / 1000 + 2]],
  },
  {
    name: "and AT TIME ZONE, nanoseconds (seconds there: a raw compare missed)",
    sql: "SELECT k FROM ms_t WHERE ts = (SELECT ts AT TIME ZONE 'UTC' FROM s_t WHERE k = 'a')",
    schema: [["k", "String"]],
    rows: [["a"]],
  },
  {
    name: "and a member's cast in a UNION inside IN",
    sql: "SELECT k FROM ms_t WHERE ts IN (SELECT CAST(ts AS TIMESTAMP(0)) FROM ns_t UNION " +
      "SELECT ts FROM ms_t WHERE k = 'm') ORDER BY k",
    schema: [["k", "String"]],
    rows: [["a"], ["b"], ["m"]],
  },
  {
    name: "a UNION in a CTE selected from",
    sql: "WITH c AS (SELECT ts FROM ms_t UNION ALL SELECT ts FROM ns_t) SELECT max(ts) AS m FROM c",
    schema: [["m", "TimestampMillisecond"]],
    rows: [[T0_MS + 60000]],
  },
  {
    name: "a UNION in a derived table inside a UNION member",
    sql: "SELECT ts FROM ms_t WHERE k = 'm' UNION ALL SELECT ts FROM " +
      "(SELECT ts FROM ns_t WHERE k = 'n' UNION ALL SELECT ts FROM s_t WHERE k = 's') d ORDER BY ts",
    schema: [["ts", "TimestampSecond"]],
    rows: [[T0_MS / 1000 + 5], [T0_MS / 1000 + 5], [T0_MS / 1000 + 60]],
  },
];

const EXPRESSIONS: SqlCase[] = [
  {
    name: "a column compared with another unit's column minus an interval",
    sql: "SELECT a.k, b.k FROM ms_t a JOIN ns_t b ON a.ts > b.ts - INTERVAL '1 minute' " +
      "WHERE b.k = 'n' ORDER BY a.k",
    schema: [["k", "String"], ["k", "String"]],
    rows: [["b", "n"], ["m", "n"]],
  },
  {
    name: "the expression on the left",
    sql:
      "SELECT a.k FROM ms_t a JOIN ns_t b ON b.ts - INTERVAL '1 minute' < a.ts WHERE b.k = 'n' ORDER BY a.k",
    schema: [["k", "String"]],
    rows: [["b"], ["m"]],
  },
  {
    name: "a column equal to a scalar subquery's max of another unit",
    sql: "SELECT k FROM ms_t WHERE ts = (SELECT max(ts) FROM ns_t WHERE k <> 'n')",
    schema: [["k", "String"]],
    rows: [["b"]],
  },
  {
    name: "the scalar subquery shifted by an interval keeps its own unit",
    sql: "SELECT k FROM ms_t WHERE ts >= (SELECT max(ts) FROM ns_t) - INTERVAL '55 seconds' ORDER BY k",
    schema: [["k", "String"]],
    rows: [["m"]],
  },
  {
    name: "and in a table of the scalar's unit (an interval after a subquery is in the column's unit)",
    sql: "SELECT k FROM ns_t WHERE ts > (SELECT min(ts) FROM ns_t) + INTERVAL '2 seconds' ORDER BY k",
    schema: [["k", "String"]],
    rows: [["n"]],
  },
  {
    name: "a column compared with an aggregate of another unit's column in HAVING",
    sql:
      "SELECT b.k FROM ns_t b JOIN ms_t a ON a.k = b.k GROUP BY b.k HAVING max(b.ts) = max(a.ts) ORDER BY b.k",
    schema: [["k", "String"]],
    rows: [["a"], ["b"]],
  },
  {
    name: "COALESCE of another unit's column",
    sql:
      "SELECT a.k FROM ms_t a LEFT JOIN ns_t b ON a.k = b.k WHERE a.ts = coalesce(b.ts, a.ts) ORDER BY a.k",
    schema: [["k", "String"]],
    rows: [["a"], ["b"], ["m"]],
  },
  {
    name: "CASE over another unit's column",
    sql: "SELECT a.k FROM ms_t a JOIN ns_t b ON a.k = b.k " +
      "WHERE a.ts = CASE WHEN b.v > 2 THEN b.ts ELSE b.ts + INTERVAL '1 second' END ORDER BY a.k",
    schema: [["k", "String"]],
    rows: [["b"]],
  },
  {
    name: "seconds compared with nanoseconds shifted: the nanoseconds truncated to seconds",
    sql: "SELECT s.k FROM s_t s JOIN ns_t n ON s.ts = n.ts + INTERVAL '500 milliseconds' ORDER BY s.k",
    schema: [["k", "String"]],
    rows: [["a"]],
  },
  {
    name: "BETWEEN bounds of another unit (scalar subqueries over milliseconds)",
    sql: "SELECT k FROM ns_t WHERE ts BETWEEN (SELECT min(ts) FROM ms_t) AND (SELECT max(ts) FROM ms_t) " +
      "ORDER BY k",
    schema: [["k", "String"]],
    rows: [["a"], ["b"]],
  },
  {
    name: "and NOT BETWEEN a column shifted by an interval in its own unit",
    sql: "SELECT a.k FROM ms_t a JOIN ns_t b ON b.k = 'n' " +
      "WHERE a.ts NOT BETWEEN b.ts - INTERVAL '58 seconds' AND b.ts ORDER BY a.k",
    schema: [["k", "String"]],
    rows: [["a"]],
  },
  {
    name: "a literal's cast and arrow_cast meet the column in its own unit",
    sql: "SELECT k FROM ns_t WHERE ts > '2024-01-01'::timestamp + INTERVAL '1 second' AND " +
      "ts > arrow_cast(1704067201000, 'Timestamp(Millisecond, None)') AND ts > CAST('2024-01-01' AS TIMESTAMP(0)) " +
      "ORDER BY k",
    schema: [["k", "String"]],
    rows: [["b"], ["n"]],
  },
  {
    name: "a time function reads its own argument's unit inside an expression over another unit",
    sql:
      "SELECT greatest(a.ts, date_trunc('minute', b.ts)) AS g, to_unixtime(a.ts) - to_unixtime(b.ts) AS d " +
      "FROM ms_t a JOIN ns_t b ON a.k = b.k ORDER BY g",
    schema: [["g", "TimestampMillisecond"], ["d", "Int64"]],
    rows: [[T0_MS, 0], [T0_MS + 2000, 0]],
  },
  {
    name: "the difference of two instants of different units is in the coarser",
    sql: "SELECT a.ts - b.ts AS d FROM ms_t a, ns_t b WHERE a.k = 'm' AND b.k = 'b'",
    rows: [[3000]],
  },
  {
    name: "a range query's WHERE compares with a scalar subquery of another unit",
    sql:
      "SELECT ts, k, max(v) RANGE '1m' FROM ns_t WHERE ts > (SELECT min(ts) FROM ms_t) ALIGN '1m' BY (k) " +
      "ORDER BY k",
    schema: [["ts", "TimestampNanosecond"], ["k", "String"], ["max(ns_t.v) RANGE 1m", "Float64"]],
    rows: [[T0_MS * 1e6, "b", 2.5], [(T0_MS + 60000) * 1e6, "n", 3.5]],
  },
  {
    name: "IS NOT DISTINCT FROM and IS DISTINCT FROM of two units",
    sql: "SELECT a.k, a.ts IS DISTINCT FROM b.ts AS d FROM ms_t a JOIN ns_t b ON a.k = b.k " +
      "WHERE a.ts IS NOT DISTINCT FROM b.ts ORDER BY a.k",
    schema: [["k", "String"], ["d", "Boolean"]],
    rows: [["a", false], ["b", false]],
  },
  {
    name: "a time literal after IS DISTINCT FROM is a time",
    sql: "SELECT k, ts IS DISTINCT FROM '2024-01-01 00:00:02' AS d FROM ns_t ORDER BY k",
    schema: [["k", "String"], ["d", "Boolean"]],
    rows: [["a", true], ["b", false], ["n", true]],
  },
  {
    name: "an IN list of another unit's expressions",
    sql: "SELECT a.k FROM ms_t a, ns_t b WHERE a.ts IN (b.ts, b.ts + INTERVAL '5 seconds') AND b.k = 'a' " +
      "ORDER BY a.k",
    schema: [["k", "String"]],
    rows: [["a"], ["m"]],
  },
  {
    name: "nullif keeps its first value's type",
    sql: "SELECT k FROM ms_t WHERE ts = nullif((SELECT max(ts) FROM ns_t WHERE k = 'b'), 0)",
    schema: [["k", "String"]],
    rows: [["b"]],
  },
  {
    name: "COALESCE of two units answers the coarser, every value in it",
    sql: "SELECT a.k, coalesce(b.ts, a.ts) AS t FROM ms_t a LEFT JOIN ns_t b ON a.k = b.k ORDER BY a.k",
    schema: [["k", "String"], ["t", "TimestampMillisecond"]],
    rows: [["a", T0_MS], ["b", T0_MS + 2000], ["m", T0_MS + 5000]],
  },
  {
    name: "and CASE",
    sql: "SELECT CASE WHEN s.v > 1 THEN s.ts ELSE n.ts END AS t FROM s_t s JOIN ns_t n ON s.k = n.k",
    schema: [["t", "TimestampSecond"]],
    rows: [[T0_MS / 1000]],
  },
  {
    name: "a scalar subquery minus an interval keeps the subquery's unit",
    sql: "SELECT (SELECT max(ts) FROM ns_t) - INTERVAL '1 minute' AS t",
    schema: [["t", "TimestampNanosecond"]],
    rows: [[T0_MS * 1_000_000]],
  },
];

Deno.test("compounds nested in subqueries meet in the coarsest unit", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: NESTED }));

Deno.test("a time column compared with a timestamp expression of another unit meets it", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: EXPRESSIONS }));

/** Brackets after a time comparison that are no calls keep their own segment (text stays text). */
const NOT_CALLS: SqlCase[] = [
  {
    name: "AND (a string comparison) after a time comparison",
    sql: "SELECT k FROM ns_t WHERE ts < '2024-01-01 00:00:30' AND (k = 'b') ORDER BY k",
    schema: [["k", "String"]],
    rows: [["b"]],
  },
  {
    name: "nested brackets, a call and NOT ( … ) as /v1/logs writes them",
    sql: "SELECT k FROM ms_t WHERE ts >= '2024-01-01' AND (((starts_with(k, 'm'))) AND ((k = 'm'))) " +
      "AND NOT (k = 'x') ORDER BY ts",
    schema: [["k", "String"]],
    rows: [["m"]],
  },
  {
    name: "OR ( … ) and CASE WHEN ( … ) THEN ( … )",
    sql: "SELECT CASE WHEN (k = 'a') THEN ('first') ELSE ('other') END AS c FROM s_t " +
      "WHERE ts > '2023-12-31' OR (k = 'zz') ORDER BY k",
    schema: [["c", "String"]],
    rows: [["first"], ["other"]],
  },
];

Deno.test("a bracket after a keyword is no call: its strings stay strings", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: NOT_CALLS }));
