/**
 * The day of telemetry the `reads` bench loads: Loki pushes and OTLP logs from a few services and pods,
 * OTLP traces of ~10 spans each, one metric of 5k series through remote write and 300 small metric
 * tables, all spread over the 24 h before `endMs` and sent oldest first (as a live system writes).
 */
import protobuf from "protobufjs";
import { encodeSnappy } from "../src/codec/snappy.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";
import type { Series } from "../src/common/series.ts";

export const HOUR = 3_600_000, DAY = 24 * HOUR;
/** A rare phrase in one log line in 1000: what a user greps the logs for. */
export const NEEDLE = "upstream timeout";
export const LOKI_LINES = 600_000, OTLP_LOG_RECORDS = 400_000, SPANS = 200_000, SPANS_PER_TRACE = 10;
export const METRIC_SERIES = 5_000, METRIC_STEP_MS = 60_000, EXTRA_TABLES = 300;
export const SERVICES = ["frontend", "checkout", "cart", "payment"];
const OPERATIONS = ["GET /api/items", "POST /api/cart", "GET /api/cart", "POST /api/pay", "db.query"];

const proto = (file: string) => new URL(`../src/protocols/${file}`, import.meta.url).pathname;
const otlp = protobuf.loadSync(proto("otlp/proto/collector.proto"));
const loki = protobuf.loadSync(proto("loki/proto/push.proto"));
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const int = (key: string, v: number) => ({ key, value: { intValue: v } });

/** A deterministic pseudo-random stream (mulberry32), so every run loads the same data. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function logLine(n: number, rnd: () => number): string {
  const status = n % 1000 === 7 ? 503 : n % 50 === 3 ? 500 : 200;
  const path = `/api/v1/items/${Math.floor(rnd() * 500)}`;
  const tail = status === 503 ? ` error="${NEEDLE} after 30s"` : "";
  return `level=${status === 200 ? "info" : "error"} msg="request done" method=GET path=${path} ` +
    `status=${status} took=${Math.floor(rnd() * 300)}ms user=u${n % 97}${tail}`;
}

/** Loki push bodies (snappy protobuf): 3 apps × 4 pods, 6000 lines a request. */
export function lokiBodies(endMs: number): Uint8Array[] {
  const type = loki.lookupType("logproto.PushRequest");
  const requests = LOKI_LINES / 6000, perStream = 500, rnd = random(1);
  const out: Uint8Array[] = [];
  for (let r = 0; r < requests; r++) {
    const t0 = endMs - DAY + (r * DAY) / requests;
    const streams = Array.from({ length: 12 }, (_, s) => ({
      labels: `{app="app-${s % 3}",pod="pod-${s}",level="${s % 4 === 0 ? "warn" : "info"}"}`,
      entries: Array.from({ length: perStream }, (_, i) => {
        const ms = t0 + ((i * 12 + s) * DAY) / requests / 6000;
        return {
          timestamp: { seconds: Math.floor(ms / 1000), nanos: Math.floor(ms % 1000) * 1e6 + s },
          line: logLine(r * 6000 + i * 12 + s, rnd),
        };
      }),
    }));
    out.push(encodeSnappy(type.encode(type.fromObject({ streams })).finish()));
  }
  return out;
}

/** OTLP logs bodies (protobuf): one resource per service, 5000 records a request. */
export function otlpLogBodies(endMs: number): Uint8Array[] {
  const type = otlp.lookupType("opentelemetry.proto.collector.v1.ExportLogsServiceRequest");
  const per = 5000, requests = OTLP_LOG_RECORDS / per, rnd = random(2);
  const out: Uint8Array[] = [];
  for (let r = 0; r < requests; r++) {
    const t0 = endMs - DAY + (r * DAY) / requests;
    const resourceLogs = SERVICES.slice(0, 3).map((service, s) => ({
      resource: { attributes: [str("service.name", service), str("host.name", `host-${s}`)] },
      scopeLogs: [{
        scope: { name: `${service}.logger` },
        logRecords: Array.from({ length: per / 3 + (s === 0 ? per % 3 : 0) }, (_, i) => {
          const n = r * per + i * 3 + s;
          const line = logLine(n, rnd);
          return {
            timeUnixNano: String(BigInt(Math.floor(t0 + (n - r * per) * DAY / requests / per)) * 1_000_000n),
            severityNumber: line.startsWith("level=error") ? 17 : 9,
            severityText: line.startsWith("level=error") ? "ERROR" : "INFO",
            body: { stringValue: line },
            attributes: [str("http.route", `/api/v1/items/${n % 50}`), int("n", n % 1000)],
          };
        }),
      }],
    }));
    out.push(type.encode(type.fromObject({ resourceLogs })).finish());
  }
  return out;
}

function hexBytes(rnd: () => number, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
}

/** OTLP traces bodies (protobuf): traces of 10 spans over the 4 services, 200 traces a request. */
export function traceBodies(endMs: number): Uint8Array[] {
  const type = otlp.lookupType("opentelemetry.proto.collector.v1.ExportTraceServiceRequest");
  const traces = SPANS / SPANS_PER_TRACE, perRequest = 200, rnd = random(3);
  const out: Uint8Array[] = [];
  for (let r = 0; r < traces / perRequest; r++) {
    const bySvc = SERVICES.map(() => [] as unknown[]);
    for (let k = 0; k < perRequest; k++) {
      const n = r * perRequest + k;
      const startNs = BigInt(Math.floor(endMs - DAY + (n * DAY) / traces)) * 1_000_000n;
      const traceId = hexBytes(rnd, 16), root = hexBytes(rnd, 8);
      for (let i = 0; i < SPANS_PER_TRACE; i++) {
        const svc = i === 0 ? 0 : 1 + (i % 3);
        const durNs = BigInt(Math.floor((i === 0 ? 80 : 5) * (0.5 + rnd()) * 1e6));
        const begin = startNs + BigInt(i) * 1_000_000n;
        bySvc[svc].push({
          traceId,
          spanId: i === 0 ? root : hexBytes(rnd, 8),
          parentSpanId: i === 0 ? new Uint8Array() : root,
          name: OPERATIONS[(n + i) % OPERATIONS.length],
          kind: i === 0 ? 2 : 3,
          startTimeUnixNano: String(begin),
          endTimeUnixNano: String(begin + durNs),
          attributes: [
            str("http.method", i % 2 ? "GET" : "POST"),
            int("http.status_code", n % 100 === 0 ? 500 : 200),
            str("customer", `c-${n % 40}`),
          ],
          status: { code: n % 100 === 0 ? 2 : 1 },
        });
      }
    }
    const resourceSpans = SERVICES.map((service, s) => ({
      resource: { attributes: [str("service.name", service), str("host.name", `host-${s}`)] },
      scopeSpans: [{ scope: { name: "bench" }, spans: bySvc[s] }],
    }));
    out.push(type.encode(type.fromObject({ resourceSpans })).finish());
  }
  return out;
}

/** Remote write bodies: `http_requests_total`, 5k series (10 jobs × 500 instances), 20 samples each. */
export function metricBodies(endMs: number): Uint8Array[] {
  const start = endMs - DAY, per = 20, out: Uint8Array[] = [];
  for (let t = start; t < endMs; t += per * METRIC_STEP_MS) {
    const series: Series[] = [];
    for (let i = 0; i < METRIC_SERIES; i++) {
      const samples = [];
      for (let k = 0; k < per && t + k * METRIC_STEP_MS < endMs; k++) {
        const ts = t + k * METRIC_STEP_MS;
        samples.push({ timestampMs: ts, value: i + Math.floor((ts - start) / 1000) * (1 + i % 7) });
      }
      const labels = {
        __name__: "http_requests_total",
        job: `job-${i % 10}`,
        instance: `i-${i % 500}`,
        code: String(200 + Math.floor(i / 500)),
      };
      series.push({ labels, samples });
    }
    out.push(encodeRemoteWriteV1(series));
  }
  return out;
}

/** One remote write body making 300 more metric tables (2 series, a sample an hour). */
export function manyTablesBody(endMs: number): Uint8Array {
  const series: Series[] = [];
  for (let m = 0; m < EXTRA_TABLES; m++) {
    for (let s = 0; s < 2; s++) {
      series.push({
        labels: { __name__: `bench_table_${m}`, job: `job-${s}`, instance: `i-${m}` },
        samples: Array.from({ length: 24 }, (_, h) => ({ timestampMs: endMs - DAY + h * HOUR, value: h })),
      });
    }
  }
  return encodeRemoteWriteV1(series);
}
