/** `/v1/sql/format`: statements re-printed as GreptimeDB's parser prints them. */

import assert from "node:assert/strict";
import { formatSql } from "../../src/sql/format.ts";
import { startTestServer } from "../helpers/server.ts";

const CASES: Array<[string, string]> = [
  ["select 1 as x", "SELECT 1 AS x;"],
  ["select  a,b from t where x=1 and y!='z'", "SELECT a, b FROM t WHERE x = 1 AND y <> 'z';"],
  [
    "select count(*),max(v) from cpu group by host order by host desc limit 10 offset 5",
    "SELECT count(*), max(v) FROM cpu GROUP BY host ORDER BY host DESC LIMIT 10 OFFSET 5;",
  ],
  [
    "select * from t where x in (1,2) and not exists (select 1)",
    "SELECT * FROM t WHERE x IN (1, 2) AND NOT EXISTS (SELECT 1);",
  ],
  ["select a-1, -2, x*(y+-3) from t", "SELECT a - 1, -2, x * (y + -3) FROM t;"],
  [
    "select cast(v as double), v::string, t.host from t",
    "SELECT CAST(v AS DOUBLE), v::STRING, t.host FROM t;",
  ],
  [
    "select left(s, 2) from t inner join u on t.id = u.id left outer join w using (id)",
    "SELECT left(s, 2) FROM t JOIN u ON t.id = u.id LEFT JOIN w USING (id);",
  ],
  [
    "insert into t(host, ts) values ('a', 1), ('b', 2)",
    "INSERT INTO t (host, ts) VALUES ('a', 1), ('b', 2);",
  ],
  [
    "create table if not exists m (host string, ts timestamp(3) time index, v double, primary key(host)) engine=mito",
    "CREATE TABLE IF NOT EXISTS m (host STRING, ts TIMESTAMP(3) TIME INDEX, v DOUBLE, PRIMARY KEY (host)) ENGINE = mito;",
  ],
  [
    'select "Host", `order` from "My Table" where flag = TRUE',
    'SELECT "Host", `order` FROM "My Table" WHERE flag = true;',
  ],
  ["select 1; show tables", "SELECT 1;\nSHOW TABLES;"],
  ["select x -- a comment\nfrom t /* another */", "SELECT x FROM t;"],
];

/** Invalid statements and the parser error /v1/sql/format answers for them. */
const INVALID: Array<[string, string]> = [
  ["SELECT 1 +", "Expected: an expression, found: EOF at Line: 1, Column: 11"],
  ["SELECT FROM t", "Expected: an expression, found: FROM at Line: 1, Column: 8"],
  ["SELECT * FROM", "Expected: identifier, found: EOF at Line: 1, Column: 14"],
  ["SELECT * FROM t WHERE", "Expected: an expression, found: EOF at Line: 1, Column: 22"],
  ["SELECT v + * 2 FROM t", "Expected: an expression, found: * at Line: 1, Column: 12"],
  ["SELECT a,, b FROM t", "Expected: an expression, found: , at Line: 1, Column: 10"],
  ["SELECT (1", "Expected: ), found: EOF at Line: 1, Column: 10"],
  // a number is no implicit alias (only a word or a quoted string is): inside brackets they end there
  ["SELECT f(1 2)", "Expected: ), found: 2 at Line: 1, Column: 12"],
  ["SELECT [1, 2 3]", "Expected: ], found: 3 at Line: 1, Column: 14"],
  // sqlparser takes GROUP and ORDER only with BY: inside brackets the query ends before a lone one
  ["SELECT (SELECT 1 FROM t ORDER v)", "Expected: ), found: ORDER at Line: 1, Column: 25"],
  ["SELECT 1;\nDROP TABLE", "Expected: identifier, found: EOF at Line: 2, Column: 11"],
  ["selec 1", "Expected: an SQL statement, found: selec at Line: 1, Column: 1"],
  // a statement of commas only (the lexer drops trailing commas: none is left)
  [",", "Expected: an SQL statement, found: , at Line: 1, Column: 1"],
  ["SELECT 1;\n , ,", "Expected: an SQL statement, found: , at Line: 2, Column: 2"],
];

/**
 * Tokens left after a whole statement: GreptimeDB's statement loop wants a `;` there and answers
 * Unsupported (1001) naming the token.
 */
const TRAILING: Array<[string, string]> = [
  ["SELECT 1 2", "2"],
  ["SELECT count(*) 5 FROM t", "5"],
  ["SELECT 'a' 1.5", "1.5"],
  ["SELECT 1)", ")"],
  // a lone GROUP or ORDER ends the query (sqlparser takes them only with BY)
  ["SELECT * FROM t GROUP host", "GROUP"],
];

/** Valid statements the syntax check must let through (wildcards, trailing commas, WITHIN GROUP). */
const VALID: Array<[string, string]> = [
  ["select distinct on (host) * from t", "SELECT DISTINCT ON (host) * FROM t;"],
  ["select count(*), t.*, -v from t", "SELECT count(*), t.*, -v FROM t;"],
  ["select a, b, from t", "SELECT a, b FROM t;"],
  [
    "select approx_percentile_cont(0.5) within group (order by v) from t",
    "SELECT approx_percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FROM t;",
  ],
  ["select v * 2 - 1 from t where x between 1 and 2", "SELECT v * 2 - 1 FROM t WHERE x BETWEEN 1 AND 2;"],
  // a word or a quoted string after an item is its alias
  ["select 1 a, 2 'b' from t limit 5 offset 2", "SELECT 1 a, 2 'b' FROM t LIMIT 5 OFFSET 2;"],
  ["select cast(v as decimal(10, 2)) from t", "SELECT CAST(v AS DECIMAL(10, 2)) FROM t;"],
];

Deno.test("formatSql: case table", () => {
  for (const [input, want] of [...CASES, ...VALID]) assert.equal(formatSql(input), want, input);
});

Deno.test("/v1/sql/format: GET and POST form, and GreptimeDB's errors", async () => {
  const s = await startTestServer();
  try {
    const get = await fetch(`${s.url}/v1/sql/format?sql=${encodeURIComponent("select  1 as x")}`);
    assert.equal(get.status, 200);
    assert.deepEqual(await get.json(), { formatted: "SELECT 1 AS x;" });
    const post = await fetch(`${s.url}/v1/sql/format`, {
      method: "POST",
      body: new URLSearchParams({ sql: "select a from t where b!=1" }),
    });
    assert.deepEqual(await post.json(), { formatted: "SELECT a FROM t WHERE b <> 1;" });
    const missing = await fetch(`${s.url}/v1/sql/format`);
    assert.equal(missing.status, 400);
    const body = await missing.json();
    assert.equal(body.code, 1004);
    assert.equal(body.error, "sql parameter is required.");
    const bad = await fetch(`${s.url}/v1/sql/format?sql=${encodeURIComponent("selec 1")}`);
    assert.equal(bad.status, 400);
    const err = await bad.json();
    assert.equal(err.code, 2000);
    assert.match(err.error, /Expected: an SQL statement, found: selec at Line: 1, Column: 1/);
    const unterminated = await fetch(`${s.url}/v1/sql/format?sql=${encodeURIComponent("select 'x")}`);
    assert.equal(unterminated.status, 400);
    // GreptimeDB parses before it formats: invalid SQL is the parser's ErrorResponse, not a formatting
    for (const [sql, message] of INVALID) {
      const res = await fetch(`${s.url}/v1/sql/format?sql=${encodeURIComponent(sql)}`);
      assert.equal(res.status, 400, sql);
      assert.equal(res.headers.get("x-greptime-err-code"), "2000", sql);
      const body = await res.json();
      assert.deepEqual(Object.keys(body).sort(), ["code", "error", "execution_time_ms"], sql);
      assert.equal(body.code, 2000, sql);
      assert.equal(body.error, `Invalid SQL syntax: sql parser error: ${message}`, sql);
    }
    for (const [sql, token] of TRAILING) {
      const res = await fetch(`${s.url}/v1/sql/format?sql=${encodeURIComponent(sql)}`);
      assert.equal(res.status, 400, sql);
      assert.equal(res.headers.get("x-greptime-err-code"), "1001", sql);
      const body = await res.json();
      assert.equal(body.code, 1001, sql);
      assert.equal(body.error, `SQL statement is not supported, keyword: ${token}`, sql);
    }
  } finally {
    await s.stop();
  }
});
