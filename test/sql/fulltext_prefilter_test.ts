/**
 * The `instr` prefilter in front of `matches` / `matches_term` (src/sql/rewrite/fulltext_prefilter.ts):
 * over rows chosen to trip it (case variants, terms at the edges and inside words, NULL, empty,
 * non-ASCII, quotes), every value, WHERE and `WHERE NOT` answer is the same as the unfiltered call's,
 * and EXPLAIN's plan shows the prefilter exactly where a literal pattern names required terms.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";

const ROWS: Array<string | null> = [
  "status=500",
  "Status=500",
  "STATUS=500",
  "xstatus=500",
  "status=5000",
  "a status=500, b",
  null,
  "",
  "wörd ümlaut status=500",
  "Wörd",
  "wörds",
  "disk full error",
  "full disk",
  "error timeout",
  "timeout only",
  "ERROR",
  "日本語 ログ エラー",
  "it's quoted",
  "🔥 fire 🔥",
];

const TERMS = [
  "status=500",
  "Status=500",
  "500",
  "status",
  "wörd",
  "Wörd",
  "日本語",
  "🔥",
  "it's",
  "ERROR",
  "",
];

const PATTERNS = [
  "status=500",
  "Status=500",
  "+status=500 +a",
  "error AND timeout",
  '"disk full"',
  "-error",
  "error OR timeout",
  "error -timeout",
  "+Wörd",
  "ERROR",
  "(error OR full) AND disk",
  '+"disk full" -x',
  '""',
  "+日本語 ログ",
  "it's",
];

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

Deno.test("the full-text prefilter changes no answer and shows in the plan", async (t) => {
  const server = await startTestServer();
  const rows = (sql: string) => sqlRows(server.url, sql);
  try {
    await sqlOk(server.url, "CREATE TABLE logs (ts TIMESTAMP TIME INDEX, message STRING, n BIGINT)");
    const values = ROWS.map((m, i) => `(${i + 1}, ${m === null ? "NULL" : lit(m)}, ${i})`);
    await sqlOk(server.url, `INSERT INTO logs VALUES ${values.join(", ")}`);

    // `'' || 'p'` is no literal, so it leaves the call without a prefilter: the reference
    const calls = [
      ...TERMS.map((p) => ({ fn: "matches_term", p })),
      ...PATTERNS.map((p) => ({ fn: "matches", p })),
    ];
    for (const { fn, p } of calls) {
      await t.step(`${fn}(message, ${lit(p)})`, async () => {
        const call = `${fn}(message, ${lit(p)})`, ref = `${fn}(message, '' || ${lit(p)})`;
        assert.deepEqual(
          await rows(`SELECT ts, ${call} FROM logs ORDER BY ts`),
          await rows(`SELECT ts, ${ref} FROM logs ORDER BY ts`),
        );
        for (const where of ["", "NOT ", "(", "NOT ("]) {
          const close = where.endsWith("(") ? ") IS NOT TRUE" : "";
          assert.deepEqual(
            await rows(`SELECT ts FROM logs WHERE ${where}${call}${close} ORDER BY ts`),
            await rows(`SELECT ts FROM logs WHERE ${where}${ref}${close} ORDER BY ts`),
            `${where}${call}${close}`,
          );
        }
      });
    }

    await t.step("case-sensitive and NULL-preserving, as the JS call", async () => {
      const ts = async (where: string) =>
        (await rows(`SELECT ts FROM logs WHERE ${where} ORDER BY ts`)).map((r) => r[0]);
      assert.deepEqual(await ts("matches_term(message, 'status=500')"), [1, 6, 9]);
      assert.deepEqual(await ts("matches_term(message, 'Status=500')"), [2]);
      assert.deepEqual(await ts("matches(message, 'ERROR')"), [16]);
      // the NULL row (7) is in neither a match nor its negation
      const not = await ts("NOT matches_term(message, 'status=500')");
      assert.ok(!not.includes(7) && not.length === ROWS.length - 4, JSON.stringify(not));
      assert.deepEqual(await ts("matches_term(message, 'status=500') IS NULL"), [7]);
    });

    await t.step("EXPLAIN shows instr tests for the required terms only", async () => {
      const plan = async (where: string) => {
        const out = await rows(`EXPLAIN SELECT count(*) FROM logs WHERE ${where}`);
        return String(out.find((r) => r[0] === "logical_plan")?.[1]);
      };
      const instrs = (sql: string) =>
        [...sql.matchAll(/instr\(message, ('(?:[^']|'')*')\) = 0/g)].map((m) => m[1]);
      assert.deepEqual(instrs(await plan("matches_term(message, 'status=500')")), ["'status=500'"]);
      assert.deepEqual(instrs(await plan("matches_term(message, 'it''s')")), ["'it''s'"]);
      assert.deepEqual(instrs(await plan("matches(message, '+status=500 +a -b')")), ["'status=500'", "'a'"]);
      assert.deepEqual(instrs(await plan("matches(message, 'x AND \"y z\"')")), ["'x'", "'y z'"]);
      assert.deepEqual(instrs(await plan("matches(message, '(x OR y) AND z')")), ["'z'"]);
      for (
        const none of [
          "matches(message, 'x OR y')",
          "matches(message, '-x')",
          "matches(message, 'x y')", // side by side: either
          "matches_term(message, '')",
          "matches_term(message, '' || 'x')",
          "matches_term(lower(message), 'x')",
          "matches_term(n, '1')", // not a String column: its text is JS's to write
        ]
      ) assert.deepEqual(instrs(await plan(none)), [], none);
    });

    await t.step("an unaliased call keeps its column name", async () => {
      const [out] = await sqlOk(server.url, "SELECT matches_term(message, 'status=500') FROM logs");
      assert.ok("records" in out);
      assert.deepEqual(out.records.schema.column_schemas, [
        { name: 'matches_term(logs.message,Utf8("status=500"))', data_type: "Boolean" },
      ]);
    });
  } finally {
    await server.stop();
  }
});
