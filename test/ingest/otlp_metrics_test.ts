/** OTLP metrics → series: GreptimeDB's naming, labels, histograms, summaries, options (reference §7.3). */
import assert from "node:assert/strict";
import { PetrelError } from "../../src/common/errors.ts";
import type { Series } from "../../src/common/series.ts";
import { decodeOtlpMetrics, type ExportMetricsRequest, type Metric } from "../../src/protocols/otlp/mod.ts";
import {
  DEFAULT_OTLP_METRIC_OPTIONS,
  labelName,
  metricName,
  type OtlpMetricOptions,
  otlpMetricOptions,
  otlpMetricsToSeries,
  rustF64,
} from "../../src/ingest/otlp/mod.ts";
import type { MetricKind, TranslationStrategy } from "../../src/ingest/otlp/metric_names.ts";
import { captureOtlp } from "../protocols/otlp/capture.ts";

const NAMES: [string, string, MetricKind, TranslationStrategy, string][] = [
  [
    "claude_code.cost.usage",
    "USD",
    "monotonic_sum",
    "UnderscoreEscapingWithSuffixes",
    "claude_code_cost_usage_USD_total",
  ],
  [
    "http.server.duration",
    "ms",
    "histogram",
    "UnderscoreEscapingWithSuffixes",
    "http_server_duration_milliseconds",
  ],
  [
    "http.server.requests",
    "1",
    "monotonic_sum",
    "UnderscoreEscapingWithSuffixes",
    "http_server_requests_total",
  ],
  ["cpu.utilization", "1", "gauge", "UnderscoreEscapingWithSuffixes", "cpu_utilization_ratio"],
  ["cpu.utilization", "1", "sum", "UnderscoreEscapingWithSuffixes", "cpu_utilization"],
  [
    "system.network.io",
    "By/s",
    "sum",
    "UnderscoreEscapingWithSuffixes",
    "system_network_io_bytes_per_second",
  ],
  ["requests_total", "", "monotonic_sum", "UnderscoreEscapingWithSuffixes", "requests_total"],
  ["total.requests", "", "monotonic_sum", "UnderscoreEscapingWithSuffixes", "requests_total"],
  ["x", "{requests}", "monotonic_sum", "UnderscoreEscapingWithSuffixes", "x_total"],
  ["2xx.count", "", "gauge", "UnderscoreEscapingWithSuffixes", "_2xx_count"],
  ["jvm.memory.used", "MiBy", "gauge", "UnderscoreEscapingWithSuffixes", "jvm_memory_used_mebibytes"],
  ["latency_seconds", "s", "histogram", "UnderscoreEscapingWithSuffixes", "latency_seconds"],
  ["temp", "Cel", "gauge", "UnderscoreEscapingWithSuffixes", "temp_celsius"],
  ["disk.used", "%", "gauge", "UnderscoreEscapingWithSuffixes", "disk_used_percent"],
  ["a--b..c", "requests/min", "gauge", "UnderscoreEscapingWithSuffixes", "a_b_c_requests_per_min"],
  ["otel.strategy.duration", "s", "gauge", "NoTranslation", "otel.strategy.duration"],
  ["http.server.duration", "ms", "histogram", "UnderscoreEscapingWithoutSuffixes", "http_server_duration"],
  ["http.server.requests", "1", "monotonic_sum", "UnderscoreEscapingWithoutSuffixes", "http_server_requests"],
  [
    "http.server.duration",
    "ms",
    "histogram",
    "NoUTF8EscapingWithSuffixes",
    "http.server.duration_milliseconds",
  ],
  ["http.requests", "", "monotonic_sum", "NoUTF8EscapingWithSuffixes", "http.requests_total"],
];

Deno.test("otlp metric names: GreptimeDB's translation strategies", () => {
  for (const [name, unit, kind, strategy, want] of NAMES) {
    assert.equal(metricName(name, unit, kind, strategy), want, `${name} ${unit} ${kind} ${strategy}`);
  }
});

Deno.test("otlp label names and Rust f64 display", () => {
  const labels: [string, string][] = [
    ["http.route", "http_route"],
    ["2xx", "key_2xx"],
    ["_private", "key_private"],
    ["__meta", "__meta"],
    ["k8s.pod-name", "k8s_pod_name"],
    ["", ""],
  ];
  for (const [k, want] of labels) assert.equal(labelName(k, true), want, k);
  assert.equal(labelName("http.route", false), "http.route");
  const floats: [number, string][] = [
    [0.5, "0.5"],
    [1, "1"],
    [-3, "-3"],
    [1e21, "1000000000000000000000"],
    [1e-7, "0.0000001"],
    [1.5e-10, "0.00000000015"],
    [-2.5e22, "-25000000000000000000000"],
    [0.1 + 0.2, "0.30000000000000004"],
    [Infinity, "inf"],
    [-Infinity, "-inf"],
    [NaN, "NaN"],
    [-0, "-0"],
  ];
  for (const [v, want] of floats) assert.equal(rustF64(v), want, String(v));
});

function find(series: Series[], name: string, labels: Record<string, string> = {}): Series[] {
  return series.filter((s) =>
    s.labels.__name__ === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)
  );
}

let real: ExportMetricsRequest | undefined;
async function realRequest(): Promise<ExportMetricsRequest> {
  if (!real) {
    const c = await captureOtlp("proto");
    real = decodeOtlpMetrics(c.metrics.body, c.metrics.contentType);
  }
  return real;
}

Deno.test("otlp metrics: the SDK's counters, gauges and histograms as GreptimeDB names and labels them", async () => {
  const out = otlpMetricsToSeries(await realRequest(), DEFAULT_OTLP_METRIC_OPTIONS);
  const names = [...new Set(out.series.map((s) => s.labels.__name__))].sort();
  assert.deepStrictEqual(names, [
    "cpu_utilization_ratio",
    "http_server_duration_milliseconds_bucket",
    "http_server_duration_milliseconds_count",
    "http_server_duration_milliseconds_sum",
    "http_server_requests_total",
    "http_server_response_size_bytes_total",
    "queue_depth",
  ]);
  const [req] = find(out.series, "http_server_requests_total", { http_route: "/a" });
  const { __name__: _, ...labels } = req.labels;
  assert.deepStrictEqual(labels, {
    job: "shop",
    instance: "i-1",
    service_name: "shop",
    service_namespace: "demo",
    service_instance_id: "i-1",
    deployment_environment: "test",
    http_route: "/a",
    http_status_code: "200",
  });
  assert.equal(req.samples[0].value, 3);
  assert(Math.abs(req.samples[0].timestampMs - Date.now()) < 600_000);
  const buckets = (route: string) =>
    find(out.series, "http_server_duration_milliseconds_bucket", { http_route: route })
      .map((s) => [s.labels.le, s.samples[0].value]);
  assert.deepStrictEqual(buckets("/b"), [["5", 1], ["10", 1], ["50", 3], ["+Inf", 3]]);
  assert.deepStrictEqual(buckets("/a"), [["5", 1], ["10", 1], ["50", 2], ["+Inf", 3]]);
  assert.equal(
    find(out.series, "http_server_duration_milliseconds_sum", { http_route: "/a" })[0].samples[0].value,
    105,
  );
  assert.equal(
    find(out.series, "http_server_duration_milliseconds_count", { http_route: "/b" })[0].samples[0].value,
    3,
  );
  assert.equal(find(out.series, "cpu_utilization_ratio", { cpu: "0" })[0].samples[0].value, 0.25);
  assert.equal(out.samples, out.series.length);
  assert.equal(out.rejectedDataPoints, 0);
  assert.deepStrictEqual(out.tables.get("http_server_requests_total"), {
    "greptime.semantic.signal_type": "metric",
    "greptime.semantic.source": "opentelemetry",
    "greptime.semantic.metric.metadata_quality": "declared",
    "greptime.semantic.metric.type": "counter",
    "greptime.semantic.metric.temporality": "cumulative",
    "greptime.semantic.metric.unit": "1",
    "greptime.semantic.metric.original_name": "http.server.requests",
    otlp_metric_compat: "prom",
  });
  assert.equal(out.tables.get("queue_depth")?.["greptime.semantic.metric.type"], "updown_counter");
  assert.equal(out.tables.get("cpu_utilization_ratio")?.["greptime.semantic.metric.type"], "gauge");
  assert.equal(
    out.tables.get("http_server_duration_milliseconds_bucket")?.["greptime.semantic.metric.type"],
    "histogram",
  );
});

Deno.test("otlp metrics: promotion headers", async () => {
  const req = await realRequest();
  const labelsOf = (headers: Record<string, string>) => {
    const opts = otlpMetricOptions((h) => headers[h] ?? null);
    const [s] = find(otlpMetricsToSeries(req, opts).series, "queue_depth");
    return s.labels;
  };
  assert.equal(labelsOf({})["host_name"], undefined);
  assert.equal(
    labelsOf({ "x-greptime-otlp-metric-promote-resource-attrs": "host.name;x" }).host_name,
    "edge-1",
  );
  const all = labelsOf({
    "x-greptime-otlp-metric-promote-all-resource-attrs": "true",
    "x-greptime-otlp-metric-ignore-resource-attrs": "deployment.environment; service.namespace",
  });
  assert.deepStrictEqual([all.host_name, all.deployment_environment, all.service_namespace, all.job], [
    "edge-1",
    undefined,
    undefined,
    "shop",
  ]);
  const scoped = labelsOf({ "x-greptime-otlp-metric-promote-scope-attrs": "1" });
  assert.deepStrictEqual([scoped.otel_scope_name, scoped.otel_scope_version], ["shop-meter", "1.2.0"]);
  const raw = otlpMetricsToSeries(
    req,
    otlpMetricOptions((h) => h === "x-greptime-otlp-metric-translation-strategy" ? "NoTranslation" : null),
  );
  assert(find(raw.series, "http.server.requests", { "http.route": "/a" }).length === 1);
  assert.throws(
    () => otlpMetricOptions((h) => h === "x-greptime-otlp-metric-translation-strategy" ? "Bogus" : null),
    (e) =>
      e instanceof PetrelError && e.code === 1004 &&
      /x-greptime-otlp-metric-translation-strategy.*Bogus/.test(e.message),
  );
});

const point = (attrs: Record<string, string>, t: bigint) => ({
  attributes: Object.entries(attrs).map(([key, v]) => ({
    key,
    value: { type: "string" as const, value: v },
  })),
  startTimeUnixNano: 0n,
  timeUnixNano: t,
  flags: 0,
});

function request(metrics: Metric[]): ExportMetricsRequest {
  return {
    resourceMetrics: [{
      resource: { attributes: [], droppedAttributesCount: 0 },
      schemaUrl: "",
      scopeMetrics: [{
        scope: { name: "", version: "", attributes: [], droppedAttributesCount: 0 },
        schemaUrl: "",
        metrics,
      }],
    }],
  };
}

Deno.test("otlp metrics: summaries, exponential histograms, points without values, time rounding", () => {
  const opts: OtlpMetricOptions = DEFAULT_OTLP_METRIC_OPTIONS;
  const out = otlpMetricsToSeries(
    request([
      {
        name: "rpc.latency",
        description: "",
        unit: "s",
        metadata: [],
        data: {
          type: "summary",
          dataPoints: [{
            ...point({ m: "get", quantile: "spoof" }, 1_700_000_000_123_999_999n),
            count: 10,
            sum: 2.5,
            quantileValues: [{ quantile: 0.5, value: 0.2 }, { quantile: 1, value: 0.9 }],
          }],
        },
      },
      {
        name: "exp",
        description: "",
        unit: "",
        metadata: [],
        data: {
          type: "exponentialHistogram",
          aggregationTemporality: 2,
          dataPoints: [1, 2].map(() => ({
            ...point({}, 1n),
            count: 1,
            sum: null,
            scale: 0,
            zeroCount: 0,
            positive: { offset: 0, bucketCounts: [1] },
            negative: { offset: 0, bucketCounts: [] },
            min: null,
            max: null,
            zeroThreshold: 0,
          })),
        },
      },
      {
        name: "g",
        description: "",
        unit: "",
        metadata: [],
        data: { type: "gauge", dataPoints: [{ ...point({}, 5_000_000n), value: null, isInt: false }] },
      },
    ]),
    opts,
  );
  assert.deepStrictEqual(
    out.series.map((
      s,
    ) => [s.labels.__name__, s.labels.quantile, s.samples[0].value, s.samples[0].timestampMs]),
    [
      ["rpc_latency_seconds", "0.5", 0.2, 1_700_000_000_123],
      ["rpc_latency_seconds", "1", 0.9, 1_700_000_000_123],
      ["rpc_latency_seconds_count", "spoof", 10, 1_700_000_000_123],
      ["rpc_latency_seconds_sum", "spoof", 2.5, 1_700_000_000_123],
    ],
  );
  assert.equal(out.tables.get("rpc_latency_seconds_sum")?.["greptime.semantic.metric.type"], "summary");
  assert.equal(out.rejectedDataPoints, 3);
  assert.match(out.rejectedMessage, /exponential histograms are not supported \(metric exp\)/);
  assert.match(out.rejectedMessage, /without a value/);
});
