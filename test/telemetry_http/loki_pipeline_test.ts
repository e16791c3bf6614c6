/**
 * Loki pushes through a pipeline (`x-greptime-pipeline-name`): the entry's `greptime_timestamp` is a
 * timestamp, as GreptimeDB hands it over, so GreptimeDB's own test pipeline (`epoch` with
 * `resolution: ms`), VRL timestamp functions and a version 2 pipeline's automatic columns work on it.
 */
import assert from "node:assert/strict";
import { withTestServer } from "../helpers/server.ts";
import { PipelineClient } from "../pipelines_http/helpers.ts";

/** Pushes two lines (ns times `ns` and `ns + 1`) as Loki JSON through pipeline `pipeline` into `table`. */
async function push(c: PipelineClient, pipeline: string, table: string, ns: bigint): Promise<void> {
  const body = JSON.stringify({
    streams: [{
      stream: { service: "s1", source: "file" },
      values: [[String(ns), "first line", { key1: "v1" }], [String(ns + 1n), "second line"]],
    }],
  });
  const r = await c.request("POST", "/v1/loki/api/v1/push", body, {
    "content-type": "application/json",
    "x-greptime-pipeline-name": pipeline,
    "x-greptime-log-table-name": table,
  });
  assert.equal(r.status, 200, r.text);
}

const NS = 1_716_668_197_123_456_789n;

Deno.test("Loki through GreptimeDB's epoch pipeline: greptime_timestamp converted to milliseconds", async () => {
  await withTestServer(async (url) => {
    const c = new PipelineClient(url);
    await c.uploadOk(
      "loki_epoch",
      "processors:\n  - epoch:\n      field: greptime_timestamp\n      resolution: ms\n",
    );
    await push(c, "loki_epoch", "loki_epoch_logs", NS);
    assert.match(await c.showCreate("loki_epoch_logs"), /"greptime_timestamp" TIMESTAMP\(3\) NOT NULL/);
    assert.deepEqual(
      await c.sql(
        "SELECT greptime_timestamp, loki_line, loki_label_service, loki_metadata_key1 FROM loki_epoch_logs",
      ),
      [
        [1716668197123, "first line", "s1", "v1"],
        [1716668197123, "second line", "s1", null],
      ],
    );
  });
});

Deno.test("Loki through VRL and a version 2 pipeline: greptime_timestamp is a timestamp", async () => {
  await withTestServer(async (url) => {
    const c = new PipelineClient(url);
    await c.uploadOk(
      "loki_vrl",
      `version: 2
processors:
  - vrl:
      source: |
        .day = format_timestamp!(.greptime_timestamp, "%Y-%m-%d")
        .ts = .greptime_timestamp
        .
transform:
  - field: ts
    type: time, ns
    index: timestamp
`,
    );
    await push(c, "loki_vrl", "loki_vrl_logs", NS);
    const create = await c.showCreate("loki_vrl_logs");
    assert.match(create, /"greptime_timestamp" TIMESTAMP\(9\) NULL/);
    assert.deepEqual(
      await c.sql("SELECT CAST(greptime_timestamp AS BIGINT), day FROM loki_vrl_logs ORDER BY ts"),
      [
        [1716668197123456789, "2024-05-25"],
        [1716668197123456790, "2024-05-25"],
      ],
    );
  });
});
