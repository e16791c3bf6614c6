/**
 * Forwarding reads stored rows back out: a tag and a field holding U+0000 reach the upstream whole
 * (`greptime` protocol, a second Petrel), and so does a metric label (remote write).
 */
import assert from "node:assert/strict";
import { waitFor } from "../helpers/debian.ts";
import {
  petrelUpstream,
  remoteWrite,
  samples,
  sqlRows,
  startEdge,
  waitDrained,
} from "../forward/upstreams.ts";

async function lineProtocol(base: string, body: string): Promise<void> {
  const r = await fetch(`${base}/v1/influxdb/write?precision=ms`, { method: "POST", body });
  assert.equal(r.status, 204, await r.text());
}

Deno.test("nul text: forwarding sends a table's NUL-holding tag and field whole", async () => {
  const up = petrelUpstream();
  await up.start();
  const edge = await startEdge({ name: "gt", url: `${up.base}/v1/influxdb/write`, protocol: "greptime" });
  try {
    const t0 = Date.now() - 600_000;
    await lineProtocol(
      edge.url,
      `fwd_nul,host=h\u0000x msg="a\u0000b",n=1i ${t0}\nfwd_nul,host=plain msg="p",n=2i ${t0}\n`,
    );
    await waitDrained(edge.url);
    const want = [["h\u0000x", "a\u0000b", 1], ["plain", "p", 2]];
    const read = () => sqlRows(up.base, "SELECT host, msg, n FROM fwd_nul ORDER BY n").catch(() => []);
    await waitFor(async () => JSON.stringify(await read()) === JSON.stringify(want) || null, 20_000);
    assert.deepEqual(await read(), want);
  } finally {
    await edge.stop();
    await up.kill();
  }
});

Deno.test("nul text: forwarding sends a NUL-holding metric label whole", async () => {
  const up = petrelUpstream();
  await up.start();
  const edge = await startEdge({
    name: "rw",
    url: `${up.base}/v1/prometheus/write`,
    protocol: "remote_write",
  });
  try {
    const t0 = Date.now() - 600_000;
    assert.equal(await remoteWrite(edge.url, [samples("fwd_nul_metric", { job: "j\u0000k" }, t0, 2)]), 204);
    await waitDrained(edge.url);
    const read = () => sqlRows(up.base, "SELECT DISTINCT job FROM fwd_nul_metric").catch(() => []);
    await waitFor(async () => (await read()).length > 0 || null, 20_000);
    assert.deepEqual(await read(), [["j\u0000k"]]);
  } finally {
    await edge.stop();
    await up.kill();
  }
});
