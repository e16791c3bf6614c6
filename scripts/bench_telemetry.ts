/**
 * Log, trace-adjacent and metric protocols over HTTP: OTLP metrics (protobuf) data points/s, OTLP
 * logs (protobuf) records/s, Loki push (snappy protobuf) lines/s and Elasticsearch bulk docs/s, each
 * POSTed one request at a time to a Petrel started in this process, beside the rate of decoding the
 * same bodies alone (the protocol decoder, no storage) in the same run.
 * Run: `deno run -A scripts/bench_telemetry.ts [otlp_metrics|otlp_logs|loki|es_bulk]`.
 */
import protobuf from "protobufjs";
import { startPetrel } from "../src/app.ts";
import { defaultConfig } from "../src/config/config.ts";
import { encodeSnappy } from "../src/codec/snappy.ts";
import { decodeOtlpLogs, decodeOtlpMetrics } from "../src/protocols/otlp/mod.ts";
import { decodeLokiPush } from "../src/protocols/loki/mod.ts";
import { decodeBulk } from "../src/protocols/elasticsearch/mod.ts";

/** One protocol's numbers. */
export interface TelemetryBench {
  items: number;
  /** Items per second stored over HTTP. */
  petrel: number;
  /** Items per second decoded alone. */
  decode: number;
  ratio: number;
}

const REQUESTS = 40;
const PER_REQUEST = 5_000;
const BASE_NS = 1_700_000_000_000_000_000n;

const otlp = protobuf.loadSync(
  new URL("../src/protocols/otlp/proto/collector.proto", import.meta.url).pathname,
);
const loki = protobuf.loadSync(new URL("../src/protocols/loki/proto/push.proto", import.meta.url).pathname);
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const resource = { attributes: [str("service.name", "bench"), str("service.instance.id", "i-1")] };

function metricsBody(r: number): Uint8Array {
  const type = otlp.lookupType("opentelemetry.proto.collector.v1.ExportMetricsServiceRequest");
  const t = String(BASE_NS + BigInt(r) * 10_000_000_000n);
  const metrics = Array.from({ length: 10 }, (_, m) => ({
    name: `bench.metric.${m}`,
    gauge: {
      dataPoints: Array.from({ length: PER_REQUEST / 10 }, (_, i) => ({
        timeUnixNano: t,
        asDouble: i * 0.5 + r,
        attributes: [str("host", `h${i}`), str("region", `r${i % 7}`)],
      })),
    },
  }));
  const msg = type.fromObject({
    resourceMetrics: [{ resource, scopeMetrics: [{ scope: { name: "b" }, metrics }] }],
  });
  return type.encode(msg).finish();
}

function logsBody(r: number): Uint8Array {
  const type = otlp.lookupType("opentelemetry.proto.collector.v1.ExportLogsServiceRequest");
  const logRecords = Array.from({ length: PER_REQUEST }, (_, i) => ({
    timeUnixNano: String(BASE_NS + BigInt(r * PER_REQUEST + i) * 1_000_000n),
    severityNumber: 9,
    severityText: "INFO",
    body: { stringValue: `GET /api/v1/items/${i} 200 ${i % 97}ms user=u${i % 13}` },
    attributes: [str("http.route", `/api/v1/items/${i % 50}`), { key: "n", value: { intValue: i } }],
  }));
  const msg = type.fromObject({
    resourceLogs: [{ resource, scopeLogs: [{ scope: { name: "b" }, logRecords }] }],
  });
  return type.encode(msg).finish();
}

function lokiBody(r: number): Uint8Array {
  const type = loki.lookupType("logproto.PushRequest");
  const streams = Array.from({ length: 10 }, (_, s) => ({
    labels: `{app="bench",pod="p${s}",level="${s % 2 ? "info" : "warn"}"}`,
    entries: Array.from({ length: PER_REQUEST / 10 }, (_, i) => ({
      timestamp: { seconds: 1_700_000_000 + r, nanos: (s * 1000 + i) * 1000 },
      line: `level=info msg="request done" path=/api/${i % 50} status=200 took=${i % 97}ms`,
    })),
  }));
  return encodeSnappy(type.encode(type.fromObject({ streams })).finish());
}

function bulkBody(r: number): Uint8Array {
  let s = "";
  for (let i = 0; i < PER_REQUEST; i++) {
    s += '{"create":{"_index":"bench_es"}}\n';
    s += JSON.stringify({
      "@timestamp": new Date(1_700_000_000_000 + r * PER_REQUEST + i).toISOString(),
      message: `GET /api/v1/items/${i} 200`,
      level: i % 5 ? "info" : "warn",
      took_ms: i % 97,
      host: { name: `h${i % 20}` },
    }) + "\n";
  }
  return new TextEncoder().encode(s);
}

interface Protocol {
  path: string;
  headers: Record<string, string>;
  body: (r: number) => Uint8Array;
  decode: (b: Uint8Array) => unknown;
}

const PB = { "content-type": "application/x-protobuf" };
const PROTOCOLS: Record<string, Protocol> = {
  otlp_metrics: {
    path: "/v1/otlp/v1/metrics",
    headers: PB,
    body: metricsBody,
    decode: (b) => decodeOtlpMetrics(b, PB["content-type"]),
  },
  otlp_logs: {
    path: "/v1/otlp/v1/logs",
    headers: PB,
    body: logsBody,
    decode: (b) => decodeOtlpLogs(b, PB["content-type"]),
  },
  loki: {
    path: "/v1/loki/api/v1/push",
    headers: PB,
    body: lokiBody,
    decode: (b) => decodeLokiPush(b, PB["content-type"], 1 << 30),
  },
  es_bulk: {
    path: "/v1/elasticsearch/_bulk",
    headers: { "content-type": "application/json" },
    body: bulkBody,
    decode: (b) => decodeBulk(b),
  },
};

/** Runs one protocol's benchmark against a fresh in-process server. */
export async function benchTelemetry(name: keyof typeof PROTOCOLS): Promise<TelemetryBench> {
  const p = PROTOCOLS[name];
  const bodies = Array.from({ length: REQUESTS }, (_, r) => p.body(r));
  const items = REQUESTS * PER_REQUEST;
  for (const b of bodies.slice(0, 3)) p.decode(b); // warm up the decoder
  let t0 = performance.now();
  for (const b of bodies) p.decode(b);
  const decode = items / ((performance.now() - t0) / 1000);

  const dataHome = await Deno.makeTempDir({ prefix: `petrel_bench_${name}_` });
  const config = defaultConfig();
  config.http.addr = "127.0.0.1:0";
  config.storage.data_home = dataHome;
  config.logging.level = "error";
  const server = await startPetrel(config);
  const url = `http://127.0.0.1:${server.port}${p.path}`;
  try {
    t0 = performance.now();
    for (const body of bodies) {
      const r = await fetch(url, { method: "POST", headers: p.headers, body: new Uint8Array(body) });
      const text = await r.text();
      if (!r.ok) throw new Error(`${name}: ${r.status} ${text}`);
    }
    const petrel = items / ((performance.now() - t0) / 1000);
    return { items, petrel, decode, ratio: petrel / decode };
  } finally {
    await server.shutdown();
    await Deno.remove(dataHome, { recursive: true });
  }
}

if (import.meta.main) {
  for (const name of Deno.args.length ? Deno.args : Object.keys(PROTOCOLS)) {
    console.log(name, await benchTelemetry(name as keyof typeof PROTOCOLS));
  }
}
