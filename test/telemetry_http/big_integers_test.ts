/**
 * JSON documents arriving by Elasticsearch bulk and Splunk HEC keep i64 integers exact (a nanosecond
 * epoch is past 2^53, where `JSON.parse` would round it), as GreptimeDB's serde_json does and as
 * `/v1/ingest` bodies already did.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
globalThis.addEventListener("unload", () => server.stop());

async function rows(sql: string): Promise<unknown[][]> {
  const r = await fetch(`${server.url}/v1/sql?sql=${encodeURIComponent(sql)}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.output[0].records.rows;
}

Deno.test("Elasticsearch bulk keeps integers past 2^53 exact", async () => {
  const body = '{"create":{"_index":"big_es"}}\n{"message":"m","n":1716668197217123457,"small":5}\n' +
    '{"create":{"_index":"big_es"}}\n{"message":"m2","n":-9223372036854775808,"small":6}\n';
  const r = await fetch(`${server.url}/v1/elasticsearch/_bulk`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  assert.equal(r.status, 200, await r.text());
  // JSON numbers above 2^53 lose precision in JS; compare the exact text instead
  assert.deepEqual(await rows("SELECT CAST(n AS STRING), small FROM big_es ORDER BY small"), [
    ["1716668197217123457", 5],
    ["-9223372036854775808", 6],
  ]);
});

Deno.test("Elasticsearch bulk keeps integers past 2^53 exact in nested objects and arrays", async () => {
  // the body's only 16-digit runs are inside nested values (and a string, which stays a string)
  const body = '{"create":{"_index":"big_es_nested"}}\n' +
    '{"o":{"n":9007199254740993},"arr":[1,-1716668197217123457,2.5],"s":"1234567890123456789"}\n' +
    '{"create":{"_index":"big_es_nested"}}\n{"o":{"n":1},"arr":[],"s":"x"}\n';
  const r = await fetch(`${server.url}/v1/elasticsearch/_bulk`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  assert.equal(r.status, 200, await r.text());
  assert.deepEqual(
    await rows('SELECT CAST("o.n" AS STRING), arr, s FROM big_es_nested ORDER BY "o.n" DESC'),
    [
      ["9007199254740993", "[1,-1716668197217123457,2.5]", "1234567890123456789"],
      ["1", "[]", "x"],
    ],
  );
});

Deno.test("Splunk HEC events keep integers past 2^53 exact", async () => {
  const r = await fetch(`${server.url}/v1/splunk/services/collector/event`, {
    method: "POST",
    body: '{"event":{"n":1716668197217123457},"time":1700000001}',
    headers: { authorization: "Splunk any" },
  });
  assert.equal(r.status, 200, await r.text());
  assert.deepEqual(await rows('SELECT CAST("event.n" AS STRING) FROM splunk_logs'), [[
    "1716668197217123457",
  ]]);
});
