/**
 * Forwarding to VictoriaMetrics (Debian, remote write) and to a second Petrel (remote write, and
 * the `greptime` protocol through `/v1/influxdb/write`), each killed and restarted mid-stream with
 * the edge restarted too (`scenario.ts`). A 4xx from the upstream (here: a Petrel that wants
 * credentials) dead-letters the batch with the reason.
 */
import assert from "node:assert/strict";
import { killRestartScenario, type Readback } from "./scenario.ts";
import {
  forwardStatus,
  petrelUpstream,
  remoteWrite,
  samples,
  sqlRows,
  startEdge,
  victoriaUpstream,
  waitForStatus,
} from "./upstreams.ts";
import { spawnServer } from "../helpers/server.ts";

function add(out: Readback, host: string, ts: number, value: number): void {
  let m = out.get(host);
  if (m === undefined) out.set(host, m = new Map());
  const vs = m.get(ts);
  if (vs === undefined) m.set(ts, [value]);
  else vs.push(value);
}

Deno.test("forward remote_write: VictoriaMetrics gets every acknowledged sample across restarts", async () => {
  const vm = await victoriaUpstream();
  if (vm === null) return;
  await vm.start();
  const read = async (): Promise<Readback> => {
    await fetch(`${vm.base}/internal/force_flush`).then((r) => r.body?.cancel());
    const q = new URLSearchParams({ "match[]": '{__name__="fwd_vm"}', start: "0" });
    const text = await (await fetch(`${vm.base}/api/v1/export?${q}`)).text();
    const out: Readback = new Map();
    for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
      const r = JSON.parse(line) as {
        metric: Record<string, string>;
        values: number[];
        timestamps: number[];
      };
      r.timestamps.forEach((t, i) => add(out, r.metric.host, t, r.values[i]));
    }
    return out;
  };
  // VictoriaMetrics buffers a second of writes in memory: a SIGKILL would lose what it acknowledged
  await killRestartScenario({
    up: vm,
    forward: { name: "vm", url: `${vm.base}/api/v1/write`, protocol: "remote_write", batch_size: 40 },
    metric: "fwd_vm",
    killSignal: "SIGTERM",
    read,
  });
});

Deno.test("forward remote_write: a second Petrel, killed mid-stream, gets every acknowledged sample", async () => {
  const up = petrelUpstream();
  await up.start();
  const read = async (): Promise<Readback> => {
    const out: Readback = new Map();
    const rows = await sqlRows(up.base, "SELECT host, greptime_timestamp, greptime_value FROM fwd_pr");
    for (const [host, ts, v] of rows as [string, number, number][]) add(out, host, ts, v);
    return out;
  };
  await killRestartScenario({
    up,
    forward: { name: "petrel", url: `${up.base}/v1/prometheus/write?db=public`, protocol: "remote_write" },
    metric: "fwd_pr",
    killSignal: "SIGKILL",
    read,
  });
});

Deno.test("forward greptime: a second Petrel takes line protocol, killed mid-stream", async () => {
  const up = petrelUpstream();
  await up.start();
  const read = async (): Promise<Readback> => {
    const out: Readback = new Map();
    const rows = await sqlRows(up.base, "SELECT host, greptime_timestamp, greptime_value FROM fwd_gt");
    // line protocol makes a nanosecond time index
    for (const [host, ts, v] of rows as [string, number, number][]) add(out, host, Math.round(ts / 1e6), v);
    return out;
  };
  await killRestartScenario({
    up,
    forward: { name: "gt", url: `${up.base}/v1/influxdb/write`, protocol: "greptime", batch_size: 50 },
    metric: "fwd_gt",
    killSignal: "SIGKILL",
    read,
  });
});

Deno.test("forward: a 4xx from the upstream dead-letters the batch with its reason", async () => {
  const up = await spawnServer([
    "--http-addr",
    "127.0.0.1:0",
    "--user-provider",
    "static_user_provider:cmd:u=p",
  ]);
  const edge = await startEdge({
    name: "auth",
    url: `${up.url}/v1/prometheus/write`,
    protocol: "remote_write",
    username: "u",
    password: "wrong",
  });
  try {
    assert.equal(await remoteWrite(edge.url, [samples("fwd_dead", { host: "a" }, Date.now(), 5)]), 204);
    const st = await waitForStatus(edge.url, (s) => s.dead_lettered_rows === 5 && s.queue_rows === 0, 20_000);
    assert.ok(st, JSON.stringify(await forwardStatus(edge.url)));
    const dead = st.recent_dead_letters as Array<{ status: number; reason: string; rows: number }>;
    assert.equal(dead.length, 1, "a 401 is not split: one dead letter for the batch");
    assert.equal(dead[0].status, 401);
    assert.match(dead[0].reason, /HTTP 401/);
    assert.equal(st.sent_rows, 0);
    const metrics = await (await fetch(`${edge.url}/metrics`)).text();
    assert.match(metrics, /petrel_forward_dead_letter_rows_total\{destination="auth"\} 5/);
  } finally {
    await edge.stop();
    await up.stop();
  }
});
