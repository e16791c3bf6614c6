/**
 * GreptimeDB's full-text functions over `/v1/sql`: `matches` (terms, phrases, `+`/`-`, AND/OR,
 * parentheses; case-sensitive substrings) and `matches_term` (whole terms bounded by non-alphanumeric
 * characters, also written `text @@ 'term'`), on log lines pushed through Loki as a user would search them.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

const LINES = [
  "GET /api/items 500 error=timeout",
  "GET /api/items 200 ok",
  "POST /api/cart 200 ok user=Apple",
  "cat! found in category",
  'msg="disk full" level=warn',
  "Ünïcode wörd naïve",
];

/** `matches` patterns → the 1-based line numbers that match. */
const MATCHES: Array<[string, number[]]> = [
  ["error", [1]],
  ["Error", []], // case-sensitive, as GreptimeDB's LIKE
  ["500 timeout", [1]], // side by side: either term
  ["cart items", [1, 2, 3]],
  ["+GET +ok", [2]], // both required
  ["+GET error ok", [1, 2]], // with a required term the plain ones no longer count
  ["GET -error", [2]],
  ["-GET", [3, 4, 5, 6]],
  ['"disk full"', [5]],
  ['"full disk"', []],
  ["GET AND 200", [2]],
  ["POST OR error", [1, 3]],
  ["(items OR cart) AND 200", [2, 3]],
  ["items AND 200 OR cat", [2, 4]], // AND binds tighter than OR
  ["cat", [4]], // a substring: "category" holds it too, but the line is one
  ["wörd", [6]],
  ["i_ems", []], // LIKE wildcards in a term are literal
];

Deno.test("matches and matches_term search log lines as GreptimeDB does", async (t) => {
  const server = await startTestServer();
  try {
    const base = 1_700_000_000_000_000_000n;
    const push = await fetch(`${server.url}/v1/loki/api/v1/push`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        streams: [{
          stream: { app: "web" },
          values: LINES.map((line, i) => [String(base + BigInt(i + 1) * 1_000_000_000n), line]),
        }],
      }),
    });
    assert.equal(push.status, 200, await push.text());
    const lineNo = `(greptime_timestamp - ${base}) / 1000000000`;
    const rows = async (where: string) => {
      const r = await sqlRequest(server.url, `SELECT ${lineNo} FROM loki_logs WHERE ${where} ORDER BY 1`);
      assert.equal(r.status, 200, r.text);
      return JSON.parse(r.text).output[0].records.rows.map((row: number[]) => row[0]);
    };
    for (const [pattern, expected] of MATCHES) {
      await t.step(`matches(line, ${pattern})`, async () => {
        assert.deepEqual(await rows(`matches(line, '${pattern.replaceAll("'", "''")}')`), expected);
      });
    }
    await t.step("matches_term: whole terms only", async () => {
      assert.deepEqual(await rows("matches_term(line, 'cat')"), [4]);
      assert.deepEqual(await rows("matches_term(line, 'cat!')"), [4]);
      assert.deepEqual(await rows("matches_term(line, 'categ')"), []);
      assert.deepEqual(await rows("matches_term(line, 'api/items')"), [1, 2]);
      assert.deepEqual(await rows("matches_term(line, 'wörd')"), [6]);
      assert.deepEqual(await rows("matches_term(line, 'rd')"), []); // ö is a letter: no boundary
      assert.deepEqual(await rows("matches_term(line, 'disk full')"), [5]);
    });
    await t.step("@@ is matches_term's shorthand, bound looser than || and comparisons", async () => {
      assert.deepEqual(await rows("line @@ 'cat'"), [4]);
      assert.deepEqual(await rows("line @@ 'categ'"), []);
      assert.deepEqual(await rows("lower(line) @@ 'apple' OR line @@ 'api/items'"), [1, 2, 3]);
      assert.deepEqual(await rows("NOT line @@ 'GET' AND line @@ 'ok'"), [3]);
      assert.deepEqual(await rows("line || ' tail' @@ 'ok tail'"), [2]);
      const r = await sqlRequest(server.url, "SELECT 'a b' @@ 'b' AS hit, 'ab' @@ 'b' miss");
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(JSON.parse(r.text).output[0].records.rows, [[true, false]]);
    });
    await t.step("results are Boolean; NULL text gives NULL", async () => {
      const r = await sqlRequest(
        server.url,
        "SELECT matches('a b', 'b'), matches_term('category', 'cat'), matches_term('', ''), " +
          "matches_term('x', ''), matches(NULL, 'a')",
      );
      const rec = JSON.parse(r.text).output[0].records;
      assert.deepEqual(rec.schema.column_schemas.map((c: { data_type: string }) => c.data_type), [
        "Boolean",
        "Boolean",
        "Boolean",
        "Boolean",
        "Boolean",
      ]);
      assert.deepEqual(rec.rows, [[true, false, true, false, null]]);
    });
    await t.step("a malformed pattern is a 400 naming it", async () => {
      for (const bad of ["(error", "error)", '"open', "AND", "error OR"]) {
        const r = await sqlRequest(
          server.url,
          `SELECT count(*) FROM loki_logs WHERE matches(line, '${bad}')`,
        );
        assert.equal(r.status, 400, r.text);
        assert.match(JSON.parse(r.text).error, /matches: .* in pattern/);
      }
    });
  } finally {
    await server.stop();
  }
});
