/**
 * The load section of `scripts/bench.ts`: concurrent clients (50 by default) mixing writes (line
 * protocol, remote write, `/v1/ingest` through a pipeline, OTLP metrics/logs/traces in protobuf and
 * JSON, Loki push in snappy protobuf and JSON, Elasticsearch `_bulk`) and reads (SQL over metric and
 * log tables, remote read, PromQL `query_range`, Jaeger trace search, `/v1/logs`) against one Petrel
 * child process for a while (60 s by default; `PETREL_BENCH_LOAD_SECONDS` and
 * `PETREL_BENCH_LOAD_CLIENTS` change them). It holds the server to zero errors (5xx, connection
 * errors, any 4xx, partial successes) and every acknowledged row stored (counted back per table by
 * SQL at the end), and measures p50/p99 latency per endpoint, the server's peak RSS (VmHWM), and
 * its RSS every few seconds, to tell a plateau from steady growth (a leak).
 * Run alone: `deno run -A scripts/bench_load.ts`.
 */
import { spawnServer } from "../test/helpers/server.ts";
import { type LoadEndpoint, type LoadRequest, METRIC_ENDPOINTS, PIPELINE } from "./bench_load_mix.ts";
import { TELEMETRY_ENDPOINTS } from "./bench_load_telemetry.ts";

/** Latency of one endpoint. */
export interface EndpointLatency {
  endpoint: string;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** p50 over the run's first and last thirds: reads slowing as tables grow show here. */
  firstThirdP50Ms: number;
  lastThirdP50Ms: number;
}

/** Rows acknowledged and stored in one table. */
export interface TableCount {
  table: string;
  acked: number;
  stored: number;
}

/** The server's memory at one moment of the run. */
export interface MemorySample {
  /** Seconds since the start. */
  at: number;
  rssBytes: number;
  /** The main thread's V8 heap in use (`nodejs_heap_size_used_bytes`): growth here is a JS leak. */
  heapBytes: number;
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
  tables: TableCount[];
  endpoints: EndpointLatency[];
  peakRssBytes: number;
  /** The server's memory every `RSS_EVERY_MS`. */
  rss: MemorySample[];
  /** CPU seconds the server used during the run (all threads). */
  serverCpuSeconds: number;
  /** Warning and error lines the server logged. */
  serverLogLines: string[];
  /** Statements the server's caches prepared, by kind (`petrel_statement_prepares_total`), at the end. */
  prepares: Record<string, number>;
}

const ENDPOINTS: LoadEndpoint[] = [...METRIC_ENDPOINTS, ...TELEMETRY_ENDPOINTS];
const RSS_EVERY_MS = 3000;
const BASE_TS = Date.now() - 3_600_000;
/** Client c's k-th request's base time: 10 000 s of room per client, 1 s per request. */
const timeOf = (c: number, k: number) => BASE_TS + c * 10_000_000 + k * 1000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function statusKb(pid: number, field: "VmHWM" | "VmRSS"): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds the process used so far, every thread (Linux clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Sends one request: the rows it wrote, and the error it shows (non-2xx, a refused connection, a
 * bad 2xx body), if any.
 */
async function send(base: string, e: LoadEndpoint, c: number, k: number): Promise<Sent> {
  const r = e.request(c, k, timeOf(c, k));
  const why = await answer(base, e, r);
  return { why, rows: r.rows };
}

interface Sent {
  why?: string;
  rows: number;
}

async function answer(base: string, e: LoadEndpoint, r: LoadRequest): Promise<string | undefined> {
  try {
    const res = await fetch(base + r.path, {
      method: r.body === undefined ? "GET" : "POST",
      body: r.body,
      headers: r.headers,
    });
    const text = await res.text();
    if (res.status < 200 || res.status >= 300) return `${e.name}: HTTP ${res.status} ${text.slice(0, 200)}`;
    const bad = e.check?.(text);
    return bad === undefined ? undefined : `${e.name}: ${bad}`;
  } catch (err) {
    return `${e.name}: ${(err as Error).message}`;
  }
}

async function count(base: string, table: string): Promise<number> {
  const res = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(`SELECT count(*) FROM ${table}`)}`);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`count of ${table}: ${JSON.stringify(body)}`);
  return Number(body.output[0].records.rows[0][0]);
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
  const pid = server.child.pid;
  try {
    const up = await fetch(`${server.url}/v1/pipelines/${PIPELINE.name}`, {
      method: "POST",
      body: PIPELINE.yaml,
      headers: { "content-type": "application/x-yaml" },
    });
    if (up.status !== 200) throw new Error(`pipeline upload: ${up.status} ${await up.text()}`);
    /** [ms since the start, latency ms] per endpoint */
    const latencies = new Map<string, Array<[number, number]>>(ENDPOINTS.map((e) => [e.name, []]));
    const failures = new Map<string, number>();
    const acked = new Map<string, number>();
    const out = { requests: 0, errors: 0, errorSamples: [] as string[] };
    const record = (e: LoadEndpoint, { why, rows }: Sent) => {
      out.requests++;
      if (why !== undefined) {
        out.errors++;
        failures.set(e.name, (failures.get(e.name) ?? 0) + 1);
        if (out.errorSamples.length < 8) out.errorSamples.push(why);
      } else if (e.table) {
        acked.set(e.table, (acked.get(e.table) ?? 0) + rows);
      }
    };
    // every write once (as an extra client) so the tables the reads name exist
    for (const e of ENDPOINTS.filter((e) => e.table)) record(e, await send(server.url, e, clients, 0));
    const total = ENDPOINTS.reduce((n, e) => n + e.weight, 0);
    const cpu0 = cpuSeconds(pid);
    const start = performance.now();
    const deadline = start + seconds * 1000;
    const rss: MemorySample[] = [];
    const sample = async () => {
      const at = (performance.now() - start) / 1000, rssBytes = statusKb(pid, "VmRSS");
      const m = await fetch(`${server.url}/metrics`).then((r) => r.text(), () => "");
      const heap = /^nodejs_heap_size_used_bytes (\S+)/m.exec(m);
      rss.push({ at, rssBytes, heapBytes: heap ? Number(heap[1]) : 0 });
    };
    await sample();
    const sampler = setInterval(sample, RSS_EVERY_MS);
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = () => {
      let roll = random() * total;
      return ENDPOINTS.find((e) => (roll -= e.weight) < 0) ?? ENDPOINTS[0];
    };
    const loop = async (c: number) => {
      for (let k = 1; performance.now() < deadline; k++) {
        const e = pick();
        const t0 = performance.now();
        const sent = await send(server.url, e, c, k);
        latencies.get(e.name)!.push([t0 - start, performance.now() - t0]);
        record(e, sent);
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
    clearInterval(sampler);
    await sample();
    const prepares = await statementPrepares(server.url);
    const peakRssBytes = statusKb(pid, "VmHWM");
    const serverCpuSeconds = cpuSeconds(pid) - cpu0;
    const tables: TableCount[] = [];
    for (const [table, n] of acked) tables.push({ table, acked: n, stored: await count(server.url, table) });
    const endpoints = ENDPOINTS.map((e) => {
      const timed = latencies.get(e.name)!;
      const third = (seconds * 1000) / 3;
      const p50Of = (part: Array<[number, number]>) =>
        percentile(part.map(([, ms]) => ms).sort((a, b) => a - b), 0.5);
      const sorted = timed.map(([, ms]) => ms).sort((a, b) => a - b);
      return {
        firstThirdP50Ms: p50Of(timed.filter(([at]) => at < third)),
        lastThirdP50Ms: p50Of(timed.filter(([at]) => at >= 2 * third)),
        endpoint: e.name,
        requests: sorted.length,
        errors: failures.get(e.name) ?? 0,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        maxMs: sorted.at(-1) ?? 0,
      };
    });
    const ackedRows = tables.reduce((a, t) => a + t.acked, 0);
    const storedRows = tables.reduce((a, t) => a + t.stored, 0);
    const serverLogLines = server.stderr().split("\n").filter((l) => /"(warn|error)"|WARN|ERROR/i.test(l));
    return {
      clients,
      seconds,
      ...out,
      ackedRows,
      storedRows,
      tables,
      endpoints,
      peakRssBytes,
      rss,
      serverCpuSeconds,
      serverLogLines,
      prepares,
    };
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** `petrel_statement_prepares_total` by kind, from the server's `/metrics`. */
async function statementPrepares(base: string): Promise<Record<string, number>> {
  const m = await fetch(`${base}/metrics`).then((r) => r.text(), () => "");
  const out: Record<string, number> = {};
  for (const [, kind, n] of m.matchAll(/^petrel_statement_prepares_total\{kind="(\w+)"\} (\S+)/gm)) {
    out[kind] = Number(n);
  }
  return out;
}

/**
 * Whether memory kept growing: the growth from the floor (minimum) of the run's third quarter to
 * the floor of its last one. The first half is start-up (tables, caches, the JIT and SQLite's page
 * caches filling in) and may climb in steps; the floor, not the median, because the JS heap is a
 * saw (garbage piles up between collections) and its floor is what stays alive. A leak keeps
 * raising the floor to the end; a plateau does not.
 */
export function rssTrend(
  rss: MemorySample[],
  of: (m: MemorySample) => number = (m) => m.rssBytes,
): { growthPct: number; verdict: string } {
  const q = Math.floor(rss.length / 4);
  if (q < 2) return { growthPct: 0, verdict: "too few samples" };
  const third = Math.min(...rss.slice(2 * q, 3 * q).map(of));
  const last = Math.min(...rss.slice(rss.length - q).map(of));
  const growthPct = (last / third - 1) * 100;
  return { growthPct, verdict: growthPct > 5 ? "keeps growing" : "plateaus" };
}

/** The load section's printed lines: [name, value, target]. */
export async function loadLines(): Promise<Array<[string, string, string]>> {
  const r = await benchLoad();
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  const mib = (b: number) => (b / 2 ** 20).toFixed(0);
  const trend = rssTrend(r.rss), heap = rssTrend(r.rss, (m) => m.heapBytes);
  const lines: Array<[string, string, string]> = [
    [`load: ${r.clients} clients for ${r.seconds} s, requests`, fmt(r.requests), ""],
    ["load: errors", fmt(r.errors), "0"],
    ["load: acknowledged rows", fmt(r.ackedRows), ""],
    ["load: stored rows (must equal acknowledged)", fmt(r.storedRows), fmt(r.ackedRows)],
    ["load: server peak RSS (MiB)", mib(r.peakRssBytes), ""],
    ["load: server CPU s per wall s (all threads)", (r.serverCpuSeconds / r.seconds).toFixed(2), ""],
    [`load: RSS floor 3rd → last quarter (${trend.verdict})`, `${trend.growthPct.toFixed(1)} %`, "< 5 %"],
    [`load: JS heap floor 3rd → last quarter (${heap.verdict})`, `${heap.growthPct.toFixed(1)} %`, "< 5 %"],
    ["load: server warn/error log lines", fmt(r.serverLogLines.length), "0"],
    [
      "load: statements prepared (insert / scan / metric / all)",
      `${fmt(r.prepares.insert ?? 0)} / ${fmt(r.prepares.scan ?? 0)} / ${fmt(r.prepares.metric ?? 0)} / ${
        fmt(Object.values(r.prepares).reduce((a, n) => a + n, 0))
      }`,
      "",
    ],
  ];
  for (const t of r.tables.filter((t) => t.stored !== t.acked)) {
    lines.push([`load: ${t.table} stored / acknowledged`, `${fmt(t.stored)} / ${fmt(t.acked)}`, "equal"]);
  }
  for (const e of r.endpoints) {
    const name = `load: ${e.endpoint} p50 / p99 / max ms; p50 1st → last third (${
      fmt(e.requests)
    } requests, ${e.errors} errors)`;
    const ms = (n: number) => n.toFixed(0);
    const value = `${ms(e.p50Ms)} / ${ms(e.p99Ms)} / ${ms(e.maxMs)}; ${ms(e.firstThirdP50Ms)} → ${
      ms(e.lastThirdP50Ms)
    }`;
    lines.push([name, value, ""]);
  }
  const curve = r.rss.filter((_, i) => i % Math.max(1, Math.floor(r.rss.length / 20)) === 0);
  const points = (of: (m: MemorySample) => number) =>
    curve.map((m) => `${m.at.toFixed(0)}:${mib(of(m))}`).join(" ");
  lines.push(["load: RSS curve (s: MiB)", points((m) => m.rssBytes), ""]);
  lines.push(["load: main-thread JS heap curve (s: MiB)", points((m) => m.heapBytes), ""]);
  for (const s of r.errorSamples) lines.push(["load: error sample", s.slice(0, 160), ""]);
  for (const l of r.serverLogLines.slice(0, 5)) lines.push(["load: server log", l.slice(0, 160), ""]);
  return lines;
}

if (import.meta.main) {
  for (const [name, value, target] of await loadLines()) {
    console.log(`${name}: ${value}${target ? ` (target ${target})` : ""}`);
  }
}
