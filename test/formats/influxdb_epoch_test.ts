import assert from "node:assert/strict";
import { convertTimestamp, parseEpoch } from "../../src/http/formats/influxdb_v1.ts";
import type { Value } from "../../src/common/rows.ts";

const EPOCHS: [string | undefined, string | undefined][] = [
  [undefined, undefined],
  ["ns", "ns"],
  ["NS", "ns"],
  ["u", "u"],
  ["U", "u"],
  ["\u00b5", "u"],
  ["ms", "ms"],
  ["s", "s"],
  ["S", "s"],
  ["us", "ms"],
  ["", "ms"],
  ["h", "ms"],
];

Deno.test("parseEpoch: ns|u|µ|ms|s, case-insensitive, anything else ms", () => {
  for (const [input, want] of EPOCHS) assert.equal(parseEpoch(input), want, `for ${input}`);
});

const CONVERSIONS: [Value, string, string, Value][] = [
  [1716668197217, "ms", "s", 1716668197],
  [1716668197217, "ms", "ms", 1716668197217],
  [1716668197217, "ms", "u", 1716668197217000],
  [1716668197217, "ms", "ns", 1716668197217000000n],
  [1716668197, "s", "ms", 1716668197000],
  [1716668197217000000n, "ns", "ms", 1716668197217],
  [1716668197217999999n, "ns", "s", 1716668197],
  // Finer → coarser floors (div_euclid), also before the epoch.
  [-1, "ms", "s", -1],
  [-1000, "ms", "s", -1],
  [-1001, "ms", "s", -2],
  [-1500, "u", "ms", -2],
  // Coarser → finer that overflows i64 keeps the value unchanged.
  [9223372036854775807n, "s", "ns", 9223372036854775807n],
  [9223372036, "s", "ns", 9223372036000000000n],
  [9223372037, "s", "ns", 9223372037],
  [null, "ms", "s", null],
  ["x", "ms", "s", "x"],
  [1.5, "ms", "s", 1.5],
];

Deno.test("convertTimestamp: Timestamp::convert_to semantics", () => {
  for (const [value, from, to, want] of CONVERSIONS) {
    assert.equal(convertTimestamp(value, from, to), want, `${String(value)} ${from}→${to}`);
  }
});

Deno.test("convertTimestamp: the number fast path agrees with exact BigInt floor division", () => {
  const samples = [0, 1, -1, 999, 1000, -999, -1000, -1001, 9007199254740991, -9007199254740991];
  for (let k = 1; k < 2000; k++) samples.push(9007199254740991 - k * 997, -9007199254740991 + k * 1009);
  for (const v of samples) {
    for (
      const [from, to, d] of [["ns", "s", 1_000_000_000n], ["u", "ms", 1000n], [
        "ns",
        "ms",
        1_000_000n,
      ]] as const
    ) {
      const b = BigInt(v);
      const exact = b / d - ((b % d !== 0n && b < 0n) ? 1n : 0n);
      assert.equal(BigInt(convertTimestamp(v, from, to) as number), exact, `${v} ${from}→${to}`);
    }
  }
});
