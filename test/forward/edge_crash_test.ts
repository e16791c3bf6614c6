/**
 * Power loss at the edge: a Petrel child process forwarding to VictoriaMetrics is SIGKILLed twice
 * while it forwards a stream of writes, and started again on the same data directory. Every sample
 * it acknowledged reaches VictoriaMetrics (which keeps duplicates, so they can be counted): at most
 * the batches in flight at each kill arrive twice.
 */
import assert from "node:assert/strict";
import { freePort, waitFor } from "../helpers/debian.ts";
import { type SpawnedServer, spawnServer } from "../helpers/server.ts";
import { remoteWrite, samples, victoriaUpstream } from "./upstreams.ts";

const BATCH = 50;

Deno.test("forward: an edge killed with SIGKILL mid-stream loses nothing it acknowledged", async () => {
  const vm = await victoriaUpstream();
  if (vm === null) return;
  await vm.start();
  const dir = await Deno.makeTempDir({ prefix: "petrel_fwd_edge_" });
  const port = freePort();
  await Deno.writeTextFile(
    `${dir}/petrel.toml`,
    `[[forward]]\nname = "vm"\nurl = "${vm.base}/api/v1/write"\nprotocol = "remote_write"\n` +
      `batch_size = ${BATCH}\ninterval = "50ms"\nmin_backoff = "50ms"\nmax_backoff = "200ms"\n`,
  );
  const start = () =>
    spawnServer([
      "--config-file",
      `${dir}/petrel.toml`,
      "--data-home",
      `${dir}/data`,
      "--http-addr",
      `127.0.0.1:${port}`,
    ]);
  let edge: SpawnedServer = await start();
  const acked = new Map<number, number>();
  const t0 = Date.now() - 3_600_000;
  let n = 0;
  const write = async () => {
    const s = samples("fwd_crash", { host: "a" }, t0 + n * 1000, 30);
    n += 30;
    assert.equal(await remoteWrite(edge.url, [s]), 204);
    for (const x of s.samples) acked.set(x.timestampMs, x.value);
  };
  try {
    for (let kill = 0; kill < 2; kill++) {
      for (let i = 0; i < 10; i++) await write();
      await edge.stop("SIGKILL");
      edge = await start();
    }
    for (let i = 0; i < 5; i++) await write();
    const read = async () => {
      await fetch(`${vm.base}/internal/force_flush`).then((r) => r.body?.cancel());
      const q = new URLSearchParams({ "match[]": '{__name__="fwd_crash"}', start: "0" });
      const text = (await (await fetch(`${vm.base}/api/v1/export?${q}`)).text()).trim();
      const got: Array<[number, number]> = [];
      for (const line of text.split("\n").filter((l) => l !== "")) {
        const r = JSON.parse(line) as { values: number[]; timestamps: number[] };
        r.timestamps.forEach((t, i) => got.push([t, r.values[i]]));
      }
      return got;
    };
    const missing = async () => {
      const have = new Set((await read()).map(([t, v]) => `${t}:${v}`));
      return [...acked].filter(([t, v]) => !have.has(`${t}:${v}`)).length;
    };
    await waitFor(async () => (await missing()) === 0 || null, 60_000, 200);
    assert.equal(await missing(), 0, "samples acknowledged at the edge but not upstream");
    const duplicates = (await read()).length - acked.size;
    assert.ok(duplicates <= 2 * BATCH, `${duplicates} duplicates for 2 kills of batches of ${BATCH}`);
  } finally {
    await edge.stop();
    await vm.kill();
  }
});
