/**
 * Patterns a backtracking engine takes exponential time on (`(a+)+b` against `aaaa…c`) answer at
 * once, as in GreptimeDB (Rust `regex`) and Prometheus (Go RE2), in every place a user's regex runs:
 * a pipeline `regex` processor, a VRL `match`, SQL `~`/`regexp_like`, a PromQL `=~` matcher.
 * The server is a child process so that a hang fails the test by its request timeout instead of
 * stopping the test runner.
 */
import assert from "node:assert/strict";
import { withRegexServer } from "./regex_server.ts";

/** Fifty `a`s then `c`: 2^50 ways for `(a+)+` to split it before failing. */
const EVIL = "a".repeat(50) + "c";
const FOUND = "a".repeat(50) + "b";
/** Fifty `a`s then `!`: as many ways for `(\w+\s?)+` to split the word before `$` fails. */
const WORDY = "a".repeat(50) + "!";
/** Long enough for a linear engine on a loaded machine, far too short for 2^50 steps. */
const TIMEOUT_MS = 20_000;

Deno.test({
  name: "regexes that would backtrack exponentially answer at once over HTTP (pipeline, VRL, SQL, PromQL)",
  sanitizeResources: false,
  fn: () =>
    withRegexServer("petrel_redos_", TIMEOUT_MS, async ({ url, client, tail, post, sqlRows }) => {
      // pipeline regex processor, also with Rust's Unicode `\b` (linear on ASCII values)
      await client.uploadOk(
        "redos_regex",
        "version: 2\nprocessors:\n  - regex:\n      field: m\n      patterns:\n        - '(?<x>(a+)+)b'\n" +
          "        - '(?<w>\\b(\\w+\\s?)+)$'\n" + tail,
      );
      let r = await post(
        "/v1/ingest?table=redos_p&pipeline_name=redos_regex",
        JSON.stringify([{ ts: 1, m: EVIL }, { ts: 2, m: "zz" + FOUND }, { ts: 3, m: WORDY }, {
          ts: 4,
          m: "é" + WORDY.slice(0, -1),
        }]),
        "application/json",
      );
      assert.equal(r.status, 200, await r.text());
      assert.deepEqual(await sqlRows("SELECT m_x, m_w FROM redos_p ORDER BY ts"), [
        [null, EVIL],
        [FOUND.slice(0, -1), "zz" + FOUND],
        [null, null],
        // `é` is a word character: no boundary before the `a`s
        [null, "é" + WORDY.slice(0, -1)],
      ]);

      // VRL match and parse_regex
      await client.uploadOk(
        "redos_vrl",
        "version: 2\nprocessors:\n  - vrl:\n      source: |\n" +
          "        .hit = match(string!(.m), r'^(a+)+b$')\n" +
          "        .cap = (parse_regex(string!(.m), r'(?<run>(a|aa)+)b') ?? {}).run\n" +
          "        .\n" + tail,
      );
      r = await post(
        "/v1/ingest?table=redos_v&pipeline_name=redos_vrl",
        JSON.stringify([{ ts: 1, m: EVIL }, { ts: 2, m: FOUND }]),
        "application/json",
      );
      assert.equal(r.status, 200, await r.text());
      assert.deepEqual(await sqlRows("SELECT hit, cap FROM redos_v ORDER BY ts"), [
        [false, null],
        [true, FOUND.slice(0, -1)],
      ]);

      // SQL: `~` and regexp_like, regexp_replace
      await sqlRows("CREATE TABLE redos_s (ts TIMESTAMP TIME INDEX, s STRING)");
      await sqlRows(`INSERT INTO redos_s VALUES (1, '${EVIL}'), (2, '${FOUND}')`);
      assert.deepEqual(
        await sqlRows(
          "SELECT s ~ '^(a+)+b$', regexp_like(s, '(a|a)+b'), regexp_replace(s, '(a+)+b', 'X') FROM redos_s ORDER BY ts",
        ),
        [[false, false, EVIL], [true, true, "X"]],
      );
      await sqlRows(`INSERT INTO redos_s VALUES (3, '${WORDY}'), (4, '${WORDY.slice(0, -1)} é')`);
      assert.deepEqual(
        await sqlRows(
          "SELECT regexp_like(s, '\\b(\\w+\\s?)+\\b$') FROM redos_s WHERE ts > 2 ORDER BY ts",
        ),
        [[false], [true]],
      );

      // PromQL `=~` and `!~` on a label
      await sqlRows(
        "CREATE TABLE redos_m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, greptime_value DOUBLE)",
      );
      await sqlRows(`INSERT INTO redos_m VALUES (1000, '${EVIL}', 1), (1000, '${FOUND}', 2)`);
      for (const [query, want] of [[`redos_m{host=~"(a+)+b"}`, "2"], [`redos_m{host!~"(a|aa)+b"}`, "1"]]) {
        const q = new URLSearchParams({ query, time: "1" });
        const res = await fetch(`${url}/v1/prometheus/api/v1/query?${q}`, {
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        const body = await res.json();
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.deepEqual(body.data.result.map((s: { value: unknown[] }) => s.value[1]), [want], query);
      }
    }),
});
