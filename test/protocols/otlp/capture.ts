/**
 * Real OTLP payloads: the OpenTelemetry JS SDK with its OTLP/HTTP exporters (JSON and protobuf),
 * pointed at a small capture server, records metrics, spans and logs of a fixed scenario.
 */
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import * as metricsHttp from "@opentelemetry/exporter-metrics-otlp-http";
import * as metricsProto from "@opentelemetry/exporter-metrics-otlp-proto";
import * as traceHttp from "@opentelemetry/exporter-trace-otlp-http";
import * as traceProto from "@opentelemetry/exporter-trace-otlp-proto";
import * as logsHttp from "@opentelemetry/exporter-logs-otlp-http";
import * as logsProto from "@opentelemetry/exporter-logs-otlp-proto";

/** One captured request. */
export interface Captured {
  path: string;
  contentType: string | null;
  body: Uint8Array;
}

/** Bodies the SDK sent, by signal (the first export of each). */
export interface OtlpCapture {
  metrics: Captured;
  traces: Captured;
  logs: Captured;
}

/** Runs the scenario through the SDK with JSON or protobuf exporters and returns what was sent. */
export async function captureOtlp(mode: "json" | "proto"): Promise<OtlpCapture> {
  const got: Captured[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    got.push({
      path: new URL(req.url).pathname,
      contentType: req.headers.get("content-type"),
      body: new Uint8Array(await req.arrayBuffer()),
    });
    return new Response(new Uint8Array(0), { headers: { "content-type": "application/x-protobuf" } });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}/v1/otlp`;
    const json = mode === "json";
    const resource = resourceFromAttributes({
      "service.name": "shop",
      "service.namespace": "demo",
      "service.instance.id": "i-1",
      "host.name": "edge-1",
      "deployment.environment": "test",
    });
    await sendMetrics(json, base, resource);
    await sendTraces(json, base, resource);
    await sendLogs(json, base, resource);
  } finally {
    await server.shutdown();
  }
  const first = (suffix: string) => {
    const c = got.find((g) => g.path.endsWith(suffix));
    if (!c) throw new Error(`the SDK sent no ${suffix} request`);
    return c;
  };
  return { metrics: first("/v1/metrics"), traces: first("/v1/traces"), logs: first("/v1/logs") };
}

type Res = ReturnType<typeof resourceFromAttributes>;

async function sendMetrics(json: boolean, base: string, resource: Res): Promise<void> {
  const url = `${base}/v1/metrics`;
  const exporter = json
    ? new metricsHttp.OTLPMetricExporter({ url, temporalityPreference: AggregationTemporality.CUMULATIVE })
    : new metricsProto.OTLPMetricExporter({ url, temporalityPreference: AggregationTemporality.CUMULATIVE });
  const provider = new MeterProvider({
    resource,
    readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })],
  });
  const meter = provider.getMeter("shop-meter", "1.2.0");
  const requests = meter.createCounter("http.server.requests", { unit: "1" });
  const bytes = meter.createCounter("http.server.response.size", { unit: "By" });
  const latency = meter.createHistogram("http.server.duration", {
    unit: "ms",
    advice: { explicitBucketBoundaries: [5, 10, 50] },
  });
  const queue = meter.createUpDownCounter("queue.depth");
  meter.createObservableGauge("cpu.utilization", { unit: "1" }).addCallback((r) =>
    r.observe(0.25, { cpu: 0 })
  );
  for (let i = 0; i < 6; i++) {
    const route = i % 2 ? "/a" : "/b";
    requests.add(1, { "http.route": route, "http.status_code": 200 });
    bytes.add(100 * i, { "http.route": route });
    latency.record(3 * i * i, { "http.route": route });
    queue.add(i % 3 - 1);
  }
  await provider.forceFlush();
  await provider.shutdown();
}

async function sendTraces(json: boolean, base: string, resource: Res): Promise<void> {
  const url = `${base}/v1/traces`;
  const exporter = json
    ? new traceHttp.OTLPTraceExporter({ url })
    : new traceProto.OTLPTraceExporter({ url });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  const tracer = provider.getTracer("shop-tracer", "0.9.0");
  const parent = tracer.startSpan("GET /checkout", {
    kind: SpanKind.SERVER,
    attributes: {
      "http.method": "GET",
      "http.status_code": 200,
      "retry": false,
      "ratio": 0.5,
      "tags": ["a", "b"],
    },
  });
  const child = tracer.startSpan(
    "SELECT orders",
    { kind: SpanKind.CLIENT, attributes: { "db.system": "postgresql" } },
    trace.setSpan(context.active(), parent),
  );
  child.addEvent("rows", { n: 3 });
  child.addLink({ context: parent.spanContext(), attributes: { why: "follows" } });
  child.setStatus({ code: SpanStatusCode.ERROR, message: "timeout" });
  child.end();
  parent.end();
  await provider.forceFlush();
  await provider.shutdown();
}

async function sendLogs(json: boolean, base: string, resource: Res): Promise<void> {
  const url = `${base}/v1/logs`;
  const exporter = json ? new logsHttp.OTLPLogExporter({ url }) : new logsProto.OTLPLogExporter({ url });
  const provider = new LoggerProvider({ resource, processors: [new BatchLogRecordProcessor({ exporter })] });
  emitShopLogs(provider);
  await provider.forceFlush();
  await provider.shutdown();
}

/** The log records of the shop scenario (a text body with attributes, a map body, an error), as `shop-logger`. */
export function emitShopLogs(provider: LoggerProvider): void {
  const logger = provider.getLogger("shop-logger", "2.0.0");
  logger.emit({
    severityNumber: SeverityNumber.INFO,
    severityText: "INFO",
    body: "order placed",
    attributes: { "app.user": "u1", "order.items": 3 },
  });
  logger.emit({ severityNumber: SeverityNumber.WARN, severityText: "WARN", body: { msg: "slow", ms: 1200 } });
  logger.emit({ severityNumber: SeverityNumber.ERROR, severityText: "ERROR", body: "payment failed" });
}
