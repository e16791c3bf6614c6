/**
 * OTLP/HTTP decoding of real OpenTelemetry JS SDK exports (protobuf and JSON), checked field by field
 * and against protobufjs on the same bytes.
 */
import assert from "node:assert/strict";
import {
  decodeOtlpLogs,
  decodeOtlpMetrics,
  decodeOtlpTraces,
  type ExportLogsRequest,
  type ExportMetricsRequest,
  type ExportTraceRequest,
  type KeyValue,
  type Metric,
  otlpEncoding,
} from "../../../src/protocols/otlp/mod.ts";
import { captureOtlp, type OtlpCapture } from "./capture.ts";
import { protoToOtlpJson, types } from "./proto_oracle.ts";

function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  assert.deepStrictEqual(actual, expected, message);
}

const captures = new Map<string, OtlpCapture>();
async function capture(mode: "json" | "proto"): Promise<OtlpCapture> {
  if (!captures.has(mode)) captures.set(mode, await captureOtlp(mode));
  return captures.get(mode)!;
}

function attr(kvs: KeyValue[], key: string): unknown {
  const kv = kvs.find((k) => k.key === key);
  return kv === undefined ? undefined : kv.value;
}

function checkMetrics(req: ExportMetricsRequest): void {
  assertEquals(req.resourceMetrics.length, 1);
  const rm = req.resourceMetrics[0];
  assertEquals(attr(rm.resource.attributes, "service.name"), { type: "string", value: "shop" });
  const sm = rm.scopeMetrics[0];
  assertEquals([sm.scope.name, sm.scope.version], ["shop-meter", "1.2.0"]);
  const byName = new Map<string, Metric>(sm.metrics.map((m) => [m.name, m]));
  assertEquals([...byName.keys()].sort(), [
    "cpu.utilization",
    "http.server.duration",
    "http.server.requests",
    "http.server.response.size",
    "queue.depth",
  ]);
  const requests = byName.get("http.server.requests")!;
  assertEquals(requests.unit, "1");
  assert(requests.data?.type === "sum");
  assertEquals([requests.data.isMonotonic, requests.data.aggregationTemporality], [true, 2]);
  assertEquals(requests.data.dataPoints.length, 2);
  for (const p of requests.data.dataPoints) {
    assertEquals(p.value, 3);
    assertEquals(attr(p.attributes, "http.status_code"), { type: "int", value: 200 });
    assert(p.timeUnixNano > 1_600_000_000_000_000_000n);
  }
  const queue = byName.get("queue.depth")!;
  assert(queue.data?.type === "sum" && !queue.data.isMonotonic);
  const hist = byName.get("http.server.duration")!;
  assert(hist.data?.type === "histogram");
  for (const p of hist.data.dataPoints) {
    assertEquals(p.explicitBounds, [5, 10, 50]);
    assertEquals(p.bucketCounts.length, 4);
    assertEquals(p.bucketCounts.reduce((a, b) => a + b, 0), p.count);
    assert(p.sum !== null && p.min !== null && p.max !== null);
  }
  const gauge = byName.get("cpu.utilization")!;
  assert(gauge.data?.type === "gauge");
  assertEquals(gauge.data.dataPoints[0].value, 0.25);
  assertEquals(attr(gauge.data.dataPoints[0].attributes, "cpu"), { type: "int", value: 0 });
}

function checkTraces(req: ExportTraceRequest): void {
  const spans = req.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
  assertEquals(req.resourceSpans[0].scopeSpans[0].scope.name, "shop-tracer");
  assertEquals(spans.length, 2);
  const parent = spans.find((s) => s.name === "GET /checkout")!;
  const child = spans.find((s) => s.name === "SELECT orders")!;
  assert(/^[0-9a-f]{32}$/.test(parent.traceId) && /^[0-9a-f]{16}$/.test(parent.spanId));
  assertEquals([parent.parentSpanId, parent.kind, parent.status.code], ["", 2, 0]);
  assertEquals([child.parentSpanId, child.traceId, child.kind], [parent.spanId, parent.traceId, 3]);
  assertEquals(child.status, { code: 2, message: "timeout" });
  assertEquals(child.events.map((e) => [e.name, e.attributes]), [["rows", [{
    key: "n",
    value: { type: "int", value: 3 },
  }]]]);
  assertEquals(child.links[0].spanId, parent.spanId);
  assertEquals(attr(child.links[0].attributes, "why"), { type: "string", value: "follows" });
  assert(child.endTimeUnixNano >= child.startTimeUnixNano);
  assertEquals(parent.attributes.map((kv) => [kv.key, kv.value.type]), [
    ["http.method", "string"],
    ["http.status_code", "int"],
    ["retry", "bool"],
    ["ratio", "double"],
    ["tags", "array"],
  ]);
  assertEquals(attr(parent.attributes, "tags"), {
    type: "array",
    value: [{ type: "string", value: "a" }, { type: "string", value: "b" }],
  });
}

function checkLogs(req: ExportLogsRequest): void {
  const sl = req.resourceLogs[0].scopeLogs[0];
  assertEquals([sl.scope.name, sl.scope.version], ["shop-logger", "2.0.0"]);
  assertEquals(sl.logRecords.map((l) => [l.severityNumber, l.severityText]), [[9, "INFO"], [13, "WARN"], [
    17,
    "ERROR",
  ]]);
  assertEquals(sl.logRecords[0].body, { type: "string", value: "order placed" });
  assertEquals(sl.logRecords[1].body, {
    type: "kvlist",
    value: [{ key: "msg", value: { type: "string", value: "slow" } }, {
      key: "ms",
      value: { type: "int", value: 1200 },
    }],
  });
  assertEquals(attr(sl.logRecords[0].attributes, "order.items"), { type: "int", value: 3 });
  assert(sl.logRecords[0].timeUnixNano > 0n && sl.logRecords[0].observedTimeUnixNano > 0n);
}

for (const mode of ["proto", "json"] as const) {
  Deno.test(`otlp decode: real SDK ${mode} exports decode field by field`, async () => {
    const c = await capture(mode);
    assertEquals(otlpEncoding(c.metrics.contentType), mode === "json" ? "json" : "protobuf");
    checkMetrics(decodeOtlpMetrics(c.metrics.body, c.metrics.contentType));
    checkTraces(decodeOtlpTraces(c.traces.body, c.traces.contentType));
    checkLogs(decodeOtlpLogs(c.logs.body, c.logs.contentType));
  });
}

Deno.test("otlp decode: protobuf and JSON decoders agree with protobufjs on the SDK's protobuf bodies", async () => {
  const c = await capture("proto");
  const cases = [
    [c.metrics.body, types.metrics, decodeOtlpMetrics],
    [c.traces.body, types.traces, decodeOtlpTraces],
    [c.logs.body, types.logs, decodeOtlpLogs],
  ] as const;
  for (const [body, type, decode] of cases) {
    const viaJson = decode(new TextEncoder().encode(protoToOtlpJson(type, body)), "application/json");
    assertEquals(decode(body, "application/x-protobuf"), viaJson);
  }
});

Deno.test("otlp decode: content types choose the encoding", () => {
  const cases: [string | null, string][] = [
    [null, "protobuf"],
    ["application/x-protobuf", "protobuf"],
    ["application/protobuf", "protobuf"],
    ["application/json", "json"],
    ["Application/JSON; charset=utf-8", "json"],
    ["application/vnd.otlp+json", "json"],
    ["text/plain", "protobuf"],
  ];
  for (const [ct, want] of cases) assertEquals(otlpEncoding(ct), want, String(ct));
});
