/**
 * PromQL latency and bytes per sample, Petrel next to a real Prometheus 2.42 (Debian) fed the same
 * remote-write bodies in the same run: 1k series × 24 h at 15 s of a counter, then three queries
 * over HTTP (`/api/v1/query_range`, `/api/v1/query`), each the median of 11 runs after 33 warm-up runs, the two servers timed alternately.
 * Bytes on disk per sample are measured after the first 1M samples (Petrel once its background
 * compaction has caught up, Prometheus with its head chunks and WAL, as it holds recent data).
 * Run by hand: `deno task bench promql`.
 */
import { startPrometheus as startPromServer } from "../test/promql/prom_compare.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";
import type { Series } from "../src/common/series.ts";
import { waitFor } from "../test/helpers/debian.ts";
import { spawnServer } from "../test/helpers/server.ts";

const SERIES = 1000, HOURS = 24, STEP_MS = 15_000, PER_REQUEST = 40;
const HOUR = 3_600_000;

/** What the section measured: median latencies (ms) and bytes per sample. */
export interface PromqlBench {
  queries: Array<{ name: string; petrelMs: number; prometheusMs: number }>;
  petrelBytesPerSample: number;
  prometheusBytesPerSample: number;
}

interface Peer {
  url: string;
  /** The API prefix (`/api/v1` or `/v1/prometheus/api/v1`). */
  api: string;
  write: string;
  dir: string;
  stop(): Promise<void>;
}

async function startPrometheus(): Promise<Peer> {
  const prom = await startPromServer();
  if (prom === null) throw new Error("the promql bench needs Debian's prometheus");
  return { url: prom.url, api: "/api/v1", write: "/api/v1/write", dir: prom.dataDir, stop: prom.stop };
}

async function startPetrel(): Promise<Peer> {
  const dir = await Deno.makeTempDir({ prefix: "petrel_bench_promql_" });
  const s = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dir], {
    PETREL_LOG_LEVEL: "error",
  });
  return {
    url: s.url,
    api: "/v1/prometheus/api/v1",
    write: "/v1/prometheus/write",
    dir,
    stop: async () => {
      await s.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The remote-write bodies: time slices of every series, oldest first. */
function bodies(start: number, end: number): Array<{ body: Uint8Array<ArrayBuffer>; samples: number }> {
  const out: Array<{ body: Uint8Array<ArrayBuffer>; samples: number }> = [];
  for (let t = start + 7_000; t < end; t += STEP_MS * PER_REQUEST) {
    const series: Series[] = [];
    let samples = 0;
    for (let i = 0; i < SERIES; i++) {
      const pts = [];
      for (let k = 0; k < PER_REQUEST && t + k * STEP_MS < end; k++) {
        const ts = t + k * STEP_MS;
        pts.push({ timestampMs: ts, value: i * 1000 + Math.floor((ts - start) / 1000) * (1 + i % 7) });
      }
      samples += pts.length;
      series.push({
        labels: { __name__: "http_requests_total", job: `job-${i % 10}`, instance: `i-${i}` },
        samples: pts,
      });
    }
    out.push({ body: encodeRemoteWriteV1(series), samples });
  }
  return out;
}

async function post(peer: Peer, body: Uint8Array<ArrayBuffer>): Promise<void> {
  const r = await fetch(peer.url + peer.write, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
  });
  if (!r.ok) throw new Error(`${peer.url}: remote write ${r.status} ${await r.text()}`);
  await r.body?.cancel();
}

function diskBytes(path: string): number {
  let bytes = 0;
  for (const e of Deno.readDirSync(path)) {
    const p = `${path}/${e.name}`;
    bytes += e.isDirectory ? diskBytes(p) : Deno.statSync(p).size;
  }
  return bytes;
}

async function compactedWindows(petrel: Peer): Promise<number> {
  const text = await (await fetch(`${petrel.url}/metrics`)).text();
  return Number(/^petrel_metric_compaction_windows_total (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Waits until Petrel's compaction has done at least `windows` windows and then stays idle for 5 s. */
async function compacted(petrel: Peer, windows: number): Promise<void> {
  const ok = await waitFor(async () => (await compactedWindows(petrel)) >= windows || null, 300_000);
  if (ok === null) throw new Error(`compaction did not reach ${windows} windows`);
  for (
    let last = -1, now = await compactedWindows(petrel);
    now !== last;
    now = await compactedWindows(petrel)
  ) {
    last = now;
    await new Promise((r) => setTimeout(r, 5_000));
  }
}

async function timeQuery(peer: Peer, path: string, params: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(`${peer.url}${peer.api}${path}?${new URLSearchParams(params)}`);
  const json = await r.json() as { status: string; data?: { result: unknown[] } };
  const ms = performance.now() - t0;
  if (json.status !== "success" || (json.data?.result.length ?? 0) === 0) {
    throw new Error(`${peer.url}: ${path} ${JSON.stringify(params)} → ${JSON.stringify(json).slice(0, 300)}`);
  }
  return ms;
}

/**
 * Median latencies of one query on two servers, `runs` timings each after 3 × `runs` warm-up runs (a
 * long-running server is warm: JIT, caches). The two are timed alternately, so the machine's noise
 * falls on both alike.
 */
async function medians(
  runs: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
): Promise<[number, number]> {
  for (let i = 0; i < runs; i++) await a(), await b();
  const ta: number[] = [], tb: number[] = [];
  for (let i = 0; i < runs; i++) ta.push(await a()), tb.push(await b());
  const mid = (t: number[]) => t.sort((x, y) => x - y)[t.length >> 1];
  return [mid(ta), mid(tb)];
}

/** Loads both servers and measures. */
export async function benchPromql(): Promise<PromqlBench> {
  const end = Math.floor(Date.now() / 60_000) * 60_000, start = end - HOURS * HOUR;
  const [petrel, prometheus] = [await startPetrel(), await startPrometheus()];
  try {
    const all = bodies(start, end);
    let sent = 0, i = 0;
    for (; i < all.length && sent < 1_000_000; i++) {
      await post(petrel, all[i].body);
      await post(prometheus, all[i].body);
      sent += all[i].samples;
    }
    // Windows wholly before the last sample sent are closed (all of this data is hours old).
    const lastSent = start + 7_000 + i * PER_REQUEST * STEP_MS;
    await compacted(petrel, Math.floor((lastSent - start) / HOUR));
    const petrelBytesPerSample = diskBytes(petrel.dir) / sent;
    const prometheusBytesPerSample = diskBytes(prometheus.dir) / sent;
    for (; i < all.length; i++) {
      await post(petrel, all[i].body);
      await post(prometheus, all[i].body);
    }
    await compacted(petrel, HOURS - 1);
    const agg = "sum by (job) (rate(http_requests_total[5m]))";
    const range = { start: String(start / 1000), end: String(end / 1000), step: "60" };
    const cases: Array<[string, string, Record<string, string>]> = [
      [`${agg}, 24 h range, 1 m step`, "/query_range", { query: agg, ...range }],
      [
        'rate(http_requests_total{instance="i-7"}[5m]), 24 h range, 1 m step',
        "/query_range",
        { query: 'rate(http_requests_total{instance="i-7"}[5m])', ...range },
      ],
      [`${agg}, instant`, "/query", { query: agg, time: String(end / 1000) }],
    ];
    const queries = [];
    for (const [name, path, params] of cases) {
      const [petrelMs, prometheusMs] = await medians(
        11,
        () => timeQuery(petrel, path, params),
        () => timeQuery(prometheus, path, params),
      );
      queries.push({ name, petrelMs, prometheusMs });
    }
    return { queries, petrelBytesPerSample, prometheusBytesPerSample };
  } finally {
    await petrel.stop();
    await prometheus.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchPromql(), null, 2));
