/**
 * The `greptime.semantic.*` options GreptimeDB stamps on the log tables a protocol creates
 * (reference §7.0): Elasticsearch bulk tables (always through a pipeline) and Loki pushes run
 * through a pipeline carry them as the direct models' tables do; the pipeline's own options stay.
 */
import assert from "node:assert/strict";
import { post, showCreate, sqlRows, withServer } from "../protocols_http/util.ts";

const LOG = "'greptime.semantic.signal_type' = 'log'";

Deno.test("Elasticsearch and Loki-through-a-pipeline tables carry signal_type and source", async () => {
  await withServer(async (s) => {
    const es = await post(
      s.url + "/v1/elasticsearch/_bulk",
      '{"create":{"_index":"es_logs"}}\n{"message":"hi","greptime_ttl":"7d"}\n',
      { "content-type": "application/x-ndjson" },
    );
    assert.equal(es.status, 200, es.text);
    const loki = await post(
      s.url + "/v1/loki/api/v1/push",
      JSON.stringify({
        streams: [{ stream: { app: "a" }, values: [["1700000000000000000", "line", { trace: "t1" }]] }],
      }),
      {
        "content-type": "application/json",
        "x-greptime-pipeline-name": "greptime_identity",
        "x-greptime-log-table-name": "loki_piped",
      },
    );
    assert.equal(loki.status, 200, loki.text);
    const esDdl = await showCreate(s.url, "es_logs");
    for (
      const want of [
        LOG,
        "'greptime.semantic.source' = 'elasticsearch'",
        "ttl = '7days'",
        "append_mode = 'true'",
      ]
    ) {
      assert.ok(esDdl.includes(want), `${want} in ${esDdl}`);
    }
    const lokiDdl = await showCreate(s.url, "loki_piped");
    for (const want of [LOG, "'greptime.semantic.source' = 'loki'", "append_mode = 'true'"]) {
      assert.ok(lokiDdl.includes(want), `${want} in ${lokiDdl}`);
    }
    // the pipeline sees each entry as loki_line, loki_label_<k> and loki_metadata_<k> (reference §7.6)
    assert.deepEqual(
      await sqlRows(s.url, "SELECT loki_label_app, loki_line, loki_metadata_trace FROM loki_piped"),
      [
        ["a", "line", "t1"],
      ],
    );
  });
});
