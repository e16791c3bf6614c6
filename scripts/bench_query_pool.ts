/**
 * Cheap reads while heavy ones run: a Petrel child process with a 1M-row table and a 10-row one; a
 * cheap query (`SELECT count(*)` of the small table, and a PromQL instant query of one series) is timed
 * for 15 s on an idle server, then while 2 and 4 clients each keep a full scan of the big table running. Prints the
 * cheap query's p50/p95, the heavy queries' p50 and completions, and the server's peak RSS. Run by
 * hand: `deno task bench querypool` or `deno run -A scripts/bench_query_pool.ts` (BENCH_QUERYPOOL_DIR
 * keeps the loaded data between runs).
 */
import { spawnServer } from "../test/helpers/server.ts";
import { remoteWrite } from "../test/promql/prom_compare.ts";

export const BIG_ROWS = 1_000_000;
const BATCH = 50_000;
export const HEAVY_SQL = "SELECT host, count(*), avg(v), max(f) FROM qp_big GROUP BY host";
export const CHEAP_SQL = "SELECT count(*) FROM qp_small";
const CHEAP_PROMQL = 'qp_metric{instance="i-1"}';

/** One scenario's numbers. */
export interface PoolRun {
  heavyClients: number;
  cheapP50: number;
  cheapP95: number;
  promP50: number;
  heavyP50: number | null;
  heavyDone: number;
  seconds: number;
  /** The server's CPU seconds (all threads) over the window; null off Linux. */
  cpu: number | null;
}

/** What the section measured. */
export interface QueryPoolBench {
  runs: PoolRun[];
  peakRssMb: number | null;
}

/** The `p` quantile (0–1) of `xs`, nearest rank. */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/** Reads a response through, failing on a status of 300 or more. */
export async function ok(r: Response, what: string): Promise<void> {
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${what} → ${r.status}: ${text.slice(0, 300)}`);
}

async function load(url: string): Promise<void> {
  const endMs = Math.floor(Date.now() / 1000) * 1000;
  for (let start = 0; start < BIG_ROWS; start += BATCH) {
    let body = "";
    for (let i = start; i < start + BATCH; i++) {
      body += `qp_big,host=h${i % 50},dc=d${i % 3} v=${i % 1000}i,f=${(i % 97) / 7} ${
        endMs - BIG_ROWS + i
      }\n`;
    }
    await ok(await fetch(`${url}/v1/influxdb/write?precision=ms`, { method: "POST", body }), "write big");
  }
  let small = "";
  for (let i = 0; i < 10; i++) small += `qp_small,host=h${i} v=${i}i ${endMs - i}\n`;
  await ok(
    await fetch(`${url}/v1/influxdb/write?precision=ms`, { method: "POST", body: small }),
    "write small",
  );
  const series = Array.from({ length: 20 }, (_, s) => ({
    labels: { __name__: "qp_metric", instance: `i-${s}` },
    samples: Array.from({ length: 60 }, (_, k) => ({ timestampMs: endMs - 60_000 * (60 - k), value: k })),
  }));
  await remoteWrite(url, series, "/v1/prometheus/write");
}

async function sql(url: string, q: string): Promise<number> {
  const t0 = performance.now();
  await ok(await fetch(`${url}/v1/sql?sql=${encodeURIComponent(q)}`), q);
  return performance.now() - t0;
}

async function promql(url: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(`${url}/v1/prometheus/api/v1/query?query=${encodeURIComponent(CHEAP_PROMQL)}`);
  await ok(r, CHEAP_PROMQL);
  return performance.now() - t0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * For `seconds`, times cheap SQL and PromQL queries (a pair sent every 200 ms) while `heavy` clients each
 * keep a scan running; heavy scans are counted when they finish within the window.
 */
async function scenario(url: string, pid: number, heavy: number, seconds: number): Promise<PoolRun> {
  const t0 = performance.now(), end = t0 + seconds * 1000, cpu0 = cpuSeconds(pid);
  const heavyMs: number[] = [];
  const clients = Array.from({ length: heavy }, async () => {
    while (performance.now() < end) {
      const ms = await sql(url, HEAVY_SQL);
      if (performance.now() <= end) heavyMs.push(ms);
    }
  });
  if (heavy > 0) await sleep(300); // every heavy client has its first scan queued or running
  // open loop, as a dashboard's refresh: the same cheap requests whatever their latency
  const cheap: number[] = [], prom: number[] = [], pending: Promise<void>[] = [];
  while (performance.now() < end) {
    pending.push(sql(url, CHEAP_SQL).then((ms) => void cheap.push(ms)));
    pending.push(promql(url).then((ms) => void prom.push(ms)));
    await sleep(200);
  }
  await Promise.all([...clients, ...pending]);
  const cpu1 = cpuSeconds(pid);
  return {
    heavyClients: heavy,
    cheapP50: pct(cheap, 0.5),
    cheapP95: pct(cheap, 0.95),
    promP50: pct(prom, 0.5),
    heavyP50: heavyMs.length ? pct(heavyMs, 0.5) : null,
    heavyDone: heavyMs.length,
    seconds,
    cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
  };
}

/** User + system CPU seconds the process has used (Linux). */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Loads (or reuses) the tables, then runs idle, 2 and 4 heavy clients, `seconds` each. */
export async function benchQueryPool(seconds = 15): Promise<QueryPoolBench> {
  const keep = Deno.env.get("BENCH_QUERYPOOL_DIR");
  const dataHome = keep ?? await Deno.makeTempDir({ prefix: "petrel_bench_querypool_" });
  const loaded = keep !== undefined && (() => {
    try {
      return Deno.statSync(`${dataHome}/querypool_loaded`).isFile;
    } catch {
      return false;
    }
  })();
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome], {
    PETREL_LOG_LEVEL: "error",
  });
  try {
    if (!loaded) {
      await load(server.url);
      Deno.writeTextFileSync(`${dataHome}/querypool_loaded`, "");
    }
    // warm-up: workers started, the statements seen once
    for (let i = 0; i < 3; i++) await Promise.all([sql(server.url, HEAVY_SQL), sql(server.url, CHEAP_SQL)]);
    const runs: PoolRun[] = [];
    for (const heavy of [0, 2, 4]) runs.push(await scenario(server.url, server.child.pid, heavy, seconds));
    return { runs, peakRssMb: peakRss(server.child.pid) };
  } finally {
    await server.stop();
    if (keep === undefined) await Deno.remove(dataHome, { recursive: true });
  }
}

/** The section's lines: label, value. */
export function queryPoolLines(r: QueryPoolBench): Array<[string, string]> {
  const lines: Array<[string, string]> = [];
  for (const run of r.runs) {
    const label = run.heavyClients === 0 ? "idle" : `${run.heavyClients} heavy clients`;
    lines.push([
      `querypool ${label}: cheap SQL p50/p95 ms`,
      `${run.cheapP50.toFixed(1)}/${run.cheapP95.toFixed(1)}`,
    ]);
    lines.push([`querypool ${label}: cheap PromQL p50 ms`, run.promP50.toFixed(1)]);
    if (run.heavyP50 !== null) {
      lines.push([
        `querypool ${label}: heavy p50 ms, done/s`,
        `${run.heavyP50.toFixed(0)}, ${(run.heavyDone / run.seconds).toFixed(2)}`,
      ]);
      lines.push([
        `querypool ${label}: server CPU s per heavy scan`,
        run.cpu === null ? "n/a" : (run.cpu / run.heavyDone).toFixed(2),
      ]);
    }
  }
  lines.push(["querypool: peak RSS MB", r.peakRssMb?.toFixed(0) ?? "n/a"]);
  return lines;
}

if (import.meta.main) {
  const r = await benchQueryPool(Number(Deno.args[0] ?? 15));
  for (const [label, value] of queryPoolLines(r)) console.log(`${label.padEnd(50)} ${value}`);
}
