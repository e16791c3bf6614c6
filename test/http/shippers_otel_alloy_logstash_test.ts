/**
 * Three more shippers, replayed as they go on the wire:
 * - OpenTelemetry Collector `otlphttp` with `endpoint: http://host:4000/v1/otlp`: `/v1/traces`,
 *   `/v1/metrics`, `/v1/logs` appended; `Content-Type: application/x-protobuf`, `Content-Encoding:
 *   gzip` (the default compression), configured headers (Basic auth, `x-greptime-pipeline-name`).
 *   A 2xx body is decoded by its Content-Type as an Export*ServiceResponse (partial success);
 *   429/502/503/504 are retried, any other error is permanent.
 * - Grafana Alloy `loki.write` with `url = ".../v1/loki/api/v1/push"`: snappy protobuf with no
 *   Content-Encoding, `X-Scope-OrgID` from `tenant_id`, structured metadata; 2xx success, 429/5xx retried.
 * - Logstash `elasticsearch` output with `hosts => ["http://host:4000/v1/elasticsearch"]`: `HEAD /`
 *   (health check), `GET /` (version), `GET /_license`; `GET /_xpack` for ILM, whose 404 means "no
 *   ILM"; `HEAD`/`PUT /_index_template/…` outside data-stream mode; then `POST
 *   /_bulk?filter_path=errors,items.*.error,items.*.status` with `Content-Type: application/json`,
 *   gzip, and `null` `_id`/`routing` in the action lines.
 */
import assert from "node:assert/strict";
import protobuf from "protobufjs";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { encodeSnappyFramed } from "../helpers/snappy_framed.ts";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { BASIC, expectStatus, gzip, rows, send, withAuthServer } from "./shippers_util.ts";

const Push = protobuf.loadSync(new URL("../../src/protocols/loki/proto/push.proto", import.meta.url).pathname)
  .lookupType("logproto.PushRequest");
const NS = "1700000000000000000";
const RESOURCE = { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] };

Deno.test("otelcol otlphttp: gzip protobuf logs, metrics and traces answered with empty Export responses", async () => {
  await withAuthServer(async (s) => {
    const base = {
      "user-agent": "OpenTelemetry Collector Contrib/0.110.0 (linux/amd64)",
      "content-type": "application/x-protobuf",
      "content-encoding": "gzip",
      authorization: BASIC,
    };
    const traceId = btoa(String.fromCharCode(...new Uint8Array(16).fill(7)));
    const spanId = btoa(String.fromCharCode(...new Uint8Array(8).fill(3)));
    const cases = [
      ["logs", types.logs, types.logsResponse, {}, {
        resourceLogs: [{
          resource: RESOURCE,
          scopeLogs: [{
            logRecords: [{ timeUnixNano: NS, severityText: "INFO", body: { stringValue: "paid" } }],
          }],
        }],
      }],
      ["metrics", types.metrics, types.metricsResponse, {}, {
        resourceMetrics: [{
          resource: RESOURCE,
          scopeMetrics: [{
            metrics: [{
              name: "orders",
              sum: {
                aggregationTemporality: 2,
                isMonotonic: true,
                dataPoints: [{ timeUnixNano: NS, asInt: "3" }],
              },
            }],
          }],
        }],
      }],
      ["traces", types.traces, types.tracesResponse, { "x-greptime-pipeline-name": "greptime_trace_v1" }, {
        resourceSpans: [{
          resource: RESOURCE,
          scopeSpans: [{
            spans: [{
              traceId,
              spanId,
              name: "POST /pay",
              kind: 2,
              startTimeUnixNano: NS,
              endTimeUnixNano: "1700000000005000000",
            }],
          }],
        }],
      }],
    ] as const;
    for (const [signal, request, response, extra, message] of cases) {
      const r = await send(
        s,
        "POST",
        `/v1/otlp/v1/${signal}`,
        { ...base, ...extra },
        gzip(encode(request, message)),
      );
      expectStatus(r, 200, signal);
      assert.equal(r.headers.get("content-type"), "application/x-protobuf", signal);
      assert.deepStrictEqual(
        response.toObject(response.decode(r.bytes)),
        {},
        `${signal}: no partial success`,
      );
    }
    assert.deepStrictEqual(await rows(s, "SELECT body, severity_text FROM opentelemetry_logs"), [[
      "paid",
      "INFO",
    ]]);
    assert.deepStrictEqual(await rows(s, "SELECT greptime_value FROM orders_total"), [[3]]);
    assert.deepStrictEqual(
      await rows(s, "SELECT service_name, span_name, duration_nano FROM opentelemetry_traces"),
      [["checkout", "POST /pay", 5000000]],
    );
    // A traces exporter without the pipeline header: a permanent 400 (not one the collector retries).
    const noPipeline = await send(
      s,
      "POST",
      "/v1/otlp/v1/traces",
      base,
      gzip(encode(types.traces, cases[2][4])),
    );
    expectStatus(noPipeline, 400, "no pipeline header");
    assert.match(noPipeline.text, /Pipeline is required/);
  });
});

Deno.test("otelcol otlphttp: compression snappy, raw block or framed, is undone (GreptimeDB: 400)", async () => {
  await withAuthServer(async (s) => {
    const logs = (body: string) =>
      encode(types.logs, {
        resourceLogs: [{
          resource: RESOURCE,
          scopeLogs: [{ logRecords: [{ timeUnixNano: NS, body: { stringValue: body } }] }],
        }],
      });
    const cases: [string, string, Uint8Array][] = [
      ["block", "snappy", encodeSnappy(logs("block"))],
      ["framed", "snappy", encodeSnappyFramed(logs("framed"))],
      ["x-snappy-framed", "x-snappy-framed", encodeSnappyFramed(logs("x-snappy-framed"))],
    ];
    for (const [label, encoding, body] of cases) {
      const r = await send(s, "POST", "/v1/otlp/v1/logs", {
        "content-type": "application/x-protobuf",
        "content-encoding": encoding,
        authorization: BASIC,
      }, body);
      expectStatus(r, 200, label);
    }
    assert.deepStrictEqual(await rows(s, "SELECT body FROM opentelemetry_logs ORDER BY body"), [
      ["block"],
      ["framed"],
      ["x-snappy-framed"],
    ]);
    const corrupt = await send(s, "POST", "/v1/otlp/v1/logs", {
      "content-type": "application/x-protobuf",
      "content-encoding": "snappy",
      authorization: BASIC,
    }, encodeSnappyFramed(logs("x")).subarray(0, 20));
    expectStatus(corrupt, 400, "truncated framed body");
    assert.match(corrupt.text, /snappy/);
  });
});

Deno.test("alloy loki.write: snappy protobuf, tenant header, several streams with structured metadata", async () => {
  await withAuthServer(async (s) => {
    const body = encodeSnappy(
      Push.encode(Push.fromObject({
        streams: [
          {
            labels: '{service_name="checkout", level="info"}',
            entries: [{
              timestamp: { seconds: 1700000000 },
              line: "order paid",
              structuredMetadata: [{ name: "trace_id", value: "0707" }],
            }],
          },
          {
            labels: '{service_name="checkout", level="error"}',
            entries: [{ timestamp: { seconds: 1700000001 }, line: "card declined" }],
          },
        ],
      })).finish(),
    );
    const r = await send(s, "POST", "/v1/loki/api/v1/push", {
      "user-agent": "Alloy/v1.4.2 (linux; docker)",
      "content-type": "application/x-protobuf",
      "x-scope-orgid": "tenant-1",
      authorization: BASIC,
    }, body);
    expectStatus(r, 200, "push");
    assert.deepStrictEqual(
      await rows(
        s,
        "SELECT line, level, service_name, structured_metadata FROM loki_logs ORDER BY greptime_timestamp",
      ),
      [["order paid", "info", "checkout", { trace_id: "0707" }], ["card declined", "error", "checkout", {}]],
    );
  });
});

Deno.test("logstash elasticsearch: start-up probes, then filter_path bulks in JSON with null action fields", async () => {
  await withAuthServer(async (s) => {
    const auth = { "user-agent": "Logstash/8.15.0 (OS=Linux-x86_64) Manticore/0.9.1", authorization: BASIC };
    expectStatus(await send(s, "HEAD", "/v1/elasticsearch/", auth), 200, "HEAD / health check");
    const root = await send(s, "GET", "/v1/elasticsearch/", auth);
    expectStatus(root, 200, "GET /");
    assert.equal(root.headers.get("x-elastic-product"), "Elasticsearch");
    assert.equal(JSON.parse(root.text).version.build_flavor, "default");
    assert.equal(
      JSON.parse(await (await send(s, "GET", "/v1/elasticsearch/_license", auth)).text).license.status,
      "active",
    );
    // Logstash reads a 404 here as "no ILM" and goes on.
    expectStatus(await send(s, "GET", "/v1/elasticsearch/_xpack", auth), 404, "_xpack");
    expectStatus(
      await send(s, "HEAD", "/v1/elasticsearch/_index_template/ecs-logstash", auth),
      200,
      "template exists",
    );
    expectStatus(
      await send(s, "PUT", "/v1/elasticsearch/_index_template/ecs-logstash", {
        ...auth,
        "content-type": "application/json",
      }, "{}"),
      200,
      "template install",
    );

    const doc = (message: string) => ({
      "@timestamp": "2024-01-01T00:00:00.000Z",
      "@version": "1",
      message,
      host: { name: "lsbox" },
      event: { original: message },
      data_stream: { type: "logs", dataset: "generic", namespace: "default" },
    });
    const bulk = [
      { create: { _id: null, _index: "logs-generic-default", routing: null } },
      doc("ds event"),
      { index: { _id: null, _index: "logstash-2024.01.01", routing: null } },
      { message: "classic event", "@timestamp": "2024-01-01T00:00:01.000Z" },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n";
    const r = await send(
      s,
      "POST",
      "/v1/elasticsearch/_bulk?filter_path=errors,items.*.error,items.*.status",
      { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
      gzip(bulk),
    );
    expectStatus(r, 200, "bulk");
    const reply = JSON.parse(r.text);
    assert.equal(reply.errors, false);
    assert.deepStrictEqual(
      reply.items.map((i: Record<string, { status: number }>) => Object.values(i)[0].status),
      [201, 201],
    );
    assert.deepStrictEqual(
      await rows(s, `SELECT message, "host.name", "event.original" FROM "logs-generic-default"`),
      [["ds event", "lsbox", "ds event"]],
    );
    assert.deepStrictEqual(await rows(s, `SELECT message FROM "logstash-2024.01.01"`), [["classic event"]]);
  });
});
