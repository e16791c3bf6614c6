/**
 * `/v1/sql` answers a malformed statement as GreptimeDB's parser does (the syntax check of
 * `/v1/sql/format`, then what SQLite's refusal tells), not with SQLite's `near "x": syntax error`,
 * and parses every statement of a request before it runs the first.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { checkCase, runCases, type SqlCase, sqlRows } from "./fixtures/sql_client.ts";

const SYNTAX = "Invalid SQL syntax: sql parser error: ";

/** A token left after a whole query: GreptimeDB's statement loop refuses it (1001). */
function leftOver(sql: string, token: string): SqlCase {
  return { sql, error: { code: 1001, message: `SQL statement is not supported, keyword: ${token}` } };
}

/** sqlparser's `Expected: …, found: …` (2000). */
function parserError(sql: string, message: string): SqlCase {
  return { sql, error: { code: 2000, message: new RegExp(`^${escape(SYNTAX + message)}$`) } };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const CASES: SqlCase[] = [
  // a number is no implicit alias (the format check)
  leftOver("SELECT 1 2", "2"),
  leftOver("SELECT * FROM t LIMIT 1 2", "2"),
  leftOver("SELECT 1.2.3", ".3"),
  leftOver("SELECT 1 + 2)", ")"),
  // a word after an alias, or after an operand that takes none (SQLite's refusal placed)
  leftOver("SELECT * FROM t extra garbage", "garbage"),
  leftOver("SELECT * FORM t", "FORM"),
  leftOver("SELECT * FROM t WHER v > 1", "v"),
  leftOver("SELECT host FROM t GROUPBY host", "host"),
  leftOver("SELECT * FROM t WHERE v > 1 host", "host"),
  leftOver("SELECT host h x FROM t", "x"),
  leftOver("SELECT * FROM t ORDER BY host DESC foo", "foo"),
  leftOver("SELECT * FROM t LIMIT 1 WHERE v > 1", "WHERE"),
  leftOver("DELETE FROM t WHERE host = 'a' foo", "foo"),
  // a token after a statement Petrel parses itself
  leftOver("INSERT INTO t VALUES ('a', 1, 0) foo", "foo"),
  leftOver("DESC TABL t", "t"),
  leftOver("TRUNCATE TABL t", "t"),
  // a word naming no kind of statement after CREATE, DROP, SHOW
  leftOver("DROP TABL t", "TABL"),
  leftOver("CREATE TABL x (ts TIMESTAMP TIME INDEX)", "TABL"),
  leftOver("SHOW TABLEZ", "TABLEZ"),
  parserError("SELECT count(host v) FROM t", "Expected: ), found: v at Line: 1, Column: 19"),
  parserError("SELECT * FROM t WHERE host IN ('a' b)", "Expected: ), found: b at Line: 1, Column: 36"),
  // an operand or a keyword missing (the format check)
  parserError("SELECT , 1", "Expected: an expression, found: , at Line: 1, Column: 8"),
  parserError("SELECT FROM t", "Expected: an expression, found: FROM at Line: 1, Column: 8"),
  parserError("SELECT * FROM t WHERE v = = 1", "Expected: an expression, found: = at Line: 1, Column: 27"),
  parserError("SELECT * FROM t WHERE", "Expected: an expression, found: EOF at Line: 1, Column: 22"),
  parserError("SELECT * FROM", "Expected: identifier, found: EOF at Line: 1, Column: 14"),
  // sqlparser takes ORDER and GROUP only with BY: the query ends before a lone one
  leftOver("SELECT * FROM t ORDER v", "ORDER"),
  leftOver("SELECT * FROM t GROUP host", "GROUP"),
  parserError(
    "SELECT count(*) FROM (SELECT * FROM t ORDER v)",
    "Expected: ), found: ORDER at Line: 1, Column: 39",
  ),
  // an unfinished CASE or BETWEEN (SQLite's `incomplete input`)
  parserError("SELECT CASE WHEN 1 THEN 2", "Expected: END, found: EOF at Line: 1, Column: 26"),
  parserError("SELECT * FROM t WHERE v BETWEEN 1", "Expected: AND, found: EOF at Line: 1, Column: 34"),
  // a second statement's mistake is found before the first runs
  leftOver("SELECT * FROM nope; SELECT 1 2", "2"),
  {
    name: "a name two joined tables have",
    sql: "SELECT host FROM t JOIN u ON t.ts = u.ts",
    error: { code: 3000, message: "Failed to plan SQL: Ambiguous reference to unqualified field host" },
  },
];

Deno.test("/v1/sql parser errors are GreptimeDB's", async (t) => {
  const server = await startTestServer();
  try {
    await checkCase(server.url, {
      sql: "CREATE TABLE t (host STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX);" +
        "CREATE TABLE u (host STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX)",
    });
    await runCases(t, server.url, CASES);
    await t.step("a request with a malformed statement runs none of its statements", async () => {
      await checkCase(server.url, leftOver("INSERT INTO t VALUES ('a', 1, 0); SELECT 1 2", "2"));
      assert.deepEqual(await sqlRows(server.url, "SELECT count(*) FROM t"), [[0]]);
    });
  } finally {
    await server.stop();
  }
});
