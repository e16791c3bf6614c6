/**
 * OTLP metrics read straight from protobuf (`metrics_pb.ts`) against the typed model's path it
 * stands in for (`decodeMetricsProto` + `otlpMetricsToWrites`): the same keyed points,
 * table options and rejections on the same bytes (fields in any order, every data type, attributes
 * that are no labels), and the same ProtoDecodeError on every truncation and byte corruption.
 */
import assert from "node:assert/strict";
import { decodeMetricsProto } from "../../src/protocols/otlp/pb_metrics.ts";
import { DEFAULT_OTLP_METRIC_OPTIONS, type OtlpMetricOptions } from "../../src/ingest/otlp/mod.ts";
import { otlpMetricsToWrites, type OtlpMetricWrites } from "../../src/ingest/otlp/metric_writes.ts";
import { otlpMetricsProtoToWrites } from "../../src/ingest/otlp/metrics_pb.ts";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import protobuf from "protobufjs";

const root = types.metrics.root;
const T = (name: string) => root.lookupType(`opentelemetry.proto.metrics.v1.${name}`);

function flat(w: OtlpMetricWrites | null): unknown {
  if (w === null) return null;
  return {
    metrics: [...w.metrics].map((
      [m, points],
    ) => [m, points.keys.map((key, i) => [key, points.ts[i], points.values[i]])]),
    tables: [...w.tables],
    samples: w.samples,
    rejected: w.rejectedDataPoints,
    message: w.rejectedMessage,
  };
}

function outcome(f: () => OtlpMetricWrites | null): unknown {
  try {
    return flat(f());
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message };
  }
}

function same(body: Uint8Array, opts: OtlpMetricOptions, what: string): void {
  const old = outcome(() => otlpMetricsToWrites(decodeMetricsProto(body), opts));
  const direct = outcome(() => otlpMetricsProtoToWrites(body, opts));
  assert.deepStrictEqual(direct, old, what);
}

/** A length-delimited field `n` holding `bytes`. */
function field(n: number, bytes: Uint8Array): Uint8Array {
  const w = protobuf.Writer.create();
  w.uint32((n << 3) | 2).bytes(bytes);
  return w.finish();
}

function cat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), at += p.length;
  return out;
}

const sv = (v: string) => ({ stringValue: v });
const attrs = (o: Record<string, unknown>) => Object.entries(o).map(([key, value]) => ({ key, value }));
const NS = "1700000000123456789";
const point = (a: Record<string, unknown>, v: Record<string, unknown>) => ({
  attributes: attrs(a),
  startTimeUnixNano: "1700000000000000000",
  timeUnixNano: NS,
  ...v,
});

const metrics = [
  {
    name: "cpu.temp",
    unit: "Cel",
    gauge: {
      dataPoints: [
        point({ host: sv("h1"), region: sv("eu") }, { asDouble: 1.5 }),
        point({ host: sv("h2"), region: sv("eu") }, { asInt: "-7" }),
        point({ host: sv("h3") }, {}),
        point({ n: { intValue: "9007199254740993" }, d: { doubleValue: 1e21 } }, { asDouble: NaN }),
        point({ b: { boolValue: true }, host: { arrayValue: { values: [sv("x")] } } }, { asDouble: 2 }),
        point({ host: sv("h1"), region: sv("") }, { asDouble: 3, flags: 1, exemplars: [{ asDouble: 1 }] }),
        point({ host: { stringValue: "a", intValue: "1" }, k: {} }, { asDouble: 4 }),
        { timeUnixNano: "18446744073709551615", asDouble: 5 },
        { timeUnixNano: "999999", asDouble: 6 },
      ],
    },
  },
  {
    name: "requests",
    unit: "1",
    sum: {
      aggregationTemporality: 2,
      isMonotonic: true,
      dataPoints: [point({ host: sv("h1") }, { asInt: "10" })],
    },
  },
  {
    name: "queue",
    sum: { aggregationTemporality: 1, dataPoints: [point({ host: sv("h1") }, { asInt: "3" })] },
  },
  {
    name: "latency",
    unit: "ms",
    histogram: {
      aggregationTemporality: 2,
      dataPoints: [{
        ...point({ route: sv("/a"), le: sv("spoof") }, {}),
        count: "3",
        sum: 1.5,
        bucketCounts: ["1", "1", "1"],
        explicitBounds: [0.5, 1],
      }],
    },
  },
  {
    name: "rpc",
    summary: {
      dataPoints: [{
        ...point({ m: sv("get") }, {}),
        count: "10",
        sum: 2.5,
        quantileValues: [{ quantile: 0.5, value: 0.2 }],
      }],
    },
  },
  { name: "exp", exponentialHistogram: { dataPoints: [point({}, {})] } },
  { name: "empty" },
  { name: "no_points", gauge: {} },
];

const request = {
  resourceMetrics: [{
    resource: { attributes: attrs({ "service.name": sv("svc"), "host.name": sv("box") }) },
    scopeMetrics: [{ scope: { name: "sc", version: "1", attributes: attrs({ lib: sv("x") }) }, metrics }],
    schemaUrl: "u",
  }, { scopeMetrics: [{ metrics: metrics.slice(0, 2) }] }],
};

const scopeBytes = encode(root.lookupType("opentelemetry.proto.common.v1.InstrumentationScope"), {
  name: "late",
  attributes: attrs({ z: sv("1") }),
});
const resourceBytes = encode(root.lookupType("opentelemetry.proto.resource.v1.Resource"), {
  attributes: attrs({ "service.name": sv("late") }),
});
const metricBytes = (m: Record<string, unknown>) => encode(T("Metric"), m);
/** Data before the name, the scope after its metrics, the resource after its scopes, two data fields. */
const reordered = field(
  1,
  cat(
    field(
      2,
      cat(
        field(2, cat(metricBytes({ sum: metrics[1].sum }), metricBytes({ name: "requests", unit: "By" }))),
        field(
          2,
          cat(
            metricBytes({ histogram: metrics[3].histogram }),
            metricBytes({ name: "g", gauge: metrics[0].gauge }),
          ),
        ),
        field(1, scopeBytes),
      ),
    ),
    field(1, resourceBytes),
  ),
);

const bodies: [string, Uint8Array][] = [
  ["every data type", encode(types.metrics, request)],
  ["fields out of order", reordered],
  ["empty", new Uint8Array()],
];

const OPTIONS: OtlpMetricOptions[] = [
  DEFAULT_OTLP_METRIC_OPTIONS,
  { ...DEFAULT_OTLP_METRIC_OPTIONS, promoteScopeAttrs: true, promoteAllResourceAttrs: true },
  { ...DEFAULT_OTLP_METRIC_OPTIONS, translationStrategy: "NoTranslation" },
];

Deno.test("otlp metrics from protobuf: the same writes as the typed model's path", () => {
  for (const [name, body] of bodies) {
    for (const opts of OPTIONS) {
      for (const pass of [1, 2]) same(body, opts, `${name} ${opts.translationStrategy} pass ${pass}`);
    }
  }
  assert.notEqual(flat(otlpMetricsProtoToWrites(bodies[0][1], DEFAULT_OTLP_METRIC_OPTIONS)), null);
});

Deno.test("otlp metrics from protobuf: a label the series path handles gives null, as before", () => {
  const body = encode(types.metrics, {
    resourceMetrics: [{
      scopeMetrics: [{
        metrics: [{ name: "g", gauge: { dataPoints: [point({ __database__: sv("x") }, { asDouble: 1 })] } }],
      }],
    }],
  });
  same(body, DEFAULT_OTLP_METRIC_OPTIONS, "special label");
  assert.equal(otlpMetricsProtoToWrites(body, DEFAULT_OTLP_METRIC_OPTIONS), null);
});

Deno.test("otlp metrics from protobuf: the same errors on every truncation and corruption", () => {
  for (const [name, body] of bodies) {
    for (let n = 0; n < body.length; n++) {
      same(body.subarray(0, n), DEFAULT_OTLP_METRIC_OPTIONS, `${name} cut at ${n}`);
    }
    for (let i = 0; i < body.length; i++) {
      for (const b of [0x00, 0x07, 0x0a, 0x7f, 0xff]) {
        const bad = body.slice();
        bad[i] = b;
        same(bad, DEFAULT_OTLP_METRIC_OPTIONS, `${name} byte ${i} = ${b}`);
      }
    }
  }
});
