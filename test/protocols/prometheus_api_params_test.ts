/** Prometheus API parameter forms: times and durations as `web/api/v1` parses them. */
import assert from "node:assert/strict";
import {
  MAX_TIME_MS,
  MIN_TIME_MS,
  parsePromDuration,
  parsePromTime,
} from "../../src/protocols/prometheus_api/params.ts";

Deno.test("times: unix seconds, RFC 3339, Prometheus' boundary times", () => {
  const cases: [string, number | null][] = [
    ["1700000000", 1_700_000_000_000],
    ["1700000000.5", 1_700_000_000_500],
    ["1700000000.1234", 1_700_000_000_123],
    ["1.7e9", 1_700_000_000_000],
    ["-1.5", -1500],
    ["2023-11-14T22:13:20Z", 1_700_000_000_000],
    ["2023-11-14T22:13:20.250Z", 1_700_000_000_250],
    ["2023-11-14T22:13:20.999999999Z", 1_700_000_000_999],
    ["2023-11-15T00:13:20+02:00", 1_700_000_000_000],
    ["2023-11-14T20:13:20.5-02:00", 1_700_000_000_500],
    ["-292273086-05-16T16:47:06Z", MIN_TIME_MS],
    ["292277025-08-18T07:12:54.999999999Z", MAX_TIME_MS],
    ["2023-02-30T00:00:00Z", null],
    ["2023-11-14 22:13:20", null],
    ["now", null],
    ["", null],
  ];
  for (const [text, want] of cases) assert.equal(parsePromTime(text), want, text);
});

Deno.test("durations: float seconds or Prometheus durations", () => {
  const cases: [string, number | string][] = [
    ["15", 15_000],
    ["0.5", 500],
    ["1m", 60_000],
    ["1h30m", 5_400_000],
    ["100ms", 100],
    ["2d", 172_800_000],
    ["fast", 'cannot parse "fast" to a valid duration'],
    ["1e20", 'cannot parse "1e20" to a valid duration. It overflows int64'],
    ["30m1h", 'cannot parse "30m1h" to a valid duration'],
  ];
  for (const [text, want] of cases) assert.equal(parsePromDuration(text), want, text);
});
