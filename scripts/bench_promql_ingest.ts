/**
 * Writes while PromQL runs: a Petrel child process holding 1k series × 24 h of a counter at a 1 m
 * interval (compacted), a small line-protocol write (10 rows) sent every 20 ms (open loop, as agents
 * send) and a cheap PromQL instant query every 200 ms, timed for `seconds` on an idle server, then
 * while 1 and 2 clients each keep a heavy range query running (`sum by (job) (rate(x[5m]))` over the
 * whole day at a 1 m step). Prints the heavy query's latency alone, then the writes' p50/p99/max latency and rate, the cheap query's
 * p50/p99 and the heavy query's p50. Run by hand: `deno task bench promql_ingest` or
 * `deno run -A scripts/bench_promql_ingest.ts [seconds]`.
 */
import { spawnServer } from "../test/helpers/server.ts";
import { remoteWrite } from "../test/promql/prom_compare.ts";
import type { Series } from "../src/common/series.ts";
import { waitFor } from "../test/helpers/debian.ts";
import { ok, pct } from "./bench_query_pool.ts";

const SERIES = 1000, HOURS = 24, STEP_MS = 60_000, PER_REQUEST = 120;
const HOUR = 3_600_000;
const HEAVY = "sum by (job) (rate(pi_requests_total[5m]))";
const CHEAP = 'pi_requests_total{instance="i-7"}';
const WRITE_EVERY_MS = 20, CHEAP_EVERY_MS = 200, WRITE_ROWS = 10;

/** What the section measured: the heavy query alone (nothing else running), then each scenario. */
export interface PromqlIngestBench {
  heavyAloneP50: number;
  runs: IngestRun[];
}

/** One scenario's numbers (ms). */
export interface IngestRun {
  heavyClients: number;
  writeP50: number;
  writeP99: number;
  writeMax: number;
  writesPerSecond: number;
  cheapP50: number;
  cheapP99: number;
  heavyP50: number | null;
  heavyDone: number;
}

async function load(url: string, start: number, end: number): Promise<void> {
  for (let t = start; t < end; t += STEP_MS * PER_REQUEST) {
    const series: Series[] = [];
    for (let i = 0; i < SERIES; i++) {
      const samples = [];
      for (let k = 0; k < PER_REQUEST && t + k * STEP_MS < end; k++) {
        const ts = t + k * STEP_MS;
        samples.push({ timestampMs: ts, value: i * 1000 + ((ts - start) / 1000) * (1 + i % 7) });
      }
      series.push({
        labels: { __name__: "pi_requests_total", job: `job-${i % 10}`, instance: `i-${i}` },
        samples,
      });
    }
    await remoteWrite(url, series, "/v1/prometheus/write");
  }
}

async function compactedWindows(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^petrel_metric_compaction_windows_total (\d+)/m.exec(text)?.[1] ?? 0);
}

let writeSeq = 0;

async function write(url: string): Promise<number> {
  let body = "";
  const now = Date.now();
  for (let i = 0; i < WRITE_ROWS; i++) body += `pi_ingest,host=h${i} v=${writeSeq++}i ${now}\n`;
  const t0 = performance.now();
  await ok(await fetch(`${url}/v1/influxdb/write?precision=ms`, { method: "POST", body }), "write");
  return performance.now() - t0;
}

async function query(url: string, path: string, params: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  await ok(await fetch(`${url}/v1/prometheus/api/v1/${path}?${new URLSearchParams(params)}`), path);
  return performance.now() - t0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function scenario(url: string, heavy: number, seconds: number, range: Record<string, string>) {
  const end = performance.now() + seconds * 1000;
  const heavyMs: number[] = [];
  const clients = Array.from({ length: heavy }, async () => {
    while (performance.now() < end) {
      const ms = await query(url, "query_range", { query: HEAVY, ...range });
      if (performance.now() <= end) heavyMs.push(ms);
    }
  });
  if (heavy > 0) await sleep(300);
  const writes: number[] = [], cheap: number[] = [], pending: Promise<void>[] = [];
  const t0 = performance.now();
  const cheapLoop = (async () => {
    while (performance.now() < end) {
      pending.push(query(url, "query", { query: CHEAP }).then((ms) => void cheap.push(ms)));
      await sleep(CHEAP_EVERY_MS);
    }
  })();
  // open loop: a write goes out every 20 ms whether or not the last was answered
  for (let next = t0; performance.now() < end; next += WRITE_EVERY_MS) {
    pending.push(write(url).then((ms) => void writes.push(ms)));
    await sleep(Math.max(0, next + WRITE_EVERY_MS - performance.now()));
  }
  await cheapLoop;
  await Promise.all([...clients, ...pending]);
  const elapsed = (performance.now() - t0) / 1000;
  return {
    heavyClients: heavy,
    writeP50: pct(writes, 0.5),
    writeP99: pct(writes, 0.99),
    writeMax: Math.max(...writes),
    writesPerSecond: writes.length / elapsed,
    cheapP50: pct(cheap, 0.5),
    cheapP99: pct(cheap, 0.99),
    heavyP50: heavyMs.length ? pct(heavyMs, 0.5) : null,
    heavyDone: heavyMs.length,
  };
}

/** Loads a day of samples, waits for compaction, then runs idle, 1 and 2 heavy clients, `seconds` each. */
export async function benchPromqlIngest(seconds = 10): Promise<PromqlIngestBench> {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_bench_promql_ingest_" });
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome], {
    PETREL_LOG_LEVEL: "error",
  });
  try {
    const endMs = Math.floor(Date.now() / STEP_MS) * STEP_MS, startMs = endMs - HOURS * HOUR;
    await load(server.url, startMs, endMs);
    const done = await waitFor(
      async () => (await compactedWindows(server.url)) >= HOURS - 1 || null,
      300_000,
    );
    if (done === null) throw new Error("compaction did not catch up");
    const range = { start: String(startMs / 1000), end: String(endMs / 1000), step: "60" };
    const alone: number[] = [];
    for (let i = 0; i < 15; i++) {
      const ms = await query(server.url, "query_range", { query: HEAVY, ...range });
      if (i >= 5) alone.push(ms);
      await query(server.url, "query", { query: CHEAP });
      await write(server.url);
    }
    const runs: IngestRun[] = [];
    for (const heavy of [0, 1, 2]) runs.push(await scenario(server.url, heavy, seconds, range));
    return { heavyAloneP50: pct(alone, 0.5), runs };
  } finally {
    await server.stop();
    await Deno.remove(dataHome, { recursive: true });
  }
}

/** The section's lines: label, value. */
export function promqlIngestLines(bench: PromqlIngestBench): Array<[string, string]> {
  const lines: Array<[string, string]> = [[
    "promql_ingest: heavy query alone p50 ms",
    bench.heavyAloneP50.toFixed(0),
  ]];
  for (const r of bench.runs) {
    const label = r.heavyClients === 0 ? "idle" : `${r.heavyClients} heavy PromQL`;
    lines.push([
      `promql_ingest ${label}: write p50/p99/max ms`,
      `${r.writeP50.toFixed(1)}/${r.writeP99.toFixed(1)}/${r.writeMax.toFixed(0)}`,
    ]);
    lines.push([
      `promql_ingest ${label}: writes/s (sent ${1000 / WRITE_EVERY_MS})`,
      r.writesPerSecond.toFixed(1),
    ]);
    lines.push([
      `promql_ingest ${label}: cheap PromQL p50/p99 ms`,
      `${r.cheapP50.toFixed(1)}/${r.cheapP99.toFixed(1)}`,
    ]);
    if (r.heavyP50 !== null) {
      lines.push([
        `promql_ingest ${label}: heavy p50 ms (done)`,
        `${r.heavyP50.toFixed(0)} (${r.heavyDone})`,
      ]);
    }
  }
  return lines;
}

if (import.meta.main) {
  const bench = await benchPromqlIngest(Number(Deno.args[0] ?? 10));
  for (const [label, value] of promqlIngestLines(bench)) console.log(`${label.padEnd(50)} ${value}`);
}
