/**
 * OTLP metrics' fast path (keyed metric-engine writes) against the series path it stands in for:
 * on every case, each metric's points carry the same keys, labels and samples as the series path's
 * after its special labels are split off and empty labels dropped (what the metric engine stores);
 * requests whose labels need the series path (special labels, names the series path rejects) give
 * null. Over HTTP: a metric that exists as a plain table, and a special label in an attribute.
 */
import assert from "node:assert/strict";
import { splitSpecialLabels } from "../../src/common/labels.ts";
import type { AnyValue, ExportMetricsRequest, KeyValue, Metric } from "../../src/protocols/otlp/mod.ts";
import {
  DEFAULT_OTLP_METRIC_OPTIONS,
  type OtlpMetricOptions,
  otlpMetricsToSeries,
} from "../../src/ingest/otlp/mod.ts";
import { otlpMetricsToWrites } from "../../src/ingest/otlp/metric_writes.ts";
import { labelsOfKey, seriesKey } from "../../src/storage/metric_series.ts";
import { post, sqlExec, sqlRows, withServer } from "../protocols_http/util.ts";

type Flat = [metric: string, key: string, labels: Record<string, string>, ts: number, value: number];

/** The series path's result as the metric engine sees it. */
function reference(req: ExportMetricsRequest, opts: OtlpMetricOptions): Flat[] {
  return otlpMetricsToSeries(req, opts).series.map((s) => {
    const t = splitSpecialLabels(s.labels);
    assert.equal(t.database ?? t.physicalTable, undefined, "a case for the fast path has no special label");
    const tags = Object.fromEntries(Object.entries(t.tags).filter(([, v]) => v !== ""));
    return [t.metric, seriesKey(tags), tags, s.samples[0].timestampMs, s.samples[0].value];
  });
}

function fast(req: ExportMetricsRequest, opts: OtlpMetricOptions): Flat[] | null {
  const out = otlpMetricsToWrites(req, opts);
  if (out === null) return null;
  const flat: Flat[] = [];
  for (const [metric, points] of out.metrics) {
    for (let i = 0; i < points.length; i++) {
      const key = points.keys[i];
      const labels = labelsOfKey(key);
      assert.equal(key, seriesKey(labels));
      flat.push([metric, key, labels, points.ts[i], points.values[i]]);
    }
  }
  return flat;
}

/** The series path groups by metric in order of first appearance, as the fast path does. */
function byMetric(rows: Flat[]): Flat[] {
  const order = [...new Set(rows.map((r) => r[0]))];
  return order.flatMap((m) => rows.filter((r) => r[0] === m));
}

const s = (v: string): AnyValue => ({ type: "string", value: v });
const kv = (key: string, value: AnyValue): KeyValue => ({ key, value });
const attrs = (o: Record<string, string>) => Object.entries(o).map(([k, v]) => kv(k, s(v)));
const T = 1_700_000_000_123_456_789n;
const pt = (attributes: KeyValue[], value = 1) => ({
  attributes,
  startTimeUnixNano: 0n,
  timeUnixNano: T,
  flags: 0,
  value,
  isInt: false,
});

function gauge(name: string, points: ReturnType<typeof pt>[]): Metric {
  return { name, description: "", unit: "", metadata: [], data: { type: "gauge", dataPoints: points } };
}

function request(
  metrics: Metric[],
  resource: KeyValue[] = attrs({ "service.name": "svc" }),
): ExportMetricsRequest {
  const scope = { name: "sc", version: "1", attributes: attrs({ lib: "x" }), droppedAttributesCount: 0 };
  return {
    resourceMetrics: [{
      resource: { attributes: resource, droppedAttributesCount: 0 },
      schemaUrl: "",
      scopeMetrics: [{ scope, schemaUrl: "", metrics }],
    }],
  };
}

const histogram: Metric = {
  name: "latency",
  description: "",
  unit: "ms",
  metadata: [],
  data: {
    type: "histogram",
    aggregationTemporality: 2,
    dataPoints: [1, 2].map((i) => ({
      attributes: attrs({ route: `/r${i}`, le: "spoof" }),
      startTimeUnixNano: 0n,
      timeUnixNano: T,
      flags: 0,
      count: 3,
      sum: 1.5,
      bucketCounts: [1, 1, 1],
      explicitBounds: [0.5, 1],
      min: null,
      max: null,
    })),
  },
};

const summary: Metric = {
  name: "rpc",
  description: "",
  unit: "s",
  metadata: [],
  data: {
    type: "summary",
    dataPoints: [{
      attributes: attrs({ m: "get", quantile: "spoof" }),
      startTimeUnixNano: 0n,
      timeUnixNano: T,
      flags: 0,
      count: 10,
      sum: 2.5,
      quantileValues: [{ quantile: 0.5, value: 0.2 }, { quantile: 1, value: 0.9 }],
    }],
  },
};

const CASES: [string, ExportMetricsRequest][] = [
  [
    "plain attributes, one shape",
    request([gauge("g", [1, 2, 3].map((i) => pt(attrs({ h: `h${i}`, r: "x" }), i)))]),
  ],
  [
    "shapes change from point to point",
    request([
      gauge("g", [pt(attrs({ a: "1" })), pt(attrs({ b: "2" })), pt([]), pt(attrs({ a: "1", b: "2" }))]),
    ]),
  ],
  ["an attribute overrides a resource label", request([gauge("g", [pt(attrs({ job: "mine" })), pt([])])])],
  [
    "duplicate attribute keys: the last wins",
    request([gauge("g", [pt([kv("a", s("1")), kv("a", s("2"))])])]),
  ],
  [
    "two keys that escape to one label",
    request([
      gauge("g", [pt([kv("a.b", s("1")), kv("a_b", s("2"))]), pt([kv("a_b", s("2")), kv("a.b", s("1"))])]),
    ]),
  ],
  ["empty values are dropped", request([gauge("g", [pt(attrs({ a: "", b: "x" })), pt(attrs({ job: "" }))])])],
  [
    "non-label attributes leave the earlier value",
    request([gauge("g", [
      pt([kv("job", { type: "bool", value: true })]),
      pt([kv("a", s("1")), kv("a", { type: "array", value: [] })]),
      pt([kv("n", { type: "int", value: 42 }), kv("d", { type: "double", value: 1e21 })]),
    ])]),
  ],
  ["an attribute named __name__", request([gauge("g", [pt(attrs({ __name__: "spoof", a: "1" }))])])],
  ["histograms and summaries (le, quantile win)", request([histogram, summary, histogram])],
  [
    "values that need JSON escaping",
    request([gauge("g", [pt(attrs({ a: 'q"\\\n\u0000é' })), pt(attrs({ a: "\u2028" }))])]),
  ],
  ["no resource attributes", request([gauge("g", [pt(attrs({ a: "1" }))])], [])],
  [
    "two metrics interleaved by name",
    request([
      gauge("a", [pt(attrs({ x: "1" }))]),
      gauge("b", [pt(attrs({ x: "1" }))]),
      gauge("a", [pt(attrs({ x: "2" }))]),
    ]),
  ],
];

const OPTIONS: [string, OtlpMetricOptions][] = [
  ["defaults", DEFAULT_OTLP_METRIC_OPTIONS],
  ["scope promoted", { ...DEFAULT_OTLP_METRIC_OPTIONS, promoteScopeAttrs: true }],
  ["all resource attributes", { ...DEFAULT_OTLP_METRIC_OPTIONS, promoteAllResourceAttrs: true }],
];

Deno.test("otlp metric writes: the fast path keys every series as the series path does", () => {
  for (const [name, req] of CASES) {
    for (const [optName, opts] of OPTIONS) {
      // twice: the second time every key comes from the cache
      for (const pass of [1, 2]) {
        assert.deepStrictEqual(
          fast(req, opts),
          byMetric(reference(req, opts)),
          `${name}, ${optName}, pass ${pass}`,
        );
      }
    }
  }
});

Deno.test("otlp metric writes: labels that need the series path give null", () => {
  const cases: [string, ExportMetricsRequest, OtlpMetricOptions][] = [
    [
      "a database label",
      request([gauge("g", [pt(attrs({ __database__: "other" }))])]),
      DEFAULT_OTLP_METRIC_OPTIONS,
    ],
    [
      "a physical table label in a later point",
      request([gauge("g", [pt([]), pt(attrs({ x_greptime_physical_table: "p" }))])]),
      DEFAULT_OTLP_METRIC_OPTIONS,
    ],
    [
      "a name the series path rejects",
      request([gauge("g", [pt(attrs({ "a.b": "1" }))])]),
      { ...DEFAULT_OTLP_METRIC_OPTIONS, translationStrategy: "NoTranslation" },
    ],
    ["__proto__", request([gauge("g", [pt(attrs({ ["__proto__"]: "1" }))])]), DEFAULT_OTLP_METRIC_OPTIONS],
  ];
  for (const [name, req, opts] of cases) assert.equal(otlpMetricsToWrites(req, opts), null, name);
});

const json = (metric: string, attributes: Record<string, string>, ms: number, value: number) =>
  JSON.stringify({
    resourceMetrics: [{
      resource: { attributes: [] },
      scopeMetrics: [{
        scope: {},
        metrics: [{
          name: metric,
          gauge: {
            dataPoints: [{
              timeUnixNano: String(BigInt(ms) * 1_000_000n),
              asDouble: value,
              attributes: Object.entries(attributes).map(([key, v]) => ({ key, value: { stringValue: v } })),
            }],
          },
        }],
      }],
    }],
  });

Deno.test("otlp metric writes over HTTP: a plain table keeps its rows, a special label routes", async () => {
  const ms = Date.now() - 60_000;
  await withServer(async (srv) => {
    const lp = await post(`${srv.url}/v1/lineproto/write?precision=ms`, `pre,job=lp greptime_value=1 ${ms}`);
    assert.equal(lp.status, 204, lp.text);
    const url = `${srv.url}/v1/otlp/v1/metrics`;
    const headers = { "content-type": "application/json" };
    let r = await post(url, json("pre", { job: "otlp" }, ms + 1, 2), headers);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      await sqlRows(srv.url, "SELECT job, greptime_value FROM pre ORDER BY greptime_timestamp"),
      [
        ["lp", 1],
        ["otlp", 2],
      ],
    );
    await sqlExec(srv.url, "CREATE DATABASE other");
    r = await post(url, json("routed", { __database__: "other", a: "1" }, ms, 3), headers);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await sqlRows(srv.url, "SELECT a, greptime_value FROM routed", "other"), [["1", 3]]);
  });
});
