/**
 * Protocols writing into tables another protocol created (GreptimeDB's accommodate_existing_schema):
 * time index values convert to the table's unit, a single value field takes the table's field name.
 */
import assert from "node:assert/strict";
import { post, sqlRows, withServer } from "./util.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

const RW = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
const T = 1_700_000_000_000;

Deno.test("line protocol into a remote-write table (ms): ns timestamps become ms", async () => {
  await withServer(async (s) => {
    const rw = encodeRemoteWriteV1([{
      labels: { __name__: "mx", job: "a" },
      samples: [{ value: 1, timestampMs: T }],
    }]);
    assert.equal((await post(`${s.url}/v1/metricsapi/write`, rw, RW)).status, 204);
    const r = await post(
      `${s.url}/v1/lineproto/write`,
      `mx,job=b greptime_value=2 ${T + 1}999999\nmx,job=c greptime_value=3 -1`,
    );
    assert.equal(r.status, 204, r.text);
    assert.deepEqual(
      await sqlRows(s.url, "SELECT job, greptime_value, greptime_timestamp FROM mx ORDER BY job"),
      [
        ["a", 1, T],
        ["b", 2, T + 1],
        ["c", 3, -1],
      ],
    );
  });
});

Deno.test("remote write and JSON put into a line-protocol table (ns, one field 'v')", async () => {
  await withServer(async (s) => {
    assert.equal((await post(`${s.url}/v1/lineproto/write`, `ly,job=lp v=1 ${T}000000`)).status, 204);
    const rw = encodeRemoteWriteV1([{
      labels: { __name__: "ly", job: "rw" },
      samples: [{ value: 2, timestampMs: T + 1 }],
    }]);
    let r = await post(`${s.url}/v1/metricsapi/write`, rw, RW);
    assert.equal(r.status, 204, r.text);
    const put = JSON.stringify({ metric: "ly", timestamp: T + 2, value: 3, tags: { job: "put" } });
    r = await post(`${s.url}/v1/tsjson/api/put`, put);
    assert.equal(r.status, 204, r.text);
    assert.deepEqual(
      await sqlRows(
        s.url,
        "SELECT job, v, CAST(greptime_timestamp AS BIGINT) / 1000000 FROM ly ORDER BY greptime_timestamp",
      ),
      [["lp", 1, T], ["rw", 2, T + 1], ["put", 3, T + 2]],
    );
  });
});
