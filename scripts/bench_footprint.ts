/**
 * Petrel's memory footprint: the real server as a child process (from source, and as the release
 * bundle when one can be built), its resident set size (`/proc/<pid>/status` VmRSS) when idle a few
 * seconds after start, and while a paced client holds a steady line-protocol ingest rate for a while.
 * Run by hand: `deno task bench footprint`.
 */
import { spawnListening } from "../test/helpers/server.ts";
import { lineProtocolBody } from "../src/protocols/lineproto/bench.ts";
import { buildRelease } from "./release/build.ts";

/** What one footprint run measured, in MB. */
export interface Footprint {
  idleMb: number;
  /** Highest RSS seen under ingest, and the RSS at its end. */
  ingestPeakMb: number;
  ingestEndMb: number;
  /** Rows per second the server actually accepted while paced. */
  achievedRowsPerSec: number;
  /** RSS a few seconds after the ingest stopped. */
  afterMb: number;
}

/** How to start the server under test; `{url}` is found in its "listening" line. */
export interface ServerCommand {
  /** The program to run (default: this Deno); it must be, or exec, the server itself. */
  command?: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** Resident set size of a process in MB (VmRSS). */
export function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb[1]) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startServer(cmd: ServerCommand) {
  return spawnListening(cmd.command ?? Deno.execPath(), cmd.args, { cwd: cmd.cwd, env: cmd.env });
}

/**
 * Posts `rowsPerSec` rows every second in ten slices (10k series), for `seconds`; samples RSS each
 * slice. A slice that is late is not made up for, so the achieved rate shows when the server lags.
 */
async function pacedIngest(url: string, pid: number, rowsPerSec: number, seconds: number) {
  const slice = rowsPerSec / 10;
  const start = performance.now();
  let rows = 0, peak = 0;
  for (let i = 0; i < seconds * 10; i++) {
    const due = start + i * 100;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    else if (wait < -100) continue; // behind by a whole slice: skip it
    const res = await fetch(`${url}/v1/influxdb/write?db=public`, {
      method: "POST",
      body: lineProtocolBody(slice, 10_000, rows),
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`write failed: ${res.status}`);
    rows += slice;
    peak = Math.max(peak, rssMb(pid));
  }
  const elapsed = (performance.now() - start) / 1000;
  return { peak, end: rssMb(pid), achieved: rows / elapsed };
}

/** Starts the server, measures idle and ingest RSS, stops it. */
export async function measureFootprint(
  cmd: ServerCommand,
  opts = { idleSeconds: 5, rowsPerSec: 100_000, ingestSeconds: 20 },
): Promise<Footprint> {
  const server = await startServer(cmd);
  const { child, url } = server;
  try {
    await sleep(opts.idleSeconds * 1000);
    const idleMb = rssMb(child.pid);
    const r = await pacedIngest(url, child.pid, opts.rowsPerSec, opts.ingestSeconds);
    await sleep(opts.idleSeconds * 1000);
    return {
      idleMb,
      ingestPeakMb: r.peak,
      ingestEndMb: r.end,
      achievedRowsPerSec: r.achieved,
      afterMb: rssMb(child.pid),
    };
  } finally {
    await server.stop();
  }
}

type Line = [name: string, value: string, target: string];

/** The bench section's lines for one way of running Petrel. */
export function footprintLines(label: string, f: Footprint): Line[] {
  return [
    [`footprint (${label}): idle RSS MB`, f.idleMb.toFixed(1), "<= 60"],
    [`footprint (${label}): peak RSS MB at 100k rows/s`, f.ingestPeakMb.toFixed(1), ""],
    [`footprint (${label}): RSS MB at end of ingest`, f.ingestEndMb.toFixed(1), ""],
    [`footprint (${label}): rows/s achieved while paced`, Math.round(f.achievedRowsPerSec).toString(), ""],
    [`footprint (${label}): RSS MB 5 s after ingest`, f.afterMb.toFixed(1), ""],
  ];
}

/** `deno task bench footprint`: from source, then the release file (`deno task release`). */
export async function footprint(): Promise<Line[]> {
  const dir = await Deno.makeTempDir({ prefix: "petrel_footprint_" });
  try {
    const main = new URL("../main.ts", import.meta.url).pathname;
    const start = (home: string) => ["start", "--http-addr", "127.0.0.1:0", "--data-home", `${dir}/${home}`];
    const lines = footprintLines(
      "deno run main.ts",
      await measureFootprint({ args: ["run", "-A", main, ...start("source")] }),
    );
    const release = await buildRelease(`${dir}/petrel.js`);
    // As users start it (`sh petrel.js`, which execs Deno on the program it extracted); started once
    // before measuring, so the extraction and V8's code cache exist as they would on a host.
    const releaseCmd: ServerCommand = {
      command: "sh",
      args: [release, ...start("release")],
      cwd: dir,
      env: { DENO: Deno.execPath(), XDG_CACHE_HOME: `${dir}/cache` },
    };
    await measureFootprint(releaseCmd, {
      idleSeconds: 1,
      rowsPerSec: 1,
      ingestSeconds: 0,
    });
    lines.push(
      ...footprintLines("release petrel.js", await measureFootprint(releaseCmd)),
    );
    return lines;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) console.log(await footprint());
