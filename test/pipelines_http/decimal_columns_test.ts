/**
 * A pipeline's numbers bound for an existing Decimal or unsigned column (the pipeline adopts the
 * table's type): a Decimal(p, s) gets the value the client wrote, scaled and rounded as SQL INSERT
 * does (not the number taken as the stored unscaled integer, nor refused for its fraction), a value
 * past the precision is a 400 naming the column, and a negative number for an unsigned column is
 * GreptimeDB's datatype mismatch instead of a wrapped UInt64.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

const server = await startTestServer();
const client = new PipelineClient(server.url);
globalThis.addEventListener("unload", () => server.stop());

const identity = (table: string, body: string) =>
  client.ingest({ table, pipeline_name: "greptime_identity" }, body);

const COLUMNS = "greptime_timestamp TIMESTAMP(9) TIME INDEX, k INT, d DECIMAL(10,2), u BIGINT UNSIGNED, " +
  "b TINYINT UNSIGNED) WITH (append_mode = 'true'";

Deno.test("identity pipeline: a number into a Decimal column is stored as SQL INSERT stores it", async () => {
  await client.sql(`CREATE TABLE dec_ingest (${COLUMNS})`);
  await client.sql(`CREATE TABLE dec_sql (${COLUMNS})`);
  const values: [number, string][] = [[1, "15"], [2, "1.25"], [3, "-2.345"], [4, "1.005"], [5, "0"], [
    6,
    "1e-7",
  ]];
  const body = values.map(([k, d]) => `{"k":${k},"d":${d},"u":3,"b":4}`).join("\n");
  const r = await identity("dec_ingest", body);
  assert.equal(r.status, 200, r.text);
  for (const [k, d] of values) {
    await client.sql(`INSERT INTO dec_sql (greptime_timestamp, k, d, u, b) VALUES (${k}, ${k}, ${d}, 3, 4)`);
  }
  const query = (t: string) => client.sql(`SELECT k, d, u, b FROM ${t} ORDER BY k`);
  const expected = [
    [1, "15.00", 3, 4],
    [2, "1.25", 3, 4],
    [3, "-2.35", 3, 4],
    [4, "1.01", 3, 4],
    [5, "0.00", 3, 4],
    [6, "0.00", 3, 4],
  ];
  assert.deepEqual(await query("dec_ingest"), expected);
  assert.deepEqual(await query("dec_sql"), expected);
  // stored as the scaled integer: decimal comparison and sum see the value
  assert.deepEqual(await client.sql("SELECT sum(d) FROM dec_ingest WHERE d > 1.2"), [["16.25"]]);
});

Deno.test("identity pipeline: past the Decimal precision, or negative for an unsigned column, is a 400", async () => {
  await client.sql(`CREATE TABLE dec_bad (${COLUMNS})`);
  const mismatch = (c: string, type: string) =>
    `Column datatype mismatch. For column: ${c}, expected datatype: ${type}, actual datatype: Int64`;
  for (
    const [doc, error] of [
      [
        '{"d":123456789.5}',
        /^Decimal value 123456789\.5 is too large .*precision 10, scale 2, for column d$/,
      ],
      ['{"d":-1e20}', /too large .*, for column d$/],
      ['{"u":-4}', mismatch("u", "UInt64")],
      ['{"b":-1}', mismatch("b", "UInt8")],
    ] as [string, string | RegExp][]
  ) {
    const r = await identity("dec_bad", `{"k":1,"d":1}\n${doc}`);
    assert.equal(r.status, 400, `${doc}: ${r.text}`);
    if (typeof error === "string") assert.equal(errorOf(r), error, doc);
    else assert.match(errorOf(r), error, doc);
  }
  assert.deepEqual(await client.sql("SELECT count(*) FROM dec_bad"), [[0]]);
  const ok = await identity("dec_bad", '{"k":2,"d":99999999.99,"u":0,"b":255}');
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(await client.sql("SELECT k, d, u, b FROM dec_bad"), [[2, "99999999.99", 0, 255]]);
});

Deno.test("Elasticsearch bulk: a number into an existing Decimal column is scaled", async () => {
  await client.sql(`CREATE TABLE dec_es (${COLUMNS})`);
  const body =
    '{"create":{"_index":"dec_es"}}\n{"k":1,"d":1.5}\n{"create":{"_index":"dec_es"}}\n{"k":2,"d":7}\n';
  const r = await fetch(`${server.url}/v1/elasticsearch/_bulk`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  const json = await r.json();
  assert.equal(r.status, 200, JSON.stringify(json));
  assert.equal(json.errors, false, JSON.stringify(json));
  assert.deepEqual(await client.sql("SELECT k, d FROM dec_es ORDER BY k"), [[1, "1.50"], [2, "7.00"]]);
});
