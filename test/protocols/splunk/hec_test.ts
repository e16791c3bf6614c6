/** HEC body decoding without a server: the JSON object stream, epoch seconds, and event checks. */
import assert from "node:assert/strict";
import {
  decodeHecEvents,
  decodeHecRaw,
  type HecDefaults,
  HecError,
  parseEpochSeconds,
} from "../../../src/protocols/splunk/mod.ts";
import { splitJsonStream } from "../../../src/protocols/splunk/json_stream.ts";

const NONE: HecDefaults = { host: null, source: null, sourcetype: null, index: null, time: null };
const enc = new TextEncoder();

Deno.test("splitJsonStream: objects back to back, braces and escaped quotes inside strings", () => {
  assert.deepEqual(splitJsonStream(`{"a":"}{"}{"b":"x\\"}"}  \n{"c":{"d":[1,{"e":2}]}}`), [
    { a: "}{" },
    { b: 'x"}' },
    { c: { d: [1, { e: 2 }] } },
  ]);
  assert.throws(() => splitJsonStream(`{"a":1} 5`), /event 1 is not a JSON object/);
  assert.throws(() => splitJsonStream(`{"a":"}`), /event 0 is not complete JSON/);
});

Deno.test("parseEpochSeconds: seconds with a fraction to exact nanoseconds", () => {
  const cases: [unknown, bigint | null][] = [
    [1700000000, 1_700_000_000_000_000_000n],
    [1700000000.123, 1_700_000_000_123_000_000n],
    ["1700000000.123456789", 1_700_000_000_123_456_789n],
    ["1700000000.1234567891", 1_700_000_000_123_456_789n],
    [" 12.5 ", 12_500_000_000n],
    [0, 0n],
    ["9223372036.854775807", 9_223_372_036_854_775_807n],
    ["9223372036.854775808", null],
    ["9223372037", null],
    ["1".repeat(100_000), null],
    [-1, null],
    [1e21, null],
    ["1e9", null],
    [true, null],
    ["", null],
  ];
  for (const [v, want] of cases) {
    if (want === null) assert.throws(() => parseEpochSeconds(v, "'time'"), HecError, String(v));
    else assert.equal(parseEpochSeconds(v, "'time'"), want, String(v));
  }
});

Deno.test("decodeHecEvents and decodeHecRaw: typed events, defaults and the event's position on a fault", () => {
  const [e] = decodeHecEvents(
    enc.encode(`{"event":{"k":1},"fields":{"a":"x","b":2,"c":["p","q"]},"extra":"ignored"}`),
    { ...NONE, host: "dh", index: "idx", time: "5" },
  );
  assert.deepEqual(e, {
    timeNs: 5_000_000_000n,
    host: "dh",
    source: null,
    sourcetype: null,
    index: "idx",
    fields: { a: "x", b: "2", c: '["p","q"]' },
    event: { k: 1 },
  });
  try {
    decodeHecEvents(enc.encode(`{"event":"a"}{"event":"b","source":1}`), NONE);
    assert.fail("accepted a numeric source");
  } catch (err) {
    assert.ok(err instanceof HecError);
    assert.equal(err.hecCode, 6);
    assert.equal(err.eventNumber, 1);
  }
  assert.deepEqual(decodeHecRaw(enc.encode("a\r\n\n b \n"), NONE).map((x) => x.message), ["a", " b "]);
});
