/**
 * Upstreams and an edge for the forwarding tests: a real Prometheus 2.42 (remote-write receiver) and
 * VictoriaMetrics from Debian, each killable and restartable on the same port and data directory,
 * and helpers to write samples to an edge Petrel and wait for its forwarder.
 */
import { ensureDebianBinary, freePort, waitFor } from "../helpers/debian.ts";
import { type SpawnedServer, spawnServer, startTestServer, type TestServer } from "../helpers/server.ts";
import { parseForwardList } from "../../src/forward/config.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import type { Series } from "../../src/common/series.ts";

/** A Debian-packaged upstream process that can be killed and started again on the same port and data. */
export interface Upstream {
  port: number;
  base: string;
  start(): Promise<void>;
  /** Stops the process: SIGKILL by default (no chance to flush), or the given signal. */
  kill(signal?: Deno.Signal): Promise<void>;
}

function processUpstream(
  binary: string,
  args: (dir: string, port: number) => string[],
  ready: string,
): Upstream & { dir: string } {
  const port = freePort();
  const dir = Deno.makeTempDirSync({ prefix: "petrel_fwd_up_" });
  let child: Deno.ChildProcess | null = null;
  const base = `http://127.0.0.1:${port}`;
  return {
    port,
    base,
    dir,
    async start() {
      child = new Deno.Command(binary, { args: args(dir, port), stdout: "null", stderr: "null" }).spawn();
      const ok = await waitFor(async () => (await fetch(base + ready)).ok || null, 30_000, 100);
      if (!ok) throw new Error(`${binary} did not become ready on ${base}`);
    },
    async kill(signal: Deno.Signal = "SIGKILL") {
      if (child === null) return;
      child.kill(signal);
      await child.status;
      child = null;
    },
  };
}

/** Prometheus 2.42 with the remote-write receiver, or null (printed) when it is missing. */
export async function prometheusUpstream(): Promise<(Upstream & { dir: string }) | null> {
  const bin = await ensureDebianBinary("prometheus", "prometheus");
  if (bin === null) return null;
  return processUpstream(bin, (dir, port) => {
    Deno.writeTextFileSync(`${dir}/prometheus.yml`, "global:\n  scrape_interval: 15s\n");
    return [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--web.enable-remote-write-receiver",
    ];
  }, "/-/ready");
}

/** VictoriaMetrics, or null (printed) when it is missing. */
export async function victoriaUpstream(): Promise<(Upstream & { dir: string }) | null> {
  const bin = await ensureDebianBinary("victoria-metrics", "victoria-metrics");
  if (bin === null) return null;
  return processUpstream(bin, (dir, port) => [
    `-storageDataPath=${dir}/data`,
    `-httpListenAddr=127.0.0.1:${port}`,
    "-retentionPeriod=100y",
    "-search.latencyOffset=0s",
  ], "/health");
}

/** A Petrel child process as an upstream, killable and restartable on the same port and data directory. */
export function petrelUpstream(): Upstream {
  const port = freePort();
  const dir = Deno.makeTempDirSync({ prefix: "petrel_fwd_up_" });
  let server: SpawnedServer | null = null;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    async start() {
      server = await spawnServer(["--http-addr", `127.0.0.1:${port}`, "--data-home", dir]);
    },
    async kill(signal: Deno.Signal = "SIGKILL") {
      await server?.stop(signal);
      server = null;
    },
  };
}

/** Runs SQL on a Petrel and returns the rows. */
export async function sqlRows(base: string, sql: string, db = "public"): Promise<unknown[][]> {
  const res = await fetch(`${base}/v1/sql?db=${db}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sql }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(JSON.stringify(body));
  return body.output[0].records.rows;
}

/** Starts an edge Petrel forwarding as the TOML `[[forward]]` fields say (fast retries for tests). */
export function startEdge(forward: Record<string, unknown>, dataHome?: string): Promise<TestServer> {
  const list = parseForwardList([{
    interval: "100ms",
    min_backoff: "50ms",
    max_backoff: "400ms",
    timeout: "5s",
    ...forward,
  }], "test");
  return startTestServer({ forward: list, ...(dataHome ? { storage: { data_home: dataHome } } : {}) });
}

/** Writes series to a Petrel with remote write; returns the status. */
export async function remoteWrite(url: string, series: Series[], db = "public"): Promise<number> {
  const res = await fetch(`${url}/v1/prometheus/write?db=${db}`, {
    method: "POST",
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    body: encodeRemoteWriteV1(series),
  });
  await res.body?.cancel();
  return res.status;
}

/** One destination's figures from `/status`. */
export async function forwardStatus(url: string): Promise<Record<string, unknown>> {
  const body = await (await fetch(`${url}/status`)).json();
  return body.forward[0];
}

/** Polls the first destination's `/status` figures until `done` holds; null when `timeoutMs` passes first. */
export function waitForStatus(
  url: string,
  done: (s: Record<string, unknown>) => unknown,
  timeoutMs: number,
): Promise<Record<string, unknown> | null> {
  return waitFor(
    async () => {
      const s = await forwardStatus(url);
      return done(s) ? s : null;
    },
    timeoutMs,
    100,
  );
}

/** Waits until the edge has nothing left to forward (and has sent something); throws on timeout. */
export async function waitDrained(url: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const st = await waitForStatus(url, (s) => s.queue_rows === 0 && (s.sent_rows as number) > 0, timeoutMs);
  if (st === null) throw new Error(`forwarding did not drain: ${JSON.stringify(await forwardStatus(url))}`);
  return st;
}

/** A batch of `n` samples of one series per call, timestamps `start + i * step`. */
export function samples(
  metric: string,
  labels: Record<string, string>,
  start: number,
  n: number,
  step = 1000,
): Series {
  return {
    labels: { __name__: metric, ...labels },
    samples: Array.from(
      { length: n },
      (_, i) => ({ timestampMs: start + i * step, value: start / 1000 + i }),
    ),
  };
}
