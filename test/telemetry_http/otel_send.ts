/**
 * The OpenTelemetry JS SDK, with its OTLP/HTTP exporters (JSON or protobuf), sends metrics, a
 * two-span trace and log records of a fixed scenario to a server; what each exporter handed over
 * (the SDK's own objects) comes back, so a test can compare the stored rows with what was sent.
 */
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { BatchLogRecordProcessor, LoggerProvider, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { emitShopLogs } from "../protocols/otlp/capture.ts";
import * as metricsHttp from "@opentelemetry/exporter-metrics-otlp-http";
import * as metricsProto from "@opentelemetry/exporter-metrics-otlp-proto";
import * as traceHttp from "@opentelemetry/exporter-trace-otlp-http";
import * as traceProto from "@opentelemetry/exporter-trace-otlp-proto";
import * as logsHttp from "@opentelemetry/exporter-logs-otlp-http";
import * as logsProto from "@opentelemetry/exporter-logs-otlp-proto";

/** What the SDK exported, and each export's result. */
export interface OtelSent {
  metrics: ResourceMetrics[];
  spans: ReadableSpan[];
  logs: ReadableLogRecord[];
  results: string[];
}

interface Exporter<T> {
  export(items: T, cb: (r: { code: number; error?: Error }) => void): void;
}

/** Records what an exporter is handed and how each export ended. */
function tap<T>(exp: Exporter<T>, seen: T[], results: string[], name: string): void {
  const orig = exp.export.bind(exp);
  exp.export = (items, cb) => {
    seen.push(items);
    orig(items, (r) => {
      results.push(r.code === 0 ? `${name}:ok` : `${name}:error ${r.error?.message}`);
      cb(r);
    });
  };
}

/** Runs the scenario against `base` (e.g. `http://host/v1/otlp`) with the given extra headers. */
export async function sendOtel(
  base: string,
  mode: "json" | "proto",
  headers: Record<string, string>,
): Promise<OtelSent> {
  const json = mode === "json";
  const sent: OtelSent = { metrics: [], spans: [], logs: [], results: [] };
  const resource = resourceFromAttributes({
    "service.name": `shop-${mode}`,
    "service.instance.id": "i-1",
    "host.name": "edge-1",
  });

  const murl = `${base}/v1/metrics`;
  const mopts = { url: murl, headers, temporalityPreference: AggregationTemporality.CUMULATIVE };
  const mexp = json ? new metricsHttp.OTLPMetricExporter(mopts) : new metricsProto.OTLPMetricExporter(mopts);
  tap(mexp as unknown as Exporter<ResourceMetrics>, sent.metrics, sent.results, "metrics");
  const meters = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: mexp as unknown as PushMetricExporter,
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  const meter = meters.getMeter("shop-meter", "1.2.0");
  const requests = meter.createCounter("http.server.requests", { unit: "1" });
  const latency = meter.createHistogram("http.server.duration", {
    unit: "ms",
    advice: { explicitBucketBoundaries: [5, 10, 50] },
  });
  const queue = meter.createUpDownCounter("queue.depth");
  for (let i = 0; i < 6; i++) {
    const route = i % 2 ? "/a" : "/b";
    requests.add(1, { "http.route": route });
    latency.record(3 * i * i, { "http.route": route });
    queue.add(i % 3 - 1);
  }
  await meters.forceFlush();
  await meters.shutdown();

  const turl = `${base}/v1/traces`;
  const theaders = { ...headers, "X-Greptime-Pipeline-Name": "greptime_trace_v1" };
  const texp = json
    ? new traceHttp.OTLPTraceExporter({ url: turl, headers: theaders })
    : new traceProto.OTLPTraceExporter({ url: turl, headers: theaders });
  const spanBatches: ReadableSpan[][] = [];
  tap(texp as unknown as Exporter<ReadableSpan[]>, spanBatches, sent.results, "traces");
  const tracers = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(texp)] });
  const tracer = tracers.getTracer("shop-tracer", "0.9.0");
  const parent = tracer.startSpan("GET /checkout", {
    kind: SpanKind.SERVER,
    attributes: { "http.method": "GET", "http.status_code": 200, "retry": false, "ratio": 0.5 },
  });
  const child = tracer.startSpan(
    "SELECT orders",
    { kind: SpanKind.CLIENT, attributes: { "db.system": "postgresql" } },
    trace.setSpan(context.active(), parent),
  );
  child.addEvent("rows", { n: 3 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: "timeout" });
  await new Promise((r) => setTimeout(r, 5));
  child.end();
  parent.end();
  await tracers.forceFlush();
  await tracers.shutdown();
  sent.spans = spanBatches.flat();

  const lurl = `${base}/v1/logs`;
  const lexp = json
    ? new logsHttp.OTLPLogExporter({ url: lurl, headers })
    : new logsProto.OTLPLogExporter({ url: lurl, headers });
  const logBatches: ReadableLogRecord[][] = [];
  tap(lexp as unknown as Exporter<ReadableLogRecord[]>, logBatches, sent.results, "logs");
  const loggers = new LoggerProvider({
    resource,
    processors: [new BatchLogRecordProcessor({ exporter: lexp })],
  });
  emitShopLogs(loggers);
  await loggers.forceFlush();
  await loggers.shutdown();
  sent.logs = logBatches.flat();
  return sent;
}

/** An SDK `[seconds, nanos]` time as nanoseconds. */
export function hrNanos(t: [number, number]): bigint {
  return BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
}
