/**
 * SQL `regexp_like` with nested counts past RE2's limit of 1000 (`(a{1,100}){1,100}b`), which V8
 * would backtrack on for longer than any request may take: answered at once over HTTP, and a
 * pattern too large to run safely refused with a 400 naming why (Rust refuses it as too large too).
 */
import assert from "node:assert/strict";
import { withRegexServer } from "./regex_server.ts";

/** Long enough for a linear engine on a loaded machine, far too short for V8's backtracking. */
const TIMEOUT_MS = 20_000;

Deno.test({
  name: "regexp_like with nested counts over RE2's limit answers on a long subject; too large is a 400",
  sanitizeResources: false,
  fn: () =>
    withRegexServer("petrel_nested_count_", TIMEOUT_MS, async ({ post, sqlRows }) => {
      const long = "a".repeat(3000);
      assert.deepEqual(
        await sqlRows(
          `SELECT regexp_like('${long}c', '(a{1,100}){1,100}b') AS a, ` +
            `regexp_like('${long}b', '^(a{1,100}){1,100}b$') AS b, regexp_like('zz${
              "a".repeat(150)
            }b', '(a{1,100}){1,100}b') AS c`,
        ),
        [[false, true, true]],
      );
      const r = await post(
        "/v1/sql",
        new URLSearchParams({ sql: "SELECT regexp_like('aaab', '(a{1,1000}){1,1000}b')" }).toString(),
        "application/x-www-form-urlencoded",
      );
      const body = await r.text();
      assert.equal(r.status, 400, body);
      assert.match(body, /regex too large: nested repetition counts exceed 1000/);
    }),
});
