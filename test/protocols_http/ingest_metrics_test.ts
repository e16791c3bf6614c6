/** Each ingestion endpoint counts its rows in `petrel_ingest_rows_total{protocol=…}`; rejected requests count none. */
import assert from "node:assert/strict";
import { post, withServer } from "./util.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

async function ingested(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^petrel_ingest_rows_total\{protocol="([^"]+)"\} (\S+)$/gm)) {
    out[m[1]] = Number(m[2]);
  }
  return out;
}

Deno.test("ingestion endpoints count their rows by protocol", async () => {
  await withServer(async (s) => {
    assert.equal((await post(`${s.url}/v1/lineproto/write`, "m1 v=1 1\nm1 v=2 2\nm2 w=1 1")).status, 204);
    assert.equal((await post(`${s.url}/v1/lineproto/write`, "m1 v=1 1\nm1 v=")).status, 400);
    const rw = encodeRemoteWriteV1([{
      labels: { __name__: "up" },
      samples: [{ value: 1, timestampMs: 1 }, { value: 1, timestampMs: 2 }],
    }]);
    assert.equal(
      (await post(`${s.url}/v1/metricsapi/write`, rw, { "content-encoding": "snappy" })).status,
      204,
    );
    const put = JSON.stringify([{ metric: "p", timestamp: 1, value: 1, tags: {} }]);
    assert.equal((await post(`${s.url}/v1/tsjson/api/put?summary`, put)).status, 200);
    assert.deepEqual(await ingested(s.url), { influxdb: 3, prometheus: 2, opentsdb: 1 });
  });
});
