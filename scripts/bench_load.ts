/**
 * The load section of `scripts/bench.ts`: concurrent clients (50 by default) mixing writes (line
 * protocol, remote write, `/v1/ingest` through a pipeline) and reads (SQL, remote read) against one
 * Petrel child process for a while (60 s by default; `PETREL_BENCH_LOAD_SECONDS` and
 * `PETREL_BENCH_LOAD_CLIENTS` change them). It holds the server to zero errors and every
 * acknowledged row stored (checked by SQL at the end), and measures p50/p99 latency per endpoint and
 * the server's peak RSS (VmHWM).
 */
import { encodeSnappy } from "../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../src/protocols/prompb/schema.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";
import { spawnServer } from "../test/helpers/server.ts";

/** Latency of one endpoint. */
export interface EndpointLatency {
  endpoint: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

/** What the load run measured. */
export interface LoadBench {
  clients: number;
  seconds: number;
  requests: number;
  errors: number;
  /** The first few errors, for the log. */
  errorSamples: string[];
  ackedRows: number;
  storedRows: number;
  endpoints: EndpointLatency[];
  peakRssBytes: number;
}

type Endpoint = "lineproto write" | "remote write" | "ingest" | "sql" | "remote read";

/** How often each request kind is picked (cumulative weights out of 100). */
const MIX: Array<[Endpoint, number]> = [
  ["lineproto write", 35],
  ["remote write", 60],
  ["ingest", 75],
  ["sql", 90],
  ["remote read", 100],
];

const TABLES: Partial<Record<Endpoint, string>> = {
  "lineproto write": "load_lp",
  "remote write": "load_rw",
  ingest: "load_ingest",
};

const BASE_TS = Date.now() - 3_600_000;
const PIPELINE =
  "version: 2\nprocessors: []\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";
const ReadRequest = prometheusProtoRoot().lookupType("prometheus.ReadRequest");

interface Req {
  path: string;
  body?: BodyInit;
  headers?: Record<string, string>;
  rows: number;
}

/** The k-th request of client c for an endpoint; rows are unique per (client, k, i). */
function request(e: Endpoint, c: number, k: number): Req {
  const ts = BASE_TS + c * 10_000_000 + k * 1000;
  const client = `c${c}`;
  switch (e) {
    case "lineproto write": {
      let body = "";
      for (let i = 0; i < 100; i++) {
        body += `load_lp,client=${client},shard=s${i % 4} v=${i}i,f=${k}.5 ${ts + i}\n`;
      }
      return { path: "/v1/influxdb/write?precision=ms", body, rows: 100 };
    }
    case "remote write": {
      const samples = Array.from({ length: 100 }, (_, i) => ({ value: i, timestampMs: ts + i }));
      return {
        path: "/v1/prometheus/write",
        body: encodeRemoteWriteV1([{ labels: { __name__: "load_rw", client, job: "load" }, samples }]),
        headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
        rows: 100,
      };
    }
    case "ingest": {
      const lines = Array.from(
        { length: 50 },
        (_, i) => JSON.stringify({ client, k, i, msg: "load test line", ts: ts + i }),
      );
      return {
        path: "/v1/ingest?table=load_ingest&pipeline_name=load_pipe",
        body: lines.join("\n"),
        headers: { "content-type": "application/x-ndjson" },
        rows: 50,
      };
    }
    case "sql": {
      const q = `SELECT shard, count(*), avg(v) FROM load_lp WHERE client = '${client}' GROUP BY shard`;
      return { path: `/v1/sql?sql=${encodeURIComponent(q)}`, rows: 0 };
    }
    case "remote read": {
      const msg = ReadRequest.fromObject({
        queries: [{
          startTimestampMs: ts - 60_000,
          endTimestampMs: ts,
          matchers: [{ type: 0, name: "__name__", value: "load_rw" }, {
            type: 0,
            name: "client",
            value: client,
          }],
        }],
      });
      return {
        path: "/v1/prometheus/read",
        body: encodeSnappy(ReadRequest.encode(msg).finish()),
        headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
        rows: 0,
      };
    }
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs the load against a fresh server and checks every acknowledged row is stored. */
export async function benchLoad(
  clients = Number(Deno.env.get("PETREL_BENCH_LOAD_CLIENTS") ?? 50),
  seconds = Number(Deno.env.get("PETREL_BENCH_LOAD_SECONDS") ?? 60),
): Promise<LoadBench> {
  const dir = await Deno.makeTempDir({ prefix: "petrel_load_" });
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dir], {
    PETREL__LOGGING__LEVEL: "warn",
  });
  try {
    const up = await fetch(`${server.url}/v1/pipelines/load_pipe`, {
      method: "POST",
      body: PIPELINE,
      headers: { "content-type": "application/x-yaml" },
    });
    if (up.status !== 200) throw new Error(`pipeline upload: ${up.status} ${await up.text()}`);
    const latencies = new Map<Endpoint, number[]>(MIX.map(([e]) => [e, []]));
    const acked = new Map<string, number>();
    const out = { requests: 0, errors: 0, errorSamples: [] as string[] };
    const deadline = performance.now() + seconds * 1000;
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const loop = async (c: number) => {
      for (let k = 0; performance.now() < deadline; k++) {
        const roll = random() * 100;
        const e = MIX.find(([, w]) => roll < w)![0];
        const r = request(e, c, k);
        const t0 = performance.now();
        let ok = false;
        let why = "";
        try {
          const res = await fetch(server.url + r.path, {
            method: r.body === undefined ? "GET" : "POST",
            body: r.body,
            headers: r.headers,
          });
          const text = await res.text();
          ok = res.status >= 200 && res.status < 300;
          if (!ok) why = `${e}: HTTP ${res.status} ${text.slice(0, 200)}`;
        } catch (err) {
          why = `${e}: ${(err as Error).message}`;
        }
        latencies.get(e)!.push(performance.now() - t0);
        out.requests++;
        if (!ok) {
          out.errors++;
          if (out.errorSamples.length < 5) out.errorSamples.push(why);
          continue;
        }
        const table = TABLES[e];
        if (table) acked.set(table, (acked.get(table) ?? 0) + r.rows);
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
    const peakRssBytes = peakRss(server.child.pid);
    let storedRows = 0;
    for (const table of acked.keys()) {
      const q = await fetch(
        `${server.url}/v1/sql?sql=${encodeURIComponent(`SELECT count(*) FROM ${table}`)}`,
      );
      storedRows += Number((await q.json()).output[0].records.rows[0][0]);
    }
    const endpoints = [...latencies].map(([endpoint, ms]) => {
      const sorted = ms.sort((a, b) => a - b);
      return {
        endpoint,
        requests: ms.length,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
      };
    });
    const ackedRows = [...acked.values()].reduce((a, b) => a + b, 0);
    return { clients, seconds, ...out, ackedRows, storedRows, endpoints, peakRssBytes };
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The load section's printed lines: [name, value, target]. */
export async function loadLines(): Promise<Array<[string, string, string]>> {
  const r = await benchLoad();
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  const lines: Array<[string, string, string]> = [
    [`load: ${r.clients} clients for ${r.seconds} s, requests`, fmt(r.requests), ""],
    ["load: errors", fmt(r.errors), "0"],
    ["load: acknowledged rows", fmt(r.ackedRows), ""],
    ["load: stored rows (must equal acknowledged)", fmt(r.storedRows), fmt(r.ackedRows)],
    ["load: server peak RSS (MiB)", (r.peakRssBytes / 2 ** 20).toFixed(0), ""],
  ];
  for (const e of r.endpoints) {
    const name = `load: ${e.endpoint} p50 / p99 ms (${fmt(e.requests)} requests)`;
    lines.push([name, `${e.p50Ms.toFixed(1)} / ${e.p99Ms.toFixed(1)}`, ""]);
  }
  for (const s of r.errorSamples) lines.push(["load: error sample", s.slice(0, 100), ""]);
  return lines;
}
