/**
 * The identity pipeline's per-shape fast path (`engine/identity_shape.ts`) against the general path
 * it replaces (flatten into a new object, take the hints, auto-type the sorted keys): same columns,
 * same rows, same options and same errors, over request bodies whose shapes repeat, change and
 * collide.
 */
import assert from "node:assert/strict";
import { flattenInto, identityPipeline } from "../../engine/identity.ts";
import { takeHints } from "../../engine/hints.ts";
import { RowCollector } from "../../engine/rows.ts";
import { type Entry, Timestamp } from "../../engine/value.ts";
import type { Value } from "../../src/common/rows.ts";
import { run, summary } from "./helpers.ts";

/** The general path, row by row: what every request gave before the per-shape plan. */
function reference(records: Entry[], maxLevels: number) {
  const rows = new RowCollector([{
    name: "greptime_timestamp",
    type: "TimestampNanosecond",
    semantic: "TIMESTAMP",
  }]);
  for (const rec of records) {
    const flat: Entry = {};
    flattenInto(rec, flat, maxLevels);
    const hints = takeHints(flat);
    const row: Value[] = new Array(rows.columns.length);
    row[0] = 0n;
    rows.autoTypeInto(flat, row, new Set(["greptime_timestamp"]));
    rows.push(row, "t", hints.options);
  }
  return summary({ batches: rows.finish(), skipped: 0 });
}

/** [name, records, max_nested_levels]. */
const CASES: [string, Entry[], number][] = [
  ["one shape repeated", [{ m: "a", n: 1, h: { x: "h1" } }, { m: "b", n: 2, h: { x: "h2" } }], 10],
  ["key order changes", [{ a: 1, b: { c: 2 } }, { b: { c: 3 }, a: 4 }, { a: 5, b: { c: 6 } }], 10],
  ["object becomes scalar", [{ a: { b: 1 } }, { a: "s" }, { a: { b: 2 } }], 10],
  ["scalar becomes array", [{ a: "1", z: [1, 2] }, { a: [1, { b: 2 }], z: "x" }], 10],
  ["nested key set changes", [{ h: { a: 1 } }, { h: { a: 2, b: 3 } }, { h: { b: 4 } }, { h: {} }], 10],
  ["dotted key collides with nested", [{ "a.b": 1, a: { b: 2 } }, { a: { b: 3 }, "a.b": 4 }], 10],
  ["colliding later null keeps null", [{ "a.b": 1, a: { b: null } }, { "a.b": 5 }], 10],
  ["hint keys beside nested objects", [{ greptime_ttl: "1d", h: { a: 1 } }, { h: { a: 2 } }], 10],
  ["hint-like nested keys are plain", [{ x: { greptime_ttl: "1d" } }, { greptime: { timestamp: 1 } }], 10],
  [
    "greptime_timestamp dropped",
    [{ greptime_timestamp: 5, a: 1 }, { greptime_timestamp: { x: 1 }, a: 2 }],
    10,
  ],
  ["objects at the level limit", [{ a: { b: { c: 1 } } }, { a: { b: { c: 2, d: [3] } } }], 2],
  ["level limit 1", [{ a: { b: 1 }, c: 2 }, { a: { b: 3 }, c: 4 }], 1],
  ["timestamps, bytes and bigints", [
    { t: new Timestamp(1, 2), b: new Uint8Array([1]), i: 5n },
    { t: new Timestamp(3), b: new Uint8Array([2]), i: 6n, o: { t: new Timestamp(4) } },
  ], 10],
  ["nulls and empty objects", [{ a: null, e: {} }, { a: 1, e: { f: null } }], 10],
];

for (const [name, records, levels] of CASES) {
  Deno.test(`identity shapes: ${name}`, () => {
    const res = run(identityPipeline({ maxNestedLevels: levels }), records);
    const got = summary(res).map((b) => ({ ...b, rows: b.rows.map((r) => ["0n", ...r.slice(1)]) }));
    assert.deepEqual(got, reference(records, levels));
    const times = new Set(res.batches.flatMap((b) => b.rows.map((r) => r[0])));
    assert.equal(times.size, 1, "rows without a time of their own share the request's arrival time");
  });
}

Deno.test("identity shapes: a type change fails the row on the fast path as on the general path", () => {
  const records = [{ h: { a: 1 } }, { h: { a: "x" } }];
  assert.throws(() => run(identityPipeline(), records), /Column datatype mismatch\. For column: h\.a/);
  const res = run(identityPipeline(), [...records, { h: { a: 2 } }], { skipError: true });
  assert.equal(res.skipped, 1);
  assert.deepEqual(summary(res)[0].rows.map((r) => r[1]), [1, 2]);
});
