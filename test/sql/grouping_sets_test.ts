/**
 * ROLLUP, CUBE and GROUPING SETS run as a UNION ALL of one GROUP BY per set: the columns a set leaves
 * out are NULL, `grouping(x)` is DataFusion's Int32 bit, HAVING filters each set's groups and ORDER BY /
 * LIMIT the whole result; the columns are named and typed as the plain GROUP BY names and types them.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";
import { HOST_REGION_SETUP } from "./fixtures_host_region.ts";

const ROLLUP_ROWS = [
  [null, null, 4],
  ["a", null, 2],
  ["a", "east", 1],
  ["a", "west", 3],
  ["b", null, 6],
  ["b", "east", 6],
];

const CASES: SqlCase[] = [
  {
    sql: "SELECT host, region, avg(v) FROM t GROUP BY ROLLUP(host, region) " +
      "ORDER BY host NULLS FIRST, region NULLS FIRST",
    schema: [["host", "String"], ["region", "String"], ["avg(t.v)", "Float64"]],
    rows: ROLLUP_ROWS,
  },
  {
    name: "the same as GROUPING SETS",
    sql: "SELECT host, region, avg(v) FROM t GROUP BY GROUPING SETS ((host, region), (host), ()) " +
      "ORDER BY host NULLS FIRST, region NULLS FIRST",
    schema: [["host", "String"], ["region", "String"], ["avg(t.v)", "Float64"]],
    rows: ROLLUP_ROWS,
  },
  {
    name: "CUBE: every subset; DataFusion's default NULLS LAST when ascending",
    sql: "SELECT host, region, count(*) AS n FROM t GROUP BY CUBE(host, region) ORDER BY host, region",
    schema: [["host", "String"], ["region", "String"], ["n", "Int64"]],
    rows: [
      ["a", "east", 1],
      ["a", "west", 1],
      ["a", null, 2],
      ["b", "east", 2],
      ["b", null, 2],
      [null, "east", 3],
      [null, "west", 1],
      [null, null, 4],
    ],
  },
  {
    name: "sets that share no column: the time column keeps its type",
    sql: "SELECT host, max(ts) AS last, region FROM t GROUP BY GROUPING SETS ((host), (region)) " +
      "ORDER BY host NULLS LAST, region NULLS LAST",
    schema: [["host", "String"], ["last", "TimestampMillisecond"], ["region", "String"]],
    rows: [["a", 2000, null], ["b", 4000, null], [null, 4000, "east"], [null, 2000, "west"]],
  },
  {
    name: "a time column grouped in a ROLLUP",
    sql: "SELECT ts, host, sum(v) FROM t WHERE v > 2 GROUP BY ROLLUP(host, ts) ORDER BY host, ts",
    schema: [["ts", "TimestampMillisecond"], ["host", "String"], ["sum(t.v)", "Float64"]],
    rows: [[2000, "a", 3], [null, "a", 3], [3000, "b", 5], [4000, "b", 7], [null, "b", 12], [null, null, 15]],
  },
  {
    name: "a plain column beside a ROLLUP, and grouping()",
    sql: "SELECT host, region, grouping(region) AS g, count(*) AS n FROM t GROUP BY host, ROLLUP(region) " +
      "ORDER BY host, g, region",
    schema: [["host", "String"], ["region", "String"], ["g", "Int32"], ["n", "Int64"]],
    rows: [
      ["a", "east", 0, 1],
      ["a", "west", 0, 1],
      ["a", null, 1, 2],
      ["b", "east", 0, 2],
      ["b", null, 1, 2],
    ],
  },
  {
    name: "grouping() unaliased, ordered by repeating it",
    sql: "SELECT host, grouping(host), count(*) FROM t GROUP BY ROLLUP(host) ORDER BY grouping(host), host",
    schema: [["host", "String"], ["grouping(t.host)", "Int32"], ["count(*)", "Int64"]],
    rows: [["a", 0, 2], ["b", 0, 2], [null, 1, 4]],
  },
  {
    name: "HAVING filters the groups of every set; LIMIT the whole result",
    sql: "SELECT host, region, sum(v) AS s FROM t GROUP BY ROLLUP(host, region) HAVING sum(v) > 3 " +
      "ORDER BY s DESC, host NULLS FIRST, region NULLS FIRST LIMIT 3",
    schema: [["host", "String"], ["region", "String"], ["s", "Float64"]],
    rows: [[null, null, 16], ["b", null, 12], ["b", "east", 12]],
  },
  {
    name: "HAVING on a column a set leaves out sees NULL there",
    sql: "SELECT host, count(*) AS n FROM t GROUP BY ROLLUP(host) HAVING host IS NULL OR host = 'a' " +
      "ORDER BY host",
    schema: [["host", "String"], ["n", "Int64"]],
    rows: [["a", 2], [null, 4]],
  },
  {
    name: "an expression grouped by its alias",
    sql: "SELECT upper(host) AS h, count(*) AS n FROM t GROUP BY ROLLUP(h) ORDER BY h",
    schema: [["h", "String"], ["n", "Int64"]],
    rows: [["A", 2], ["B", 2], [null, 4]],
  },
  {
    name: "in a derived table",
    sql: "SELECT count(*) AS groups FROM (SELECT host, region FROM t GROUP BY CUBE(host, region)) x",
    schema: [["groups", "Int64"]],
    rows: [[8]],
  },
  {
    name: "a time bucket rolled up keeps its timestamp type",
    sql:
      "SELECT date_trunc('second', ts) AS sec, host, count(*) AS n FROM t WHERE ts >= '1970-01-01 00:00:03' " +
      "GROUP BY ROLLUP(host, sec) ORDER BY host, sec",
    schema: [["sec", "TimestampMillisecond"], ["host", "String"], ["n", "Int64"]],
    rows: [[3000, "b", 1], [4000, "b", 1], [null, "b", 2], [null, null, 2]],
  },
  {
    name: "a ROLLUP member of a UNION",
    sql: "SELECT host, count(*) AS n FROM t GROUP BY ROLLUP(host) UNION ALL SELECT 'z', 0 ORDER BY n, host",
    schema: [["host", "String"], ["n", "Int64"]],
    rows: [["z", 0], ["a", 2], ["b", 2], [null, 4]],
  },
  {
    name: "ORDER BY an expression that is no output column is refused",
    sql: "SELECT host, count(*) FROM t GROUP BY ROLLUP(host) ORDER BY max(v)",
    error: { status: 400, message: "must name an output column or repeat a select item: max(v)" },
  },
  {
    name: "DISTINCT removes the rows two sets share",
    sql:
      "SELECT DISTINCT host, count(*) AS n FROM t GROUP BY GROUPING SETS ((host), (host), ()) ORDER BY host",
    schema: [["host", "String"], ["n", "Int64"]],
    rows: [["a", 2], ["b", 2], [null, 4]],
  },
  {
    name: "window functions over the grouping sets: in a query around them",
    sql: "SELECT host, n, rank() OVER (ORDER BY n DESC) AS r FROM " +
      "(SELECT host, count(*) AS n FROM t GROUP BY ROLLUP(host)) ORDER BY r, host",
    schema: [["host", "String"], ["n", "Int64"], ["r", "UInt64"]],
    rows: [[null, 4, 1], ["a", 2, 2], ["b", 2, 2]],
  },
  {
    name: "a window function beside the grouping sets is refused",
    sql: "SELECT host, rank() OVER (ORDER BY count(*)) FROM t GROUP BY ROLLUP(host)",
    error: { status: 400, message: "compute them in a query around it" },
  },
  {
    name: "QUALIFY beside grouping sets is refused too",
    sql: "SELECT host, count(*) FROM t GROUP BY ROLLUP(host) QUALIFY rank() OVER (ORDER BY count(*)) = 1",
    error: { status: 400, message: "compute them in a query around it" },
  },
  {
    name: "a plain UNION is named by its first SELECT",
    sql: "SELECT avg(v) FROM t UNION ALL SELECT avg(v) FROM t WHERE v > 4",
    schema: [["avg(t.v)", "Float64"]],
    rows: [[4], [6]],
  },
  {
    name: "CUBE over too many columns is refused",
    sql:
      "SELECT count(*) FROM t GROUP BY CUBE(host, region, v, ts, host, region, v, ts, host, region, v, ts, host)",
    error: { status: 400, code: 1004, message: "at most 256" },
  },
  {
    name: "a select list of * is refused",
    sql: "SELECT * FROM t GROUP BY ROLLUP(host, region, ts, v)",
    error: { status: 400, message: "not *" },
  },
];

Deno.test("GROUP BY ROLLUP, CUBE and GROUPING SETS", (t) =>
  runOnServer(t, HOST_REGION_SETUP, { kind: "cases", cases: CASES }));
