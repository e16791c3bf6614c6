/**
 * A pipeline's JSON value of the wrong kind, or an integer past the range of an existing narrower
 * integer column (the pipeline adopts the table's type, reference pipelines.md §8/§11): GreptimeDB's
 * `Column datatype mismatch…` naming the column, its type and the type the value was auto-typed as,
 * through /v1/ingest, Elasticsearch `_bulk` (only that table's items fail) and OTLP logs behind a
 * pipeline. Before, a string was `Invalid value 'x'…`, 300 was stored in a UInt8 column and 1 in a
 * Boolean column as true.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { postBulk } from "../telemetry_http/es_bulk_client.ts";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

const server = await startTestServer();
const client = new PipelineClient(server.url);
globalThis.addEventListener("unload", () => server.stop());

const identity = (table: string, body: string, query: Record<string, string> = {}) =>
  client.ingest({ table, pipeline_name: "greptime_identity", ...query }, body);

const mismatch = (c: string, type: string, actual: string) =>
  `Column datatype mismatch. For column: ${c}, expected datatype: ${type}, actual datatype: ${actual}`;

const COLUMNS = "greptime_timestamp TIMESTAMP(9) TIME INDEX, k INT, i BIGINT, s STRING, d DECIMAL(10,2), " +
  "u8 TINYINT UNSIGNED, i8 TINYINT, i16 SMALLINT, u16 SMALLINT UNSIGNED, i32 INT, u32 INT UNSIGNED, " +
  "u64 BIGINT UNSIGNED, ok BOOLEAN) WITH (append_mode = 'true'";

const WRONG_KIND: [string, string][] = [
  ['{"i":"abc"}', mismatch("i", "Int64", "String")],
  ['{"i":"12"}', mismatch("i", "Int64", "String")],
  ['{"u64":"5"}', mismatch("u64", "UInt64", "String")],
  ['{"i":true}', mismatch("i", "Int64", "Boolean")],
  ['{"s":5}', mismatch("s", "String", "Int64")],
  ['{"s":1.5}', mismatch("s", "String", "Float64")],
  ['{"d":"1.5"}', mismatch("d", "Decimal(10, 2)", "String")],
  ['{"ok":1}', mismatch("ok", "Boolean", "Int64")],
  ['{"ok":"true"}', mismatch("ok", "Boolean", "String")],
];

const OUT_OF_RANGE: [string, string][] = [
  ['{"u8":300}', mismatch("u8", "UInt8", "Int64")],
  ['{"u8":256}', mismatch("u8", "UInt8", "Int64")],
  ['{"i8":128}', mismatch("i8", "Int8", "Int64")],
  ['{"i8":-129}', mismatch("i8", "Int8", "Int64")],
  ['{"i16":70000}', mismatch("i16", "Int16", "Int64")],
  ['{"u16":70000}', mismatch("u16", "UInt16", "Int64")],
  ['{"i32":1099511627776}', mismatch("i32", "Int32", "Int64")],
  ['{"u32":1099511627776}', mismatch("u32", "UInt32", "Int64")],
  ['{"i32":-9007199254740993}', mismatch("i32", "Int32", "Int64")],
];

Deno.test("identity pipeline: a value of the wrong kind for an existing column is GreptimeDB's mismatch", async () => {
  await client.sql(`CREATE TABLE kinds (${COLUMNS})`);
  for (const [doc, error] of WRONG_KIND) {
    // skip_error skips pipeline errors only: a write-stage mismatch still fails the request
    for (const query of [{}, { skip_error: "true" }] as Record<string, string>[]) {
      const r = await identity("kinds", `{"k":1,"i":1,"s":"x"}\n${doc}`, query);
      assert.equal(r.status, 400, `${doc}: ${r.text}`);
      assert.equal(errorOf(r), error, doc);
    }
  }
  assert.deepEqual(await client.sql("SELECT count(*) FROM kinds"), [[0]]);
});

Deno.test("identity pipeline: an integer past a narrower column's range is refused, its bounds stored", async () => {
  await client.sql(`CREATE TABLE ranges (${COLUMNS})`);
  for (const [doc, error] of OUT_OF_RANGE) {
    const r = await identity("ranges", `{"k":1,"u8":1}\n${doc}`);
    assert.equal(r.status, 400, `${doc}: ${r.text}`);
    assert.equal(errorOf(r), error, doc);
  }
  assert.deepEqual(await client.sql("SELECT count(*) FROM ranges"), [[0]]);
  const bounds = [
    '{"k":1,"u8":255,"i8":-128,"i16":32767,"u16":65535,"i32":-2147483648,"u32":4294967295}',
    '{"k":2,"u8":0,"i8":127,"i16":-32768,"u16":0,"i32":2147483647,"u32":0}',
  ];
  const ok = await identity("ranges", bounds.join("\n"));
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(await client.sql("SELECT k, u8, i8, i16, u16, i32, u32 FROM ranges ORDER BY k"), [
    [1, 255, -128, 32767, 65535, -2147483648, 4294967295],
    [2, 0, 127, -32768, 0, 2147483647, 0],
  ]);
});

const bulk = (docs: [string, string][]) => postBulk(server.url, docs);

Deno.test("Elasticsearch bulk: a wrong kind or an out-of-range integer fails only its table's items", async () => {
  await client.sql(`CREATE TABLE es_kinds (${COLUMNS})`);
  const ok = { create: { _index: "es_other", status: 201 } };
  for (const [doc, error] of [WRONG_KIND[0], WRONG_KIND[1], OUT_OF_RANGE[0], OUT_OF_RANGE[6]]) {
    const failed = {
      create: {
        _index: "es_kinds",
        status: 400,
        error: { type: "illegal_argument_exception", reason: error },
      },
    };
    assert.deepEqual(
      await bulk([["es_kinds", '{"k":1,"i":1}'], ["es_other", '{"k":1}'], ["es_kinds", doc]]),
      [200, { errors: true, items: [failed, ok, failed] }],
      doc,
    );
  }
  assert.deepEqual(await client.sql("SELECT count(*) FROM es_kinds"), [[0]]);
  assert.deepEqual(await client.sql("SELECT count(*) FROM es_other"), [[4]]);
});

Deno.test("OTLP logs behind a pipeline: an attribute of the wrong kind or range for an existing column", async () => {
  await client.sql(`CREATE TABLE otlp_kinds (${COLUMNS})`);
  const yaml = "version: 2\nprocessors:\n" +
    "  - simple_extract:\n      field: LogAttributes, i\n      key: i\n" +
    "  - simple_extract:\n      field: LogAttributes, u8\n      key: u8\n" +
    "  - select:\n      fields: [Timestamp, i, u8]\n" +
    "transform:\n  - field: Timestamp, greptime_timestamp\n    type: epoch, ns\n    index: timestamp\n";
  await client.uploadOk("otlp_attrs", yaml);
  const send = (attributes: unknown[]) =>
    client.request(
      "POST",
      "/v1/otlp/v1/logs",
      encode(types.logs, {
        resourceLogs: [{
          scopeLogs: [{ logRecords: [{ timeUnixNano: "1700000000000000000", attributes }] }],
        }],
      }) as Uint8Array<ArrayBuffer>,
      {
        "content-type": "application/x-protobuf",
        "x-greptime-log-table-name": "otlp_kinds",
        "x-greptime-pipeline-name": "otlp_attrs",
      },
    );
  for (
    const [attributes, error] of [
      [[{ key: "i", value: { stringValue: "12" } }], mismatch("i", "Int64", "String")],
      [[{ key: "u8", value: { intValue: 300 } }], mismatch("u8", "UInt8", "Int64")],
    ] as [unknown[], string][]
  ) {
    const r = await send(attributes);
    assert.equal(r.status, 400, r.text);
    assert.equal(errorOf(r), error);
  }
  const r = await send([{ key: "i", value: { intValue: 12 } }, { key: "u8", value: { intValue: 255 } }]);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await client.sql("SELECT i, u8 FROM otlp_kinds"), [[12, 255]]);
});

Deno.test("a declared small integer's float past its range (GreptimeDB's unchecked cast) is refused at the write", async () => {
  // the transform truncates 300.5 to 300 without a range check as GreptimeDB does (pipelines.md
  // quirk 5); SQLite would keep 300 in the UInt8 column, so the writer refuses it
  const yaml = "processors: []\ntransform:\n  - field: b\n    type: uint8\n" +
    "  - field: ts\n    type: epoch, ms\n    index: timestamp\n";
  await client.uploadOk("declared_u8", yaml);
  const ingest = (body: string) =>
    client.ingest({ table: "declared_u8", pipeline_name: "declared_u8" }, body);
  assert.equal((await ingest('{"ts":1,"b":255.9}')).status, 200);
  const r = await ingest('{"ts":2,"b":300.5}');
  assert.equal(r.status, 400, r.text);
  assert.equal(errorOf(r), mismatch("b", "UInt8", "Int64"));
  assert.deepEqual(await client.sql("SELECT b FROM declared_u8"), [[255]]);
});
