/**
 * `deno task bench downsample`: what watching a table for late writes (`storage/late_marks.ts`)
 * costs the write path. Metric ingest and ordinary-table ingest through the storage API, for a table
 * no rule reads, for a rule's source written in order (nothing late: the common case), and for a
 * source every write of which is late (an agent flushing its buffer); the median of 5 alternating
 * runs each (in rotating order, after a warm-up run).
 */
import { Storage } from "../src/storage/mod.ts";
import { markLate, markLateRows, oldest } from "../src/storage/late_marks.ts";

/** How the written table relates to a downsampling rule. */
type Mode = "plain" | "source" | "late";

/** Rows (samples) per second of each mode, for metrics and for a table. */
export interface DownsampleBench {
  metric: Record<Mode, number>;
  table: Record<Mode, number>;
  /** The check alone for a source written in order (ns per row): metric samples, table rows. */
  checkNs: { metric: number; table: number };
}

const MODES: Mode[] = ["plain", "source", "late"];
const WRITES = 100, SERIES = 1000, PER_SERIES = 10;

function ingestRate(kind: "metric" | "table", mode: Mode): number {
  const dir = Deno.makeTempDirSync({ prefix: "petrel_bench_ds_" });
  const storage = Storage.open({ dataHome: dir });
  const t0 = Date.now() - 3_600_000;
  if (mode !== "plain") {
    // The watermark below every write (in order) or above every write (all late).
    const upto = mode === "source" ? t0 - 300_000 : t0 + 3_600_000;
    storage.lateWatches.add("public", "m", {
      rule: "bench",
      interval: 300_000,
      maxLateness: 7 * 86_400_000,
      upto,
    });
  }
  const columns = [
    { name: "host", type: "String" as const, semantic: "TAG" as const },
    { name: "ts", type: "TimestampMillisecond" as const, semantic: "TIMESTAMP" as const },
    { name: "v", type: "Float64" as const, semantic: "FIELD" as const },
  ];
  const start = performance.now();
  for (let w = 0; w < WRITES; w++) {
    const at = (i: number) => t0 + w * 10_000 + i * 1000;
    if (kind === "metric") {
      const series = Array.from({ length: SERIES }, (_, s) => ({
        labels: { host: `h${s}`, job: "bench" },
        samples: Array.from({ length: PER_SERIES }, (_, i) => ({ timestampMs: at(i), value: i })),
      }));
      storage.writeMetrics("public", [{ metric: "m", series }]);
    } else {
      const rows = [];
      for (let s = 0; s < SERIES; s++) for (let i = 0; i < PER_SERIES; i++) rows.push([`h${s}`, at(i), i]);
      storage.write("public", [{ table: "m", columns, rows }]);
    }
  }
  const rate = WRITES * SERIES * PER_SERIES / ((performance.now() - start) / 1000);
  storage.close();
  Deno.removeSync(dir, { recursive: true });
  return rate;
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];

/** Runs the downsample section. */
export function benchDownsample(): DownsampleBench {
  const runs = { metric: new Map<Mode, number[]>(), table: new Map<Mode, number[]>() };
  for (const kind of ["metric", "table"] as const) ingestRate(kind, "plain"); // warm-up (JIT), not counted
  for (let i = 0; i < 5; i++) {
    for (const kind of ["metric", "table"] as const) {
      // The order rotates, so no mode always follows the same one (the previous run's writeback).
      for (const mode of MODES.map((_, k) => MODES[(k + i) % MODES.length])) {
        const list = runs[kind].get(mode) ?? [];
        list.push(ingestRate(kind, mode));
        runs[kind].set(mode, list);
      }
    }
  }
  const checkNs = checkCost();
  const pick = (m: Map<Mode, number[]>) =>
    Object.fromEntries(MODES.map((mode) => [mode, median(m.get(mode)!)])) as Record<Mode, number>;
  return { metric: pick(runs.metric), table: pick(runs.table), checkNs };
}

/** The late check a watched write makes when nothing is late, timed alone (the runs above are noisy). */
function checkCost(): { metric: number; table: number } {
  const storage = Storage.open({ dataHome: ":memory:" });
  const handle = storage.database("public");
  const t0 = Date.now() - 3_600_000, n = SERIES * PER_SERIES, reps = 2000;
  const watches = [{ rule: "bench", interval: 300_000, maxLateness: 7 * 86_400_000, upto: t0 - 300_000 }];
  const ts = Array.from({ length: n }, (_, i) => t0 + i);
  const table = {
    name: "m",
    schema: "main",
    timeIndex: "ts",
    columns: [{ name: "ts", type: "TimestampMillisecond" }],
  } as unknown as Parameters<typeof markLateRows>[1];
  const time = (f: () => void) => {
    const start = performance.now();
    for (let r = 0; r < reps; r++) f();
    return (performance.now() - start) * 1e6 / (reps * n);
  };
  const metric = time(() => markLate(handle, "main", watches, n, (i) => ts[i], oldest(ts)));
  const rows = time(() => markLateRows(handle, table, watches, ts, n));
  storage.close();
  return { metric, table: rows };
}
