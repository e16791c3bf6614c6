import assert from "node:assert/strict";
import { decodeBatches, encodeBatches, StringTable } from "../../src/protocols/lineproto/columnar.ts";
import type { ColumnSchema, Value, WriteBatch } from "../../src/common/rows.ts";
import { plainBatch } from "../helpers/batches.ts";

function batch(kinds: string[], rows: Value[][]): WriteBatch {
  const columns: ColumnSchema[] = kinds.map((k, i) => ({
    name: `c${i}`,
    type: k as ColumnSchema["type"],
    semantic: "FIELD",
  }));
  return { table: "t", columns, rows, createType: "last_non_null" };
}

/** [case name, column kind wanted, column values] — one column each, checked to survive a round trip. */
const cases: [string, string, Value[]][] = [
  ["strings", "str", ["a", "b", "a", "", "é\u0000x"]],
  ["strings and nulls", "str", [null, "a", null]],
  ["long strings (sent apart from the table) among short ones", "str", [
    "x".repeat(129),
    "a",
    null,
    "x".repeat(129),
  ]],
  ["floats incl. -0, Infinity, NaN", "f64", [1.5, -0, 0, Infinity, -Infinity, NaN, 1e308]],
  ["numbers and nulls", "f64", [null, 1, null, 2]],
  ["bigints (time index)", "i64", [1700000000000000000n, -(2n ** 63n), 2n ** 63n - 1n]],
  ["bigints and nulls", "i64", [null, 5n]],
  ["booleans and nulls", "bool", [true, false, null, true]],
  ["all null", "null", [null, null]],
  ["numbers mixed with bigints (Int64 past 2^53)", "any", [1, 2n ** 60n, null]],
  ["a bigint past Int64 (UInt64)", "any", [2n ** 64n - 1n, 3n]],
  ["binary", "any", [new Uint8Array([1, 2]), null]],
  ["strings mixed with numbers", "any", ["a", 1]],
];

for (const [name, kind, values] of cases) {
  Deno.test(`lineproto columnar: ${name} round-trip as '${kind}'`, () => {
    const b = batch(["Float64"], values.map((v) => [v]));
    const { encoded, transfer } = encodeBatches([b]);
    assert.equal(encoded.batches[0].values[0].kind, kind);
    // What the worker posts: transferables detach, the receiver sees a clone.
    const received = structuredClone(encoded, { transfer });
    const back = decodeBatches(received).map(plainBatch);
    assert.deepEqual(back, [b]);
    if (kind === "f64") assert.ok(Object.is(back[0].rows[1][0], values[1]), "-0 kept");
  });
}

Deno.test("lineproto columnar: several batches share one string table; options and createType kept", () => {
  const a = batch(["String", "Float64"], [["x", 1], ["y", 2]]);
  const b: WriteBatch = {
    ...batch(["String", "Boolean"], [["x", true], [null, null]]),
    table: "u",
    options: { ttl: "1d" },
    createType: "physical",
  };
  const { encoded } = encodeBatches([a, b]);
  assert.deepEqual(encoded.strings, ["x", "y"]);
  assert.deepEqual(decodeBatches(structuredClone(encoded)).map(plainBatch), [a, b]);
  assert.deepEqual(decodeBatches(encodeBatches([]).encoded), []);
  assert.deepEqual(decodeBatches(encodeBatches([batch(["String"], [])]).encoded).map(plainBatch), [
    batch(["String"], []),
  ]);
});

Deno.test("lineproto columnar: a shared string table sends each short string once; receiver mirrors it", () => {
  const table = new StringTable();
  const mirror: string[] = [];
  const long = "L".repeat(200);
  const a = batch(["String", "String"], [["h1", "r1"], ["h2", "r1"]]);
  const b = batch(["String", "String"], [["h2", long], ["h3", "r1"]]);
  const first = encodeBatches([a], table).encoded;
  assert.deepEqual([first.strings, first.base, first.reset], [["h1", "h2", "r1"], 0, false]);
  assert.deepEqual(decodeBatches(structuredClone(first), mirror).map(plainBatch), [a]);
  const second = encodeBatches([b], table).encoded;
  assert.deepEqual([second.strings, second.base, second.extra], [["h3"], 3, [long]]);
  assert.deepEqual(decodeBatches(structuredClone(second), mirror).map(plainBatch), [b]);
  assert.deepEqual(mirror, ["h1", "h2", "r1", "h3"]);
  // Replaying a message (or losing one) puts the mirror out of step: an error, never wrong strings.
  assert.throws(() => decodeBatches(structuredClone(second), mirror), /out of step/);
  assert.throws(() => decodeBatches(encodeBatches([b], table).encoded, []), /out of step/);
});

Deno.test("lineproto columnar: a full shared table starts over and tells the receiver", () => {
  const table = new StringTable();
  const mirror: string[] = [];
  const many = batch(["String"], Array.from({ length: 100_000 }, (_, i) => [`s${i}`]));
  assert.deepEqual(decodeBatches(encodeBatches([many], table).encoded, mirror).map(plainBatch), [many]);
  assert.equal(mirror.length, 100_000);
  const next = batch(["String"], [["s5"], ["new"]]);
  const e = encodeBatches([next], table).encoded;
  assert.deepEqual([e.reset, e.base, e.strings], [true, 0, ["s5", "new"]]);
  assert.deepEqual(decodeBatches(e, mirror).map(plainBatch), [next]);
  assert.deepEqual(mirror, ["s5", "new"]);
});
