/**
 * Patterns a backtracking engine takes polynomial time of a high power on (`.*a.*a.*a.*a.*b`,
 * `\d+\d+\d+x`, grok's `(?m)^%{DATA} %{DATA} %{GREEDYDATA}`) answer at once on 30 KB subjects, as in
 * GreptimeDB (Rust `regex`): SQL `~`/`regexp_like`, a pipeline `regex` processor, VRL `parse_grok`.
 * V8 would take hours on each. The server is a child process so that a hang fails the test by its
 * request timeout instead of stopping the test runner.
 */
import assert from "node:assert/strict";
import { withRegexServer } from "./regex_server.ts";

/** `b` then 30 000 `a`s: about 30 000^5 / 5! ways to split it between the loops of `.*a.*a.*a.*a.*b`. */
const AS = "b" + "a".repeat(30_000);
/** `x` then 30 000 digits, for `\d+\d+\d+x`. */
const DIGITS = "x" + "1".repeat(30_000);
/** 30 000 spaces, for `(.*?) (.*?) (.*)x`. */
const SPACES = " ".repeat(30_000);
/** Long enough for a linear engine on a loaded machine, far too short for V8's backtracking. */
const TIMEOUT_MS = 30_000;

Deno.test({
  name: "regexes that would backtrack polynomially answer at once over HTTP (SQL, pipeline regex, VRL grok)",
  sanitizeResources: false,
  fn: () =>
    withRegexServer("petrel_poly_", TIMEOUT_MS, async ({ client, tail, post, sqlRows }) => {
      // SQL `~` and regexp_like
      await sqlRows("CREATE TABLE poly_s (ts TIMESTAMP TIME INDEX, s STRING)");
      await sqlRows(`INSERT INTO poly_s VALUES (1, '${AS}'), (2, '${DIGITS}'), (3, 'zaaaab 12345x')`);
      assert.deepEqual(
        await sqlRows(
          "SELECT regexp_like(s, '.*a.*a.*a.*a.*b'), s ~ 'a+a+a+a+b', s ~ '\\d+\\d+\\d+x', " +
            "regexp_like(s, '(\\d+)(\\d+)x') FROM poly_s ORDER BY ts",
        ),
        [[false, false, false, false], [false, false, false, false], [true, true, true, true]],
      );

      // pipeline regex processor
      await client.uploadOk(
        "poly_regex",
        "version: 2\nprocessors:\n  - regex:\n      field: m\n      patterns:\n" +
          "        - '(?<n>\\d+)(\\d+)(\\d+)x'\n" + tail,
      );
      let r = await post(
        "/v1/ingest?table=poly_p&pipeline_name=poly_regex",
        JSON.stringify([{ ts: 1, m: DIGITS }, { ts: 2, m: "a 12345x" }]),
        "application/json",
      );
      assert.equal(r.status, 200, await r.text());
      assert.deepEqual(await sqlRows("SELECT m_n FROM poly_p ORDER BY ts"), [[null], ["123"]]);

      // VRL parse_grok with `(?m)` (dot-all) and line anchors, read as RE2's `(?m:^)` `(?m:$)`
      await client.uploadOk(
        "poly_grok",
        "version: 2\nprocessors:\n  - vrl:\n      source: |\n" +
          '        .c = (parse_grok(string!(.m), "(?m)^%{DATA:a} %{DATA:b} %{GREEDYDATA:c}x$") ?? {}).c\n' +
          "        .\n" + tail,
      );
      r = await post(
        "/v1/ingest?table=poly_g&pipeline_name=poly_grok",
        JSON.stringify([{ ts: 1, m: SPACES }, { ts: 2, m: "GET /a took 5x" }]),
        "application/json",
      );
      assert.equal(r.status, 200, await r.text());
      assert.deepEqual(await sqlRows("SELECT c FROM poly_g ORDER BY ts"), [[null], ["took 5"]]);
    }),
});
