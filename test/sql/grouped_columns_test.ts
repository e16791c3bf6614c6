/**
 * An aggregating SELECT (GROUP BY, or an aggregate call) may read a column outside an aggregate only
 * where it is a GROUP BY key: DataFusion refuses the rest with a plan error naming the column and
 * what is available (SQLite would answer an arbitrary row's value). Expressions of the keys, ordinals,
 * aliases, constants, windows over aggregates and range queries stay valid.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";
import { HOST_REGION_SETUP } from "./fixtures_host_region.ts";

/** DataFusion's message for `column` read by `clause` with only `available` computed. */
function notGrouped(column: string, available: string, clause = "SELECT"): SqlCase["error"] {
  return {
    status: 400,
    code: 3000,
    message: `Failed to plan SQL: Error during planning: Column in ${clause} must be in GROUP BY or an ` +
      `aggregate function: While expanding wildcard, column "${column}" must appear in the GROUP BY ` +
      `clause or must be part of an aggregate function, currently only "${available}" appears in the ` +
      "SELECT clause satisfies this requirement",
  };
}

const REFUSED: SqlCase[] = [
  { sql: "SELECT host, v FROM t GROUP BY host", error: notGrouped("t.v", "t.host") },
  {
    name: "an aggregate without GROUP BY beside a column",
    sql: "SELECT host, count(*) FROM t",
    error: notGrouped("t.host", "count(*)"),
  },
  {
    name: "every key and aggregate is listed as available",
    sql: "SELECT host, region, avg(v), ts FROM t GROUP BY host, region",
    error: notGrouped("t.ts", "t.host, t.region, avg(t.v)"),
  },
  { sql: "SELECT host FROM t GROUP BY host HAVING v > 1", error: notGrouped("t.v", "t.host", "HAVING") },
  {
    name: "select * over a grouping",
    sql: "SELECT * FROM t GROUP BY host",
    error: notGrouped("t.ts", "t.host"),
  },
  {
    name: "inside an expression, through an alias of the relation",
    sql: "SELECT x.host, x.v + 1 FROM t AS x GROUP BY host",
    error: notGrouped("x.v", "x.host"),
  },
  {
    name: "in a window function's argument",
    sql: "SELECT host, lag(v) OVER (ORDER BY host) FROM t GROUP BY host",
    error: notGrouped("t.v", "t.host"),
  },
  {
    name: "in a derived table",
    sql: "SELECT * FROM (SELECT region, v FROM t GROUP BY region) AS s",
    error: notGrouped("t.v", "t.region"),
  },
  {
    name: "an ordinal key shows as the item it names",
    sql: "SELECT upper(host), region, max(v) FROM t GROUP BY 1",
    error: notGrouped("t.region", "upper(t.host), max(t.v)"),
  },
  {
    name: "ORDER BY an ungrouped column",
    sql: "SELECT host, avg(v) FROM t GROUP BY host ORDER BY ts",
    error: notGrouped("t.ts", "t.host, avg(t.v)", "ORDER BY"),
  },
  {
    name: "ORDER BY an expression of an ungrouped column, qualified, after a key",
    sql: "SELECT host AS h, count(*) FROM t AS x GROUP BY host ORDER BY h, x.v * 2 DESC NULLS LAST",
    error: notGrouped("x.v", "x.host, count(*)", "ORDER BY"),
  },
];

const VALID: SqlCase[] = [
  {
    name: "expressions of the keys, an ordinal key, and HAVING on an item's alias",
    sql: "SELECT upper(host) AS h, count(*) AS c, avg(v) FROM t GROUP BY 1 HAVING c > 1 ORDER BY h",
    rows: [["A", 2, 2], ["B", 2, 6]],
  },
  {
    name: "a key named by its alias",
    sql: "SELECT host || '-' || region AS hr, sum(v) FROM t GROUP BY hr ORDER BY hr",
    rows: [["a-east", 1], ["a-west", 3], ["b-east", 12]],
  },
  {
    name: "constants beside a qualified key grouped unqualified",
    sql: "SELECT 'x', 1 + 1, t.host, count(*) FROM t GROUP BY host ORDER BY t.host",
    rows: [["x", 2, "a", 2], ["x", 2, "b", 2]],
  },
  {
    name: "an expression key",
    sql: "SELECT v > 2, count(*) FROM t GROUP BY v > 2 ORDER BY 1",
    rows: [[false, 1], [true, 3]],
  },
  {
    name: "HAVING on keys and aggregates, ORDER BY an aggregate",
    sql: "SELECT region, max(v) FROM t GROUP BY region HAVING count(*) > 1 AND region <> 'x' " +
      "ORDER BY max(v) DESC",
    rows: [["east", 7]],
  },
  {
    name: "window functions over the aggregation",
    sql: "SELECT host, sum(count(*)) OVER () AS all_rows, rank() OVER (ORDER BY host DESC) AS r " +
      "FROM t GROUP BY host ORDER BY host",
    rows: [["a", 4, 2], ["b", 4, 1]],
  },
  {
    name: "a column inside an aggregate's FILTER and a correlated subquery's aggregate",
    sql: "SELECT host, count(*) FILTER (WHERE region = 'east') AS e FROM t " +
      "WHERE v >= (SELECT min(v) FROM t AS u WHERE u.host = t.host) GROUP BY host ORDER BY host",
    rows: [["a", 1], ["b", 2]],
  },
  {
    name: "date_bin as the key",
    sql: "SELECT date_bin(INTERVAL '2 seconds', ts) AS b, count(*) FROM t " +
      "GROUP BY date_bin(INTERVAL '2 seconds', ts) ORDER BY b",
    rows: [[0, 1], [2000, 2], [4000, 1]],
  },
  {
    name: "ORDER BY keys, aliases (also one shadowing a column), ordinals, aggregates and key expressions",
    sql: "SELECT host, region AS r, max(v) AS v FROM t GROUP BY host, region " +
      "ORDER BY upper(t.host) DESC, 2, r, v, min(v) + 1 ASC",
    rows: [["b", "east", 7], ["a", "east", 1], ["a", "west", 3]],
  },
  {
    name: "the ORDER BY of a union sorts its output by name",
    sql: "SELECT host AS ts, 0 FROM t WHERE v > 6 UNION ALL SELECT host, count(*) FROM t GROUP BY host " +
      "ORDER BY ts, 2",
    rows: [["a", 2], ["b", 0], ["b", 2]],
  },
  {
    name: "a range query keeps its own rules",
    sql: "SELECT ts, host, max(v) RANGE '4s' FROM t ALIGN '4s' ORDER BY host, ts",
    // one series per primary key (host, region)
    rows: [[0, "a", 1], [0, "a", 3], [0, "b", 5], [4000, "b", 7]],
  },
];

Deno.test("GROUP BY: ungrouped columns are refused as DataFusion refuses them", (t) =>
  runOnServer(t, HOST_REGION_SETUP, { kind: "cases", cases: [...REFUSED, ...VALID] }));
