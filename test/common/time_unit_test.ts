/** The one time-unit module: every coarsening conversion floors, also before 1970. */
import assert from "node:assert/strict";
import {
  convertUnit,
  floorDiv,
  msToUnit,
  nsToUnit,
  rescaleTime,
  type TimeUnit,
  toEpochMs,
  unitOf,
  unitOfType,
} from "../../src/common/time_unit.ts";

Deno.test("floorDiv rounds toward negative infinity", () => {
  const cases: [bigint, bigint, bigint][] = [[7n, 2n, 3n], [-7n, 2n, -4n], [7n, -2n, -4n], [-7n, -2n, 3n], [
    -6n,
    2n,
    -3n,
  ], [0n, 5n, 0n]];
  for (const [a, b, q] of cases) assert.equal(floorDiv(a, b), q, `${a} / ${b}`);
});

const TO_MS: [number | bigint, TimeUnit, number][] = [
  [1_700_000_000, "s", 1_700_000_000_000],
  [-1, "s", -1000],
  [1_700_000_000_123, "ms", 1_700_000_000_123],
  [1.9, "ms", 1],
  [1_999, "us", 1],
  [-1, "us", -1],
  [-1_000, "us", -1],
  [-1_001, "us", -2],
  [1_999_999n, "ns", 1],
  [-1n, "ns", -1],
  [-1_000_000n, "ns", -1],
  [-1_000_001n, "ns", -2],
  [-1, "ns", -1],
];

for (const [v, unit, ms] of TO_MS) {
  Deno.test(`toEpochMs(${v}${typeof v === "bigint" ? "n" : ""}, ${unit}) = ${ms}`, () => {
    assert.equal(toEpochMs(v, unit), ms);
  });
}

Deno.test("unit conversions floor when coarsening and are exact when refining", () => {
  assert.equal(nsToUnit(-1n, "s"), -1n);
  assert.equal(nsToUnit(1_999_999_999n, "s"), 1n);
  assert.equal(convertUnit(-1n, "us", "ms"), -1n);
  assert.equal(convertUnit(3n, "s", "ns"), 3_000_000_000n);
  assert.equal(rescaleTime(-1, 1_000_000_000n, 1_000n), -1);
  assert.equal(rescaleTime(2n ** 62n, 1n, 1_000_000_000n), 2n ** 62n * 1_000_000_000n);
  assert.equal(msToUnit(-0.5, "s"), -1n);
  assert.equal(msToUnit(1.5, "us"), 1500n);
});

Deno.test("units of timestamp types", () => {
  assert.equal(unitOf("TimestampNanosecond"), "ns");
  assert.equal(unitOf("Int64"), "ms");
  assert.equal(unitOfType("Int64"), undefined);
  assert.equal(unitOfType("TimestampSecond"), "s");
});
