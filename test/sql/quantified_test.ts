/**
 * Quantified comparisons with a subquery (`= ANY`, `<> ALL`, `> ANY`, `>= ALL`, `SOME`), with SQL's
 * NULL rules: a NULL that could decide the answer makes it NULL, and an empty subquery makes ANY
 * false and ALL true. `= ANY (array)` over an array literal is an IN list; other operators over an
 * array are refused, as DataFusion does.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const CASES: SqlCase[] = [
  {
    sql: "SELECT host, usage FROM cpu WHERE usage = ANY (SELECT v FROM lim) ORDER BY ts",
    schema: [["host", "String"], ["usage", "Float64"]],
    rows: [["a", 1], ["b", 5], ["a", 2]],
  },
  {
    name: "<> ALL over a subquery without NULLs",
    sql: "SELECT host, usage FROM cpu WHERE usage <> ALL (SELECT v FROM lim) ORDER BY ts",
    schema: [["host", "String"], ["usage", "Float64"]],
    rows: [["c", 7]],
  },
  {
    name: "<> ALL over a subquery holding a NULL matches nothing",
    sql: "SELECT host FROM cpu WHERE usage <> ALL (SELECT usage FROM cpu WHERE host = 'b')",
    schema: [["host", "String"]],
    rows: [],
  },
  {
    sql: "SELECT usage, usage > ANY (SELECT v FROM lim) AS gt, usage >= ALL (SELECT v FROM lim) AS ge, " +
      "usage < SOME (SELECT v FROM lim) AS lt FROM cpu ORDER BY ts",
    schema: [["usage", "Float64"], ["gt", "Boolean"], ["ge", "Boolean"], ["lt", "Boolean"]],
    rows: [
      [1, false, false, true],
      [5, true, true, false],
      [2, true, false, true],
      [null, null, null, null],
      [7, true, true, false],
    ],
  },
  {
    name: "an empty subquery: ANY is false and ALL is true, even for NULL",
    sql:
      "SELECT usage < ANY (SELECT v FROM lim WHERE v > 100) AS a, usage < ALL (SELECT v FROM lim WHERE v > 100) " +
      "AS b FROM cpu WHERE host = 'b' ORDER BY ts",
    schema: [["a", "Boolean"], ["b", "Boolean"]],
    rows: [[false, true], [false, true]],
  },
  {
    name: "a NULL in the subquery makes an undecided answer NULL",
    sql: "SELECT 8 > ALL (SELECT usage FROM cpu) AS a, 0 > ANY (SELECT usage FROM cpu) AS b, " +
      "2 <> ANY (SELECT usage FROM cpu) AS c, 1 = ALL (SELECT 1) AS d",
    schema: [["a", "Boolean"], ["b", "Boolean"], ["c", "Boolean"], ["d", "Boolean"]],
    rows: [[null, null, true, true]],
  },
  {
    name: "a correlated subquery and an arithmetic left operand",
    sql: "SELECT host, ts FROM cpu c WHERE usage + 0 >= ALL (SELECT usage FROM cpu d WHERE d.host = c.host " +
      "AND usage IS NOT NULL) ORDER BY host",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"]],
    rows: [["a", 2000], ["b", 1500], ["c", 4000]],
  },
  {
    name: "= ANY over an array literal (DataFusion's array_has)",
    sql: "SELECT host, usage = ANY ([5, 7]) AS hit FROM cpu WHERE host = ANY (ARRAY['b', 'c']) ORDER BY ts",
    schema: [["host", "String"], ["hit", "Boolean"]],
    rows: [["b", true], ["b", null], ["c", true]],
  },
  {
    sql: "SELECT host FROM cpu WHERE usage = ANY (make_array(1, 2)) ORDER BY ts",
    schema: [["host", "String"]],
    rows: [["a"], ["a"]],
  },
  {
    sql: "SELECT host FROM cpu WHERE usage > ANY ([1, 2])",
    error: { code: 3000, message: "Unsupported AnyOp: '>', only '=' is supported" },
  },
  {
    sql: "SELECT host FROM cpu WHERE usage = ANY (1)",
    error: { code: 1001, message: "ANY takes a subquery (SELECT …) or, after =, an array" },
  },
];

const SETUP = [
  "CREATE TABLE cpu (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, usage DOUBLE)",
  "INSERT INTO cpu VALUES (1000, 'a', 1), (2000, 'a', 2), (1500, 'b', 5), (3000, 'b', NULL), (4000, 'c', 7)",
  "CREATE TABLE lim (ts TIMESTAMP TIME INDEX, v BIGINT)",
  "INSERT INTO lim VALUES (1, 1), (2, 2), (3, 5)",
];

Deno.test("ANY, SOME and ALL compare with every row of a subquery", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
