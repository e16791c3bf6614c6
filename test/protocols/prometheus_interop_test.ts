/**
 * Interop with a real Prometheus (Debian's 2.42, when installed): it must accept our remote-write
 * bodies, and the XOR chunks it streams back must decode with our decoder and be byte-identical to
 * what our encoder makes of the same samples. Skipped when /usr/bin/prometheus is absent.
 */
import assert from "node:assert/strict";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../../src/protocols/proto/prometheus.ts";
import { decodeChunkedReadResponse, encodeReadResponse } from "../../src/protocols/remote_read.ts";
import {
  encodeRemoteWriteV1,
  type RemoteSample,
  type RemoteSeries,
} from "../../src/protocols/remote_write.ts";
import { encodeXorChunk } from "../../src/protocols/xor_chunk.ts";

const PROMETHEUS = "/usr/bin/prometheus";
const available = (() => {
  try {
    return Deno.statSync(PROMETHEUS).isFile;
  } catch {
    return false;
  }
})();

async function startPrometheus(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "petrel-prom-" });
  await Deno.writeTextFile(`${dir}/prometheus.yml`, "global:\n  scrape_interval: 1h\n");
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = new Deno.Command(PROMETHEUS, {
    args: [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--web.enable-remote-write-receiver",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  };
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`${url}/-/ready`);
      await r.body?.cancel();
      if (r.status === 200) return { url, stop };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("prometheus did not become ready");
}

Deno.test({
  name: "real Prometheus accepts our remote write and streams XOR chunks our codec reproduces",
  ignore: !available,
  sanitizeResources: false,
  fn: async () => {
    const { url, stop } = await startPrometheus();
    try {
      const now = Math.floor(Date.now() / 1000) * 1000;
      const times = Array.from({ length: 300 }, (_, i) => now - 600_000 + i * 2000 + (i % 7) * 13);
      const samples: RemoteSample[] = times.map((t, i) => ({
        value: i % 50 === 49 ? Math.sin(i) * 1e3 : i * 0.25,
        timestampMs: t,
      }));
      samples[150] = { value: NaN, timestampMs: samples[150].timestampMs, stale: true };
      const written: RemoteSeries[] = [
        { labels: { __name__: "interop_metric", a: "1" }, samples },
        {
          labels: { __name__: "interop_metric", a: "2" },
          samples: samples.slice(0, 3).map((s) => ({ ...s, value: 100 - s.value })),
        },
      ];
      const w = await fetch(`${url}/api/v1/write`, {
        method: "POST",
        body: encodeRemoteWriteV1(written),
        headers: {
          "Content-Type": "application/x-protobuf",
          "Content-Encoding": "snappy",
          "X-Prometheus-Remote-Write-Version": "0.1.0",
        },
      });
      assert.equal(w.status, 204, await w.text());

      const ReadRequest = prometheusProtoRoot().lookupType("prometheus.ReadRequest");
      const read = async (accepted: number[]) => {
        const req = ReadRequest.fromObject({
          queries: [{
            startTimestampMs: now - 3600_000,
            endTimestampMs: now + 60_000,
            matchers: [{ type: 0, name: "__name__", value: "interop_metric" }],
          }],
          acceptedResponseTypes: accepted,
        });
        const r = await fetch(`${url}/api/v1/read`, {
          method: "POST",
          body: encodeSnappy(ReadRequest.encode(req).finish()),
          headers: {
            "Content-Type": "application/x-protobuf",
            "Content-Encoding": "snappy",
            "X-Prometheus-Remote-Read-Version": "0.1.0",
          },
        });
        assert.equal(r.status, 200);
        return { type: r.headers.get("content-type"), body: new Uint8Array(await r.arrayBuffer()) };
      };

      const streamed = await read([1]);
      assert.equal(streamed.type, "application/x-streamed-protobuf; proto=prometheus.ChunkedReadResponse");
      const frames = decodeChunkedReadResponse(streamed.body);
      const got = new Map<string, RemoteSample[]>();
      let chunks = 0;
      for (const f of frames) {
        for (const s of f.series) {
          const key = s.labels.a;
          for (const c of s.chunks) {
            chunks++;
            assert.deepEqual(
              Array.from(encodeXorChunk(c.samples)),
              Array.from(c.data),
              "our encoder reproduces Prometheus' chunk bytes",
            );
            got.set(key, [...(got.get(key) ?? []), ...c.samples]);
          }
        }
      }
      assert.ok(chunks >= 3, `expected several chunks, got ${chunks}`);
      assert.deepEqual(got.get("1"), samples);
      assert.deepEqual(got.get("2"), written[1].samples);

      // The SAMPLES response Prometheus sends decodes like the one we encode for the same series.
      const plain = await read([]);
      const ReadResponse = prometheusProtoRoot().lookupType("prometheus.ReadResponse");
      const theirs = ReadResponse.toObject(ReadResponse.decode(decodeSnappy(plain.body, 1 << 26)), {
        longs: Number,
      });
      const ours = ReadResponse.toObject(
        ReadResponse.decode(decodeSnappy(encodeReadResponse([{ series: written }]), 1 << 26)),
        { longs: Number },
      );
      assert.equal(JSON.stringify(theirs), JSON.stringify(ours));
    } finally {
      await stop();
    }
  },
});
