/**
 * Remote write's main-thread CPU, for judging changes on a shared machine: the `remote_write_http`
 * bench's bodies (1k series × 10 samples a request) after warm-up requests, posted to a Petrel child;
 * prints its main-thread CPU seconds per 1M samples, the SQLite floor of the same rows (copied again
 * by SQLite alone, one commit per request's worth) and the CPU of decoding the bodies in process.
 * `PETREL_BENCH_CPU_PROF=dir` writes the child's `.cpuprofile` (read it with `scripts/cpu_profile.ts`);
 * `PETREL_BENCH_MAIN=path/main.ts` runs another tree's Petrel (an old/new comparison).
 * Run: `deno run -A scripts/bench_remote_write.ts [requests] [warmup] [series] [samples per series]`.
 */
import { spawnListening } from "../test/helpers/server.ts";
import { postAllRaw } from "./bench_http_client.ts";
import { cpuSplit, remoteWriteBodies, threadCpu } from "./bench_ingest.ts";
import { sqliteFloor } from "./bench_sqlite_floor.ts";
import { decodeRemoteWrite } from "../src/protocols/remote_write/parser.ts";

const HEADERS = {
  "content-type": "application/x-protobuf",
  "content-encoding": "snappy",
  "x-prometheus-remote-write-version": "0.1.0",
};

/** CPU seconds of this thread so far (`/proc/thread-self/schedstat`, ns; Linux). */
function threadCpuSeconds(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e9;
}

const requests = Number(Deno.args[0] ?? 100), warmups = Number(Deno.args[1] ?? 50);
/** Series per request and samples per series in a request (the bench's shape by default). */
const SERIES = Number(Deno.args[2] ?? 1000), PER_REQUEST = Number(Deno.args[3] ?? 10);
// Samples from the start of the current hour (some in the future): all in the metric engine's open
// window, so no compaction of a window that closed during the run is counted (it runs on the same
// thread, and only in the runs that straddle an hour's end plus its grace).
const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const all = remoteWriteBodies(SERIES, (warmups + requests) * PER_REQUEST, PER_REQUEST, hour + 1000);
const warmup = all.slice(0, warmups), bodies = all.slice(warmups);
const samples = requests * SERIES * PER_REQUEST;

// decode alone, in this process (second pass, after a first that compiles)
let decodeCpu = 0;
for (let pass = 0; pass < 2; pass++) {
  const c0 = threadCpuSeconds();
  for (const b of bodies) {
    decodeRemoteWrite(b, { contentEncoding: "snappy" }, { limit: 1 << 30, strict: false });
  }
  decodeCpu = threadCpuSeconds() - c0;
}

const dataHome = await Deno.makeTempDir({ prefix: "petrel_bench_rw_" });
const profileDir = Deno.env.get("PETREL_BENCH_CPU_PROF");
const main = Deno.env.get("PETREL_BENCH_MAIN") ?? new URL("../main.ts", import.meta.url).pathname;
const server = await spawnListening(Deno.execPath(), [
  "run",
  "-A",
  ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
  main,
  "start",
  "--http-addr",
  "127.0.0.1:0",
  "--data-home",
  dataHome,
], { env: { PETREL_LOG_LEVEL: "error" } });
try {
  const url = server.url + "/v1/prometheus/write?db=public";
  await postAllRaw({ url, headers: HEADERS }, warmup, 1);
  const before = threadCpu(server.child.pid);
  const seconds = await postAllRaw({ url, headers: HEADERS }, bodies, 1);
  const cpu = cpuSplit(server.child.pid, before, threadCpu(server.child.pid));
  const r = await fetch(
    `${server.url}/v1/sql?sql=${encodeURIComponent("SELECT count(*) FROM rwbench_metric")}`,
  );
  const stored = Number((await r.json()).output[0].records.rows[0][0]);
  await server.stop();
  const floor = sqliteFloor(dataHome, "public", "__petrel_samples_1", SERIES * PER_REQUEST, samples);
  const per1M = 1e6 / samples;
  console.log(JSON.stringify({
    samples,
    stored,
    samplesPerSec: Math.round(samples / seconds),
    mainCpuPer1M: cpu && +(cpu.main * per1M).toFixed(3),
    otherCpuPer1M: cpu && +((cpu.workers + cpu.other) * per1M).toFixed(3),
    sqliteFloorCpuPer1M: +(floor.cpu * 1e6 / floor.rows).toFixed(3),
    decodeCpuPer1M: +(decodeCpu * per1M).toFixed(3),
    load: Deno.loadavg()[0],
  }));
} finally {
  await server.stop().catch(() => {});
  await Deno.remove(dataHome, { recursive: true });
}
