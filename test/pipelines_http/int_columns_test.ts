/**
 * A float bound for an existing integer column through `/v1/ingest` (the pipeline adopts the
 * table's type, reference pipelines.md §8/§11): GreptimeDB refuses it with its datatype mismatch,
 * and nothing of the request is written. An integral JSON float (`6.0`) is the integer 6 here (the
 * JSON parse does not keep the two apart), an integer into a float column is stored, and the paths
 * that convert on purpose (SQL INSERT casting, a transform's declared type) still do.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

const server = await startTestServer();
const client = new PipelineClient(server.url);
globalThis.addEventListener("unload", () => server.stop());

const identity = (table: string, body: string, query: Record<string, string> = {}) =>
  client.ingest({ table, pipeline_name: "greptime_identity", ...query }, body);

const mismatch = (c: string, type: string) =>
  `Column datatype mismatch. For column: ${c}, expected datatype: ${type}, actual datatype: Float64`;

Deno.test("identity pipeline: a float into an existing Int64 column is refused, nothing written", async () => {
  const first = await identity("ints", '{"i":3,"f":1.5,"m":"first"}');
  assert.equal(first.status, 200, first.text);
  for (const value of ["6.5", "1e400", "-1e400", "1e20", "-0.5", "-9223372036854775809"]) {
    const body = `{"i":4,"m":"ok"}\n{"i":${value},"m":"bad"}`;
    for (const query of [{}, { skip_error: "true" }] as Record<string, string>[]) {
      const r = await identity("ints", body, query);
      assert.equal(r.status, 400, `${value}: ${r.text}`);
      assert.equal(errorOf(r), mismatch("i", "Int64"), value);
    }
  }
  assert.deepEqual(await client.sql("SELECT i, f, m FROM ints ORDER BY m"), [[3, 1.5, "first"]]);
});

Deno.test("identity pipeline: 6.0 is the integer 6, an integer into a float column is stored", async () => {
  assert.equal((await identity("wholes", '{"i":3,"f":1.5,"m":"a"}')).status, 200);
  const r = await identity("wholes", '{"i":6.0,"f":2,"m":"b"}');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await client.sql("SELECT i, f, m FROM wholes ORDER BY m"), [[3, 1.5, "a"], [6, 2, "b"]]);
  // stored as integers: an integer comparison finds it, the sum stays an integer
  assert.deepEqual(await client.sql("SELECT sum(i) FROM wholes WHERE i = 6"), [[6]]);
});

Deno.test("identity pipeline: other integer types of a table made by SQL refuse floats too", async () => {
  await client.sql(
    "CREATE TABLE sql_ints (greptime_timestamp TIMESTAMP(9) TIME INDEX, a INT, u BIGINT UNSIGNED, " +
      "s SMALLINT, d DOUBLE)",
  );
  for (
    const [doc, error] of [
      ['{"a":1.5}', mismatch("a", "Int32")],
      ['{"u":2.5}', mismatch("u", "UInt64")],
      ['{"u":12345678901234567890}', mismatch("u", "UInt64")],
      ['{"s":-1e400}', mismatch("s", "Int16")],
    ]
  ) {
    const r = await identity("sql_ints", doc);
    assert.equal(r.status, 400, `${doc}: ${r.text}`);
    assert.equal(errorOf(r), error, doc);
  }
  const ok = await identity("sql_ints", '{"a":7,"u":8,"s":9,"d":10}');
  assert.equal(ok.status, 200, ok.text);
  // SQL INSERT casts a float literal for an integer column, as GreptimeDB does
  await client.sql("INSERT INTO sql_ints (greptime_timestamp, a, d) VALUES (1, 6.5, 11)");
  assert.deepEqual(await client.sql("SELECT a, u, s, d FROM sql_ints ORDER BY greptime_timestamp"), [
    [6, null, null, 11],
    [7, 8, 9, 10],
  ]);
});

Deno.test("a pipeline's auto-typed float into the existing integer column fails; a declared int64 converts", async () => {
  const auto =
    "version: 2\nprocessors: []\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";
  await client.uploadOk("auto_ints", auto);
  const ingest = (body: string) => client.ingest({ table: "auto_ints", pipeline_name: "auto_ints" }, body);
  assert.equal((await ingest('{"ts":1,"n":1}')).status, 200);
  const bad = await ingest('{"ts":2,"n":2.5}');
  assert.equal(bad.status, 400, bad.text);
  assert.equal(errorOf(bad), mismatch("n", "Int64"));
  const declared = "processors: []\ntransform:\n  - field: n\n    type: int64\n" +
    "  - field: ts\n    type: epoch, ms\n    index: timestamp\n";
  await client.uploadOk("declared_ints", declared);
  const r = await client.ingest({ table: "auto_ints", pipeline_name: "declared_ints" }, '{"ts":3,"n":3.75}');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await client.sql("SELECT n FROM auto_ints ORDER BY ts"), [[1], [3]]);
});
