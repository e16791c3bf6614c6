/**
 * The query plans of table scans (what readers above storage run): a bounded range searches the
 * time index, an unordered scan of the whole table reads the table itself (walking the index and
 * looking each row up was ~3× slower), an ordered one walks the index for its order, and rows come
 * back the same whichever plan runs.
 */
import assert from "node:assert/strict";
import { T, withApplog } from "./applog_fixture.ts";
import { scanStatement, type TableScan } from "../../src/storage/scan.ts";

const ALL: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];

/** [case, scan, a pattern its plan must match, one it must not] */
const CASES: [string, Omit<TableScan, "columns">, RegExp, RegExp | null][] = [
  ["bounded range", { timeRange: [T, T + 5n] }, /SEARCH \S+ USING INDEX/, null],
  ["open below", { timeRange: [ALL[0], T + 5n] }, /SEARCH \S+ USING INDEX .*ts</, null],
  ["whole table, unordered", { timeRange: ALL }, /SCAN \S+$/m, /INDEX/],
  ["whole table, distinct tags", { timeRange: ALL, distinct: true }, /SCAN \S+$/m, /USING INDEX/],
  [
    "whole table, latest first",
    { timeRange: ALL, orderBy: ["ts"], descending: true },
    /INDEX/,
    /TEMP B-TREE/,
  ],
];

Deno.test("table scans: the time index where it bounds or orders the read, the table where it does not", () => {
  withApplog((s) => {
    const table = s.getTable("public", "applog")!;
    const conn = s.database("public").conn;
    for (const [name, scan, must, mustNot] of CASES) {
      const columns = scan.distinct ? ["app"] : ["app", "line", "ts"];
      const st = scanStatement(table, { ...scan, columns })!;
      const plan = conn.prepare(`EXPLAIN QUERY PLAN ${st.sql}`).all(...st.params)
        .map((r) => String((r as { detail: string }).detail)).join("\n");
      assert.match(plan, must, `${name}: ${plan}`);
      if (mustNot) assert.doesNotMatch(plan, mustNot, `${name}: ${plan}`);
    }
    const all = s.scanTable("public", "applog", { columns: ["line"], timeRange: ALL });
    assert.equal(all.length, 20);
    assert.deepEqual(
      s.scanTable("public", "applog", { columns: ["app"], timeRange: ALL, distinct: true }).sort(),
      [
        ["a0"],
        ["a1"],
        ["a2"],
      ],
    );
    const latest = [...s.iterateTable("public", "applog", {
      columns: ["line"],
      timeRange: ALL,
      orderBy: ["ts"],
      descending: true,
    })].slice(0, 2);
    assert.deepEqual(latest, [["l19"], ["l18"]]);
    assert.deepEqual(s.scanTable("public", "applog", { columns: ["line"], timeRange: [T + 3n, T + 4n] }), [
      ["l3"],
      ["l4"],
    ]);
  });
});
