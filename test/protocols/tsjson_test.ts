import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import { PetrelError } from "../../src/common/errors.ts";
import { parseTsJsonPut, tsjsonTimestampMs } from "../../src/protocols/tsjson/parser.ts";
import { tsjsonPutSummary } from "../../src/protocols/tsjson/summary.ts";
import { tsjsonToBatches } from "../../src/ingest/tsjson.ts";

const P = "Invalid OpenTSDB Json request: ";

Deno.test("tsjson: one object", () => {
  const pts = parseTsJsonPut(
    '{"metric":"sys.cpu.nice","timestamp":1346846400,"value":18,"tags":{"host":"web01","dc":"lga"}}',
  );
  assert.deepEqual(pts, [{
    metric: "sys.cpu.nice",
    timestamp: 1346846400,
    value: 18,
    tags: { host: "web01", dc: "lga" },
  }]);
  assert.deepEqual(tsjsonToBatches(pts), [{
    table: "sys.cpu.nice",
    columns: [
      { name: "host", type: "String", semantic: "TAG" },
      { name: "dc", type: "String", semantic: "TAG" },
      { name: "greptime_value", type: "Float64", semantic: "FIELD" },
      { name: "greptime_timestamp", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
    ],
    rows: [["web01", "lga", 18, 1346846400000]],
    createType: "physical",
    options: { "greptime.semantic.signal_type": "metric", "greptime.semantic.source": "opentsdb" },
  }]);
});

Deno.test("tsjson: an array, several metrics, differing tag sets, extra fields ignored", () => {
  const pts = parseTsJsonPut(JSON.stringify([
    { metric: "a", timestamp: 1700000000, value: 1.5, tags: { host: "h1" }, extra: true },
    { metric: "b", timestamp: 1700000000123, value: -2, tags: {} },
    { metric: "a", timestamp: 1700000001, value: 3, tags: { dc: "x", host: "h2" } },
  ]));
  const batches = tsjsonToBatches(pts);
  assert.deepEqual(batches.map((b) => [b.table, b.columns.map((c) => c.name), b.rows]), [
    ["a", ["host", "dc", "greptime_value", "greptime_timestamp"], [["h1", null, 1.5, 1700000000000], [
      "h2",
      "x",
      3,
      1700000001000,
    ]]],
    ["b", ["greptime_value", "greptime_timestamp"], [[-2, 1700000000123]]],
  ]);
  assert.deepEqual(parseTsJsonPut("[]"), []);
});

const stamps: [number, number][] = [
  [0, 0],
  [1346846400, 1346846400000],
  [999999999999, 999999999999000],
  [1000000000000, 1000000000000],
  [1346846400123, 1346846400123],
];
for (const [ts, ms] of stamps) {
  Deno.test(`tsjson timestamp ${ts} → ${ms} ms`, () => assert.equal(tsjsonTimestampMs(ts), ms));
}

const bad: [string, string][] = [
  ["", "EOF while parsing a value at line 1 column 0"],
  ["   ", "EOF while parsing a value"],
  ["hello", "expected value at line 1 column 1"],
  ["\n  x", "expected value at line 2 column 3"],
  ['{"metric":', "EOF while parsing a value"],
  ['{"metric" "x"}', "at line 1 column"],
  ["42", "data did not match any variant of untagged enum DataPointRequests: invalid type: integer `42`"],
  ['{"metric":"m","timestamp":1,"value":1}', "missing field `tags`"],
  ['{"timestamp":1,"value":1,"tags":{}}', "missing field `metric`"],
  [
    '{"metric":"m","timestamp":1.5,"value":1,"tags":{}}',
    "timestamp: invalid type: floating point `1.5`, expected i64",
  ],
  ['{"metric":"m","timestamp":1,"value":"18","tags":{}}', 'value: invalid type: string "18", expected f64'],
  ['{"metric":"m","timestamp":1,"value":null,"tags":{}}', "value: invalid type: null, expected f64"],
  [
    '{"metric":"m","timestamp":1,"value":1,"tags":{"a":1}}',
    "tags.a: invalid type: integer `1`, expected a string",
  ],
  ['{"metric":"m","timestamp":1,"value":1,"tags":[]}', "tags: invalid type: a sequence, expected a map"],
  ['{"metric":7,"timestamp":1,"value":1,"tags":{}}', "metric: invalid type: integer `7`"],
  ['[{"metric":"m","timestamp":1,"value":1,"tags":{}}, 5]', "point 2: invalid type: integer `5`"],
];
for (const [body, msg] of bad) {
  Deno.test(`tsjson rejects ${JSON.stringify(body)}`, () => {
    assert.throws(() => parseTsJsonPut(body), (e: unknown) => {
      assert.ok(e instanceof PetrelError);
      assert.equal(httpStatusOf(e), 400);
      assert.equal(e.code, 1004);
      assert.ok(e.message.startsWith(P) && e.message.includes(msg), e.message);
      return true;
    });
  });
}

Deno.test("tsjson summary and details shapes", () => {
  const pts = parseTsJsonPut(JSON.stringify([
    { metric: "ok", timestamp: 1, value: 18, tags: { host: "a" } },
    { metric: "bad", timestamp: 1346846400, value: 0.5, tags: { host: "b" } },
    { metric: "bad2", timestamp: 2, value: 1e21, tags: {} },
  ]));
  const errors = [null, "Table `bad` has a type conflict", "boom"];
  assert.equal(tsjsonPutSummary(pts, errors, false), '{"success":1,"failed":2}');
  assert.equal(
    tsjsonPutSummary(pts, errors, true),
    '{"success":1,"failed":2,"errors":[' +
      '{"datapoint":{"metric":"bad","timestamp":1346846400,"value":0.5,"tags":{"host":"b"}},"error":"Table `bad` has a type conflict"},' +
      '{"datapoint":{"metric":"bad2","timestamp":2,"value":1e21,"tags":{}},"error":"boom"}]}',
  );
  assert.equal(tsjsonPutSummary(pts, [null, null, null], true), '{"success":3,"failed":0,"errors":[]}');
  assert.ok(
    tsjsonPutSummary([pts[0]], ["x"], true).includes('"value":18.0'),
    "integral floats print as serde does",
  );
});
