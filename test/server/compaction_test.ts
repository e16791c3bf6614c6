/**
 * The server compacts closed windows of metric tables in the background (counted on `/metrics`),
 * and remote read answers the same before and after.
 */
import assert from "node:assert/strict";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../../src/protocols/prompb/schema.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import type { Series } from "../../src/common/series.ts";
import { startTestServer } from "../helpers/server.ts";

const HOUR = 3_600_000;

async function compactedWindows(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^petrel_metric_compaction_windows_total (\d+)/m.exec(text);
  return m === null ? -1 : Number(m[1]);
}

async function remoteRead(url: string, start: number, end: number): Promise<unknown> {
  const root = prometheusProtoRoot();
  const ReadRequest = root.lookupType("prometheus.ReadRequest");
  const ReadResponse = root.lookupType("prometheus.ReadResponse");
  const req = ReadRequest.fromObject({
    queries: [{
      startTimestampMs: start,
      endTimestampMs: end,
      matchers: [{ type: 0, name: "__name__", value: "compacted" }],
    }],
  });
  const r = await fetch(`${url}/v1/prometheus/read`, {
    method: "POST",
    body: encodeSnappy(ReadRequest.encode(req).finish()),
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
  });
  assert.equal(r.status, 200);
  return ReadResponse.toObject(
    ReadResponse.decode(decodeSnappy(new Uint8Array(await r.arrayBuffer()), 1 << 26)),
    {
      longs: Number,
    },
  );
}

Deno.test("compaction: the server compacts closed windows in the background; reads are unchanged", async () => {
  const server = await startTestServer();
  try {
    const base = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
    const series: Series[] = [];
    for (let i = 0; i < 5; i++) {
      series.push({
        labels: { __name__: "compacted", instance: `i-${i}` },
        samples: Array.from(
          { length: 3 * 240 },
          (_, k) => ({ timestampMs: base + 7_000 + k * 15_000, value: i * k }),
        ),
      });
    }
    const w = await fetch(`${server.url}/v1/prometheus/write`, {
      method: "POST",
      body: encodeRemoteWriteV1(series),
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    });
    assert.equal(w.status, 204);
    const before = await remoteRead(server.url, base, base + 3 * HOUR);
    const deadline = Date.now() + 20_000;
    while (await compactedWindows(server.url) < 3) {
      assert.ok(Date.now() < deadline, "three windows compacted within 20 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(await remoteRead(server.url, base, base + 3 * HOUR), before);
    const got = before as { results: Array<{ timeseries: Array<{ samples: unknown[] }> }> };
    assert.equal(got.results[0].timeseries.length, 5);
    assert.equal(got.results[0].timeseries[0].samples.length, 720);
  } finally {
    await server.stop();
  }
});
