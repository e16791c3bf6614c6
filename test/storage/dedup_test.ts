import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import type { ColumnSchema, Value } from "../../src/common/rows.ts";
import { canonical, dump } from "./helpers.ts";

const COLS: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  { name: "cpu", type: "Float64", semantic: "FIELD" },
  { name: "mem", type: "Float64", semantic: "FIELD" },
];

interface DedupCase {
  name: string;
  hints: Record<string, string>;
  /** Each inner list is one write call. */
  writes: Value[][][];
  expected: Value[][];
}

const CASES: DedupCase[] = [
  {
    name: "last_row replaces the whole row, later writes win",
    hints: {},
    writes: [[["a", 1, 1, 10]], [["a", 1, 2, null]]],
    expected: [["a", 1, 2, null]],
  },
  {
    name: "last_row within one batch keeps the last duplicate",
    hints: { merge_mode: "last_row" },
    writes: [[["a", 1, 1, 10], ["b", 1, 5, 5], ["a", 1, 3, 30]]],
    expected: [["a", 1, 3, 30], ["b", 1, 5, 5]],
  },
  {
    name: "last_non_null merges field by field across writes",
    hints: { merge_mode: "last_non_null" },
    writes: [[["a", 1, 1, null]], [["a", 1, null, 20]], [["a", 1, 3, null]]],
    expected: [["a", 1, 3, 20]],
  },
  {
    name: "last_non_null merges duplicates inside one batch",
    hints: { merge_mode: "last_non_null" },
    writes: [[["a", 1, 1, null], ["a", 1, null, 7], ["a", 2, 5, 5]]],
    expected: [["a", 1, 1, 7], ["a", 2, 5, 5]],
  },
  {
    name: "append_mode keeps every row",
    hints: { append_mode: "true" },
    writes: [[["a", 1, 1, 10], ["a", 1, 1, 10]], [["a", 1, 2, null]]],
    expected: [["a", 1, 1, 10], ["a", 1, 1, 10], ["a", 1, 2, null]],
  },
  {
    name: "null tags dedup with each other and stay apart from empty strings",
    hints: {},
    writes: [[[null, 1, 1, 1], ["", 1, 2, 2]], [[null, 1, 3, 3]]],
    expected: [[null, 1, 3, 3], ["", 1, 2, 2]],
  },
  {
    name: "unsorted input lands sorted and deduplicated",
    hints: {},
    writes: [[["b", 3, 1, 1], ["a", 2, 1, 1], ["b", 1, 1, 1], ["a", 2, 9, 9]]],
    expected: [["a", 2, 9, 9], ["b", 1, 1, 1], ["b", 3, 1, 1]],
  },
];

for (const c of CASES) {
  Deno.test(`dedup: ${c.name}`, () => {
    const s = Storage.open({ dataHome: ":memory:" });
    for (const rows of c.writes) s.write("public", [{ table: "t", columns: COLS, rows }], { hints: c.hints });
    assert.deepEqual(canonical(dump(s, "public", "t")), canonical(c.expected));
    s.close();
  });
}
