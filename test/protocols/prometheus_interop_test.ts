/**
 * Interop with a real Prometheus (Debian's 2.42, when installed): it must accept our remote-write
 * bodies, and the XOR chunks it streams back must decode with our decoder and be byte-identical to
 * what our encoder makes of the same samples. Skipped (with the reason printed) only when Debian's
 * prometheus package is neither installed nor installable here.
 */
import assert from "node:assert/strict";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../../src/protocols/prompb/schema.ts";
import { decodeReadRequest, type ReadRequest } from "../../src/protocols/remote_read/request.ts";
import { encodeXorChunk } from "../../src/codec/xor_chunk.ts";
import { type Sample, type Series } from "../../src/common/series.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import { matchLabels } from "../../src/common/label_matcher.ts";
import { decodeChunkedReadResponse } from "../../src/protocols/remote_read/chunked.ts";
import { ensureDebianBinary, freePort } from "../helpers/debian.ts";
import { encodeReadResponse, READ_RESPONSE_CONTENT_TYPE } from "../../src/protocols/remote_read/response.ts";
import { readQueryTarget } from "../../src/query/remote_read.ts";

const PROMETHEUS = await ensureDebianBinary("prometheus", "prometheus");
const available = PROMETHEUS !== null;

async function startPrometheus(
  config = "global:\n  scrape_interval: 1h\n",
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "petrel-prom-" });
  await Deno.writeTextFile(`${dir}/prometheus.yml`, config);
  const port = freePort();
  const child = new Deno.Command(PROMETHEUS!, {
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
      const samples: Sample[] = times.map((t, i) => ({
        value: i % 50 === 49 ? Math.sin(i) * 1e3 : i * 0.25,
        timestampMs: t,
      }));
      samples[150] = { value: NaN, timestampMs: samples[150].timestampMs, stale: true };
      const written: Series[] = [
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
      const got = new Map<string, Sample[]>();
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

Deno.test({
  name:
    "real Prometheus queries through our remote-read server (request decoding, matchers, SAMPLES, staleness)",
  ignore: !available,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const t = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const fixture: Series[] = [
      {
        labels: { __name__: "fixture_metric", job: "a", replica: "promA" },
        samples: [{ value: 1, timestampMs: t - 60_000 }, { value: 2, timestampMs: t - 30_000 }],
      },
      {
        labels: { __name__: "fixture_metric", job: "b", replica: "promA" },
        samples: [{ value: 5.5, timestampMs: t - 10_000 }],
      },
      {
        labels: { __name__: "fixture_metric", job: "c", replica: "promA" },
        samples: [{ value: 7, timestampMs: t - 40_000 }, {
          value: NaN,
          timestampMs: t - 20_000,
          stale: true,
        }],
      },
      {
        labels: { __name__: "fixture_metric", job: "d", replica: "other" },
        samples: [{ value: 9, timestampMs: t - 5_000 }],
      },
    ];
    const requests: ReadRequest[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const rr = decodeReadRequest(new Uint8Array(await req.arrayBuffer()), 1 << 20);
      requests.push(rr);
      const results = rr.queries.map((q) => {
        const target = readQueryTarget(q);
        return {
          series: fixture
            .filter((s) => s.labels.__name__ === target.metric && matchLabels(target.matchers, s.labels))
            .map((s) => ({
              labels: s.labels,
              samples: s.samples.filter((x) => x.timestampMs >= q.startMs && x.timestampMs <= q.endMs),
            })),
        };
      });
      return new Response(encodeReadResponse(results), {
        headers: { "content-type": READ_RESPONSE_CONTENT_TYPE, "content-encoding": "snappy" },
      });
    });
    const config = "global:\n  scrape_interval: 1h\n  external_labels:\n    replica: promA\n" +
      `remote_read:\n  - url: http://127.0.0.1:${server.addr.port}/read\n    read_recent: true\n`;
    const { url, stop } = await startPrometheus(config);
    try {
      const query = async (q: string) => {
        const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}&time=${t / 1000}`);
        const body = await r.json();
        assert.equal(body.status, "success", JSON.stringify(body));
        assert.deepEqual(body.warnings ?? [], []);
        return (body.data.result as { metric: Record<string, string>; value: [number, string] }[])
          .map((x) => [x.metric.job, x.value[1]])
          .sort();
      };
      // Stale job="c" drops out; the external label is stripped from the results; job="d" never matches.
      assert.deepEqual(await query("fixture_metric"), [["a", "2"], ["b", "5.5"]]);
      assert.deepEqual(await query('fixture_metric{job=~"a|c"}'), [["a", "2"]]);
      assert.deepEqual(await query('fixture_metric{job!="a"}'), [["b", "5.5"]]);
      assert.deepEqual(await query("count_over_time(fixture_metric[2m])"), [["a", "2"], ["b", "1"], [
        "c",
        "1",
      ]]);
      const first = requests[0];
      assert.deepEqual(first.acceptedResponseTypes, [], "Prometheus 2.42 asks for SAMPLES implicitly");
      assert.deepEqual(first.queries[0].matchers, [
        { type: "EQ", name: "__name__", value: "fixture_metric" },
        { type: "EQ", name: "replica", value: "promA" },
      ]);
      assert.ok(
        requests.some((r) => r.queries[0].matchers.some((m) => m.type === "RE" && m.value === "a|c")),
      );
      assert.ok(requests.some((r) => r.queries[0].matchers.some((m) => m.type === "NEQ" && m.value === "a")));
    } finally {
      await stop();
      await server.shutdown();
    }
  },
});
