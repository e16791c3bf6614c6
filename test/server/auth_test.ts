import assert from "node:assert/strict";
import { basicAuth, spawnServer, startTestServer } from "../helpers/server.ts";

const USERS = "static_user_provider:cmd:admin=adm1n,reader:ro=r3ad,writer:wo=wr1te";

interface AuthCase {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The HTTP status, or "pass": past auth, whatever the handler then answers (not 401/403). */
  status: number | "pass";
  code?: number;
  error?: RegExp;
}

const CASES: AuthCase[] = [
  {
    name: "no credentials",
    method: "GET",
    path: "/v1/pipelines/p",
    status: 401,
    code: 7003,
    error: /Not found http or grpc authorization header/,
  },
  {
    name: "unknown user",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("mallory", "x") },
    status: 401,
    code: 7000,
    error: /User not found, username: mallory/,
  },
  {
    name: "bad password",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("admin", "nope") },
    status: 401,
    code: 7002,
    error: /Username and password does not match, username: admin/,
  },
  {
    name: "unsupported scheme",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: "Digest abc" },
    status: 401,
    code: 7004,
    error: /Unsupported http auth scheme, name: Digest/,
  },
  {
    name: "bad base64",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: "Basic %%%" },
    status: 401,
    code: 7004,
    error: /Invalid base64 value/,
  },
  {
    // Bytes past visible ASCII (here é, 0xE9): GreptimeDB's HeaderValue::to_str refuses them (§3.3).
    name: "non-visible-ASCII header",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: "Basic \u00e9" },
    status: 401,
    code: 7004,
    error: /^Invalid visibility ASCII chars$/,
  },
  {
    name: "influx: non-visible-ASCII header",
    method: "POST",
    path: "/v1/influxdb/write",
    headers: { authorization: "Token adm\u00e9:x" },
    status: 401,
    code: 7004,
    error: /^Invalid visibility ASCII chars$/,
  },
  {
    name: "bearer token",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: "Bearer t0k" },
    status: 401,
    code: 7002,
    error: /Unsupported authentication method: bearer token/,
  },
  {
    name: "blank password",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("admin", "") },
    status: 401,
    code: 1004,
    error: /blank password/,
  },
  {
    name: "good credentials, scheme case-insensitive",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("admin", "adm1n").replace("Basic", "bAsIc") },
    status: "pass",
  },
  {
    name: "x-greptime-auth header",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { "x-greptime-auth": basicAuth("admin", "adm1n") },
    status: "pass",
  },
  {
    name: "read-only user reading",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("reader", "r3ad") },
    status: "pass",
  },
  {
    name: "read-only user writing",
    method: "POST",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("reader", "r3ad") },
    status: 403,
    error: /^User is not authorized to perform this action$/,
  },
  {
    name: "write-only user writing",
    method: "POST",
    path: "/v1/ingest",
    headers: { authorization: basicAuth("writer", "wr1te") },
    status: "pass",
  },
  {
    name: "write-only user querying",
    method: "GET",
    path: "/v1/pipelines/p",
    headers: { authorization: basicAuth("writer", "wr1te") },
    status: 403,
    error: /^User is not authorized to perform this action$/,
  },
  { name: "public /v1/health", method: "GET", path: "/v1/health", status: 200 },
  { name: "public /v1/influxdb/ping", method: "GET", path: "/v1/influxdb/ping", status: "pass" },
  { name: "public /v1/lineproto/health", method: "GET", path: "/v1/lineproto/health", status: "pass" },
  { name: "public admin /metrics", method: "GET", path: "/metrics", status: 200 },
  { name: "public admin /config", method: "GET", path: "/config", status: 200 },
  {
    name: "influx: no credentials",
    method: "POST",
    path: "/v1/influxdb/write",
    status: 401,
    code: 7003,
    error: /Not found influx http authorization info/,
  },
  {
    name: "influx: u/p query params",
    method: "POST",
    path: "/v1/influxdb/write?u=admin&p=adm1n",
    status: "pass",
  },
  {
    name: "influx: wrong p",
    method: "POST",
    path: "/v1/lineproto/write?u=admin&p=bad",
    status: 401,
    code: 7002,
  },
  {
    name: "influx: Token user:pass",
    method: "POST",
    path: "/v1/influxdb/api/v2/write",
    headers: { authorization: "Token admin:adm1n" },
    status: "pass",
  },
  {
    name: "influx: read-only user writing",
    method: "POST",
    path: "/v1/influxdb/write?u=reader&p=r3ad",
    status: 403,
    error: /^User is not authorized to perform this action$/,
  },
];

Deno.test("authentication and permissions with a static cmd provider", async (t) => {
  const s = await startTestServer({ user_provider: USERS });
  try {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const res = await fetch(s.url + c.path, { method: c.method, headers: c.headers });
        const text = await res.text();
        if (c.status === "pass") assert.ok(res.status !== 401 && res.status !== 403, `${res.status} ${text}`);
        else assert.equal(res.status, c.status, text);
        if (c.code !== undefined) {
          const body = JSON.parse(text);
          assert.equal(body.code, c.code, text);
          assert.equal(typeof body.execution_time_ms, "number");
          assert.equal(res.headers.get("x-greptime-err-code"), String(c.code));
          assert.equal(res.headers.get("www-authenticate"), null);
          if (c.error) assert.match(body.error, c.error);
        } else if (c.error) {
          // A permission denial takes the endpoint's shape: `{"error"}` on these (reference §4.1).
          assert.deepEqual(Object.keys(JSON.parse(text)), ["error"], text);
          assert.match(JSON.parse(text).error, c.error);
        }
      });
    }
  } finally {
    await s.stop();
  }
});

Deno.test("without a user provider nothing asks for credentials", async () => {
  const s = await startTestServer();
  try {
    const res = await fetch(s.url + "/v1/pipelines/p", { method: "POST" });
    assert.equal(res.status, 415, "past auth: the handler judged the missing YAML content type");
    await res.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("static_user_provider:file reads user[:perm]=password lines", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/users`;
  await Deno.writeTextFile(file, "# comment\n\nalice=wonder\nbob:readonly=builder\nbroken line\n");
  const s = await startTestServer({ user_provider: `static_user_provider:file:${file}` });
  try {
    const get = (user: string, pw: string, method = "GET") =>
      fetch(s.url + "/v1/pipelines/p", { method, headers: { authorization: basicAuth(user, pw) } });
    let res = await get("alice", "wonder");
    assert.equal(res.status, 400, "past auth: pipeline p does not exist");
    await res.body?.cancel();
    res = await get("bob", "builder", "DELETE");
    assert.equal(res.status, 403);
    await res.body?.cancel();
    res = await get("alice", "wrong");
    assert.equal(res.status, 401);
    await res.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("credentials never appear in logs, even at trace level", async () => {
  const server = await spawnServer(
    ["--http-addr", "127.0.0.1:0", "--data-home", await Deno.makeTempDir(), "--user-provider", USERS],
    { PETREL__LOGGING__LEVEL: "trace" },
  );
  try {
    await (await fetch(server.url + "/v1/pipelines/p", {
      headers: { authorization: basicAuth("admin", "adm1n") },
    }))
      .body?.cancel();
    await (await fetch(server.url + "/v1/influxdb/write?u=admin&p=adm1n", { method: "POST" })).body?.cancel();
    await (await fetch(server.url + "/v1/pipelines/p", {
      headers: { authorization: basicAuth("admin", "WrongPw") },
    }))
      .body?.cancel();
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    await server.stop();
  }
  const logs = server.stderr();
  assert.match(logs, /"path":"\/v1\/pipelines\/p"/, "request log lines are written at trace level");
  for (const secret of ["adm1n", "WrongPw", btoa("admin:adm1n"), "r3ad", "wr1te"]) {
    assert.ok(!logs.includes(secret), `secret ${secret} leaked into logs`);
  }
});

Deno.test("hashed passwords (reference §3.4): pbkdf2_sha256 and pg_scram_sha256 check a plaintext Basic password", async () => {
  const { createHash, createHmac, pbkdf2Sync } = await import("node:crypto");
  const { Buffer } = await import("node:buffer");
  const salt = Buffer.from("petrel-salt-0001");
  const salted = (pw: string, iter: number) => pbkdf2Sync(pw, salt, iter, 32, "sha256");
  const pbkdf2 = `pbkdf2_sha256:1000:${salt.toString("hex")}:${salted("pb-pw", 1000).toString("hex")}`;
  // SCRAM-SHA-256 (RFC 5802): StoredKey = H(HMAC(SaltedPassword, "Client Key")), ServerKey = HMAC(…, "Server Key")
  const sp = salted("scram-pw", 4096);
  const stored = createHash("sha256").update(createHmac("sha256", sp).update("Client Key").digest()).digest(
    "hex",
  );
  const server = createHmac("sha256", sp).update("Server Key").digest("hex");
  const scram = `pg_scram_sha256:4096:${salt.toString("hex")}:${stored}:${server}`;
  const s = await startTestServer({ user_provider: `static_user_provider:cmd:pb=${pbkdf2},sc=${scram}` });
  try {
    for (
      const [user, pw, status] of [["pb", "pb-pw", 200], ["pb", "nope", 401], ["sc", "scram-pw", 200], [
        "sc",
        "nope",
        401,
      ]] as const
    ) {
      const res = await fetch(s.url + "/v1/sql?sql=SELECT%201", {
        headers: { authorization: basicAuth(user, pw) },
      });
      assert.equal(res.status, status, `${user}/${pw}: ${await res.text()}`);
    }
  } finally {
    await s.stop();
  }
});

Deno.test("watch_file_user_provider picks up a changed file (reference §3.4)", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/users`;
  await Deno.writeTextFile(file, "alice=wonder\n");
  const s = await startTestServer({ user_provider: `watch_file_user_provider:${file}` });
  try {
    const status = async (user: string, pw: string) => {
      const res = await fetch(s.url + "/v1/sql?sql=SELECT%201", {
        headers: { authorization: basicAuth(user, pw) },
      });
      await res.body?.cancel();
      return res.status;
    };
    assert.equal(await status("alice", "wonder"), 200);
    assert.equal(await status("bob", "builder"), 401);
    await Deno.writeTextFile(file, "# bob joins, alice's password changes\nalice=rabbit\nbob=builder\n");
    assert.equal(await status("bob", "builder"), 200);
    assert.equal(await status("alice", "wonder"), 401);
    assert.equal(await status("alice", "rabbit"), 200);
    await Deno.writeTextFile(file, "# no valid line: the last good users stay\nbroken\n");
    assert.equal(await status("bob", "builder"), 200);
  } finally {
    await s.stop();
  }
});
