/**
 * Auto-create (reference §7.0): with the server's `auto_create_table = false`, a request's
 * `auto_create_table=true` hint does not create tables, on the ordinary and the metric-engine path.
 */
import assert from "node:assert/strict";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import { post, tableNames, withServer } from "./util.ts";

Deno.test("auto_create_table=false on the server: a hint of true creates nothing", async () => {
  await withServer(async (s) => {
    const hint = { "x-greptime-hints": "auto_create_table=true" };
    const influx = await post(s.url + "/v1/influxdb/write", "cpu,host=a v=1", hint);
    assert.equal(influx.status, 400, influx.text);
    assert.match(influx.text, /`auto_create_table` hint is disabled/);
    const rw = encodeRemoteWriteV1([{
      labels: { __name__: "up", job: "a" },
      samples: [{ value: 1, timestampMs: 1 }],
    }]);
    const prom = await post(s.url + "/v1/prometheus/write", rw, {
      ...hint,
      "content-type": "application/x-protobuf",
      "content-encoding": "snappy",
    });
    assert.equal(prom.status, 400, prom.text);
    assert.deepEqual(await tableNames(s.url), []);
  }, { auto_create_table: false });
});
