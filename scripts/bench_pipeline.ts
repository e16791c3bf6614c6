/**
 * End-to-end pipeline benchmark: NDJSON nginx-style access logs POSTed to `/v1/ingest` through a
 * dissect + date pipeline into SQLite, against a Petrel started in this process on a temp
 * data_home. Reports lines/s (time-ordered lines, as a server writes them, and the engine bench's
 * out-of-order ones) and the ratio to `JSON.parse` of the same bodies alone.
 * Run: `deno run -A scripts/bench_pipeline.ts [lines] [--batch N] [--profile out.cpuprofile]`.
 */
import { BENCH_PIPELINE, makeNginxNdjson } from "../engine/bench.ts";
import { startPetrel } from "../src/app.ts";
import { defaultConfig } from "../src/config/config.ts";

/** What one run measured. */
export interface PipelineHttpResult {
  lines: number;
  requests: number;
  /** Lines per second from the first request sent to the last response read (time-ordered log). */
  linesPerSec: number;
  /** The same over the engine bench's lines, whose dates jump between days (a worst case). */
  scatteredLinesPerSec: number;
  /** Lines per second of `JSON.parse`, line by line, over the same bodies. */
  jsonParseLinesPerSec: number;
  /** linesPerSec / jsonParseLinesPerSec. */
  ratio: number;
}

/** Options of a run. */
export interface PipelineHttpOptions {
  /** Total lines sent (default 300k). */
  lines?: number;
  /** Lines per request (default 5000). */
  batchLines?: number;
  /** Requests in flight at once (default 1: client and server share this process's thread). */
  concurrency?: number;
  /** Write a V8 CPU profile of the timed part here. */
  profilePath?: string;
}

/** Runs the benchmark and returns its numbers; the server and its data are removed afterwards. */
export async function benchPipelineHttp(options: PipelineHttpOptions = {}): Promise<PipelineHttpResult> {
  const total = options.lines ?? 300_000;
  const batchLines = options.batchLines ?? 5_000;
  const concurrency = options.concurrency ?? 1;
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_bench_pipeline_" });
  const config = defaultConfig();
  config.http.addr = "127.0.0.1:0";
  config.storage.data_home = dataHome;
  config.logging.level = "error";
  const server = await startPetrel(config);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const up = await fetch(`${base}/v1/pipelines/nginx`, {
      method: "POST",
      headers: { "content-type": "application/x-yaml" },
      body: BENCH_PIPELINE,
    });
    if (!up.ok) throw new Error(`pipeline upload failed: ${up.status} ${await up.text()}`);

    const split = (ndjson: string) => {
      const lines = ndjson.split("\n");
      const bodies: string[] = [];
      for (let i = 0; i < lines.length; i += batchLines) {
        bodies.push(lines.slice(i, i + batchLines).join("\n"));
      }
      return bodies;
    };
    const post = async (table: string, body: string) => {
      const r = await fetch(`${base}/v1/ingest?table=${table}&pipeline_name=nginx`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body,
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`ingest failed: ${r.status} ${text}`);
    };
    /** Seconds to send every body to a fresh table, after checking the row count. */
    const timed = async (table: string, bodies: string[], profilePath?: string) => {
      const stopProfile = profilePath ? await startProfile() : null;
      const t0 = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < bodies.length) await post(table, bodies[next++]);
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const seconds = (performance.now() - t0) / 1000;
      if (stopProfile && profilePath) await Deno.writeTextFile(profilePath, await stopProfile());
      const check = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(`SELECT count(*) FROM ${table}`)}`);
      const count = (await check.json()).output[0].records.rows[0][0];
      if (count !== total) throw new Error(`expected ${total} rows in ${table}, found ${count}`);
      return seconds;
    };

    const ordered = split(makeAccessLogNdjson(total));
    const scattered = split(makeNginxNdjson(total));
    // Warm the JIT up outside the timed part.
    for (const body of [...ordered.slice(0, 3), ...scattered.slice(0, 3)]) await post("warmup", body);
    const seconds = await timed("access_log", ordered, options.profilePath);
    const scatteredSeconds = await timed("access_log_scattered", scattered);
    const jsonRate = jsonParseRate(ordered, total);
    return {
      lines: total,
      requests: ordered.length,
      linesPerSec: total / seconds,
      scatteredLinesPerSec: total / scatteredSeconds,
      jsonParseLinesPerSec: jsonRate,
      ratio: total / seconds / jsonRate,
    };
  } finally {
    await server.shutdown();
    await Deno.remove(dataHome, { recursive: true });
  }
}

const METHODS = ["GET", "POST", "PUT", "DELETE"];
const PATHS = ["/", "/api/v1/items", "/login", "/static/app.js", "/health"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * NDJSON of `n` nginx access-log lines in time order, 20 lines per second from 2024-06-01, as a
 * server writes them (the engine bench's lines jump between days, which no real log does, and
 * that scatter alone halves SQLite's insert rate through the time index).
 */
export function makeAccessLogNdjson(n: number): string {
  const start = Date.UTC(2024, 5, 1);
  const out: string[] = new Array(n);
  const two = (x: number) => String(x).padStart(2, "0");
  for (let i = 0; i < n; i++) {
    const d = new Date(start + Math.floor(i / 20) * 1000);
    const when = `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${
      two(d.getUTCHours())
    }:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
    const line = `10.0.${(i >> 8) & 255}.${i & 255} - - [${when}] "${METHODS[i % 4]} ${
      PATHS[i % 5]
    }?id=${i} HTTP/1.1" ${[200, 200, 404, 500][i % 4]} ${(i * 37) % 10000} "-" "curl/8.${i % 10}"`;
    out[i] = JSON.stringify({ message: line });
  }
  return out.join("\n");
}

/** `JSON.parse` of every line of the bodies, best of three passes. */
function jsonParseRate(bodies: string[], total: number): number {
  let best = Infinity;
  for (let pass = 0; pass < 3; pass++) {
    const t0 = performance.now();
    let sink = 0;
    for (const body of bodies) {
      for (const line of body.split("\n")) sink += (JSON.parse(line) as { message: string }).message.length;
    }
    best = Math.min(best, performance.now() - t0);
    if (sink === 0) throw new Error("no lines parsed");
  }
  return total / (best / 1000);
}

/** Starts the V8 sampling profiler; the returned function stops it and gives the profile JSON. */
async function startProfile(): Promise<() => Promise<string>> {
  const inspector = await import("node:inspector");
  const session = new inspector.Session();
  session.connect();
  const call = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res)))
    );
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  await call("Profiler.start");
  return async () => {
    const { profile } = (await call("Profiler.stop")) as { profile: unknown };
    session.disconnect();
    return JSON.stringify(profile);
  };
}

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const [, value] = args.splice(i, 2);
    return value;
  };
  const profilePath = flag("--profile");
  const batch = flag("--batch");
  const concurrency = flag("--concurrency");
  const r = await benchPipelineHttp({
    lines: args[0] ? Number(args[0]) : undefined,
    batchLines: batch ? Number(batch) : undefined,
    concurrency: concurrency ? Number(concurrency) : undefined,
    profilePath,
  });
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(`pipeline over HTTP: ${fmt(r.lines)} lines in ${r.requests} requests`);
  console.log(`  end to end lines/s        ${fmt(r.linesPerSec)}  (target >= 150,000)`);
  console.log(`  same, dates out of order  ${fmt(r.scatteredLinesPerSec)}`);
  console.log(`  JSON.parse alone lines/s  ${fmt(r.jsonParseLinesPerSec)}`);
  console.log(`  ratio                     ${r.ratio.toFixed(3)}`);
}
