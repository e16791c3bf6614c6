/**
 * CORS (reference §2.7, GreptimeDB's `test_cors`, `test_cors_custom_origins`, `test_cors_disabled`):
 * any origin by default, exact-match echo of `cors_allowed_origins`, nothing when disabled.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

const METHODS = "GET,POST,PUT,DELETE,HEAD";

function preflight(url: string, origin: string): Promise<Response> {
  return fetch(url + "/health", {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "DELETE",
      "access-control-request-headers": "x-greptime-auth",
    },
  });
}

Deno.test("CORS by default: any origin, preflight 200 with GreptimeDB's methods", async () => {
  const s = await startTestServer();
  try {
    const get = await fetch(s.url + "/health");
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("access-control-allow-origin"), "*");
    await get.body?.cancel();
    const pre = await preflight(s.url, "https://example.com");
    assert.equal(pre.status, 200);
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
    assert.equal(pre.headers.get("access-control-allow-methods"), METHODS);
    // Echoed rather than `*`: a wildcard never covers Authorization in browsers.
    assert.equal(pre.headers.get("access-control-allow-headers"), "x-greptime-auth");
    await pre.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("CORS with cors_allowed_origins: exact matches are echoed, others get no header", async () => {
  const s = await startTestServer({ http: { cors_allowed_origins: ["https://example.com"] } });
  try {
    for (
      const [origin, allowed] of [["https://example.com", "https://example.com"], ["https://other.com", null]]
    ) {
      const get = await fetch(s.url + "/health", { headers: { origin: origin! } });
      assert.equal(get.headers.get("access-control-allow-origin"), allowed, origin!);
      await get.body?.cancel();
      const pre = await preflight(s.url, origin!);
      assert.equal(pre.status, 200);
      assert.equal(pre.headers.get("access-control-allow-origin"), allowed, origin!);
      await pre.body?.cancel();
    }
  } finally {
    await s.stop();
  }
});

Deno.test("CORS disabled: no CORS headers, and OPTIONS is an ordinary method (405)", async () => {
  const s = await startTestServer({ http: { enable_cors: false } });
  try {
    const get = await fetch(s.url + "/health", { headers: { origin: "https://example.com" } });
    assert.equal(get.headers.get("access-control-allow-origin"), null);
    await get.body?.cancel();
    const pre = await preflight(s.url, "https://example.com");
    assert.equal(pre.status, 405);
    assert.equal(pre.headers.get("access-control-allow-origin"), null);
    await pre.body?.cancel();
  } finally {
    await s.stop();
  }
});
