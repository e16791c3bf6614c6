/** Jaeger trace search: operation, tags, duration bounds, time range, limit, and the error envelopes. */
import assert from "node:assert/strict";
import { post, withServer } from "../protocols_http/util.ts";
import { jaegerGet } from "./jaeger_checks.ts";

const S = 1_700_000_000_000_000_000n;
const span = (trace: number, name: string, startMs: number, durMs: number, attrs: [string, unknown][]) => ({
  traceId: trace.toString(16).padStart(32, "0"),
  spanId: (trace * 16 + startMs).toString(16).padStart(16, "0"),
  name,
  kind: 2,
  startTimeUnixNano: String(S + BigInt(startMs) * 1_000_000n),
  endTimeUnixNano: String(S + BigInt(startMs + durMs) * 1_000_000n),
  attributes: attrs.map(([key, v]) => ({
    key,
    value: typeof v === "number" ? { intValue: v } : { stringValue: v },
  })),
});

/** [case, query, trace numbers expected, most recent first] */
const CASES: [string, string, number[]][] = [
  ["service only", "", [3, 2, 1]],
  ["operation", "&operation=GET%20%2Fb", [2]],
  ["tag", `&tags=${encodeURIComponent('{"http.status_code":"500"}')}`, [3]],
  ["kind tag", `&tags=${encodeURIComponent('{"span.kind":"server"}')}`, [3, 2, 1]],
  ["minDuration", "&minDuration=150ms", [3, 2]],
  ["maxDuration", "&maxDuration=0.15s", [1]],
  ["time range (µs)", `&start=${(S + 1_500_000_000n) / 1000n}&end=${(S + 2_500_000_000n) / 1000n}`, [2]],
  ["limit", "&limit=1", [3]],
];

Deno.test("Jaeger /api/traces search cases and error envelopes", async () => {
  await withServer(async (s) => {
    const body = JSON.stringify({
      resourceSpans: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "api" } }] },
        scopeSpans: [{
          spans: [
            span(1, "GET /a", 1000, 100, [["http.status_code", 200]]),
            span(2, "GET /b", 2000, 200, [["http.status_code", 200]]),
            span(3, "GET /a", 3000, 300, [["http.status_code", 500]]),
          ],
        }],
      }],
    });
    const headers = { "content-type": "application/json", "x-greptime-pipeline-name": "greptime_trace_v1" };
    assert.deepEqual((await jaegerGet(s.url, "services")).body, {
      data: null,
      total: 0,
      limit: 0,
      offset: 0,
      errors: [],
    });
    const w = await post(`${s.url}/v1/otlp/v1/traces`, body, headers);
    assert.equal(w.status, 200, w.text);
    for (const [name, q, expected] of CASES) {
      const r = await jaegerGet(s.url, `traces?service=api${q}`);
      assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body.data.map((t: { traceID: string }) => parseInt(t.traceID, 16)), expected, name);
    }
    assert.deepEqual((await jaegerGet(s.url, "traces?service=nobody")).body.data, []);
    const missing = await jaegerGet(s.url, "traces");
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.errors, [{ code: 400, msg: "parameter 'service' is required" }]);
    const unknown = await jaegerGet(s.url, `traces/${"f".repeat(32)}`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body.errors, [{ code: 404, msg: "trace not found" }]);
    assert.equal((await jaegerGet(s.url, "traces?service=api&minDuration=soon")).status, 400);
    assert.equal((await jaegerGet(s.url, "operations")).status, 400);
    assert.deepEqual((await jaegerGet(s.url, "operations?service=api&spanKind=client")).body.data, []);
  });
});

Deno.test("Jaeger search from Grafana (User-Agent) keeps each trace's 3 earliest spans", async () => {
  await withServer(async (s) => {
    const spans = [4000, 1000, 3000, 2000].map((ms) => span(7, `op${ms}`, ms, 10, []));
    const body = JSON.stringify({
      resourceSpans: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "api" } }] },
        scopeSpans: [{ spans }],
      }],
    });
    const headers = { "content-type": "application/json", "x-greptime-pipeline-name": "greptime_trace_v1" };
    assert.equal((await post(`${s.url}/v1/otlp/v1/traces`, body, headers)).status, 200);
    const names = async (ua: string) => {
      const r = await fetch(`${s.url}/v1/jaeger/api/traces?service=api`, { headers: { "user-agent": ua } });
      const j = await r.json();
      return j.data[0].spans.map((x: { operationName: string }) => x.operationName).sort();
    };
    assert.deepEqual(await names("Grafana/11.2.0"), ["op1000", "op2000", "op3000"]);
    assert.deepEqual(await names("curl/8"), ["op1000", "op2000", "op3000", "op4000"]);
  });
});
