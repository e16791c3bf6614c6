/**
 * Fuzz seeds of the telemetry endpoints: OTLP/HTTP metrics, logs and traces (protobuf and JSON),
 * Loki push (snappy protobuf and JSON), Elasticsearch bulk, and the PromQL query API.
 */
import protobuf from "protobufjs";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import type { FuzzRequest } from "./fuzz_cases.ts";

const enc = new TextEncoder();
const NS = "1700000000000000000";
const otlp = protobuf.loadSync(
  new URL("../../src/protocols/otlp/proto/collector.proto", import.meta.url).pathname,
);
const loki = protobuf.loadSync(
  new URL("../../src/protocols/loki/proto/push.proto", import.meta.url).pathname,
);
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const resource = { attributes: [str("service.name", "fuzz"), str("host.name", "h1")] };

/** An OTLP collector request in protobuf. */
export function pb(type: string, obj: Record<string, unknown>): Uint8Array {
  const t = otlp.lookupType(`opentelemetry.proto.collector.v1.${type}`);
  return t.encode(t.fromObject(obj)).finish();
}

const metrics = {
  resourceMetrics: [{
    resource,
    scopeMetrics: [{
      scope: { name: "fz" },
      metrics: [
        {
          name: "fz.gauge",
          gauge: { dataPoints: [{ timeUnixNano: NS, asDouble: 1.5, attributes: [str("k", "v")] }] },
        },
        {
          name: "fz.sum",
          sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [{ timeUnixNano: NS, asInt: 7 }] },
        },
        {
          name: "fz.hist",
          histogram: {
            aggregationTemporality: 2,
            dataPoints: [{
              timeUnixNano: NS,
              count: 3,
              sum: 6,
              bucketCounts: [1, 2, 0],
              explicitBounds: [1, 5],
            }],
          },
        },
      ],
    }],
  }],
};
const logs = {
  resourceLogs: [{
    resource,
    scopeLogs: [{
      scope: { name: "fz" },
      logRecords: [{
        timeUnixNano: NS,
        severityText: "INFO",
        body: { stringValue: "héllo" },
        attributes: [str("a", "b")],
      }],
    }],
  }],
};
const traces = {
  resourceSpans: [{
    resource,
    scopeSpans: [{
      scope: { name: "fz" },
      spans: [{
        traceId: "5B8EFFF798038103D269B633813FC60C",
        spanId: "EEE19B7EC3C1B174",
        name: "GET /x",
        kind: 2,
        startTimeUnixNano: NS,
        endTimeUnixNano: "1700000000500000000",
        attributes: [str("http.method", "GET")],
      }],
    }],
  }],
};

function otlpSeeds(): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const kinds: Array<[string, string, Record<string, unknown>]> = [
    ["metrics", "ExportMetricsServiceRequest", metrics],
    ["logs", "ExportLogsServiceRequest", logs],
    ["traces", "ExportTraceServiceRequest", traces],
  ];
  for (const [kind, type, obj] of kinds) {
    // protobufjs reads hex ids from JSON as base64; the protobuf seed carries real bytes
    const pbObj = kind === "traces" ? withBinaryIds(obj) : obj;
    out.push({
      family: `otlp_${kind}_pb`,
      method: "POST",
      path: `/v1/otlp/v1/${kind}`,
      headers: { "content-type": "application/x-protobuf", ...pipelineHeader(kind) },
      body: pb(type, pbObj),
      atomic: true,
    });
    out.push({
      family: `otlp_${kind}_json`,
      method: "POST",
      path: `/v1/otlp/v1/${kind}`,
      headers: { "content-type": "application/json", ...pipelineHeader(kind) },
      body: enc.encode(JSON.stringify(obj)),
      atomic: true,
    });
  }
  return out;
}

/** Traces need GreptimeDB's trace pipeline named (as its OTLP exporters are configured to). */
function pipelineHeader(kind: string): Record<string, string> {
  return kind === "traces" ? { "x-greptime-pipeline-name": "greptime_trace_v1" } : {};
}

function withBinaryIds(obj: Record<string, unknown>): Record<string, unknown> {
  const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));
  const copy = structuredClone(obj) as typeof traces;
  for (const rs of copy.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const s of ss.spans as Array<Record<string, unknown>>) {
        s.traceId = hex(s.traceId as string);
        s.spanId = hex(s.spanId as string);
      }
    }
  }
  return copy as unknown as Record<string, unknown>;
}

/** The valid seeds of the telemetry endpoint families. */
export function telemetrySeeds(): FuzzRequest[] {
  const push = loki.lookupType("logproto.PushRequest");
  const lokiPb = push.encode(push.fromObject({
    streams: [{
      labels: '{app="fz",level="info"}',
      entries: [{ timestamp: { seconds: 1700000000, nanos: 5 }, line: "a line" }],
    }],
  })).finish();
  return [
    ...otlpSeeds(),
    {
      family: "loki_pb",
      method: "POST",
      path: "/v1/loki/api/v1/push",
      headers: { "content-type": "application/x-protobuf" },
      body: lokiPb,
      atomic: true,
      wrap: encodeSnappy,
    },
    {
      family: "loki_json",
      method: "POST",
      path: "/v1/loki/api/v1/push",
      headers: { "content-type": "application/json" },
      body: enc.encode(JSON.stringify({
        streams: [{ stream: { app: "fz" }, values: [[NS, "json line", { trace_id: "t1" }]] }],
      })),
      atomic: true,
    },
    {
      family: "es_bulk",
      method: "POST",
      path: "/v1/elasticsearch/_bulk",
      headers: { "content-type": "application/json" },
      body: enc.encode(
        '{"create":{"_index":"fz_es"}}\n{"@timestamp":"2024-01-01T00:00:00Z","message":"hi","n":1}\n' +
          '{"index":{"_index":"fz_es"}}\n{"@timestamp":"2024-01-01T00:00:01Z","message":"yo","host":{"name":"a"}}\n',
      ),
      atomic: false, // bulk items succeed or fail one by one, as in Elasticsearch
    },
    {
      family: "splunk_hec",
      method: "POST",
      path: "/v1/splunk/services/collector?channel=0aeeac95-ac74-4aa9-b30d-6c4c0ac581ba",
      headers: { "content-type": "application/json" },
      body: enc.encode(
        '{"time":1700000000.5,"host":"h","source":"s","sourcetype":"st","event":"hi","fields":{"k":"v"}}' +
          '{"time":"1700000001","index":"fz_splunk","event":{"n":1,"o":{"p":[1,2]}}}',
      ),
      atomic: true, // a HEC request is stored whole or not at all
    },
    {
      family: "splunk_raw",
      method: "POST",
      path: "/v1/splunk/services/collector/raw?host=h&sourcetype=access&time=1700000002",
      headers: { "content-type": "text/plain" },
      body: enc.encode("GET /a 200\nGET /b 404\n"),
      atomic: true,
    },
    {
      family: "promql",
      method: "POST",
      path: "/v1/prometheus/api/v1/query_range",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: enc.encode(
        "query=" + encodeURIComponent('sum by (job) (rate(fz_rw{job=~"a|b"}[5m])) / 2') +
          "&start=1700000000&end=1700000600&step=15",
      ),
      atomic: true,
    },
  ];
}
