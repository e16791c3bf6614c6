import assert from "node:assert/strict";
import {
  cellEncoderFor,
  encodeValue,
  formatDisplayFloat,
  formatJsonFloat,
  renderJsonText,
} from "../../src/http/formats/json_text.ts";
import type { Value } from "../../src/common/rows.ts";

// What serde_json (ryu) prints for an f64.
const RYU_CASES: [number, string][] = [
  [0, "0.0"],
  [-0, "-0.0"],
  [1, "1.0"],
  [1024, "1024.0"],
  [-2.5, "-2.5"],
  [66.6, "66.6"],
  [0.1, "0.1"],
  [0.1 + 0.2, "0.30000000000000004"],
  [1e15, "1000000000000000.0"],
  [9007199254740992, "9007199254740992.0"],
  [1e16, "1e16"],
  [1.5e16, "1.5e16"],
  [123456789012345.6, "123456789012345.6"],
  [1e21, "1e21"],
  [1e300, "1e300"],
  [1.7976931348623157e308, "1.7976931348623157e308"],
  [1e-5, "0.00001"],
  [1.234e-3, "0.001234"],
  [1e-6, "1e-6"],
  [1.5e-7, "1.5e-7"],
  [5e-324, "5e-324"],
  [-1e-10, "-1e-10"],
  [NaN, "null"],
  [Infinity, "null"],
  [-Infinity, "null"],
];

Deno.test("formatJsonFloat prints floats as serde_json/ryu does", () => {
  for (const [x, want] of RYU_CASES) assert.equal(formatJsonFloat(x), want, `for ${x}`);
});

// What Rust's f64 Display prints (Prometheus sample values), with Prometheus' non-finite names.
const DISPLAY_CASES: [number, string][] = [
  [0, "0"],
  [-0, "-0"],
  [1, "1"],
  [2, "2"],
  [1.5, "1.5"],
  [0.1, "0.1"],
  [123.456, "123.456"],
  [1e21, "1000000000000000000000"],
  [1.5e22, "15000000000000000000000"],
  [1e-7, "0.0000001"],
  [-3.25e-5, "-0.0000325"],
  [NaN, "NaN"],
  [Infinity, "+Inf"],
  [-Infinity, "-Inf"],
];

Deno.test("formatDisplayFloat prints floats as Rust's Display does", () => {
  for (const [x, want] of DISPLAY_CASES) assert.equal(formatDisplayFloat(x), want, `for ${x}`);
});

const VALUE_CASES: [string, string, Value, string][] = [
  ["null", "String", null, "null"],
  ["string escapes", "String", 'a"b\\c\n\u0001é', '"a\\"b\\\\c\\n\\u0001é"'],
  ["integer", "Int64", 42, "42"],
  ["negative zero integer", "Int64", -0, "0"],
  ["bigint beyond 2^53", "Int64", 9223372036854775807n, "9223372036854775807"],
  ["uint64 max", "UInt64", 18446744073709551615n, "18446744073709551615"],
  ["huge integral number", "UInt64", 1e21, "1000000000000000000000"],
  ["timestamp ns", "TimestampNanosecond", 1716668197217000000n, "1716668197217000000"],
  ["integral float", "Float64", 1024, "1024.0"],
  ["float32", "Float32", 3, "3.0"],
  ["float32 widened from f32", "Float32", 0.1, "0.10000000149011612"],
  ["float32 NaN", "Float32", NaN, "null"],
  ["float NaN", "Float64", NaN, "null"],
  ["bigint in float column", "Float64", 2n, "2.0"],
  ["boolean", "Boolean", true, "true"],
  ["binary as byte array", "Binary", new Uint8Array([104, 105, 0, 255]), "[104,105,0,255]"],
  ["empty binary", "Binary", new Uint8Array(0), "[]"],
  ["fraction in an untyped column", "Decimal(10, 2)", 1.25, "1.25"],
  ["json object keys sorted", "Json", '{"b": 1.0, "a": [1, 2e2, -0, "x"]}', '{"a":[1,200.0,0,"x"],"b":1.0}'],
  ["json string", "Json", '"hi"', '"hi"'],
  ["json big integer", "Json", "18446744073709551616", "1.8446744073709552e19"],
  ["json not json", "Json", "not json", '"not json"'],
  ["json nested", "Json", '{"z":{"y":null,"x":true}}', '{"z":{"x":true,"y":null}}'],
];

Deno.test("cellEncoderFor renders cells by column data type", () => {
  for (const [name, type, value, want] of VALUE_CASES) {
    assert.equal(cellEncoderFor(type)(value), want, name);
  }
});

Deno.test("encodeValue without a type prints integral numbers as integers", () => {
  assert.equal(encodeValue(5), "5");
  assert.equal(encodeValue(5.5), "5.5");
  assert.equal(encodeValue(NaN), "null");
});

Deno.test("renderJsonText compacts JSON and sorts keys", () => {
  assert.equal(renderJsonText(' [ {"b":"x","a":1.50} ] '), '[{"a":1.5,"b":"x"}]');
});
