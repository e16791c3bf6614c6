/**
 * Elasticsearch `_bulk` actions and paths beyond what Filebeat, Logstash and Vector send, as GreptimeDB
 * treats them (`src/servers/src/elasticsearch.rs`): only `create` and `index` are taken; an `update`
 * or `delete` anywhere fails the whole request with GreptimeDB's single-item 400 and writes nothing;
 * only `/_bulk` and `/{index}/_bulk` are routed.
 */
import assert from "node:assert/strict";
import { Client } from "@elastic/elasticsearch";
import { post, tableNames, withServer } from "../protocols_http/util.ts";

const NDJSON = { "content-type": "application/x-ndjson" };

/** GreptimeDB's answer to a bulk body it refuses: one `create` item naming the reason. */
function assertRefused(r: { status: number; text: string; headers: Headers }, reason: RegExp) {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.headers.get("x-elastic-product"), "Elasticsearch");
  const body = JSON.parse(r.text);
  assert.equal(typeof body.took, "number");
  assert.equal(body.errors, true);
  assert.equal(body.items.length, 1, r.text);
  const { create } = body.items[0];
  assert.deepEqual(Object.keys(body.items[0]), ["create"]);
  assert.equal(create.status, 400);
  assert.equal(create.error.type, "illegal_argument_exception");
  assert.match(create.error.reason, reason);
}

Deno.test("es bulk: update or delete beside index fails the whole request, nothing written", async () => {
  await withServer(async (s) => {
    const doc = '{"index":{"_index":"acts"}}\n{"message":"kept?"}\n';
    for (
      const [action, lines] of [
        ["delete", '{"delete":{"_index":"acts","_id":"1"}}\n'],
        ["update", '{"update":{"_index":"acts","_id":"1"}}\n{"doc":{"message":"changed"}}\n'],
      ]
    ) {
      const r = await post(`${s.url}/v1/elasticsearch/_bulk`, doc + lines + doc, NDJSON);
      assertRefused(r, new RegExp(`expected 'create' or 'index' but got \\{"${action}":`));
    }
    assert.deepEqual(await tableNames(s.url), []);
  });
});

Deno.test("es bulk: /{index}/_doc/_bulk is not a bulk path (404); /_bulk and /{index}/_bulk are", async () => {
  await withServer(async (s) => {
    const body = '{"create":{}}\n{"message":"m"}\n';
    const typed = await post(`${s.url}/v1/elasticsearch/typed/_doc/_bulk`, body, NDJSON);
    assert.equal(typed.status, 404, typed.text);
    assert.deepEqual(await tableNames(s.url), []);
    const byPath = await post(`${s.url}/v1/elasticsearch/bypath/_bulk`, body, NDJSON);
    assert.equal(byPath.status, 200, byPath.text);
    assert.deepEqual(JSON.parse(byPath.text).items, [{ create: { status: 201 } }]);
    const plain = await post(
      `${s.url}/v1/elasticsearch/_bulk`,
      '{"index":{"_index":"plain"}}\n{"m":1}\n',
      NDJSON,
    );
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual((await tableNames(s.url)).sort(), ["bypath", "plain"]);
  });
});

Deno.test("es bulk: the @elastic/elasticsearch bulk helper sending delete gets the 400 and stores nothing", async () => {
  await withServer(async (s) => {
    const client = new Client({ node: `${s.url}/v1/elasticsearch` });
    try {
      await assert.rejects(
        client.helpers.bulk({
          datasource: [{ message: "one" }, { message: "two" }],
          onDocument: () => ({ delete: { _index: "helper_logs", _id: "1" } }),
          retries: 0,
          onDrop: () => {},
        }),
        (e: { meta?: { statusCode?: number; body?: { errors?: boolean; items?: unknown[] } } }) =>
          e.meta?.statusCode === 400 && e.meta.body?.errors === true && e.meta.body.items?.length === 1,
      );
    } finally {
      await client.close();
    }
    assert.deepEqual(await tableNames(s.url), []);
  });
});
