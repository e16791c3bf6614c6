/**
 * The HTTP floor of an ingest bench: the CPU a bare `Deno.serve` child spends receiving the same
 * bodies as Petrel does (`readBodyLimited`, then an empty 200), posted the same way (warm-up, then
 * the lean client over 2 connections). Petrel's main thread cannot spend less than this on a
 * request before decoding starts, and decode-alone rates leave it out: on the OTLP metrics bench
 * (259 KB bodies) it was ~0.2–0.3 s of Petrel's ~0.7 s main-thread CPU (load 8–17, 2 cores).
 * Run with `serve` as the only argument, this file is that child (it prints the listening line
 * `spawnListening` waits for).
 */
import { readBodyLimited } from "../src/http/body.ts";
import { spawnListening } from "../test/helpers/server.ts";
import { postAllRaw } from "./bench_http_client.ts";
import { type CpuSplit, cpuSplit, threadCpu } from "./bench_ingest.ts";

/** The body limit Petrel reads with by default (`[http] body_limit`), for the same code path. */
const BODY_LIMIT = 64 * 1024 * 1024;

/** CPU of a bare server receiving `bodies` after `warmup`; null off Linux. */
export async function httpFloor(
  path: string,
  headers: Record<string, string>,
  warmup: Uint8Array<ArrayBuffer>[],
  bodies: Uint8Array<ArrayBuffer>[],
): Promise<CpuSplit | null> {
  const server = await spawnListening(Deno.execPath(), [
    "run",
    "-A",
    new URL(import.meta.url).pathname,
    "serve",
  ]);
  try {
    const target = { url: server.url + path, headers };
    await postAllRaw(target, warmup, 1);
    const before = threadCpu(server.child.pid);
    await postAllRaw(target, bodies, 2);
    return cpuSplit(server.child.pid, before, threadCpu(server.child.pid));
  } finally {
    await server.stop();
  }
}

if (import.meta.main && Deno.args[0] === "serve") {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    await readBodyLimited(req, BODY_LIMIT);
    return new Response("{}", { headers: { "content-type": "application/json" } });
  });
  console.log(`Petrel listening on http://127.0.0.1:${server.addr.port}`);
}
