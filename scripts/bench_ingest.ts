/**
 * Ingestion speed over HTTP, Petrel next to VictoriaMetrics (Debian's package) fed the very same
 * bodies in the same run: line protocol (1M rows, 10k series) and remote write (1M samples in
 * 1k-series requests). Both servers run as child processes on loopback with temp data dirs and are
 * fed by the same lean keep-alive HTTP/1.1 client (`bench_http_client.ts`), which shares the two
 * cores with them. Run by hand: `deno run -A scripts/bench_ingest.ts [lineproto] [remote_write]`.
 */
import { lineProtocolBody } from "../src/protocols/lineproto/bench.ts";
import { ensureDebianBinary, freePort, waitFor } from "../test/helpers/debian.ts";
import { spawnServer } from "../test/helpers/server.ts";
import { postAllRaw } from "./bench_http_client.ts";
import { type Series } from "../src/common/series.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";

/** What one comparison measured. `victoriaMetrics`/`ratio` are null when the peer is unavailable. */
export interface IngestBench {
  units: number;
  requests: number;
  petrel: number;
  victoriaMetrics: number | null;
  /** petrel / victoriaMetrics */
  ratio: number | null;
  petrelSeconds: number;
  /** Rows/samples Petrel holds afterwards, read back with SQL (must equal `units`). */
  petrelStored: number;
  /** CPU seconds Petrel's threads used while posting (Linux /proc; null elsewhere). */
  petrelCpu: CpuSplit | null;
  /** CPU seconds VictoriaMetrics used for the same bodies. */
  victoriaMetricsCpu: number | null;
}

/** CPU seconds of one process, by thread kind. */
export interface CpuSplit {
  /** The JS main thread: HTTP, storage writer and SQLite (and parsing when done inline). */
  main: number;
  /** Web workers (Deno names them `worker-N`): the line-protocol parser, query workers. */
  workers: number;
  /** V8's GC/compiler helpers, tokio and the rest. */
  other: number;
}

/** Per-thread CPU milliseconds of a process, keyed `tid name`; null where /proc is unavailable. */
export function threadCpu(pid: number): Map<string, number> | null {
  try {
    const out = new Map<string, number>();
    for (const e of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const st = Deno.readTextFileSync(`/proc/${pid}/task/${e.name}/stat`);
        const close = st.lastIndexOf(")");
        const f = st.slice(close + 2).split(" ");
        // utime + stime, in clock ticks (100/s on Linux)
        out.set(`${e.name} ${st.slice(st.indexOf("(") + 1, close)}`, (Number(f[11]) + Number(f[12])) * 10);
      } catch { /* thread ended */ }
    }
    return out;
  } catch {
    return null;
  }
}

/** CPU used between two `threadCpu` snapshots of Petrel, split by thread kind. */
export function cpuSplit(
  pid: number,
  before: Map<string, number> | null,
  after: Map<string, number> | null,
): CpuSplit | null {
  if (before === null || after === null) return null;
  const split: CpuSplit = { main: 0, workers: 0, other: 0 };
  for (const [key, ms] of after) {
    const used = (ms - (before.get(key) ?? 0)) / 1000;
    const [tid, name] = [key.slice(0, key.indexOf(" ")), key.slice(key.indexOf(" ") + 1)];
    if (Number(tid) === pid) split.main += used;
    else if (name.startsWith("worker-")) split.workers += used;
    else split.other += used;
  }
  return split;
}

function totalCpu(m: Map<string, number> | null): number | null {
  return m === null ? null : [...m.values()].reduce((a, b) => a + b, 0) / 1000;
}

interface Peer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startVictoriaMetrics(): Promise<Peer | null> {
  const bin = await ensureDebianBinary("victoria-metrics", "victoria-metrics");
  if (bin === null) return null;
  const dir = await Deno.makeTempDir({ prefix: "petrel_vm_" });
  const port = freePort();
  const child = new Deno.Command(bin, {
    args: [
      `-storageDataPath=${dir}/data`,
      `-httpListenAddr=127.0.0.1:${port}`,
      "-retentionPeriod=100y",
      "-search.latencyOffset=0s",
      "-loggerLevel=ERROR",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const ok = await waitFor(async () => {
    const r = await fetch(`${url}/health`);
    await r.body?.cancel();
    return r.ok ? true : null;
  }, 30_000);
  if (!ok) {
    await stop();
    throw new Error("victoria-metrics did not start");
  }
  return { url, pid: child.pid, stop };
}

async function startPetrel(): Promise<Peer> {
  const dir = await Deno.makeTempDir({ prefix: "petrel_bench_" });
  const s = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dir], {
    PETREL_LOG_LEVEL: "error",
  });
  return {
    url: s.url,
    pid: s.child.pid,
    stop: async () => {
      await s.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

async function sqlCount(base: string, sql: string): Promise<number> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(sql)}`);
  const body = await r.json();
  if (r.status !== 200) throw new Error(JSON.stringify(body));
  return Number(body.output[0].records.rows[0][0]);
}

async function compare(
  bodies: Uint8Array<ArrayBuffer>[],
  units: number,
  petrelPath: string,
  vmPath: string,
  headers: Record<string, string>,
  concurrency: number,
  stored: string,
): Promise<IngestBench> {
  const vm = await startVictoriaMetrics();
  let vmSeconds: number | null = null;
  let vmCpu: number | null = null;
  try {
    if (vm) {
      const before = totalCpu(threadCpu(vm.pid));
      vmSeconds = await postAllRaw({ url: vm.url + vmPath, headers }, bodies, concurrency);
      const after = totalCpu(threadCpu(vm.pid));
      vmCpu = before === null || after === null ? null : after - before;
    }
  } finally {
    await vm?.stop();
  }
  const petrel = await startPetrel();
  try {
    const before = threadCpu(petrel.pid);
    const seconds = await postAllRaw({ url: petrel.url + petrelPath, headers }, bodies, concurrency);
    const petrelCpu = cpuSplit(petrel.pid, before, threadCpu(petrel.pid));
    const petrelStored = await sqlCount(petrel.url, stored);
    const rate = units / seconds;
    const vmRate = vmSeconds === null ? null : units / vmSeconds;
    return {
      units,
      requests: bodies.length,
      petrel: Math.round(rate),
      victoriaMetrics: vmRate === null ? null : Math.round(vmRate),
      ratio: vmRate === null ? null : rate / vmRate,
      petrelSeconds: seconds,
      petrelStored,
      petrelCpu,
      victoriaMetricsCpu: vmCpu,
    };
  } finally {
    await petrel.stop();
  }
}

/** Line protocol over HTTP: 1M rows over 10k series in 5000-line bodies, 2 concurrent posters. */
export async function benchLineProtocolHttp(
  rows = 1_000_000,
  series = 10_000,
  batch = 5000,
): Promise<IngestBench> {
  const enc = new TextEncoder();
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < rows; i += batch) {
    bodies.push(
      enc.encode(lineProtocolBody(Math.min(batch, rows - i), series, i)) as Uint8Array<ArrayBuffer>,
    );
  }
  return await compare(
    bodies,
    rows,
    "/v1/influxdb/write?db=public",
    "/write?db=bench",
    { "content-type": "text/plain; charset=utf-8" },
    2,
    "SELECT count(*) FROM cpu",
  );
}

/** Remote write 1.0 over HTTP: 1k series × 1000 samples, 10 samples per series per request, sequential. */
export async function benchRemoteWriteHttp(
  series = 1000,
  samplesPerSeries = 1000,
  perRequest = 10,
): Promise<IngestBench> {
  return await compare(
    remoteWriteBodies(series, samplesPerSeries, perRequest),
    series * samplesPerSeries,
    "/v1/prometheus/write?db=public",
    "/api/v1/write",
    {
      "content-type": "application/x-protobuf",
      "content-encoding": "snappy",
      "x-prometheus-remote-write-version": "0.1.0",
    },
    1,
    "SELECT count(*) FROM rwbench_metric",
  );
}

/**
 * The remote-write bench's bodies: `series` series, `perRequest` samples each a body, in time order,
 * one second apart from `t0` (by default ending just before now).
 */
export function remoteWriteBodies(
  series: number,
  samplesPerSeries: number,
  perRequest: number,
  t0 = Date.now() - samplesPerSeries * 1000 - 5000,
): Uint8Array<ArrayBuffer>[] {
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  for (let j = 0; j < samplesPerSeries; j += perRequest) {
    const ts: Series[] = [];
    for (let s = 0; s < series; s++) {
      const samples = [];
      for (let k = j; k < Math.min(j + perRequest, samplesPerSeries); k++) {
        samples.push({ value: (s * 7 + k) % 1000 / 10, timestampMs: t0 + k * 1000 });
      }
      ts.push({
        labels: {
          __name__: "rwbench_metric",
          instance: `host-${s % 100}`,
          job: "rwbench",
          series: String(s),
        },
        samples,
      });
    }
    bodies.push(encodeRemoteWriteV1(ts));
  }
  return bodies;
}

function show(name: string, unit: string, r: IngestBench, target: string): void {
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(
    `${name}: Petrel ${fmt(r.petrel)} ${unit}/s (${r.petrelSeconds.toFixed(2)} s, ${r.requests} requests, ` +
      `${fmt(r.petrelStored)} stored of ${fmt(r.units)})`,
  );
  const c = r.petrelCpu;
  if (c !== null) {
    console.log(
      `${name}: Petrel CPU ${(c.main + c.workers + c.other).toFixed(2)} s (main thread ${
        c.main.toFixed(2)
      }, ` +
        `workers ${c.workers.toFixed(2)}, V8 helpers/other ${c.other.toFixed(2)})` +
        (r.victoriaMetricsCpu === null ? "" : `; VictoriaMetrics CPU ${r.victoriaMetricsCpu.toFixed(2)} s`),
    );
  }
  if (r.victoriaMetrics === null) console.log(`${name}: VictoriaMetrics unavailable, no ratio`);
  else {
    console.log(
      `${name}: VictoriaMetrics ${fmt(r.victoriaMetrics)} ${unit}/s; Petrel / VictoriaMetrics = ` +
        `${r.ratio!.toFixed(2)} (target ${target})`,
    );
  }
}

if (import.meta.main) {
  const wanted = Deno.args.length > 0 ? Deno.args : ["lineproto", "remote_write"];
  if (wanted.includes("lineproto")) {
    show("line protocol", "rows", await benchLineProtocolHttp(), ">= 500k rows/s and >= 0.5");
  }
  if (wanted.includes("remote_write")) {
    show("remote write", "samples", await benchRemoteWriteHttp(), ">= 500k samples/s, ratio for reference");
  }
}
