/**
 * Vector's sinks, replayed as they go on the wire (with `auth.strategy = "basic"`):
 * - `greptimedb_logs`: health check `GET <endpoint>/health` (200), then `POST
 *   <endpoint>/v1/events/logs?db=…&table=…&pipeline_name=…[&version=…][&<extra_params>]`,
 *   `Content-Type: application/json`, a JSON array of events, `Content-Encoding` gzip|zstd|deflate|snappy
 *   when compression is set (with the same `Accept-Encoding`), `extra_headers` as given. 2xx is
 *   success; 408, 429 and 5xx are retried; other statuses drop the batch.
 * - `loki`: health check `GET <endpoint>/ready`; `POST <endpoint>/loki/api/v1/push`, snappy protobuf
 *   (`application/x-protobuf`, the default) or JSON (`compression = "none"|"gzip"`), `X-Scope-OrgID`
 *   from `tenant_id`; entries may arrive out of order (`out_of_order_action = "accept"`).
 * - `elasticsearch`: `api_version = "auto"` reads `version.number` from `GET <endpoint>/`, health
 *   check `GET <endpoint>/_cluster/health`, then `POST <endpoint>/_bulk` NDJSON
 *   (`application/x-ndjson`): `index` actions in bulk mode, `create` into `logs-generic-default`
 *   in data-stream mode; a 200 whose `errors` is false is success.
 * `greptimedb_metrics` speaks gRPC, which Petrel does not serve: out of scope.
 */
import assert from "node:assert/strict";
import protobuf from "protobufjs";
import zlib from "node:zlib";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { encodeZstd } from "../../src/codec/zstd.ts";
import { BASIC, expectStatus, gzip, rows, send, withAuthServer } from "./shippers_util.ts";

const VECTOR = { "user-agent": "Vector/0.42.0 (x86_64-unknown-linux-gnu)" };
const enc = (s: string) => new TextEncoder().encode(s);
const Push = protobuf.loadSync(new URL("../../src/protocols/loki/proto/push.proto", import.meta.url).pathname)
  .lookupType("logproto.PushRequest");

const EVENTS = JSON.stringify([
  {
    message: "GET /index.html 200",
    host: "web-1",
    source_type: "demo_logs",
    timestamp: "2024-01-01T00:00:00.1Z",
  },
  {
    message: "GET /missing 404",
    host: "web-2",
    source_type: "demo_logs",
    timestamp: "2024-01-01T00:00:01.2Z",
  },
]);

Deno.test("vector greptimedb_logs: health check, then JSON arrays under every compression", async () => {
  await withAuthServer(async (s) => {
    expectStatus(await send(s, "GET", "/health", VECTOR), 200, "health check");
    const cases: [string, Record<string, string>, Uint8Array][] = [
      ["none", {}, enc(EVENTS)],
      ["gzip", { "content-encoding": "gzip", "accept-encoding": "gzip" }, gzip(EVENTS)],
      ["zstd", { "content-encoding": "zstd", "accept-encoding": "zstd" }, encodeZstd(enc(EVENTS))],
      [
        "zlib",
        { "content-encoding": "deflate", "accept-encoding": "deflate" },
        new Uint8Array(zlib.deflateSync(EVENTS)),
      ],
      // GreptimeDB passes snappy through undecoded (a 400 there); Vector's snappy is a raw block.
      ["snappy", { "content-encoding": "snappy", "accept-encoding": "snappy" }, encodeSnappy(enc(EVENTS))],
    ];
    for (const [label, encoding, body] of cases) {
      const path = `/v1/events/logs?db=public&table=vector_logs&pipeline_name=greptime_identity&version=` +
        `&skip_error=true`; // an extra_params entry
      const r = await send(s, "POST", path, {
        ...VECTOR,
        ...encoding,
        "content-type": "application/json",
        "content-length": String(body.length),
        authorization: BASIC,
        "x-greptime-hint-ttl": "7d", // an extra_headers entry
      }, body);
      expectStatus(r, 200, label);
      assert.deepStrictEqual(JSON.parse(r.text).output, [{ affectedrows: 2 }], label);
    }
    assert.deepStrictEqual(
      await rows(s, "SELECT host, count(*) FROM vector_logs GROUP BY host ORDER BY host"),
      [["web-1", 5], ["web-2", 5]],
    );
  });
});

Deno.test("vector loki: /ready health check, snappy protobuf and JSON pushes with a tenant", async () => {
  await withAuthServer(async (s) => {
    const ready = await send(s, "GET", "/v1/loki/ready", { ...VECTOR, authorization: BASIC });
    expectStatus(ready, 200, "ready");
    assert.equal(ready.text.trim(), "ready");
    const tenant = { ...VECTOR, "x-scope-orgid": "tenant-a", authorization: BASIC };
    // Vector sorts each stream, but with out_of_order_action = "accept" a later batch may be older.
    const proto = encodeSnappy(
      Push.encode(Push.fromObject({
        streams: [{
          labels: '{host="web-1", source_type="demo_logs"}',
          entries: [
            {
              timestamp: { seconds: 1700000002, nanos: 0 },
              line: "proto two",
              structuredMetadata: [{ name: "k", value: "v" }],
            },
            { timestamp: { seconds: 1700000001, nanos: 500 }, line: "proto one" },
          ],
        }],
      })).finish(),
    );
    for (
      const [label, extra] of [["no content-encoding", {}], ["content-encoding snappy", {
        "content-encoding": "snappy",
      }]] as const
    ) {
      const r = await send(s, "POST", "/v1/loki/api/v1/push", {
        ...tenant,
        ...extra,
        "content-type": "application/x-protobuf",
      }, proto);
      expectStatus(r, 200, label);
      assert.deepStrictEqual(JSON.parse(r.text).output, [{ affectedrows: 2 }]);
    }
    const json = JSON.stringify({
      streams: [{ stream: { host: "web-2" }, values: [["1700000000000000000", "json older", { k: "w" }]] }],
    });
    const table = { "x-greptime-log-table-name": "vector_loki" };
    expectStatus(
      await send(s, "POST", "/v1/loki/api/v1/push", {
        ...tenant,
        ...table,
        "content-type": "application/json",
      }, json),
      200,
      "json",
    );
    expectStatus(
      await send(s, "POST", "/v1/loki/api/v1/push", {
        ...tenant,
        ...table,
        "content-type": "application/json",
        "content-encoding": "gzip",
      }, gzip(json)),
      200,
      "json gzip",
    );
    assert.deepStrictEqual(
      await rows(s, "SELECT line, host, source_type FROM loki_logs ORDER BY greptime_timestamp, line"),
      [["proto one", "web-1", "demo_logs"], ["proto one", "web-1", "demo_logs"], [
        "proto two",
        "web-1",
        "demo_logs",
      ], [
        "proto two",
        "web-1",
        "demo_logs",
      ]],
    );
    assert.deepStrictEqual(await rows(s, "SELECT line, host FROM vector_loki"), [["json older", "web-2"], [
      "json older",
      "web-2",
    ]]);
  });
});

Deno.test("vector elasticsearch: version probe, cluster health, bulk and data-stream writes", async () => {
  await withAuthServer(async (s) => {
    const auth = { ...VECTOR, authorization: BASIC };
    const root = await send(s, "GET", "/v1/elasticsearch/", auth);
    expectStatus(root, 200, "GET /");
    assert.equal(Number(JSON.parse(root.text).version.number.split(".")[0]), 8);
    const health = await send(s, "GET", "/v1/elasticsearch/_cluster/health", auth);
    expectStatus(health, 200, "cluster health");
    assert.equal(JSON.parse(health.text).status, "green");
    assert.equal(health.headers.get("x-elastic-product"), "Elasticsearch");

    const bulk = [
      { index: { _index: "vector-2024.01.01", _id: "a1" } },
      { message: "bulk mode", host: "web-1", timestamp: "2024-01-01T00:00:00Z" },
      { create: { _index: "logs-generic-default" } },
      {
        message: "data stream mode",
        "@timestamp": "2024-01-01T00:00:01Z",
        data_stream: { type: "logs", dataset: "generic", namespace: "default" },
      },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n";
    const ndjson = { ...auth, "content-type": "application/x-ndjson" };
    for (
      const [label, headers, body] of [["plain", ndjson, enc(bulk)], ["gzip", {
        ...ndjson,
        "content-encoding": "gzip",
      }, gzip(bulk)]] as const
    ) {
      const r = await send(s, "POST", "/v1/elasticsearch/_bulk?timeout=60s", headers, body);
      expectStatus(r, 200, label);
      const reply = JSON.parse(r.text);
      assert.equal(reply.errors, false, label);
      assert.equal(reply.items.length, 2, label);
    }
    assert.deepStrictEqual(await rows(s, `SELECT message, host FROM "vector-2024.01.01"`), [[
      "bulk mode",
      "web-1",
    ], ["bulk mode", "web-1"]]);
    assert.deepStrictEqual(
      await rows(s, `SELECT message, "data_stream.dataset" FROM "logs-generic-default"`),
      [["data stream mode", "generic"], ["data stream mode", "generic"]],
    );
  });
});
