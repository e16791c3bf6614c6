/**
 * The read side at realistic volume: a Petrel child process loaded with a day of telemetry
 * (bench_reads_data.ts: 600k Loki lines, 400k OTLP log records, 200k spans, 5k metric series at 1 min
 * and 300 more metric tables), then the queries Grafana and users run, each the median of 5 runs after
 * 2 warm-ups, beside a reference where one exists: the same query straight to SQLite on the same file,
 * or reading as many rows as the answer holds. Run by hand: `deno task bench reads`.
 */
import { DatabaseSync } from "node:sqlite";
import { spawnServer } from "../test/helpers/server.ts";
import { waitFor } from "../test/helpers/debian.ts";
import { postAllRaw } from "./bench_http_client.ts";
import { cpuSplit, threadCpu } from "./bench_ingest.ts";
import * as data from "./bench_reads_data.ts";
import { type ReadCase, readCases } from "./bench_reads_cases.ts";

/** One query measured. */
export interface ReadTiming {
  name: string;
  petrelMs: number;
  /** The reference's median, or null when there is none. */
  refMs: number | null;
  /** What Petrel's answer held (rows, traces, series…), to see the work is the same. */
  items: number;
}

/** What the section measured. */
export interface ReadsBench {
  loadSeconds: number;
  loadCpu: number | null;
  timings: ReadTiming[];
}

const PB = { "content-type": "application/x-protobuf" };

async function compactedWindows(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^petrel_metric_compaction_windows_total (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Waits until the metric engine has compacted the day's closed windows and stays idle for 3 s. */
async function compacted(url: string, windows: number): Promise<void> {
  const ok = await waitFor(async () => (await compactedWindows(url)) >= windows || null, 300_000);
  if (ok === null) throw new Error(`compaction did not reach ${windows} windows`);
  for (let last = -1, now = await compactedWindows(url); now !== last; now = await compactedWindows(url)) {
    last = now;
    await new Promise((r) => setTimeout(r, 3_000));
  }
}

/** Sends the day of telemetry; returns wall seconds and Petrel's CPU seconds. */
async function load(url: string, pid: number, endMs: number): Promise<[number, number | null]> {
  const t0 = performance.now(), before = threadCpu(pid);
  const post = (path: string, bodies: Uint8Array[], headers: Record<string, string> = PB) =>
    postAllRaw({ url: url + path, headers }, bodies, 2);
  await post("/v1/loki/api/v1/push", data.lokiBodies(endMs));
  await post("/v1/otlp/v1/logs", data.otlpLogBodies(endMs));
  await post("/v1/otlp/v1/traces", data.traceBodies(endMs), {
    ...PB,
    "x-greptime-pipeline-name": "greptime_trace_v1",
  });
  const rw = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
  await post("/v1/prometheus/write", data.metricBodies(endMs), rw);
  await post("/v1/prometheus/write", [data.manyTablesBody(endMs)], rw);
  const split = cpuSplit(pid, before, threadCpu(pid));
  const cpu = split && split.main + split.workers + split.other;
  await compacted(url, 23);
  return [(performance.now() - t0) / 1000, cpu];
}

const median = (t: number[]) => t.sort((a, b) => a - b)[t.length >> 1];

/** The median of 5 timed runs after 2 warm-ups; the last run's item count. */
async function time(run: () => Promise<number> | number): Promise<{ ms: number; items: number }> {
  let items = 0;
  for (let i = 0; i < 2; i++) items = await run();
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    items = await run();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), items };
}

async function measure(c: ReadCase): Promise<ReadTiming> {
  const petrel = await time(c.petrel);
  if (petrel.items === 0 && !c.empty) throw new Error(`${c.name}: Petrel answered nothing`);
  const reference = c.reference;
  const ref = reference ? await time(() => reference(petrel.items)) : null;
  return { name: c.name, petrelMs: petrel.ms, refMs: ref?.ms ?? null, items: petrel.items };
}

/** Loads a fresh Petrel and times every read case (those whose name holds `only`, when given). */
export async function benchReads(only = Deno.env.get("BENCH_READS_ONLY") ?? ""): Promise<ReadsBench> {
  let endMs = Math.floor(Date.now() / 60_000) * 60_000;
  const dataHome = Deno.env.get("BENCH_READS_DIR") ??
    await Deno.makeTempDir({ prefix: "petrel_bench_reads_" });
  const reuse = Deno.env.get("BENCH_READS_DIR") !== undefined &&
    (() => {
      try {
        return Deno.statSync(`${dataHome}/data/public.sqlite`).isFile;
      } catch {
        return false;
      }
    })();
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome], {
    PETREL_LOG_LEVEL: "error",
  });
  let raw: DatabaseSync | undefined;
  try {
    const endFile = `${dataHome}/bench_end_ms`;
    const [loadSeconds, loadCpu] = reuse ? [0, null] : await load(server.url, server.child.pid, endMs);
    if (!reuse) Deno.writeTextFileSync(endFile, String(endMs));
    else endMs = Number(Deno.readTextFileSync(endFile));
    raw = new DatabaseSync(`${dataHome}/data/public.sqlite`, { readOnly: true });
    const timings: ReadTiming[] = [];
    for (const c of readCases(server.url, raw, endMs)) {
      if (c.name.includes(only)) timings.push(await measure(c));
    }
    return { loadSeconds, loadCpu, timings };
  } finally {
    raw?.close();
    await server.stop();
    if (Deno.env.get("BENCH_READS_DIR") === undefined) await Deno.remove(dataHome, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await benchReads(Deno.args[0] ?? "");
  console.log(`load: ${r.loadSeconds.toFixed(0)} s, Petrel CPU ${r.loadCpu?.toFixed(0) ?? "n/a"} s`);
  for (const t of r.timings) {
    const ref = t.refMs === null ? "" : `  ref ${t.refMs.toFixed(1)} ms`;
    console.log(`${t.name.padEnd(70)} ${t.petrelMs.toFixed(1).padStart(9)} ms${ref}  (${t.items})`);
  }
}
