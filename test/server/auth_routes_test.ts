/**
 * Authentication and permissions over the WHOLE route table (reference §3): every route × method ×
 * path name is classified below as GreptimeDB treats it, and checked against a real server with a
 * read-write, a read-only and a write-only user. A route added to `ROUTES` without a classification
 * here fails the first test, so no future endpoint skips this audit.
 */
import assert from "node:assert/strict";
import { ROUTES } from "../../routes/mod.ts";
import { aliasPath } from "../../src/http/router.ts";
import type { Method } from "../../src/http/context.ts";
import type { ErrorShape } from "../../src/http/render_error.ts";
import { basicAuth, startTestServer, type TestServer } from "../helpers/server.ts";
import { encodeSnappy } from "../../src/codec/snappy.ts";

const PASSWORDS = { admin: "Adm1n-s3cret", reader: "R3ad-s3cret", writer: "Wr1te-s3cret" };
const USERS = "static_user_provider:cmd:" +
  `admin=${PASSWORDS.admin},reader:readonly=${PASSWORDS.reader},writer:writeonly=${PASSWORDS.writer}`;
const WRONG_PASSWORD = "Wr0ng-pa55word";

/**
 * What GreptimeDB asks of a caller:
 * - `public`: nothing (reference §3.1: not under `/v1/`, or a public prefix);
 * - `read` / `write`: an authenticated user with that permission (§3.5: 403 otherwise);
 * - `user`: any authenticated user — handlers that touch no data run no permission check in
 *   GreptimeDB (SQL parse/format, PromQL parse/format, build info, Elasticsearch start-up calls);
 * - `{read, write}`: the handler decides per statement; query strings of a reading and a writing request.
 */
type Rule = "public" | "read" | "write" | "user" | { read: string; write: string };

const PUBLIC = [
  "GET /",
  "GET /health",
  "POST /health",
  "GET /ready",
  "POST /ready",
  "GET /v1/health",
  "POST /v1/health",
  "GET /status",
  "GET /metrics",
  "GET /config",
  "GET /dashboard",
  "POST /dashboard",
  "GET /dashboard/*",
  "POST /dashboard/*",
  "POST /debug/log_level",
  "POST /debug/enable_trace",
  "POST /debug/prof/cpu",
  "POST /debug/prof/mem",
  "GET /debug/prof/mem/status",
  "POST /debug/prof/mem/activate",
  "POST /debug/prof/mem/deactivate",
  "GET /debug/prof/mem/gdump",
  "POST /debug/prof/mem/gdump",
  "POST /debug/prof/mem/symbol",
  "GET /v1/lineproto/ping",
  "GET /v1/lineproto/health",
  // Not a GreptimeDB route: Loki's own /ready needs no credentials (README Compatibility).
  "GET /v1/logpush/ready",
  "GET /v1/splunk/services/collector/health",
  "GET /v1/splunk/services/collector/health/1.0",
];

const GP = ["GET", "POST"];
const both = (path: string, rule: Rule): [string, Rule][] => GP.map((m) => [`${m} ${path}`, rule]);
const ES_PASS = ["_ilm/policy", "_index_template", "_ingest", "_nodes", "logstash", "_logstash"].flatMap((
  p,
) =>
  [`/v1/elasticsearch/${p}`, `/v1/elasticsearch/${p}/*`].flatMap((path) =>
    ["GET", "POST", "PUT", "DELETE"].map((m): [string, Rule] => [`${m} ${path}`, "user"])
  )
);

const EXPECTED: Record<string, Rule> = {
  ...Object.fromEntries(PUBLIC.map((k) => [k, "public"])),
  ...Object.fromEntries([
    ...both("/v1/sql", { read: "sql=SELECT%201", write: "sql=INSERT%20INTO%20nope%20VALUES%20(1)" }),
    ...both("/v1/sql/parse", "user"),
    ...both("/v1/sql/format", "user"),
    ["POST /v1/sql/analyze/stream", "read"],
    ...both("/v1/promql", "read"),
    ["GET /v1/forward/dead_letters", "read"],
    ...both("/v1/logs", "read"),
    ["POST /v1/ingest", "write"],
    ["POST /v1/events/logs", "write"],
    ["POST /v1/pipelines/_dryrun", "read"],
    ["POST /v1/events/pipelines/dryrun", "read"],
    ["GET /v1/pipelines/:name", "read"],
    ["POST /v1/pipelines/:name", "write"],
    ["DELETE /v1/pipelines/:name", "write"],
    ["GET /v1/pipelines/:name/ddl", "read"],
    ["GET /v1/events/pipelines/:name", "read"],
    ["POST /v1/events/pipelines/:name", "write"],
    ["DELETE /v1/events/pipelines/:name", "write"],
    ["POST /v1/lineproto/write", "write"],
    ["POST /v1/lineproto/api/v2/write", "write"],
    ...both("/v1/lineproto/query", { read: "q=SHOW%20DATABASES", write: "q=CREATE%20DATABASE%20authdb" }),
    ["POST /v1/metricsapi/write", "write"],
    ["POST /v1/metricsapi/read", "read"],
    ...["query", "query_range", "labels", "series", "label/:name/values"].flatMap((p) =>
      both(`/v1/metricsapi/api/v1/${p}`, "read")
    ),
    ...["format_query", "parse_query", "status/buildinfo"].flatMap((p) =>
      both(`/v1/metricsapi/api/v1/${p}`, "user")
    ),
    ["GET /v1/metricsapi/api/v1/metadata", "read"],
    ["POST /v1/telemetry/v1/metrics", "write"],
    ["POST /v1/telemetry/v1/traces", "write"],
    ["POST /v1/telemetry/v1/logs", "write"],
    ["POST /v1/logpush/api/v1/push", "write"],
    ["POST /v1/tsjson/api/put", "write"],
    ["GET /v1/elasticsearch", "user"],
    ["GET /v1/elasticsearch/", "user"],
    ["GET /v1/elasticsearch/_license", "user"],
    ["GET /v1/elasticsearch/_cluster/health", "user"],
    ["POST /v1/elasticsearch/_bulk", "write"],
    ["POST /v1/elasticsearch/:index/_bulk", "write"],
    ...ES_PASS,
    ...["", "/event", "/event/1.0", "/raw", "/raw/1.0"].map((p): [string, Rule] => [
      `POST /v1/splunk/services/collector${p}`,
      "write",
    ]),
    ...["services", "services/:service/operations", "operations", "traces", "traces/:id"].map((
      p,
    ): [string, Rule] => [`GET /v1/jaeger/api/${p}`, "read"]),
    ["GET /v1/dashboards/", "read"],
    ["GET /v1/dashboards", "read"],
    ["POST /v1/dashboards/:name", "write"],
    ["DELETE /v1/dashboards/:name", "write"],
  ]),
};

interface Probe {
  key: string;
  method: Method;
  /** A concrete URL path (parameters filled in), under the spec's name or GreptimeDB's. */
  path: string;
  rule: Rule;
  errors: ErrorShape;
}

/** Every route × method × path name of the table. */
function probes(): Probe[] {
  const out: Probe[] = [];
  for (const route of ROUTES) {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const key = `${method} ${route.path}`;
      const rule = EXPECTED[key];
      const concrete = route.path.replace(/:(\w+)/g, (_, p) => `${p}1`).replace("*", "x");
      for (const path of [concrete, aliasPath(concrete)]) {
        if (path !== null) out.push({ key, method, path, rule, errors: route.errors });
      }
    }
  }
  return out;
}

Deno.test("every route × method of the table is classified for authentication", () => {
  const keys = ROUTES.flatMap((r) =>
    (Array.isArray(r.method) ? r.method : [r.method]).map((m) => `${m} ${r.path}`)
  );
  const missing = keys.filter((k) => !(k in EXPECTED));
  assert.deepEqual(missing, [], "classify these new routes in EXPECTED (auth_routes_test.ts)");
  const stale = Object.keys(EXPECTED).filter((k) => !keys.includes(k));
  assert.deepEqual(stale, [], "these classified routes are gone from the table");
});

const isInflux = (path: string) => path.includes("influxdb") || path.includes("/lineproto/");
const isSplunk = (path: string) => path.startsWith("/v1/splunk/");

async function call(s: TestServer, p: Probe, headers: Record<string, string>, query = "") {
  const sep = p.path.includes("?") ? "&" : "?";
  const res = await fetch(s.url + p.path + (query ? sep + query : ""), { method: p.method, headers });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

/** The 401 of a request without credentials (reference §3.3): ErrorResponse, or Splunk's own. */
function assertNoCredentials(p: Probe, r: { status: number; text: string; headers: Headers }) {
  const what = `${p.method} ${p.path}: ${r.status} ${r.text}`;
  assert.equal(r.status, 401, what);
  assert.equal(r.headers.get("www-authenticate"), null, what);
  const body = JSON.parse(r.text);
  if (isSplunk(p.path)) return assert.deepEqual(body, { text: "Token is required", code: 2 }, what);
  assert.equal(body.code, 7003, what);
  assert.equal(typeof body.execution_time_ms, "number", what);
  const message = isInflux(p.path)
    ? "Not found influx http authorization info"
    : "Not found http or grpc authorization header";
  assert.equal(body.error, message, what);
}

/** A wrong password: 401 code 7002 (Splunk: 403 "Invalid token"); the password is never echoed. */
function assertBadPassword(p: Probe, r: { status: number; text: string; headers: Headers }) {
  const what = `${p.method} ${p.path}: ${r.status} ${r.text}`;
  assert.ok(!r.text.includes(WRONG_PASSWORD), `password echoed: ${what}`);
  for (const [, v] of r.headers) assert.ok(!v.includes(WRONG_PASSWORD), `password in a header: ${what}`);
  assert.equal(r.headers.get("www-authenticate"), null, what);
  const body = JSON.parse(r.text);
  if (isSplunk(p.path)) {
    assert.equal(r.status, 403, what);
    return assert.deepEqual(body, { text: "Invalid token", code: 4 }, what);
  }
  assert.equal(r.status, 401, what);
  assert.equal(body.code, 7002, what);
  assert.equal(body.error, "Username and password does not match, username: admin", what);
}

const DENIED = "User is not authorized to perform this action";

/** GreptimeDB's permission denial (§3.5): 403, in the endpoint's own error shape (§4.1). */
function assertDenied(p: Probe, r: { status: number; text: string; headers: Headers }) {
  const what = `${p.method} ${p.path}: ${r.status} ${r.text}`;
  assert.equal(r.status, 403, what);
  const body = JSON.parse(r.text);
  if (p.errors === "greptime") {
    assert.deepEqual([body.code, body.error], [7006, DENIED], what);
    assert.equal(r.headers.get("x-greptime-err-code"), "7006", what);
  } else if (p.errors === "plain") assert.deepEqual(body, { error: DENIED }, what);
  else if (p.errors === "prometheus") assert.deepEqual([body.status, body.error], ["error", DENIED], what);
  else if (p.errors === "splunk") assert.deepEqual(body, { text: DENIED, code: 4 }, what);
  else if (p.errors === "jaeger") {
    assert.deepEqual(body, {
      data: null,
      total: 0,
      limit: 0,
      offset: 0,
      errors: [{ code: 403, msg: DENIED }],
    }, what);
  } else assert.fail(`unknown error shape ${p.errors}`);
}

/** Past authentication and permissions: whatever the handler made of the empty request. */
function assertPasses(p: Probe, who: string, r: { status: number; text: string }) {
  assert.ok(r.status !== 401 && r.status !== 403, `${who} ${p.method} ${p.path}: ${r.status} ${r.text}`);
}

const as = (user: keyof typeof PASSWORDS) => ({ authorization: basicAuth(user, PASSWORDS[user]) });

Deno.test("every route: credentials and permissions as GreptimeDB asks them", async (t) => {
  const s = await startTestServer({ user_provider: USERS });
  try {
    for (const p of probes()) {
      if (p.rule === undefined) continue; // reported by the classification test
      await t.step(`${p.method} ${p.path}`, async () => {
        if (p.rule === "public") {
          // `seconds=0`: a CPU profile must not hold the test for its default 5 s.
          const q = p.path === "/debug/prof/cpu" ? "seconds=0" : "";
          return assertPasses(p, "anonymous", await call(s, p, {}, q));
        }
        const read = typeof p.rule === "object" ? p.rule.read : "";
        assertNoCredentials(p, await call(s, p, {}, read));
        assertBadPassword(p, await call(s, p, { authorization: basicAuth("admin", WRONG_PASSWORD) }, read));
        if (isInflux(p.path)) {
          assertBadPassword(p, await call(s, p, {}, `u=admin&p=${WRONG_PASSWORD}&${read}`));
        }
        if (typeof p.rule === "object") {
          assertPasses(p, "reader", await call(s, p, as("reader"), p.rule.read));
          assertDenied(p, await call(s, p, as("writer"), p.rule.read));
          assertDenied(p, await call(s, p, as("reader"), p.rule.write));
          assertPasses(p, "writer", await call(s, p, as("writer"), p.rule.write));
          return;
        }
        const [reader, writer] = [await call(s, p, as("reader")), await call(s, p, as("writer"))];
        if (p.rule === "read") assertDenied(p, writer);
        else assertPasses(p, "writer", writer);
        if (p.rule === "write") assertDenied(p, reader);
        else assertPasses(p, "reader", reader);
        assertPasses(p, "admin", await call(s, p, as("admin")));
      });
    }
  } finally {
    await s.stop();
  }
});

Deno.test("credential precedence, databases and secrets in 401s (reference §3.2–3.4)", async (t) => {
  const s = await startTestServer({ user_provider: USERS });
  const send = async (path: string, headers: Record<string, string>, method = "POST") => {
    const res = await fetch(s.url + path, { method, headers });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };
  const good = PASSWORDS.admin;
  const noSecret = (r: { text: string; headers: Headers }, secret: string) => {
    assert.ok(!r.text.includes(secret), r.text);
    for (const [k, v] of r.headers) assert.ok(!v.includes(secret), `${k}: ${v}`);
  };
  try {
    await t.step("influx: the Authorization header wins over u/p", async () => {
      let r = await send(`/v1/influxdb/write?u=admin&p=${WRONG_PASSWORD}`, {
        authorization: `Token admin:${good}`,
      });
      assert.equal(r.status, 204, r.text);
      r = await send(`/v1/influxdb/write?u=admin&p=${good}`, {
        authorization: `Token admin:${WRONG_PASSWORD}`,
      });
      assert.equal(r.status, 401, r.text);
      assert.equal(JSON.parse(r.text).code, 7002);
      noSecret(r, WRONG_PASSWORD);
    });
    await t.step("influx: Basic works too; u without p is a 401 naming both", async () => {
      assert.equal((await send("/v1/influxdb/write", as("writer"))).status, 204);
      const r = await send("/v1/influxdb/write?u=admin", {});
      assert.equal(r.status, 401, r.text);
      assert.equal(JSON.parse(r.text).code, 1004);
    });
    await t.step("influx: a Token without a colon never echoes it", async () => {
      const r = await send("/v1/influxdb/write", { authorization: `Token ${WRONG_PASSWORD}` });
      assert.deepEqual([r.status, JSON.parse(r.text).code], [401, 7004]);
      noSecret(r, WRONG_PASSWORD);
    });
    await t.step("x-greptime-auth is read before Authorization", async () => {
      const sql = "/v1/sql?sql=SELECT%201";
      const bad = basicAuth("admin", WRONG_PASSWORD);
      let r = await send(sql, { "x-greptime-auth": bad, authorization: basicAuth("admin", good) }, "GET");
      assert.equal(r.status, 401, r.text);
      r = await send(sql, { "x-greptime-auth": basicAuth("admin", good), authorization: bad }, "GET");
      assert.equal(r.status, 200, r.text);
    });
    await t.step("u/p are InfluxDB's only: elsewhere they are no credentials", async () => {
      const r = await send(`/v1/sql?sql=SELECT%201&u=admin&p=${good}`, {}, "GET");
      assert.deepEqual([r.status, JSON.parse(r.text).code], [401, 7003]);
    });
    await t.step("an unknown user's password is not echoed", async () => {
      const r = await send(
        "/v1/sql?sql=SELECT%201",
        { authorization: basicAuth("nobody", WRONG_PASSWORD) },
        "GET",
      );
      assert.deepEqual([r.status, JSON.parse(r.text).error], [401, "User not found, username: nobody"]);
      noSecret(r, WRONG_PASSWORD);
    });
    await t.step("static users may use every database (their authorize allows all)", async () => {
      const r = await send("/v1/sql?sql=SELECT%201", {
        ...as("reader"),
        "x-greptime-db-name": "greptime-public",
      }, "GET");
      assert.equal(r.status, 200, r.text);
      const other = await send("/v1/sql?sql=SELECT%201&db=elsewhere", as("reader"), "GET");
      assert.deepEqual(
        [other.status, JSON.parse(other.text).code],
        [400, 4004],
        "past auth: no such database",
      );
    });
  } finally {
    await s.stop();
  }
});

Deno.test("the VictoriaMetrics handshake answers any authenticated user; writes still need write", async () => {
  // GreptimeDB's remote-write handler returns the handshake before its permission check (§6.9),
  // so a read-only vmagent learns the protocol and is refused only when it writes.
  const s = await startTestServer({ user_provider: USERS });
  const send = async (query: string, headers: Record<string, string>) => {
    // an empty remote-write 1.0 request: nothing to store, 204 for a writer
    const body = encodeSnappy(new Uint8Array(0));
    const res = await fetch(`${s.url}/v1/prometheus/write${query}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-protobuf" },
      body,
    });
    return { status: res.status, text: await res.text() };
  };
  try {
    for (const user of ["admin", "reader", "writer"] as const) {
      assert.deepEqual(await send("?get_vm_proto_version=1", as(user)), { status: 200, text: "1" }, user);
    }
    const anonymous = await send("?get_vm_proto_version=1", {});
    assert.deepEqual([anonymous.status, JSON.parse(anonymous.text).code], [401, 7003]);
    const write = await send("?db=public", as("reader"));
    assert.deepEqual([write.status, JSON.parse(write.text)], [403, { error: DENIED }]);
    assert.equal((await send("?db=public", as("writer"))).status, 204);
  } finally {
    await s.stop();
  }
});
