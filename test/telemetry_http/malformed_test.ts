/**
 * Bad bodies to every log/trace/metric ingestion endpoint → 400 naming the problem, and nothing
 * written; partial success, required headers and gzip on the OTLP endpoints.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { post, tableNames, withServer } from "../protocols_http/util.ts";

const PB = { "content-type": "application/x-protobuf" };
const JSON_CT = { "content-type": "application/json" };
const TRACE = { "x-greptime-pipeline-name": "greptime_trace_v1" };
const garbage = Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);

/** [name, path, body, headers, text the error names] */
const CASES: [string, string, string | Uint8Array, Record<string, string>, RegExp][] = [
  [
    "OTLP metrics: bad protobuf",
    "/v1/otlp/v1/metrics",
    garbage,
    PB,
    // GreptimeDB's DecodeOtlpRequest message, ending with its hint (reference §6.11)
    /^\{"error":"Failed to decode OTLP request \(content-type: application\/x-protobuf\): .+\. The endpoint only accepts 'application\/x-protobuf' format\."\}$/,
  ],
  ["OTLP traces: bad protobuf", "/v1/otlp/v1/traces", garbage, { ...PB, ...TRACE }, /invalid protobuf/],
  ["OTLP logs: bad protobuf", "/v1/otlp/v1/logs", garbage, PB, /invalid protobuf/],
  [
    "OTLP metrics: truncated JSON",
    "/v1/otlp/v1/metrics",
    '{"resourceMetrics":[{',
    JSON_CT,
    /invalid OTLP JSON/,
  ],
  ["OTLP traces: wrong JSON shape", "/v1/telemetry/v1/traces", '{"resourceSpans":{"x":1}}', {
    ...JSON_CT,
    ...TRACE,
  }, /invalid OTLP JSON/],
  [
    "OTLP logs: bad trace id",
    "/v1/otlp/v1/logs",
    JSON.stringify({
      resourceLogs: [{
        scopeLogs: [{ logRecords: [{ timeUnixNano: "1", traceId: "zz", body: { stringValue: "x" } }] }],
      }],
    }),
    JSON_CT,
    /invalid OTLP JSON/,
  ],
  ["OTLP traces: no pipeline header", "/v1/otlp/v1/traces", new Uint8Array(0), PB, /Pipeline is required/],
  ["Loki: bad snappy", "/v1/loki/api/v1/push", garbage, PB, /Failed to decompress snappy Loki request/],
  ["Loki: bad JSON", "/v1/logpush/api/v1/push", '{"streams":[', JSON_CT, /Invalid Loki JSON request/],
  ["Loki: no streams", "/v1/loki/api/v1/push", '{"x":1}', JSON_CT, /Invalid Loki JSON request/],
  [
    "Loki: no content type",
    "/v1/loki/api/v1/push",
    new TextEncoder().encode('{"streams":[]}'),
    {},
    /Header of type `content-type` was missing/,
  ],
  [
    "Loki: other content type",
    "/v1/loki/api/v1/push",
    "x",
    { "content-type": "text/plain" },
    /Unsupported content type/,
  ],
  [
    "ES bulk: bad JSON line",
    "/v1/elasticsearch/_bulk",
    '{"create":{"_index":"t"}}\n{"a":\n',
    JSON_CT,
    /not valid JSON/,
  ],
  [
    "ES bulk: unknown action",
    "/v1/elasticsearch/_bulk",
    '{"delete":{"_index":"t"}}\n',
    JSON_CT,
    /expected 'create' or 'index'/,
  ],
  ["ES bulk: no index", "/v1/elasticsearch/_bulk", '{"create":{}}\n{"a":1}\n', JSON_CT, /missing index/],
];

Deno.test("malformed protobuf, JSON, snappy and NDJSON bodies → 400 and nothing written", async () => {
  await withServer(async (s) => {
    for (const [name, path, body, headers, why] of CASES) {
      const r = await post(s.url + path, body, headers);
      assert.equal(r.status, 400, `${name}: ${r.text}`);
      assert.match(r.text, why, name);
    }
    // A good write afterwards still works, so an empty database is not a broken server.
    assert.deepEqual(await tableNames(s.url), []);
    const ok = await post(
      s.url + "/v1/loki/api/v1/push",
      '{"streams":[{"stream":{"a":"b"},"values":[["1","x"]]}]}',
      JSON_CT,
    );
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(JSON.parse(ok.text).output, [{ affectedrows: 1 }]);
    assert.deepEqual(await tableNames(s.url), ["loki_logs"]);
  });
});

const gauge = (name: string, points: unknown[]) => ({ name, gauge: { dataPoints: points } });

Deno.test("OTLP: exponential histograms rejected in partial_success; gzip bodies; JSON response in JSON", async () => {
  await withServer(async (s) => {
    const body = JSON.stringify({
      resourceMetrics: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
        scopeMetrics: [{
          metrics: [
            gauge("room.temp", [{ timeUnixNano: "1700000000000000000", asDouble: 21.5 }]),
            { name: "lat", exponentialHistogram: { dataPoints: [{ timeUnixNano: "1", count: "1" }] } },
          ],
        }],
      }],
    });
    const r = await post(s.url + "/v1/otlp/v1/metrics", gzipSync(body), {
      ...JSON_CT,
      "content-encoding": "gzip",
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get("content-type"), "application/json");
    const partial = JSON.parse(r.text).partialSuccess;
    assert.equal(partial.rejectedDataPoints, "1");
    assert.match(partial.errorMessage, /exponential histograms are not supported/);
    const rows = await fetch(
      `${s.url}/v1/sql?sql=${encodeURIComponent("SELECT job, greptime_value FROM room_temp")}`,
    );
    assert.deepEqual((await rows.json()).output[0].records.rows, [["svc", 21.5]]);

    const empty = await post(s.url + "/v1/otlp/v1/logs", gzipSync(new Uint8Array(0)), {
      ...PB,
      "content-encoding": "gzip",
    });
    assert.equal(empty.status, 200);
    assert.equal(empty.headers.get("content-type"), "application/x-protobuf");
    assert.equal(empty.text, "");
  });
});

Deno.test("OTLP logs and traces honour the table-name headers", async () => {
  await withServer(async (s) => {
    const log = JSON.stringify({
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: "5", body: { stringValue: "hi" } }] }] }],
    });
    const r = await post(s.url + "/v1/otlp/v1/logs", log, {
      ...JSON_CT,
      "x-greptime-log-table-name": "my_logs",
    });
    assert.equal(r.status, 200, r.text);
    const span = JSON.stringify({
      resourceSpans: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
        scopeSpans: [{
          spans: [{
            traceId: "0102030405060708090a0b0c0d0e0f10",
            spanId: "0102030405060708",
            name: "op",
            startTimeUnixNano: "10",
            endTimeUnixNano: "20",
          }],
        }],
      }],
    });
    const t = await post(s.url + "/v1/otlp/v1/traces", span, {
      ...JSON_CT,
      ...TRACE,
      "x-greptime-trace-table-name": "my_traces",
    });
    assert.equal(t.status, 200, t.text);
    assert.deepEqual((await tableNames(s.url)).sort(), [
      "my_logs",
      "my_traces",
      "my_traces_operations",
      "my_traces_services",
    ]);
  });
});
