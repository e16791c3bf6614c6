/**
 * The service spec's endpoint tables (SERVICE.md "Endpoints"), row by row: every listed method of every
 * listed path answers with success, and each `/v1/<protocol>/…` path does so under both the spec's
 * neutral segment and GreptimeDB's real one (`lineproto`/`influxdb`, `metricsapi`/`prometheus`,
 * `telemetry`/`otlp`, `logpush`/`loki`, `tsjson`/`opentsdb`).
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { encodeSnappy } from "../../src/codec/snappy.ts";

interface Row {
  methods: string[];
  path: string;
  body?: () => BodyInit;
  headers?: Record<string, string>;
  /** The status the spec's row leads to (default: any 2xx). */
  status?: number;
}

const NOW_NS = `${Date.now()}000000`;
/** An empty remote-write or remote-read protobuf message, snappy-framed. */
const EMPTY_PROTO_SNAPPY = () => encodeSnappy(new Uint8Array(0));
const PROTO = { "content-type": "application/x-protobuf" };
const REMOTE = { ...PROTO, "content-encoding": "snappy" };
const METRICS_API = [
  "format_query?query=up",
  "status/buildinfo",
  "query?query=1",
  "query_range?query=1&start=0&end=60&step=15",
  "labels",
  "series?match[]=spec_m",
  "parse_query?query=up",
  "label/host/values",
];

/** Compatibility protocol endpoints, written with the spec's segment (`{p}` is replaced). */
function protocolRows(seg: Record<string, string>): Row[] {
  return [
    { methods: ["POST"], path: `/v1/${seg.lineproto}/write?db=public`, body: () => "spec_m,host=a v=1" },
    {
      methods: ["POST"],
      path: `/v1/${seg.lineproto}/api/v2/write?bucket=public`,
      body: () => "spec_m,host=b v=2",
    },
    { methods: ["GET"], path: `/v1/${seg.lineproto}/ping` },
    { methods: ["GET"], path: `/v1/${seg.lineproto}/health` },
    { methods: ["POST"], path: `/v1/${seg.metricsapi}/write`, body: EMPTY_PROTO_SNAPPY, headers: REMOTE },
    { methods: ["POST"], path: `/v1/${seg.metricsapi}/read`, body: EMPTY_PROTO_SNAPPY, headers: REMOTE },
    ...METRICS_API.map((ep): Row => ({
      methods: ["GET", "POST"],
      path: `/v1/${seg.metricsapi}/api/v1/${ep}`,
    })),
    {
      methods: ["POST"],
      path: `/v1/${seg.telemetry}/v1/metrics`,
      body: () => new Uint8Array(0),
      headers: PROTO,
    },
    {
      methods: ["POST"],
      path: `/v1/${seg.telemetry}/v1/traces`,
      body: () => new Uint8Array(0),
      // GreptimeDB's trace pipeline header, required as in GreptimeDB (README: Usage).
      headers: { ...PROTO, "x-greptime-pipeline-name": "greptime_trace_v1" },
    },
    {
      methods: ["POST"],
      path: `/v1/${seg.telemetry}/v1/logs`,
      body: () => new Uint8Array(0),
      headers: PROTO,
    },
    {
      methods: ["POST"],
      path: `/v1/${seg.logpush}/api/v1/push`,
      body: () => JSON.stringify({ streams: [{ stream: { job: "spec" }, values: [[NOW_NS, "hello"]] }] }),
      headers: { "content-type": "application/json" },
    },
    {
      methods: ["POST"],
      path: `/v1/${seg.tsjson}/api/put`,
      body: () =>
        JSON.stringify({ metric: "spec_put", timestamp: Date.now(), value: 1, tags: { host: "a" } }),
    },
  ];
}

const SPEC_SEGMENTS = {
  lineproto: "lineproto",
  metricsapi: "metricsapi",
  telemetry: "telemetry",
  logpush: "logpush",
  tsjson: "tsjson",
};
const REAL_SEGMENTS = {
  lineproto: "influxdb",
  metricsapi: "prometheus",
  telemetry: "otlp",
  logpush: "loki",
  tsjson: "opentsdb",
};

const ADMIN_AND_QUERY: Row[] = [
  { methods: ["GET", "POST"], path: "/health" },
  { methods: ["GET"], path: "/status" },
  { methods: ["GET"], path: "/metrics" },
  { methods: ["GET"], path: "/config" },
  // `/dashboard` redirects to `/dashboard/`, which serves the page.
  { methods: ["GET", "POST"], path: "/dashboard", status: 308 },
  { methods: ["GET", "POST"], path: "/dashboard/" },
  { methods: ["POST"], path: "/debug/log_level", body: () => "error" },
  { methods: ["POST"], path: "/debug/enable_trace", body: () => "false" },
  { methods: ["GET", "POST"], path: "/v1/sql?sql=SELECT+1" },
  { methods: ["GET", "POST"], path: "/v1/promql?query=1&start=0&end=60&step=15" },
];

async function call(url: string, method: string, row: Row): Promise<Response> {
  return await fetch(url + row.path, {
    method,
    headers: row.headers,
    body: method === "POST" ? row.body?.() : undefined,
    redirect: "manual",
  });
}

Deno.test("spec endpoint tables: every listed method of every path succeeds, under both protocol names", async (t) => {
  const s = await startTestServer();
  try {
    const rows = [...ADMIN_AND_QUERY, ...protocolRows(SPEC_SEGMENTS), ...protocolRows(REAL_SEGMENTS)];
    for (const row of rows) {
      for (const method of row.methods) {
        await t.step(`${method} ${row.path}`, async () => {
          const res = await call(s.url, method, row);
          const text = await res.text();
          if (row.status !== undefined) assert.equal(res.status, row.status, text);
          else assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${text}`);
        });
      }
    }
  } finally {
    await s.stop();
  }
});

Deno.test("spec profiling table: cpu, mem, status, activate, deactivate, gdump, symbol", async () => {
  const s = await startTestServer();
  const post = (path: string, init: RequestInit = {}) => fetch(s.url + path, { method: "POST", ...init });
  try {
    for (const output of ["proto", "text", "flamegraph"]) {
      const res = await post(`/debug/prof/cpu?seconds=0.2&frequency=100&output=${output}`);
      assert.equal(res.status, 200, output);
      await res.body?.cancel();
    }
    const pprof = new Uint8Array(
      await (await post("/debug/prof/cpu?seconds=0.2&output=proto")).arrayBuffer(),
    );
    assert.deepEqual(await (await fetch(s.url + "/debug/prof/mem/status")).json(), { active: false });
    assert.equal(await (await post("/debug/prof/mem/activate")).text(), "Heap profiling activated");
    assert.deepEqual(await (await fetch(s.url + "/debug/prof/mem/status")).json(), { active: true });
    for (const output of ["text", "proto", "flamegraph"]) {
      const res = await post(`/debug/prof/mem?output=${output}`);
      assert.equal(res.status, 200, output);
      await res.body?.cancel();
    }
    assert.equal(await (await post("/debug/prof/mem/deactivate")).text(), "Heap profiling deactivated");
    const form = { "content-type": "application/x-www-form-urlencoded" };
    for (const activate of [true, false]) {
      const res = await post("/debug/prof/mem/gdump", { headers: form, body: `activate=${activate}` });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.deepEqual(await (await fetch(s.url + "/debug/prof/mem/gdump")).json(), { active: activate });
    }
    const symbol = await post("/debug/prof/mem/symbol", { body: pprof });
    assert.equal(symbol.status, 200);
    assert.match(await symbol.text(), /<svg/);
  } finally {
    await s.stop();
  }
});
