/**
 * Caches keyed by names that requests bring stay bounded: time zone names from the
 * `x-greptime-timezone` header (unknown ones are cached too, as unknown) through a real server, and
 * the Unicode property names of Rust-syntax regexes (`\p{…}`).
 */
import assert from "node:assert/strict";
import { withServer } from "../protocols_http/util.ts";
import { cachedTimeZoneNames } from "../../src/common/timezone.ts";
import { cachedPropertyNames, rustRegexToJs } from "../../src/common/rust_regex.ts";

Deno.test("time zone names from requests: the cache stays bounded", async () => {
  await withServer(async (s) => {
    for (let i = 0; i < 2500; i++) {
      const r = await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent("SELECT 1")}`, {
        headers: { "x-greptime-timezone": `Nowhere/Place_${i}` },
      });
      assert.equal(r.status, 400, await r.text());
    }
    const ok = await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent("SELECT 1")}`, {
      headers: { "x-greptime-timezone": "Asia/Shanghai" },
    });
    assert.equal(ok.status, 200, await ok.text());
    // two caches (exact and case-insensitive spellings) of at most 1000 names each
    assert.ok(cachedTimeZoneNames() <= 2000, `${cachedTimeZoneNames()} time zone names cached`);
  });
});

Deno.test("Unicode property names in regexes: the cache stays bounded", () => {
  for (let i = 0; i < 2500; i++) {
    assert.throws(() => rustRegexToJs(`\\p{Bogus${i}}`), /Unicode property not found/);
  }
  assert.equal(rustRegexToJs("\\p{Greek}+").source.includes("Greek"), true);
  assert.ok(cachedPropertyNames() <= 1000, `${cachedPropertyNames()} property names cached`);
});
