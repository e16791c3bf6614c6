/** `/v1/sql/parse`: GreptimeDB's AST of DESCRIBE TABLE; other statements refused by name. */

import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

const ZERO = { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } };

Deno.test("/v1/sql/parse", async (t) => {
  const s = await startTestServer();
  const parse = (sql: string, init?: RequestInit) =>
    fetch(`${s.url}/v1/sql/parse?sql=${encodeURIComponent(sql)}`, init);
  try {
    await t.step("desc table t is GreptimeDB's DescribeTable node, byte for byte", async () => {
      const res = await parse("desc table t");
      assert.equal(res.status, 200);
      assert.equal(
        await res.text(),
        '[{"DescribeTable":{"name":[{"Identifier":{"value":"t","quote_style":null,' +
          '"span":{"start":{"line":0,"column":0},"end":{"line":0,"column":0}}}}]}}]',
      );
    });

    await t.step("bare names are lower-cased, quoted ones keep case, quote and place", async () => {
      const res = await parse('DESCRIBE Public."My T";\ndesc x');
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), [
        {
          DescribeTable: {
            name: [
              { Identifier: { value: "public", quote_style: null, span: ZERO } },
              {
                Identifier: {
                  value: "My T",
                  quote_style: '"',
                  span: { start: { line: 1, column: 17 }, end: { line: 1, column: 23 } },
                },
              },
            ],
          },
        },
        { DescribeTable: { name: [{ Identifier: { value: "x", quote_style: null, span: ZERO } }] } },
      ]);
    });

    await t.step("the sql form field works as the query parameter does", async () => {
      const res = await fetch(`${s.url}/v1/sql/parse`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "sql=desc+table+t",
      });
      assert.equal(res.status, 200);
      assert.equal((await res.json())[0].DescribeTable.name[0].Identifier.value, "t");
    });

    await t.step("missing sql → 400 naming the parameter", async () => {
      const res = await fetch(`${s.url}/v1/sql/parse`);
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), { error: "Invalid query: sql parameter is required." });
    });

    await t.step("syntax errors → 400 with the parser's message", async () => {
      // a token after a whole statement: GreptimeDB's statement loop wants a `;` there
      const res = await parse("desc table t u");
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), { error: "SQL statement is not supported, keyword: u" });
      // a number is no implicit alias: the SELECT ends before it (parsed, not "no AST")
      const numberAfter = await parse("SELECT 1 2");
      assert.equal(numberAfter.status, 400);
      assert.deepEqual(await numberAfter.json(), { error: "SQL statement is not supported, keyword: 2" });
      const inCall = await parse("SELECT f(1 2)");
      assert.equal(inCall.status, 400);
      assert.match(
        (await inCall.json()).error,
        /^sql parser error: Expected: \), found: 2 at Line: 1, Column: 12$/,
      );
      const notStatement = await parse("42");
      assert.equal(notStatement.status, 400);
      assert.match((await notStatement.json()).error, /Expected: an SQL statement, found: 42/);
      // a statement of commas only (the lexer drops trailing commas: none is left)
      const commas = await parse("desc table t; ,");
      assert.equal(commas.status, 400);
      assert.match(
        (await commas.json()).error,
        /Expected: an SQL statement, found: , at Line: 1, Column: 15/,
      );
    });

    await t.step("a misspelt statement is the parser's 400, not a missing AST", async () => {
      const res = await parse("selec * from t");
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), {
        error: "sql parser error: Expected: an SQL statement, found: selec at Line: 1, Column: 1",
      });
      const second = await parse("desc t; selec 1");
      assert.equal(second.status, 400);
      assert.match((await second.json()).error, /found: selec at Line: 1, Column: 9/);
    });

    await t.step("statements whose AST Petrel cannot render → 501 naming them", async () => {
      const res = await parse("SELECT 1");
      assert.equal(res.status, 501);
      assert.match((await res.json()).error, /AST of SELECT statements is not available/);
      const bracketed = await parse("(SELECT 1)");
      assert.equal(bracketed.status, 501);
      assert.match((await bracketed.json()).error, /AST of SELECT statements is not available/);
    });
  } finally {
    await s.stop();
  }
});
