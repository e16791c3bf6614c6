/**
 * JSON put over HTTP: one object or an array, seconds or milliseconds, `summary`/`details` with
 * per-point errors, bad JSON and bad points → 400 (GreptimeDB: 500 for a failed write), nothing written either way.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { post, showCreate, sqlExec, sqlRows, tableNames, uniqueName } from "./util.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());
const PUT = `${base}/v1/tsjson/api/put`;

const point = (
  metric: string,
  timestamp: number,
  value: number,
  tags: Record<string, string> = { host: "web01" },
) => ({
  metric,
  timestamp,
  value,
  tags,
});

Deno.test("JSON put: one object → 204, table as GreptimeDB makes it", async () => {
  const m = uniqueName("sys.cpu");
  const r = await post(PUT, JSON.stringify(point(m, 1346846400, 18, { host: "web01", dc: "lga" })));
  assert.equal(r.status, 204, r.text);
  assert.equal(r.text, "");
  assert.deepEqual(await sqlRows(base, `SELECT host, dc, greptime_value, greptime_timestamp FROM "${m}"`), [
    ["web01", "lga", 18, 1346846400000],
  ]);
  const desc = await sqlRows(base, `DESC TABLE "${m}"`);
  assert.deepEqual(desc.map((row) => [row[0], row[1], row[5]]), [
    ["host", "String", "TAG"],
    ["dc", "String", "TAG"],
    ["greptime_value", "Float64", "FIELD"],
    ["greptime_timestamp", "TimestampMillisecond", "TIMESTAMP"],
  ]);
  assert.match(await showCreate(base, m), /'greptime.semantic.source' = 'opentsdb'/);
});

const timestamps: [string, number, number][] = [
  ["seconds (10 digits)", 1346846400, 1346846400000],
  ["milliseconds (13 digits)", 1346846400123, 1346846400123],
  ["small seconds", 5, 5000],
  ["12 digits are seconds", 999999999999, 999999999999000],
];
for (const [name, ts, ms] of timestamps) {
  Deno.test(`JSON put: timestamp in ${name}`, async () => {
    const m = uniqueName("ts");
    assert.equal((await post(PUT, JSON.stringify([point(m, ts, 1)]))).status, 204);
    assert.deepEqual(await sqlRows(base, `SELECT greptime_timestamp FROM ${m}`), [[ms]]);
  });
}

Deno.test("JSON put: an array over several metrics and tag sets", async () => {
  const a = uniqueName("arr"), b = uniqueName("arr");
  const body = [
    point(a, 1, 1, { host: "x" }),
    point(a, 2, 2.5, { host: "y", dc: "z" }),
    point(b, 3, -1, {}),
  ];
  assert.equal((await post(PUT, JSON.stringify(body))).status, 204);
  assert.deepEqual(
    await sqlRows(base, `SELECT host, dc, greptime_value FROM ${a} ORDER BY greptime_timestamp`),
    [
      ["x", null, 1],
      ["y", "z", 2.5],
    ],
  );
  assert.deepEqual(await sqlRows(base, `SELECT greptime_value FROM ${b}`), [[-1]]);
});

Deno.test("JSON put: summary and details with no failures", async () => {
  const m = uniqueName("sum");
  let r = await post(`${PUT}?summary`, JSON.stringify([point(m, 1, 1), point(m, 2, 2)]));
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(r.text), { success: 2, failed: 0 });
  r = await post(`${PUT}?details`, JSON.stringify(point(m, 3, 3)));
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(r.text), { success: 1, failed: 0, errors: [] });
  assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${m}`), [[3]]);
});

Deno.test("JSON put: per-point failures are counted, reported in the details shape, and the rest written", async () => {
  const m = uniqueName("pp");
  const body = [
    point(m, 1, 1),
    point(m, 2, 2, { greptime_timestamp: "clash" }),
    point("__petrel_reserved", 3, 3),
    point(m, 4, 4),
  ];
  let r = await post(`${PUT}?summary`, JSON.stringify(body));
  assert.equal(r.status, 200);
  assert.deepEqual(JSON.parse(r.text), { success: 2, failed: 2 });
  r = await post(`${PUT}?summary&details`, JSON.stringify(body));
  const got = JSON.parse(r.text);
  assert.equal(got.success, 2);
  assert.equal(got.failed, 2);
  assert.deepEqual(got.errors.map((e: { datapoint: unknown }) => e.datapoint), [body[1], body[2]]);
  for (const e of got.errors) assert.ok(typeof e.error === "string" && e.error.length > 0, JSON.stringify(e));
  assert.match(got.errors[1].error, /__petrel_reserved/);
  assert.deepEqual(await sqlRows(base, `SELECT greptime_timestamp FROM ${m} ORDER BY 1`), [[1000], [4000]]);
});

Deno.test("JSON put: without summary a bad point fails the put with 400 naming it (GreptimeDB: 500 Internal error: 1003), nothing written", async () => {
  const m = uniqueName("fail");
  const r = await post(PUT, JSON.stringify([point(m, 1, 1), point(m, 2, 2, { greptime_value: "clash" })]));
  assert.equal(r.status, 400);
  assert.match(JSON.parse(r.text).error, /^Failed to write OpenTSDB points: .*greptime_value/);
  assert.ok(!(await tableNames(base)).includes(m));
});

const badBodies: [string, string, RegExp][] = [
  ["empty body", "", /^Invalid OpenTSDB Json request: EOF while parsing a value/],
  ["not JSON", "metric=x", /^Invalid OpenTSDB Json request: expected value/],
  ["truncated", '{"metric":"x","timestamp":1', /^Invalid OpenTSDB Json request: .*line 1 column 2[78]/],
  ["missing value", '{"metric":"$m","timestamp":1,"tags":{}}', /missing field `value`/],
  ["missing tags", '{"metric":"$m","timestamp":1,"value":1}', /missing field `tags`/],
  ["string value", '{"metric":"$m","timestamp":1,"value":"1","tags":{}}', /value: invalid type/],
  ["float timestamp", '{"metric":"$m","timestamp":1.5,"value":1,"tags":{}}', /timestamp: invalid type/],
  ["numeric tag value", '{"metric":"$m","timestamp":1,"value":1,"tags":{"a":1}}', /tags.a: invalid type/],
  ["bad point after a good one", '[{"metric":"$m","timestamp":1,"value":1,"tags":{}}, 5]', /point 2/],
  ["a bare number", "42", /invalid type: integer `42`/],
];
for (const [name, body, error] of badBodies) {
  Deno.test(`JSON put: ${name} → 400, nothing written`, async () => {
    const m = uniqueName("badput");
    for (const q of ["", "?details"]) {
      const r = await post(`${PUT}${q}`, body.replaceAll("$m", m));
      assert.equal(r.status, 400, r.text);
      assert.match(JSON.parse(r.text).error, error);
    }
    assert.ok(!(await tableNames(base)).includes(m));
  });
}

Deno.test("JSON put: db parameter selects the database; OpenTSDB path alias works", async () => {
  await sqlExec(base, "CREATE DATABASE IF NOT EXISTS tsdb");
  const m = uniqueName("db");
  const r = await post(`${base}/v1/opentsdb/api/put?db=tsdb`, JSON.stringify(point(m, 1, 7)));
  assert.equal(r.status, 204, r.text);
  assert.deepEqual(await sqlRows(base, `SELECT greptime_value FROM ${m}`, "tsdb"), [[7]]);
});
