/**
 * `SIMILAR TO` and `IS [NOT] UNKNOWN` as DataFusion plans them: `x SIMILAR TO p` is its regex match
 * `x ~ p` (a Rust regex found anywhere in `x`), `b IS UNKNOWN` on a boolean is `b IS NULL`; both are
 * named and typed as DataFusion names and types them.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP TIME INDEX, host STRING, ok BOOLEAN, PRIMARY KEY (host))",
  "INSERT INTO t VALUES (1000, 'a', true), (2000, 'b', NULL), (3000, 'ab', false), (4000, 'cd', NULL)",
];

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
];

Deno.test("SIMILAR TO and IS UNKNOWN", (t) => runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
