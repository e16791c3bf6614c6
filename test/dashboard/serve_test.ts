import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { applyEnv, applyToml, defaultConfig, renderConfigToml } from "../../src/config/config.ts";
import { dashboardFiles } from "../../src/dashboard/serve.ts";

Deno.test("dashboard: redirect, embedded files, gzip, ETag revalidation and the index fallback", async (t) => {
  const s = await startTestServer();
  try {
    await t.step("/dashboard answers 308 to /dashboard/, keeping the query, on GET and POST", async () => {
      for (const method of ["GET", "POST"]) {
        const res = await fetch(`${s.url}/dashboard?x=1&y=2`, { method, redirect: "manual" });
        assert.equal(res.status, 308, method);
        assert.equal(res.headers.get("location"), "/dashboard/?x=1&y=2");
        await res.body?.cancel();
      }
    });

    await t.step(
      "/dashboard/ is the page, loading the bundled script from /dashboard/ (no CDN)",
      async () => {
        const res = await fetch(`${s.url}/dashboard/`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
        assert.match(res.headers.get("content-security-policy")!, /default-src 'self'/);
        const html = await res.text();
        assert.match(html, /<script type="module" src="\/dashboard\/app\.js"><\/script>/);
        assert.doesNotMatch(html, /https?:\/\//, "the page references nothing outside the server");
      },
    );

    await t.step("app.js carries uPlot's code and CSS; gzipped when accepted", async () => {
      const plain = await fetch(`${s.url}/dashboard/app.js`, { headers: { "accept-encoding": "identity" } });
      assert.equal(plain.headers.get("content-type"), "text/javascript; charset=utf-8");
      assert.equal(plain.headers.get("content-encoding"), null);
      const js = await plain.text();
      assert.ok(js.includes("u-legend") && js.includes(".uplot"), "uPlot's CSS is inlined");
      assert.ok(js.includes("/v1/sql") && js.includes("/v1/prometheus/api/v1/"), "talks to the APIs");
      assert.doesNotMatch(js, /\bimport\s*[{(*"']|from\s*"(npm|jsr|https?):/, "one file: no imports left");
      const raw = await fetch(`${s.url}/dashboard/app.js`, { headers: { "accept-encoding": "gzip" } });
      // fetch inflates transparently; the header shows what was sent.
      assert.equal(raw.headers.get("content-encoding"), "gzip");
      assert.equal(await raw.text(), js);
    });

    await t.step("an unchanged file revalidates to 304 by ETag", async () => {
      const first = await fetch(`${s.url}/dashboard/favicon.svg`);
      const etag = first.headers.get("etag")!;
      assert.match(etag, /^"[0-9a-f]{24}"$/);
      assert.equal(first.headers.get("cache-control"), "no-cache");
      assert.match(await first.text(), /^<svg/);
      const again = await fetch(`${s.url}/dashboard/favicon.svg`, { headers: { "if-none-match": etag } });
      assert.equal(again.status, 304);
      await again.body?.cancel();
      const other = await fetch(`${s.url}/dashboard/favicon.svg`, { headers: { "if-none-match": '"nope"' } });
      assert.equal(other.status, 200);
      await other.body?.cancel();
    });

    await t.step("any other path under /dashboard/ gets index.html (single-page app fallback)", async () => {
      for (const path of ["/dashboard/tables/public/t", "/dashboard/nope.js", "/dashboard/%E2%9C%93"]) {
        const res = await fetch(s.url + path, { method: "POST" });
        assert.equal(res.status, 200, path);
        assert.match(await res.text(), /^<!doctype html>/, path);
      }
      assert.deepEqual(dashboardFiles().sort(), ["app.js", "favicon.svg", "index.html"]);
    });
  } finally {
    await s.stop();
  }
});

Deno.test("[dashboard] enable = false: every /dashboard path answers 404", async () => {
  const s = await startTestServer({ dashboard: { enable: false } });
  try {
    for (const path of ["/dashboard", "/dashboard/", "/dashboard/app.js"]) {
      const res = await fetch(s.url + path, { redirect: "manual" });
      assert.equal(res.status, 404, path);
      assert.equal(await res.text(), "", path);
    }
  } finally {
    await s.stop();
  }
});

Deno.test("config: [dashboard] enable defaults to true, set by TOML or PETREL__DASHBOARD__ENABLE", () => {
  assert.equal(defaultConfig().dashboard.enable, true);
  const fromToml = defaultConfig();
  applyToml(fromToml, "[dashboard]\nenable = false\n", "petrel.toml");
  assert.equal(fromToml.dashboard.enable, false);
  assert.match(renderConfigToml(fromToml), /\n\[dashboard\]\nenable = false\n/);
  const fromEnv = defaultConfig();
  applyEnv(fromEnv, { PETREL__DASHBOARD__ENABLE: "false" });
  assert.equal(fromEnv.dashboard.enable, false);
  assert.throws(
    () => applyToml(defaultConfig(), '[dashboard]\nenable = "maybe"\n', "petrel.toml"),
    /Invalid value for 'dashboard.enable' in petrel.toml: expected a boolean/,
  );
  assert.throws(
    () => applyToml(defaultConfig(), "[dashboard]\nport = 1\n", "petrel.toml"),
    /dashboard\.port/,
  );
});
