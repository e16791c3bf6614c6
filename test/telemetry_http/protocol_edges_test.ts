/**
 * Edges of the telemetry protocols checked against the reference: Elasticsearch's decompression
 * without pass-through (§2.8) and OTLP label names escaped one `_` per character (§7.3).
 */
import assert from "node:assert/strict";
import { post, sqlRows, tableNames, withServer } from "../protocols_http/util.ts";

Deno.test("ES bulk: a Content-Encoding the server cannot undo is 415 and nothing is written", async () => {
  await withServer(async (s) => {
    const body = '{"create":{"_index":"es_enc"}}\n{"a":1}\n';
    for (const encoding of ["snappy", "compress"]) {
      const r = await post(s.url + "/v1/elasticsearch/_bulk", new TextEncoder().encode(body), {
        "content-type": "application/json",
        "content-encoding": encoding,
      });
      assert.equal(r.status, 415, `${encoding}: ${r.text}`);
      assert.match(r.text, new RegExp(`Unsupported Content-Encoding: ${encoding}`));
      assert.equal(r.headers.get("x-elastic-product"), "Elasticsearch");
    }
    assert.deepEqual(await tableNames(s.url), []);
    // identity is no encoding at all
    const ok = await post(s.url + "/v1/elasticsearch/_bulk", new TextEncoder().encode(body), {
      "content-type": "application/json",
      "content-encoding": "identity",
    });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(await sqlRows(s.url, "SELECT a FROM es_enc"), [[1]]);
  });
});

Deno.test("OTLP metric labels: each character outside [a-zA-Z0-9] is one '_', astral ones too", async () => {
  await withServer(async (s) => {
    const attr = (key: string) => ({ key, value: { stringValue: key } });
    const body = JSON.stringify({
      resourceMetrics: [{
        scopeMetrics: [{
          metrics: [{
            name: "mood",
            gauge: {
              dataPoints: [{
                timeUnixNano: "1700000000000000000",
                asDouble: 1,
                attributes: [attr("a😀b"), attr("é.x"), attr("😀")],
              }],
            },
          }],
        }],
      }],
    });
    const r = await post(s.url + "/v1/otlp/v1/metrics", body, { "content-type": "application/json" });
    assert.equal(r.status, 200, r.text);
    const cols = await sqlRows(
      s.url,
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'mood' ORDER BY column_name",
    );
    assert.deepEqual(cols.map((c) => c[0]), ["__x", "a_b", "greptime_timestamp", "greptime_value", "key_"]);
  });
});

Deno.test("OTLP traces: hint trace_table_partitions is read as a Rust u32 (invalid → 400)", async () => {
  await withServer(async (s) => {
    const span = JSON.stringify({
      resourceSpans: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
        scopeSpans: [{
          spans: [{
            traceId: "0102030405060708090a0b0c0d0e0f10",
            spanId: "0102030405060708",
            name: "op",
            startTimeUnixNano: "10",
            endTimeUnixNano: "20",
          }],
        }],
      }],
    });
    const send = (value: string) =>
      post(s.url + "/v1/otlp/v1/traces", span, {
        "content-type": "application/json",
        "x-greptime-pipeline-name": "greptime_trace_v1",
        "x-greptime-hints": `trace_table_partitions=${value}`,
      });
    for (const bad of ["abc", "-1", "1.5", "4294967296", "", "++1"]) {
      const r = await send(bad);
      assert.equal(r.status, 400, `${bad}: ${r.text}`);
      assert.match(r.text, /Invalid value for hint trace_table_partitions/);
    }
    // str::parse::<u32> takes a leading '+' and any number of leading zeros
    for (const good of ["0", "1", "16", "+5", "000000000016", "4294967295"]) {
      const r = await send(good);
      assert.equal(r.status, 200, `${good}: ${r.text}`);
    }
    assert.deepEqual(await sqlRows(s.url, "SELECT count(*) FROM opentelemetry_traces"), [[6]]);
  });
});

Deno.test("OTLP logs through a pipeline: x-greptime-pipeline-params max_nested_levels bounds flattening", async () => {
  await withServer(async (s) => {
    const log = JSON.stringify({
      resourceLogs: [{
        scopeLogs: [{
          logRecords: [{
            timeUnixNano: "1700000000000000000",
            body: { stringValue: "hi" },
            attributes: [{ key: "user", value: { stringValue: "bob" } }],
          }],
        }],
      }],
    });
    const send = (table: string, params?: string) =>
      post(s.url + "/v1/otlp/v1/logs", log, {
        "content-type": "application/json",
        "x-greptime-pipeline-name": "greptime_identity",
        "x-greptime-log-table-name": table,
        ...(params === undefined ? {} : { "x-greptime-pipeline-params": params }),
      });
    assert.equal((await send("deep")).status, 200);
    assert.deepEqual(await sqlRows(s.url, 'SELECT "LogAttributes.user" FROM deep'), [["bob"]]);
    // one level: the attribute objects stay whole, as JSON text (reference §6.14, §7.8)
    const r = await send("shallow", "skip_error=false&max_nested_levels=1");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await sqlRows(s.url, 'SELECT "LogAttributes" FROM shallow'), [['{"user":"bob"}']]);
  });
});
