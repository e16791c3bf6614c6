/**
 * The kill-and-restart scenario every upstream goes through: write to the edge, kill the upstream,
 * keep writing, restart the edge on its data directory while the upstream is down, bring the upstream
 * back, keep writing; then everything the edge acknowledged must be upstream, and any duplicate must
 * come from a batch that was in flight when something was killed (at most a few batches).
 */
import assert from "node:assert/strict";
import type { Series } from "../../src/common/series.ts";
import { waitFor } from "../helpers/debian.ts";
import type { TestServer } from "../helpers/server.ts";
import { remoteWrite, samples, startEdge, type Upstream, waitDrained, waitForStatus } from "./upstreams.ts";

/** Samples upstream: host → timestamp → every value stored for it (more than one is a duplicate). */
export type Readback = Map<string, Map<number, number[]>>;

/** Options of {@link killRestartScenario}. */
export interface Scenario {
  up: Upstream;
  forward: Record<string, unknown>;
  metric: string;
  /** How the upstream is stopped mid-stream. */
  killSignal: Deno.Signal;
  read(): Promise<Readback>;
}

/** Runs the scenario; returns the duplicates seen upstream. */
export async function killRestartScenario(sc: Scenario): Promise<number> {
  const batchSize = Number(sc.forward.batch_size ?? 2000);
  let edge: TestServer = await startEdge(sc.forward);
  const dataHome = edge.dataHome;
  const acked = new Map<string, Map<number, number>>();
  const t0 = Date.now() - 60 * 60_000;
  let round = 0;
  const writeRound = async () => {
    const series: Series[] = ["a", "b", "c"].map((host) =>
      samples(sc.metric, { host }, t0 + round * 20_000, 20)
    );
    round++;
    assert.equal(await remoteWrite(edge.url, series), 204);
    for (const s of series) {
      let m = acked.get(s.labels.host);
      if (m === undefined) acked.set(s.labels.host, m = new Map());
      for (const x of s.samples) m.set(x.timestampMs, x.value);
    }
  };
  try {
    for (let i = 0; i < 4; i++) await writeRound();
    await sc.up.kill(sc.killSignal);
    for (let i = 0; i < 4; i++) await writeRound();
    await edge.stop();
    edge = await startEdge(sc.forward, dataHome);
    for (let i = 0; i < 3; i++) await writeRound();
    const offline = await waitForStatus(
      edge.url,
      (s) => (s.failed_requests as number) > 0 && (s.queue_rows as number) > 0,
      20_000,
    );
    assert.ok(offline, "the edge should report failures and a backlog while the upstream is down");
    await sc.up.start();
    for (let i = 0; i < 3; i++) await writeRound();
    const lost = async () => {
      const upstream = await sc.read();
      const out: string[] = [];
      for (const [host, want] of acked) {
        for (const [t, v] of want) if (!upstream.get(host)?.get(t)?.includes(v)) out.push(`${host}@${t}`);
      }
      return out;
    };
    await waitFor(async () => (await lost()).length === 0 || null, 60_000, 200);
    assert.deepEqual(await lost(), [], "samples acknowledged at the edge but not upstream");
    await waitDrained(edge.url);
    let duplicates = 0;
    for (const byTs of (await sc.read()).values()) {
      for (const vs of byTs.values()) duplicates += vs.length - 1;
    }
    // re-sent only: what was in flight when the upstream was killed and when the edge stopped
    assert.ok(duplicates <= 3 * batchSize, `${duplicates} duplicates: more than at-least-once explains`);
    return duplicates;
  } finally {
    await edge.stop();
    await sc.up.kill();
  }
}
