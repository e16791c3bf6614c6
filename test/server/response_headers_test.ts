/**
 * The result headers of reference §2.9 on every endpoint that answers with a GreptimeDB result type:
 * `x-greptime-format` and an integer `x-greptime-execution-time`; `x-greptime-err-code`/`-err-msg` only
 * on ErrorResponse errors, never on the plain `{"error"}` shape.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

const JSON_TYPE = { "content-type": "application/json" };
const LOG_QUERY = {
  table: { catalog_name: "greptime", schema_name: "public", table_name: "hdr_logs" },
  time_filter: { start: "2000-01-01", end: "2100-01-01" },
  limit: { fetch: 10 },
  columns: [],
  filters: [],
  context: "None",
};

/** [name, method, path, headers, body, x-greptime-format] of successful requests, run in order. */
const RESULTS: [string, string, string, Record<string, string>, string | undefined, string][] = [
  ["sql", "GET", "/v1/sql?sql=select%201", {}, undefined, "greptimedb_v1"],
  ["sql csv", "GET", "/v1/sql?sql=select%201&format=csvWithNames", {}, undefined, "csv"],
  ["promql", "GET", "/v1/promql?query=1&start=0&end=10&step=5s", {}, undefined, "greptimedb_v1"],
  [
    "ingest",
    "POST",
    "/v1/ingest?table=hdr_logs&pipeline_name=greptime_identity",
    JSON_TYPE,
    '{"message":"m"}',
    "greptimedb_v1",
  ],
  ["log query", "POST", "/v1/logs", JSON_TYPE, JSON.stringify(LOG_QUERY), "greptimedb_v1"],
  [
    "loki push",
    "POST",
    "/v1/loki/api/v1/push",
    JSON_TYPE,
    '{"streams":[{"stream":{"a":"b"},"values":[["1700000000000000000","line"]]}]}',
    "greptimedb_v1",
  ],
  ["dashboard save", "POST", "/v1/dashboards/d1", {}, "{}", "greptimedb_manage"],
  [
    "pipeline upload",
    "POST",
    "/v1/pipelines/hdr",
    { "content-type": "application/x-yaml" },
    "processors: []\ntransform:\n  - field: message\n    type: string\n",
    "greptimedb_manage",
  ],
];

Deno.test("x-greptime-format and x-greptime-execution-time on every GreptimeDB result type", async (t) => {
  const s = await startTestServer();
  try {
    for (const [name, method, path, headers, body, format] of RESULTS) {
      await t.step(name, async () => {
        const res = await fetch(s.url + path, { method, headers, body });
        const text = await res.text();
        assert.equal(res.status, 200, `${name}: ${text}`);
        assert.equal(res.headers.get("x-greptime-format"), format, name);
        assert.match(res.headers.get("x-greptime-execution-time") ?? "", /^\d+$/, name);
        assert.equal(res.headers.get("x-greptime-err-code"), null, name);
      });
    }
  } finally {
    await s.stop();
  }
});

Deno.test("error headers: ErrorResponse errors carry code and message, plain errors neither", async () => {
  const s = await startTestServer();
  try {
    const sql = await fetch(`${s.url}/v1/sql?sql=select%20*%20from%20nope`);
    const body = await sql.json();
    assert.equal(sql.headers.get("x-greptime-err-code"), "4001");
    assert.equal(
      sql.headers.get("x-greptime-err-msg"),
      `error: ${body.error}, execution_time_ms: ${body.execution_time_ms}`,
    );
    const write = await fetch(`${s.url}/v1/influxdb/write`, { method: "POST", body: "m v=" });
    assert.equal(write.status, 400);
    assert.deepEqual(Object.keys(await write.json()), ["error"]);
    assert.equal(write.headers.get("x-greptime-err-code"), null);
    assert.equal(write.headers.get("x-greptime-err-msg"), null);
  } finally {
    await s.stop();
  }
});

Deno.test("the Prometheus query API compresses per accept-encoding, other endpoints do not (reference §2.8)", async () => {
  const s = await startTestServer();
  try {
    const lines = Array.from({ length: 200 }, (_, i) => `gz_metric_${i},host=h${i} v=1 1`).join("\n");
    assert.equal((await fetch(`${s.url}/v1/influxdb/write`, { method: "POST", body: lines })).status, 204);
    for (
      const [path, encoding] of [
        ["/v1/prometheus/api/v1/label/__name__/values", "gzip"],
        ["/v1/metricsapi/api/v1/labels", "gzip"],
        ["/v1/prometheus/api/v1/series?match[]=gz_metric_1", "gzip"],
        ["/v1/sql?sql=show%20tables", null],
      ] as const
    ) {
      const res = await fetch(s.url + path, { headers: { "accept-encoding": "gzip, br;q=0" } });
      assert.equal(res.headers.get("content-encoding"), encoding, path);
      assert.equal(res.status, 200, path);
      await res.json(); // fetch undoes the encoding: the body must still be whole JSON
    }
    const deflate = await fetch(`${s.url}/v1/prometheus/api/v1/labels`, {
      headers: { "accept-encoding": "gzip;q=0, deflate" },
    });
    assert.equal(deflate.headers.get("content-encoding"), "deflate");
    // Deno's fetch leaves deflate bodies as they are.
    const inflated = deflate.body!.pipeThrough(new DecompressionStream("deflate"));
    assert.deepEqual((await new Response(inflated).json()).data, ["__name__", "host"]);
    const none = await fetch(`${s.url}/v1/prometheus/api/v1/labels`, {
      headers: { "accept-encoding": "identity" },
    });
    assert.equal(none.headers.get("content-encoding"), null);
    await none.body?.cancel();
  } finally {
    await s.stop();
  }
});
