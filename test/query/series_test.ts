/** The query layer's one read: series by matchers over a time range, for both kinds of table. */
import assert from "node:assert/strict";
import type { ColumnSchema, Value } from "../../src/common/rows.ts";
import type { LabelMatcher } from "../../src/common/label_matcher.ts";
import { selectSeries } from "../../src/query/series.ts";
import { Storage } from "../../src/storage/mod.ts";
import { withMemoryStorage } from "../storage/helpers.ts";

const T = 1_700_000_000_000;

/** A line-protocol-shaped table: host and dc tags, nanosecond time, two numeric fields and a string. */
const CPU: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "dc", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
  { name: "usage", type: "Float64", semantic: "FIELD" },
  { name: "idle", type: "Int64", semantic: "FIELD" },
  { name: "note", type: "String", semantic: "FIELD" },
];

const ns = (ms: number) => BigInt(ms) * 1_000_000n;

function writeCpu(s: Storage, rows: Value[][]): void {
  s.write("public", [{ table: "cpu", columns: CPU, rows, createType: "physical" }]);
}

const eq = (name: string, value: string): LabelMatcher => ({ type: "EQ", name, value });

function summary(
  series: { labels: Record<string, string>; samples: { timestampMs: number; value: number }[] }[],
) {
  return series.map((s) => [s.labels, s.samples.map((x) => [x.timestampMs, x.value])]);
}

Deno.test("ordinary table: tags are labels, the first numeric field is the value, rows off range are out", () =>
  withMemoryStorage((s) => {
    writeCpu(s, [
      ["a", "x", ns(T), 0.5, 10, "n"],
      ["a", "x", ns(T + 1000), 0.7, 11, "n"],
      ["b", null, ns(T), 0.1, 12, null],
      ["b", null, ns(T + 5000), 0.2, 13, null],
    ]);
    const got = selectSeries(s, { db: "public", metric: "cpu", matchers: [], startMs: T, endMs: T + 1000 });
    assert.deepEqual(summary(got), [
      [{ __name__: "cpu", dc: "x", host: "a" }, [[T, 0.5], [T + 1000, 0.7]]],
      [{ __name__: "cpu", host: "b" }, [[T, 0.1]]],
    ]);
  }));

Deno.test("ordinary table: __field__ picks the value column; several fields are told apart by __field__", () =>
  withMemoryStorage((s) => {
    writeCpu(s, [["a", "x", ns(T), 0.5, 10, "n"]]);
    const q = { db: "public", metric: "cpu", startMs: T, endMs: T };
    assert.deepEqual(summary(selectSeries(s, { ...q, matchers: [eq("__field__", "idle")] })), [
      [{ __name__: "cpu", dc: "x", host: "a" }, [[T, 10]]],
    ]);
    const both = selectSeries(s, {
      ...q,
      matchers: [{ type: "RE", name: "__field__", value: "usage|idle" }],
    });
    assert.deepEqual(summary(both), [
      [{ __field__: "idle", __name__: "cpu", dc: "x", host: "a" }, [[T, 10]]],
      [{ __field__: "usage", __name__: "cpu", dc: "x", host: "a" }, [[T, 0.5]]],
    ]);
    assert.deepEqual(
      selectSeries(s, { ...q, matchers: [eq("__field__", "note")] }),
      [],
      "strings are no values",
    );
  }));

Deno.test("ordinary table: matchers on tags, absent labels match the empty string, unknown tags match nothing", () =>
  withMemoryStorage((s) => {
    writeCpu(s, [["a", "x", ns(T), 0.5, 1, null], ["b", null, ns(T), 0.1, 2, null]]);
    const q = { db: "public", metric: "cpu", startMs: T, endMs: T };
    const hosts = (matchers: LabelMatcher[]) => selectSeries(s, { ...q, matchers }).map((x) => x.labels.host);
    assert.deepEqual(hosts([eq("host", "b")]), ["b"]);
    assert.deepEqual(hosts([eq("dc", "")]), ["b"]);
    assert.deepEqual(hosts([{ type: "NEQ", name: "dc", value: "" }]), ["a"]);
    assert.deepEqual(hosts([{ type: "RE", name: "host", value: "a|b" }]), ["a", "b"]);
    assert.deepEqual(hosts([eq("zone", "z")]), []);
  }));

Deno.test("ordinary table: a nanosecond time before 1970 floors to the millisecond before", () =>
  withMemoryStorage((s) => {
    writeCpu(s, [["a", "x", -1n, 0.5, 1, null]]);
    const got = selectSeries(s, { db: "public", metric: "cpu", matchers: [], startMs: -1, endMs: -1 });
    assert.deepEqual(summary(got), [[{ __name__: "cpu", dc: "x", host: "a" }, [[-1, 0.5]]]]);
  }));

Deno.test("metric-engine table: the same read through the series index; a missing metric has no series", () =>
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{
      metric: "up",
      series: [{ labels: { job: "a" }, samples: [{ timestampMs: T, value: 1 }] }, {
        labels: { job: "b" },
        samples: [{ timestampMs: T, value: 0 }],
      }],
    }]);
    const q = { db: "public", metric: "up", startMs: T, endMs: T };
    assert.deepEqual(summary(selectSeries(s, { ...q, matchers: [eq("job", "b")] })), [
      [{ __name__: "up", job: "b" }, [[T, 0]]],
    ]);
    assert.equal(selectSeries(s, { ...q, matchers: [eq("__field__", "greptime_value")] }).length, 2);
    assert.deepEqual(selectSeries(s, { ...q, metric: "nope", matchers: [] }), []);
  }));

Deno.test("a line-protocol batch with a nanosecond time before 1970 lands in a metric table floored", () =>
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{
      metric: "m",
      series: [{ labels: { h: "a" }, samples: [{ timestampMs: T, value: 1 }] }],
    }]);
    s.write("public", [{
      table: "m",
      columns: [
        { name: "h", type: "String", semantic: "TAG" },
        { name: "greptime_timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
        { name: "greptime_value", type: "Float64", semantic: "FIELD" },
      ],
      rows: [["a", -1n, 2]],
    }]);
    const got = selectSeries(s, { db: "public", metric: "m", matchers: [], startMs: -1, endMs: T });
    assert.deepEqual(summary(got), [[{ __name__: "m", h: "a" }, [[-1, 2], [T, 1]]]]);
  }));
