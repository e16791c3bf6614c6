/**
 * The semantic options of tables a Prometheus remote write creates (reference §7.2):
 * `metric.metadata_quality='inferred'`, and for a 2.0 series with its own metadata `declared` with
 * `metric.type` and the unit in UCUM.
 */
import assert from "node:assert/strict";
import { encodeRemoteWriteV1, encodeRemoteWriteV2 } from "../../src/protocols/remote_write/encoder.ts";
import { post, showCreate, withServer } from "./util.ts";

const V1 = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
const V2 = {
  "content-type": "application/x-protobuf;proto=io.prometheus.write.v2.Request",
  "content-encoding": "snappy",
};
const one = (name: string) => ({
  labels: { __name__: name, job: "a" },
  samples: [{ value: 1, timestampMs: 1 }],
});
const quality = (ddl: string) => ddl.match(/'greptime\.semantic\.metric\.[a-z_]+' = '[^']*'/g);

Deno.test("remote write: tables are metadata_quality 'inferred', 2.0 metadata makes them 'declared'", async () => {
  await withServer(async (s) => {
    assert.equal(
      (await post(s.url + "/v1/prometheus/write", encodeRemoteWriteV1([one("v1_up")]), V1)).status,
      204,
    );
    const v2 = encodeRemoteWriteV2([one("req_duration_seconds"), one("v2_plain")], [
      { metric: "req_duration_seconds", type: "histogram", unit: "seconds", help: "h" },
    ]);
    assert.equal((await post(s.url + "/v1/prometheus/write", v2, V2)).status, 204);
    assert.deepEqual(quality(await showCreate(s.url, "v1_up")), [
      "'greptime.semantic.metric.metadata_quality' = 'inferred'",
    ]);
    assert.deepEqual(quality(await showCreate(s.url, "v2_plain")), [
      "'greptime.semantic.metric.metadata_quality' = 'inferred'",
    ]);
    assert.deepEqual(quality(await showCreate(s.url, "req_duration_seconds")), [
      "'greptime.semantic.metric.metadata_quality' = 'declared'",
      "'greptime.semantic.metric.type' = 'histogram'",
      "'greptime.semantic.metric.unit' = 's'",
    ]);
  }, { prom_store: { with_metric_engine: true } });
});
