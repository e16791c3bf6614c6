/**
 * The metric engine's compaction on the writer's (main) thread, per 1M samples: writes samples of
 * `scripts/bench_remote_write.ts`'s shape (1k series, a sample a second, its values) into hours that
 * closed long ago, in process, then compacts them (`Storage.compactMetrics`, the background
 * compactor's jobs run to completion) and prints this thread's CPU seconds for it per 1M samples,
 * each run on a fresh data directory (the first run includes compiling). CPU of threads started
 * meanwhile (the compaction worker) is printed apart (`workerCpuPer1M`), and so is that of the
 * process' other threads (`otherCpuPer1M`: the checkpoint worker copying the load's WAL, GC helpers).
 * `PETREL_BENCH_TREE=dir` runs another tree's storage (an old/new comparison); profile with
 * `deno run -A --cpu-prof --cpu-prof-dir=dir scripts/bench_compaction.ts` and `scripts/cpu_profile.ts`.
 * Run: `deno run -A scripts/bench_compaction.ts [runs=3] [series=1000] [samples per series=1000] [step ms=1000]`.
 */
import type { MetricSeriesInput, Storage } from "../src/storage/mod.ts";
import { threadCpu } from "./bench_ingest.ts";

const runs = Number(Deno.args[0] ?? 3), SERIES = Number(Deno.args[1] ?? 1000);
const PER_SERIES = Number(Deno.args[2] ?? 1000), STEP = Number(Deno.args[3] ?? 1000);
const tree = Deno.env.get("PETREL_BENCH_TREE");
const modUrl = tree
  ? `file://${tree}/src/storage/mod.ts`
  : new URL("../src/storage/mod.ts", import.meta.url).href;
const { Storage: StorageClass } = await import(modUrl) as { Storage: typeof Storage };

const HOUR = 3_600_000;
/** Hours that closed long ago (so every one is due), aligned as the engine's windows. */
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR;
const samples = SERIES * PER_SERIES;

/** CPU seconds of this thread so far (`/proc/thread-self/schedstat`, ns; Linux). */
function threadCpuSeconds(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e9;
}

/** CPU seconds of the threads new since `before` (named `worker-…`), and of the others but this one. */
function otherThreads(before: Map<string, number>, after: Map<string, number>): [number, number] {
  let started = 0, others = 0;
  for (const [key, ms] of after) {
    if (Number(key.slice(0, key.indexOf(" "))) === Deno.pid) continue;
    const was = before.get(key);
    if (was === undefined && key.includes(" worker-")) started += ms / 1000;
    else others += (ms - (was ?? 0)) / 1000;
  }
  return [started, others];
}

/** Writes the samples as remote write's requests would: every series, 10 samples at a time. */
function load(s: Storage): void {
  for (let k0 = 0; k0 < PER_SERIES; k0 += 10) {
    const series: MetricSeriesInput[] = [];
    for (let i = 0; i < SERIES; i++) {
      const pts = [];
      for (let k = k0; k < Math.min(k0 + 10, PER_SERIES); k++) {
        pts.push({ value: (i * 7 + k) % 1000 / 10, timestampMs: T0 + 1000 + k * STEP });
      }
      series.push({
        labels: { instance: `host-${i % 100}`, job: "rwbench", series: String(i) },
        samples: pts,
      });
    }
    s.writeMetrics("public", [{ metric: "rwbench_metric", series }]);
  }
}

for (let run = 0; run < runs; run++) {
  const dir = await Deno.makeTempDir({ prefix: "petrel_bench_compaction_" });
  const s = StorageClass.open({ dataHome: dir });
  try {
    load(s);
    const c0 = threadCpuSeconds(), t0 = threadCpu(Deno.pid)!, w0 = performance.now();
    // (an older tree compacts on this thread alone)
    const due = s.compactMetricsDue
      ? await s.compactMetricsDue()
      : { windows: s.compactMetrics(), onWorker: 0 };
    const main = threadCpuSeconds() - c0, [worker, other] = otherThreads(t0, threadCpu(Deno.pid)!);
    const per1M = 1e6 / samples;
    console.log(JSON.stringify({
      run,
      samples,
      windows: due.windows,
      onWorker: due.onWorker,
      mainCpuPer1M: +(main * per1M).toFixed(3),
      workerCpuPer1M: +(worker * per1M).toFixed(3),
      otherCpuPer1M: +(other * per1M).toFixed(3),
      wallPer1M: +((performance.now() - w0) / 1000 * per1M).toFixed(3),
      load: Deno.loadavg()[0],
    }));
  } finally {
    s.close();
    await Deno.remove(dir, { recursive: true });
  }
}
