/**
 * HEC authentication (reference §3.1–3.3): the health check is public; the collector takes
 * `Authorization: Splunk <user>:<password>` or Basic, and answers failures in HEC's shape.
 */
import assert from "node:assert/strict";
import { basicAuth, startTestServer } from "../helpers/server.ts";

const USERS = "static_user_provider:cmd:admin=adm1n,reader:ro=r3ad";
const EVENT = `{"time":1700000000,"event":"authorised"}`;

interface AuthCase {
  name: string;
  headers: Record<string, string>;
  status: number;
  response: Record<string, unknown>;
}

const SUCCESS = { text: "Success", code: 0 };
const CASES: AuthCase[] = [
  { name: "Splunk scheme", headers: { authorization: "Splunk admin:adm1n" }, status: 200, response: SUCCESS },
  {
    name: "scheme case-insensitive",
    headers: { authorization: "splunk admin:adm1n" },
    status: 200,
    response: SUCCESS,
  },
  { name: "Basic", headers: { authorization: basicAuth("admin", "adm1n") }, status: 200, response: SUCCESS },
  { name: "missing", headers: {}, status: 401, response: { text: "Token is required", code: 2 } },
  {
    name: "wrong password",
    headers: { authorization: "Splunk admin:nope" },
    status: 403,
    response: { text: "Invalid token", code: 4 },
  },
  {
    name: "unknown user",
    headers: { authorization: "Splunk mallory:x" },
    status: 403,
    response: { text: "Invalid token", code: 4 },
  },
  {
    name: "a bare HEC token (no user:password)",
    headers: { authorization: "Splunk 0aeeac95-ac74-4aa9-b30d-6c4c0ac581ba" },
    status: 403,
    response: { text: "Invalid token", code: 4 },
  },
  {
    name: "wrong Basic password",
    headers: { authorization: basicAuth("admin", "nope") },
    status: 403,
    response: { text: "Invalid token", code: 4 },
  },
  {
    name: "bearer token",
    headers: { authorization: "Bearer abc" },
    status: 403,
    response: { text: "Invalid token", code: 4 },
  },
  {
    name: "unknown scheme",
    headers: { authorization: "Digest x" },
    status: 401,
    response: { text: "Invalid authorization", code: 3 },
  },
  {
    name: "read-only user writing",
    headers: { authorization: "Splunk reader:r3ad" },
    status: 403,
    response: { text: "User is not authorized to perform this action", code: 4 },
  },
];

Deno.test("HEC auth: Splunk and Basic schemes; failures in HEC's shape; health is public", async (t) => {
  const s = await startTestServer({ user_provider: USERS });
  const count = async () => {
    const r = await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent("SELECT count(*) FROM splunk_logs")}`, {
      headers: { authorization: basicAuth("admin", "adm1n") },
    });
    const body = await r.json();
    return r.status === 200 ? Number(body.output[0].records.rows[0][0]) : 0;
  };
  try {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const before = await count();
        const r = await fetch(`${s.url}/v1/splunk/services/collector/event`, {
          method: "POST",
          body: EVENT,
          headers: c.headers,
        });
        assert.equal(r.status, c.status);
        assert.deepEqual(await r.json(), c.response);
        assert.equal(await count(), before + (c.status === 200 ? 1 : 0));
      });
    }
    await t.step("health needs no credentials, on both paths", async () => {
      for (const path of ["health", "health/1.0"]) {
        const r = await fetch(`${s.url}/v1/splunk/services/collector/${path}`);
        assert.equal(r.status, 200);
        assert.deepEqual(await r.json(), { text: "HEC is healthy", code: 17 });
      }
    });
  } finally {
    await s.stop();
  }
});

Deno.test("HEC: a body that never ends is answered at its timeout in HEC's shape (408, code 9)", async () => {
  const s = await startTestServer();
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      timer = setInterval(() => {
        try {
          c.enqueue(new TextEncoder().encode("x"));
        } catch {
          clearInterval(timer);
        }
      }, 100);
    },
    cancel: () => clearInterval(timer),
  });
  try {
    const r = await fetch(`${s.url}/v1/splunk/services/collector/raw`, {
      method: "POST",
      body,
      headers: { "x-greptime-timeout": "500ms" },
    });
    assert.equal(r.status, 408);
    const answer = await r.json();
    assert.equal(answer.code, 9);
    assert.match(answer.text, /timed out/);
  } finally {
    clearInterval(timer);
    await s.stop();
  }
});
