/** Pipeline version strings (reference §12.5): printing with 0/3/6/9 fractional digits, and every accepted spelling. */
import assert from "node:assert/strict";
import { formatVersion, parseVersion } from "../../engine/store_version.ts";

const BASE = 1720081860n * 1_000_000_000n; // 2024-07-04 08:31:00 UTC

const FORMATS: [bigint, string][] = [
  [BASE, "2024-07-04 08:31:00"],
  [BASE + 987_000_000n, "2024-07-04 08:31:00.987"],
  [BASE + 987_136_000n, "2024-07-04 08:31:00.987136"],
  [BASE + 987_136_001n, "2024-07-04 08:31:00.987136001"],
  [BASE + 1_000n, "2024-07-04 08:31:00.000001"],
];

for (const [ns, text] of FORMATS) {
  Deno.test(`version: ${text} prints and parses back`, () => {
    assert.equal(formatVersion(ns), text);
    assert.equal(parseVersion(text), ns);
  });
}

const SPELLINGS: [string, bigint][] = [
  ["2024-07-04T08:31:00.987136Z", BASE + 987_136_000n],
  ["2024-07-04 08:31:00.987136Z", BASE + 987_136_000n],
  ["2024-07-04T10:31:00.5+02:00", BASE + 500_000_000n],
  ["2024-07-04 03:31:00-05:00", BASE],
  ["2024-07-04T08:31:00", BASE],
  ["  2024-07-04 08:31:00.1  ", BASE + 100_000_000n],
];

for (const [text, ns] of SPELLINGS) {
  Deno.test(`version: '${text}' is accepted`, () => assert.equal(parseVersion(text), ns));
}

for (
  const bad of [
    "latest",
    "2024-07-04",
    "2024-07-04 08:31",
    "2024-13-01 08:31:00",
    "2024-02-30 08:31:00",
    "2024-07-04 24:00:00",
    "2024-07-04 08:31:00.1234567890",
  ]
) {
  Deno.test(`version: '${bad}' is refused`, () => {
    assert.throws(() => parseVersion(bad), { message: `Invalid pipeline version format: ${bad}` });
  });
}
