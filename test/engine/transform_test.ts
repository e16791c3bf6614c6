/** Run-time transform cases: coercion matrix, `on_failure`, `default`, null/missing (reference §7.4–7.5). */
import assert from "node:assert/strict";
import { compilePipeline, Timestamp } from "../../engine/mod.ts";
import { plain, run } from "./helpers.ts";

/** [name, transform options (YAML lines under the item), input value (undefined = key absent), expected cell | {error}]. */
type Case = [string, string, unknown, unknown];
const CASES: Case[] = [
  // integers
  ["int8 from int", "type: int8", 12, 12],
  ["int8 out of range fails", "type: int8", 300, {
    error: "Failed to coerce value: integer value `300` is out of range for INT8",
  }],
  ["uint8 negative fails", "type: uint8", -1, { error: "is out of range for UINT8" }],
  ["int8 from float is not range-checked", "type: int8", 300.5, 300],
  ["int32 from float truncates", "type: int32", -2.9, -2],
  ["int32 from float saturates", "type: int32", 1e12 + 0.5, 2147483647],
  ["int64 from string", "type: int64", "-42", -42],
  ["int64 from big string", "type: int64", "9223372036854775807", 9223372036854775807n],
  ["uint64 from big string", "type: uint64", "18446744073709551615", 18446744073709551615n],
  ["int32 from bad string fails", "type: int32", "1.5", {
    error: "Failed to coerce string value '1.5' to type 'INT32'",
  }],
  ["int16 from out-of-range string fails", "type: int16", "40000", { error: "to type 'INT16'" }],
  ["int32 from bool", "type: int32", true, 1],
  // floats
  ["float64 from int", "type: float64", 3, 3],
  ["float32 narrows", "type: float32", 0.1, Math.fround(0.1)],
  ["float32 from an integer narrows too", "type: float32", 16777217, 16777216],
  ["float32 from a big integer narrows", "type: float32", 2 ** 40 + 1, 2 ** 40],
  ["float64 from strings", "type: float64", "1e3", 1000],
  ["float64 from inf word", "type: float64", "-Infinity", -Infinity],
  ["float64 from .5", "type: float64", ".5", 0.5],
  ["float64 bad string fails", "type: float64", "x", {
    error: "Failed to coerce string value 'x' to type 'FLOAT64'",
  }],
  // booleans and strings
  ["boolean from int", "type: boolean", 0, false],
  ["boolean from float", "type: boolean", 0.5, true],
  ["boolean from string", "type: boolean", "true", true],
  ["boolean from bad string", "type: boolean", "TRUE", { error: "to type 'BOOLEAN'" }],
  ["string from int", "type: string", 7, "7"],
  ["string from float uses Rust display", "type: string", 2.5, "2.5"],
  ["string from tiny float no exponent", "type: string", 1e-7, "0.0000001"],
  ["string from bool", "type: string", false, "false"],
  ["string from object fails", "type: string", { a: 1 }, {
    error: "Can not coerce STRING to json type. we only consider object and array to be json types.",
  }],
  ["string from timestamp fails", "type: string", new Timestamp(0), {
    error: "Failed to coerce value: Timestamp can only be coerced to another type",
  }],
  // json
  ["json from object", "type: json", { b: 1, a: [true] }, '{"a":[true],"b":1}'],
  ["json from string fails hard", "type: json", "x", {
    error: "Failed to coerce string value 'x' to type 'BINARY'",
  }],
  ["json from int fails hard", "type: json", 1, { error: "Can not coerce json type to BINARY" }],
  // timestamps
  ["timestamp from int keeps the count", "type: timestamp, ms", 1716668197217, 1716668197217],
  ["timestamp from Timestamp converts unit", "type: epoch, s", new Timestamp(1716668197217), 1716668197],
  ["timestamp us", "type: time, us", new Timestamp(1716668197217, 5000), 1716668197217005],
  ["timestamp ns is a bigint", "type: time", new Timestamp(1716668197217, 1), 1716668197217000001n],
  ["timestamp from string fails", "type: time", "2024", {
    error: "Type: String value not supported for Epoch",
  }],
  ["timestamp from float fails", "type: time", 1.5, { error: "Type: Float value not supported for Epoch" }],
  ["timestamp from bool fails", "type: time", true, { error: "Type: Boolean value not supported for Epoch" }],
  ["timestamp string with ignore → null", "type: time\n    on_failure: ignore", "x", null],
  ["timestamp string with default → error", "type: time\n    on_failure: default", "x", {
    error: "Type: Default value not supported for Epoch",
  }],
  // on_failure / default
  ["on_failure ignore → null", "type: int32\n    on_failure: ignore", "x", null],
  ["on_failure default → zero", "type: int32\n    on_failure: default", "x", 0],
  ["on_failure default string zero", "type: float64\n    on_failure: default", "x", 0],
  ["on_failure default boolean zero", "type: boolean\n    on_failure: default", "x", false],
  ["default forces on_failure default", "type: int32\n    on_failure: ignore\n    default: 7", "x", 7],
  ["default used for missing key", "type: string\n    default: none", undefined, "none"],
  ["missing key without default → null", "type: string\n    on_failure: default", undefined, null],
  ["missing key → null", "type: int32", undefined, null],
  ["explicit null never gets default", "type: int32\n    default: 7", null, null],
  ["default parsed into the column type", "type: float32\n    default: 1", "bad", 1],
  ["default boolean", "type: boolean\n    default: true", undefined, true],
];

for (const [name, opts, input, expected] of CASES) {
  Deno.test(`transform: ${name}`, () => {
    const p = compilePipeline(`transform:\n  - field: v\n    ${opts}\n`);
    const rec: Record<string, unknown> = { other: 1 };
    if (input !== undefined) rec.v = input;
    if (expected && typeof expected === "object" && "error" in expected) {
      assert.throws(
        () => p.run([rec], { table: "t", skipError: false, resolve: () => undefined }),
        (e: Error) => {
          assert.ok(e.message.includes((expected as { error: string }).error), e.message);
          return true;
        },
      );
      return;
    }
    const res = p.run([rec], { table: "t", skipError: false, resolve: () => undefined });
    assert.deepEqual(plain(res.batches[0].rows[0][0]), plain(expected));
  });
}

Deno.test("transform v1: only transformed fields are stored, greptime_timestamp is now", () => {
  const p = compilePipeline("transform:\n  - fields: [a, 'b, bb']\n    type: string\n");
  const before = BigInt(Date.now()) * 1_000_000n;
  const res = run(p, [{ a: "x", b: "y", c: "dropped" }]);
  const b = res.batches[0];
  assert.deepEqual(b.columns.map((c) => c.name), ["a", "bb", "greptime_timestamp"]);
  assert.equal(b.createType, "log");
  assert.deepEqual(b.rows[0].slice(0, 2), ["x", "y"]);
  const ts = b.rows[0][2] as bigint;
  assert.equal(typeof ts, "bigint");
  assert.ok(ts >= before && ts <= BigInt(Date.now() + 1) * 1_000_000n);
});

Deno.test("transform v1: greptime_timestamp input integer taken as ns, string fails", () => {
  const p = compilePipeline("transform:\n  - field: a\n    type: string\n");
  assert.deepEqual(run(p, [{ a: "x", greptime_timestamp: 5 }]).batches[0].rows[0], ["x", 5]);
  assert.throws(
    () => run(p, [{ a: "x", greptime_timestamp: "5" }]),
    /Type: Default value not supported for Epoch/,
  );
});

Deno.test("transform: time index missing → error; present null → null", () => {
  const p = compilePipeline("transform:\n  - field: t\n    type: epoch, ms\n    index: timestamp\n");
  assert.throws(() => run(p, [{}]), /Time index must be non null\./);
  assert.deepEqual(run(p, [{ t: null }]).batches[0].rows[0], [null]);
});

Deno.test("transform: time index missing with on_failure default → now in the column unit", () => {
  const p = compilePipeline(
    "transform:\n  - field: t\n    type: epoch, s\n    index: timestamp\n    on_failure: default\n",
  );
  const v = run(p, [{}]).batches[0].rows[0][0] as number;
  assert.ok(Math.abs(v - Date.now() / 1000) < 5);
});
