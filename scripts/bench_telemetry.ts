/**
 * Log, trace and metric protocols over HTTP: OTLP metrics (protobuf) data points/s, OTLP
 * logs (protobuf) records/s, OTLP traces (protobuf) spans/s, Loki push (snappy protobuf) lines/s and Elasticsearch bulk docs/s, each
 * POSTed by the lean keep-alive client over 2 connections (as the line-protocol section does) to a
 * Petrel child process after a few warm-up requests, beside the rate of decoding the same bodies alone (the protocol decoder the
 * server uses, no storage) in this process: the median of three passes, after a warm-up. What
 * Petrel stored is counted back with SQL and must equal what was sent. On a shared machine the
 * wall-clock rates swing with the load, so CPU seconds are reported beside them: the decode's (this
 * process, during the median pass) and Petrel's (every thread of the child, while posting), beside
 * the two floors under Petrel's: SQLite alone copying the rows Petrel stored (`bench_sqlite_floor.ts`;
 * for metrics, the samples table) and a bare `Deno.serve` receiving the same bodies
 * (`bench_http_floor.ts`), which decode-alone leaves out.
 * Run: `deno run -A scripts/bench_telemetry.ts [otlp_metrics|otlp_logs|loki|es_bulk]`; with
 * `PETREL_BENCH_CPU_PROF=dir` the Petrel child writes a V8 CPU profile (`.cpuprofile`) into `dir` on
 * exit (read it with `scripts/cpu_profile.ts`).
 */
import protobuf from "protobufjs";
import { spawnServer } from "../test/helpers/server.ts";
import process from "node:process";
import { postAllRaw } from "./bench_http_client.ts";
import { type SqliteFloor, sqliteFloor } from "./bench_sqlite_floor.ts";
import { type CpuSplit, cpuSplit, threadCpu } from "./bench_ingest.ts";
import { httpFloor } from "./bench_http_floor.ts";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { encodeSnappy } from "../src/codec/snappy.ts";
import { decodeOtlpLogs, decodeOtlpMetrics, decodeOtlpTraces } from "../src/protocols/otlp/mod.ts";
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
  /** CPU seconds decoding all bodies once (the median pass). */
  decodeCpu: number;
  /** CPU seconds Petrel's threads used storing them; null off Linux. */
  petrelCpu: CpuSplit | null;
  /** decodeCpu / Petrel's total CPU: the ratio with the machine's other load taken out. */
  cpuRatio: number | null;
  /** The same rows copied again by SQLite alone (`bench_sqlite_floor.ts`). */
  floor: SqliteFloor | null;
  /** CPU a bare `Deno.serve` spends receiving the same bodies (`bench_http_floor.ts`); null off Linux. */
  httpCpu: CpuSplit | null;
}

const REQUESTS = 100;
/**
 * Requests Petrel gets before the measured ones (as the decoder gets a warm-up pass): table creation,
 * lazily loaded routes and the JIT's first compilations are start-up costs, not per-item ones, and so
 * is the main thread's heap growing to its working size. After 5 warm-up requests the 100 measured
 * ones still touched 8–20k fresh pages (minor faults, ~19 µs each on the 2-core bench VM: ~0.2–0.4 s
 * of main-thread CPU); after 100, 2–3k for every protocol, as later blocks of 100 do (2026-11-28).
 */
const WARMUP = 100;
const METRICS = 10;
const PER_REQUEST = 5_000;
const BASE_NS = 1_700_000_000_000_000_000n;
/**
 * Metric points are recent, one second apart (as an exporter sends them): the metric engine compacts
 * a time window once it has closed (5 min after its end), and points years old would have the
 * compactor rewrite their window over and over while the bench writes into it.
 */
const METRICS_BASE_NS = BigInt(Date.now() - (WARMUP + REQUESTS) * 1000 - 5000) * 1_000_000n;

const otlp = protobuf.loadSync(
  new URL("../src/protocols/otlp/proto/collector.proto", import.meta.url).pathname,
);
const loki = protobuf.loadSync(new URL("../src/protocols/loki/proto/push.proto", import.meta.url).pathname);
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const resource = { attributes: [str("service.name", "bench"), str("service.instance.id", "i-1")] };

function metricsBody(r: number): Uint8Array {
  const type = otlp.lookupType("opentelemetry.proto.collector.v1.ExportMetricsServiceRequest");
  const t = String(METRICS_BASE_NS + BigInt(r) * 1_000_000_000n);
  const metrics = Array.from({ length: METRICS }, (_, m) => ({
    name: `bench.metric.${m}`,
    gauge: {
      dataPoints: Array.from({ length: PER_REQUEST / METRICS }, (_, i) => ({
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

function tracesBody(r: number): Uint8Array {
  const type = otlp.lookupType("opentelemetry.proto.collector.v1.ExportTraceServiceRequest");
  const id = (n: number, bytes: number) => {
    const out = new Uint8Array(bytes);
    // a multiplicative hash: ids spread over the key space as random ones do
    for (
      let k = 0, x = Math.imul(n + 1, 0x9e3779b1);
      k < bytes;
      k++, x = Math.imul(x ^ (x >>> 15), 0x85ebca6b)
    ) {
      out[k] = x >>> 24;
    }
    return out;
  };
  const spans = Array.from({ length: PER_REQUEST }, (_, i) => {
    const n = r * PER_REQUEST + i, start = BASE_NS + BigInt(n) * 1_000_000n;
    return {
      traceId: id(Math.floor(n / 10), 16),
      spanId: id(n, 8),
      parentSpanId: n % 10 === 0 ? new Uint8Array() : id(n - (n % 10), 8),
      name: `GET /api/v1/items/${i % 20}`,
      kind: 2,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 5_000_000n),
      attributes: [str("http.method", "GET"), { key: "http.status_code", value: { intValue: 200 } }],
      status: { code: 1 },
    };
  });
  const msg = type.fromObject({
    resourceSpans: [{ resource, scopeSpans: [{ scope: { name: "b" }, spans }] }],
  });
  return type.encode(msg).finish();
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

export interface Protocol {
  path: string;
  headers: Record<string, string>;
  body: (r: number) => Uint8Array;
  decode: (b: Uint8Array) => unknown;
  /** SQL counting what Petrel stored. */
  stored: string;
  /** The one table the records land in (`public`), for the SQLite floor. */
  table?: string;
  /** The table the SQLite floor copies when it is not `table` (metrics: the physical samples table). */
  floorTable?: (dataHome: string) => string;
}

const PB = { "content-type": "application/x-protobuf" };
export const PROTOCOLS: Record<string, Protocol> = {
  otlp_metrics: {
    path: "/v1/otlp/v1/metrics",
    headers: PB,
    body: metricsBody,
    decode: (b) => decodeOtlpMetrics(b, PB["content-type"]),
    stored: Array.from({ length: METRICS }, (_, m) => `SELECT count(*) AS n FROM bench_metric_${m}`)
      .join(" UNION ALL "),
    floorTable: samplesTableOf,
  },
  otlp_logs: {
    path: "/v1/otlp/v1/logs",
    headers: PB,
    body: logsBody,
    decode: (b) => decodeOtlpLogs(b, PB["content-type"]),
    stored: "SELECT count(*) FROM opentelemetry_logs",
    table: "opentelemetry_logs",
  },
  otlp_traces: {
    path: "/v1/otlp/v1/traces",
    headers: { ...PB, "x-greptime-pipeline-name": "greptime_trace_v1" },
    body: tracesBody,
    decode: (b) => decodeOtlpTraces(b, PB["content-type"]),
    stored: "SELECT count(*) FROM opentelemetry_traces",
    table: "opentelemetry_traces",
  },
  loki: {
    path: "/v1/loki/api/v1/push",
    headers: PB,
    body: lokiBody,
    decode: (b) => decodeLokiPush(b, PB["content-type"], 1 << 30),
    stored: "SELECT count(*) FROM loki_logs",
    table: "loki_logs",
  },
  es_bulk: {
    path: "/v1/elasticsearch/_bulk",
    headers: { "content-type": "application/json" },
    body: bulkBody,
    decode: (b) => decodeBulk(b),
    stored: "SELECT count(*) FROM bench_es",
    table: "bench_es",
  },
};

/**
 * The samples table of the one physical metric table the bench's metrics land on: its rows (time,
 * series id, value) are what the metric engine inserts per data point.
 */
function samplesTableOf(dataHome: string): string {
  const conn = new DatabaseSync(join(dataHome, "data", "public.sqlite"), { readOnly: true });
  try {
    const rows = conn.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB '__petrel_samples_*'",
    ).all() as Array<{ name: string }>;
    if (rows.length !== 1) throw new Error(`expected one samples table, found ${rows.length}`);
    return rows[0].name;
  } finally {
    conn.close();
  }
}

/** CPU seconds of this process so far (all threads). */
function processCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Decoding `bodies` alone: items per second and CPU seconds of the median of three passes, after a warm-up. */
function decodeRate(p: Protocol, bodies: Uint8Array[], items: number): { rate: number; cpu: number } {
  for (const b of bodies.slice(0, 5)) p.decode(b);
  const passes: Array<{ rate: number; cpu: number }> = [];
  for (let pass = 0; pass < 3; pass++) {
    const t0 = performance.now(), c0 = processCpu();
    for (const b of bodies) p.decode(b);
    passes.push({ rate: items / ((performance.now() - t0) / 1000), cpu: processCpu() - c0 });
  }
  return passes.sort((a, b) => a.rate - b.rate)[1];
}

/** The sum of the counts `sql` returns (one row per table). */
async function storedCount(base: string, sql: string): Promise<number> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(sql)}`);
  const body = await r.json();
  if (r.status !== 200) throw new Error(JSON.stringify(body));
  return (body.output[0].records.rows as number[][]).reduce((n, row) => n + Number(row[0]), 0);
}

/** Runs one protocol's benchmark against a fresh Petrel child process. */
export async function benchTelemetry(name: keyof typeof PROTOCOLS): Promise<TelemetryBench> {
  const p = PROTOCOLS[name];
  const all = Array.from({ length: WARMUP + REQUESTS }, (_, r) => p.body(r) as Uint8Array<ArrayBuffer>);
  const warmup = all.slice(0, WARMUP), bodies = all.slice(WARMUP);
  const items = REQUESTS * PER_REQUEST;
  const decode = decodeRate(p, bodies, items);
  const dataHome = await Deno.makeTempDir({ prefix: `petrel_bench_${name}_` });
  const profileDir = Deno.env.get("PETREL_BENCH_CPU_PROF");
  const server = await spawnServer(
    ["--http-addr", "127.0.0.1:0", "--data-home", dataHome],
    { PETREL_LOG_LEVEL: "error" },
    profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
  );
  let stopped = false;
  try {
    await postAllRaw({ url: server.url + p.path, headers: p.headers }, warmup, 1);
    const before = threadCpu(server.child.pid);
    const seconds = await postAllRaw({ url: server.url + p.path, headers: p.headers }, bodies, 2);
    const petrelCpu = cpuSplit(server.child.pid, before, threadCpu(server.child.pid));
    const stored = await storedCount(server.url, p.stored);
    const sent = all.length * PER_REQUEST;
    if (stored !== sent) throw new Error(`${name}: Petrel stored ${stored} of ${sent}`);
    const petrel = items / seconds;
    const petrelTotal = petrelCpu && petrelCpu.main + petrelCpu.workers + petrelCpu.other;
    const floorTable = p.floorTable?.(dataHome) ?? p.table;
    // as many rows as the measured requests stored (the warm-up's are in the table too)
    const floor = floorTable ? sqliteFloor(dataHome, "public", floorTable, PER_REQUEST, items) : null;
    await server.stop();
    stopped = true;
    const httpCpu = await httpFloor(p.path, p.headers, warmup, bodies);
    return {
      items,
      petrel,
      decode: decode.rate,
      ratio: petrel / decode.rate,
      decodeCpu: decode.cpu,
      petrelCpu,
      cpuRatio: petrelTotal ? decode.cpu / petrelTotal : null,
      floor,
      httpCpu,
    };
  } finally {
    if (!stopped) await server.stop();
    await Deno.remove(dataHome, { recursive: true });
  }
}

if (import.meta.main) {
  for (const name of Deno.args.length ? Deno.args : Object.keys(PROTOCOLS)) {
    console.log(name, await benchTelemetry(name as keyof typeof PROTOCOLS));
  }
}
