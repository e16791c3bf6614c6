/**
 * Forwarding with `remote_write` to a real Prometheus 2.42 (Debian): the upstream is killed and
 * restarted mid-stream and the edge is restarted on the same data directory while it holds a backlog;
 * every sample the edge acknowledged ends up in Prometheus with its value. A late sample Prometheus
 * refuses (400, out of order) is isolated by splitting its batch and dead-lettered with the reason,
 * while the good samples of the same batch are delivered.
 */
import assert from "node:assert/strict";
import type { Series } from "../../src/common/series.ts";
import { waitFor } from "../helpers/debian.ts";
import type { TestServer } from "../helpers/server.ts";
import {
  forwardStatus,
  prometheusUpstream,
  remoteWrite,
  samples,
  startEdge,
  waitDrained,
  waitForStatus,
} from "./upstreams.ts";

/** Every sample of a metric in Prometheus as series key → (ts ms → value). */
async function readProm(base: string, metric: string): Promise<Map<string, Map<number, number>>> {
  const q = new URLSearchParams({ query: `${metric}[3h]`, time: String(Date.now() / 1000) });
  const body = await (await fetch(`${base}/api/v1/query?${q}`)).json();
  assert.equal(body.status, "success", JSON.stringify(body));
  const out = new Map<string, Map<number, number>>();
  for (const r of body.data.result as Array<{ metric: Record<string, string>; values: [number, string][] }>) {
    const m = new Map<number, number>();
    for (const [t, v] of r.values) m.set(Math.round(t * 1000), Number(v));
    out.set(r.metric.host, m);
  }
  return out;
}

/** Records what the edge acknowledged, by host label. */
function record(acked: Map<string, Map<number, number>>, series: Series[]): void {
  for (const s of series) {
    let m = acked.get(s.labels.host);
    if (m === undefined) acked.set(s.labels.host, m = new Map());
    for (const x of s.samples) m.set(x.timestampMs, x.value);
  }
}

Deno.test("forward remote_write: a real Prometheus gets every acknowledged sample across kills and an edge restart", async () => {
  const prom = await prometheusUpstream();
  if (prom === null) return;
  await prom.start();
  const forward = {
    name: "prom",
    url: `${prom.base}/api/v1/write`,
    protocol: "remote_write",
    batch_size: 40,
  };
  let edge: TestServer = await startEdge(forward);
  const dataHome = edge.dataHome;
  const acked = new Map<string, Map<number, number>>();
  const t0 = Date.now() - 60 * 60_000;
  let round = 0;
  const writeRound = async () => {
    const series = ["a", "b", "c"].map((host) => samples("fwd_prom", { host }, t0 + round * 20_000, 20));
    round++;
    assert.equal(await remoteWrite(edge.url, series), 204);
    record(acked, series);
  };
  try {
    for (let i = 0; i < 4; i++) await writeRound();
    await prom.kill();
    for (let i = 0; i < 4; i++) await writeRound();
    const during = await forwardStatus(edge.url);
    assert.ok((during.queue_rows as number) >= 0);
    // restart the edge while the upstream is down: the backlog and cursor are on disk
    await edge.stop();
    edge = await startEdge(forward, dataHome);
    for (let i = 0; i < 3; i++) await writeRound();
    const offline = await waitForStatus(
      edge.url,
      (s) => (s.failed_requests as number) > 0 && (s.queue_rows as number) > 0,
      20_000,
    );
    assert.ok(offline, "the edge should report failed requests and a backlog while Prometheus is down");
    assert.ok((offline.lag_seconds as number) >= 0);
    await prom.start();
    for (let i = 0; i < 3; i++) await writeRound();
    const lost = () =>
      readProm(prom.base, "fwd_prom").then((upstream) => {
        const out: string[] = [];
        for (const [host, want] of acked) {
          for (const [t, v] of want) if (upstream.get(host)?.get(t) !== v) out.push(`${host}@${t}`);
        }
        return out;
      });
    await waitFor(async () => (await lost()).length === 0 || null, 60_000, 200);
    assert.deepEqual(await lost(), [], "samples acknowledged at the edge but not upstream");
    const done = await waitDrained(edge.url);
    assert.equal(done.dropped_rows, 0);
    const metrics = await (await fetch(`${edge.url}/metrics`)).text();
    assert.match(metrics, /petrel_forward_sent_rows_total\{destination="prom"\} [1-9]/);
    assert.match(metrics, /petrel_forward_queue_rows\{destination="prom"\} 0/);
    assert.match(metrics, /petrel_forward_failed_requests_total\{destination="prom"\} [1-9]/);
  } finally {
    await edge.stop();
    await prom.kill();
  }
});

Deno.test("forward remote_write: a sample Prometheus refuses is dead-lettered, the rest of its batch delivered", async () => {
  const prom = await prometheusUpstream();
  if (prom === null) return;
  await prom.start();
  const edge = await startEdge({ name: "prom", url: `${prom.base}/api/v1/write`, protocol: "remote_write" });
  try {
    const now = Date.now() - 60_000;
    assert.equal(await remoteWrite(edge.url, [samples("fwd_late", { host: "x" }, now, 1)]), 204);
    await waitDrained(edge.url);
    // one write: a sample older than what Prometheus has for host x (refused: out of order), and 8 good series
    const good = Array.from({ length: 8 }, (_, i) => samples("fwd_late", { host: `g${i}` }, now, 1));
    assert.equal(
      await remoteWrite(edge.url, [samples("fwd_late", { host: "x" }, now - 30_000, 1), ...good]),
      204,
    );
    const st = await waitForStatus(
      edge.url,
      (s) => (s.dead_lettered_rows as number) > 0 && s.queue_rows === 0,
      30_000,
    );
    assert.ok(st, "the refused sample should be dead-lettered");
    assert.equal(st.dead_lettered_rows, 1, "splitting isolates the one refused sample");
    const dead = st.recent_dead_letters as Array<{ status: number; reason: string; rows: number }>;
    assert.equal(dead[0].status, 400);
    assert.match(dead[0].reason, /out of order|out of bounds/i);
    const upstream = await readProm(prom.base, "fwd_late");
    for (let i = 0; i < 8; i++) assert.equal(upstream.get(`g${i}`)?.get(now), now / 1000, `g${i}`);
    // the dead letters are listed over HTTP
    const listed = await (await fetch(`${edge.url}/v1/forward/dead_letters?destination=prom`)).json();
    assert.deepEqual(
      listed.dead_letters.map((d: Record<string, unknown>) => [d.db, d.destination, d.status, d.rows]),
      [["public", "prom", 400, 1]],
    );
  } finally {
    await edge.stop();
    await prom.kill();
  }
});
