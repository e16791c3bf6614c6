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

/** Pushes the two lines and answers the raw reply (for the refusals). */
async function pushReply(c: PipelineClient, pipeline: string, table: string) {
  return await c.request(
    "POST",
    "/v1/loki/api/v1/push",
    JSON.stringify({
      streams: [{ stream: { service: "s1" }, values: [[String(NS), "first line"]] }],
    }),
    {
      "content-type": "application/json",
      "x-greptime-pipeline-name": pipeline,
      "x-greptime-log-table-name": table,
    },
  );
}

Deno.test("Loki through a pipeline with no time index of its own: GreptimeDB's time rules (pipelines.md §3.2, §7.4, §8)", async () => {
  await withTestServer(async (url) => {
    const c = new PipelineClient(url);
    // v1 without a time-index transform: the generated greptime_timestamp reads the entry's own key,
    // so the Loki time is kept (not the arrival time).
    await c.uploadOk("loki_no_ts", "transform:\n  - field: loki_line\n    type: string\n");
    await push(c, "loki_no_ts", "loki_no_ts_logs", NS);
    assert.deepEqual(
      await c.sql("SELECT loki_line, CAST(greptime_timestamp AS BIGINT) FROM loki_no_ts_logs"),
      [
        ["first line", 1716668197123456789],
        ["second line", 1716668197123456790],
      ],
    );

    // The identity pipeline drops an input greptime_timestamp and stamps the arrival time; so does a v1
    // pipeline whose processors remove the key (its generated column falls back to now).
    await c.uploadOk(
      "loki_drop_ts",
      "processors:\n  - vrl:\n      source: |\n        del(.greptime_timestamp)\n        .\n" +
        "transform:\n  - field: loki_line\n    type: string\n",
    );
    const before = BigInt(Date.now()) * 1_000_000n;
    await push(c, "greptime_identity", "loki_identity_logs", NS);
    await push(c, "loki_drop_ts", "loki_drop_ts_logs", NS);
    const after = BigInt(Date.now()) * 1_000_000n;
    for (const table of ["loki_identity_logs", "loki_drop_ts_logs"]) {
      const times = (await c.sql(`SELECT CAST(greptime_timestamp AS BIGINT) FROM ${table}`)).map((r) =>
        BigInt(r[0] as number)
      );
      assert.equal(times.length, 2, table);
      for (const t of times) assert.ok(t >= before && t <= after + 1_000_000n, `${table}: ${t}`);
    }

    // A declared time index the entry lacks is an error, and nothing is written.
    await c.uploadOk(
      "loki_v2_ts",
      "version: 2\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    );
    const refused = await pushReply(c, "loki_v2_ts", "loki_v2_ts_logs");
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(JSON.parse(refused.text), { error: "Time index must be non null." });
    assert.ok(!(await c.tables()).includes("loki_v2_ts_logs"));
  });
});
