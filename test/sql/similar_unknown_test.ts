/**
 * `SIMILAR TO` and `IS [NOT] UNKNOWN` as DataFusion plans them: `x SIMILAR TO p` is its regex match
 * `x ~ p` (a Rust regex found anywhere in `x`), `b IS UNKNOWN` on a boolean is `b IS NULL`; both are
 * named and typed as DataFusion names and types them.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP TIME INDEX, host STRING, ok BOOLEAN, n BIGINT, PRIMARY KEY (host))",
  "INSERT INTO t VALUES (1000, 'a', true, 1), (2000, 'b', NULL, 0), (3000, 'ab', false, NULL), " +
  "(4000, 'cd', NULL, 5)",
];

/** DataFusion's type coercion error for a truth test (IS UNKNOWN, IS TRUE, …) of a `type` operand. */
function notBoolean(type: string): SqlCase["error"] {
  return {
    status: 400,
    code: 3000,
    message: `Cannot infer common argument type for comparison operation ${type} IS DISTINCT FROM Boolean`,
  };
}

const CASES: SqlCase[] = [
  {
    name: "SIMILAR TO in a select list is a Boolean named after the expression",
    sql: "SELECT host, host SIMILAR TO 'a|c' FROM t ORDER BY host",
    schema: [["host", "String"], ['t.host SIMILAR TO Utf8("a|c")', "Boolean"]],
    rows: [["a", true], ["ab", true], ["b", false], ["cd", true]],
  },
  {
    name: "the pattern is a regex matched anywhere (anchors and classes are the regex's)",
    sql: "SELECT host FROM t WHERE host SIMILAR TO '^[ab]+$' AND host SIMILAR TO 'b' ORDER BY host",
    rows: [["ab"], ["b"]],
  },
  {
    name: "NOT SIMILAR TO, with a column as the pattern",
    sql: "SELECT host, host NOT SIMILAR TO '(a|b)*d' AS plain FROM t ORDER BY host",
    schema: [["host", "String"], ["plain", "Boolean"]],
    rows: [["a", true], ["ab", true], ["b", true], ["cd", false]],
  },
  {
    name: "a pattern from a column",
    sql: "SELECT count(*) FROM t WHERE 'xaby' SIMILAR TO host",
    rows: [[3]],
  },
  {
    name: "a NULL operand gives NULL",
    sql: "SELECT NULL SIMILAR TO 'a', 'a' SIMILAR TO NULL",
    rows: [[null, null]],
  },
  {
    name: "an ESCAPE clause is refused",
    sql: "SELECT 'a' SIMILAR TO 'a' ESCAPE '!'",
    error: { status: 400, code: 3000, message: "SIMILAR TO does not support escape_char" },
  },
  {
    name: "a pattern that is no regex fails naming it",
    sql: "SELECT host SIMILAR TO '(' FROM t",
    error: { status: 400, message: "regex parse error: (: unclosed group" },
  },
  {
    name: "IS UNKNOWN and IS NOT UNKNOWN of a boolean column",
    sql: "SELECT host, ok IS UNKNOWN, ok IS NOT UNKNOWN FROM t ORDER BY host",
    schema: [["host", "String"], ["t.ok IS UNKNOWN", "Boolean"], ["t.ok IS NOT UNKNOWN", "Boolean"]],
    rows: [["a", false, true], ["ab", false, true], ["b", true, false], ["cd", true, false]],
  },
  {
    name: "IS UNKNOWN in WHERE, of a boolean expression",
    sql: "SELECT host FROM t WHERE (ok OR host = 'a') IS NOT UNKNOWN ORDER BY host",
    rows: [["a"], ["ab"]],
  },
  {
    name: "IS TRUE and IS NOT FALSE of booleans (a column, a comparison, a literal) stay valid",
    sql:
      "SELECT host, ok IS TRUE, (n > 0) IS NOT FALSE, NOT ok IS FALSE, true IS UNKNOWN FROM t ORDER BY host",
    rows: [["a", true, true, true, false], ["ab", false, true, false, false], [
      "b",
      false,
      false,
      true,
      false,
    ], [
      "cd",
      false,
      true,
      true,
      false,
    ]],
  },
  {
    name: "IS UNKNOWN of an integer column is refused as DataFusion's type coercion refuses it",
    sql: "SELECT host FROM t WHERE n IS UNKNOWN",
    error: notBoolean("Int64"),
  },
  {
    name: "IS NOT UNKNOWN of a string column",
    sql: "SELECT host IS NOT UNKNOWN FROM t",
    error: notBoolean("Utf8"),
  },
  { name: "IS UNKNOWN of a number literal", sql: "SELECT 1.5 IS UNKNOWN", error: notBoolean("Float64") },
  { name: "IS TRUE of an integer literal", sql: "SELECT 5 IS TRUE", error: notBoolean("Int64") },
  {
    name: "IS NOT FALSE of a qualified integer column after AND",
    sql: "SELECT host FROM t WHERE ok AND t.n IS NOT FALSE",
    error: notBoolean("Int64"),
  },
];

Deno.test("SIMILAR TO and IS UNKNOWN", (t) => runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
