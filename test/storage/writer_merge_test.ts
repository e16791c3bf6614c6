/**
 * last_non_null writes take a faster plain replace when a batch writes every column with no null
 * field; these cases pin that the result is the same as the merge in every mix.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import type { ColumnSchema, Value } from "../../src/common/rows.ts";
import { dump } from "./helpers.ts";

const FULL: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  { name: "a", type: "Float64", semantic: "FIELD" },
  { name: "b", type: "Float64", semantic: "FIELD" },
];
const ONLY_A = FULL.slice(0, 3);

const CASES: Array<{ name: string; writes: Array<[ColumnSchema[], Value[][]]>; want: Value[][] }> = [
  {
    name: "complete rows overwrite complete rows",
    writes: [[FULL, [["h", 1, 1, 1]]], [FULL, [["h", 1, 2, 2]]]],
    want: [["h", 1, 2, 2]],
  },
  {
    name: "a null field keeps the stored value",
    writes: [[FULL, [["h", 1, 1, 1]]], [FULL, [["h", 1, null, 2], ["k", 1, 5, 5]]]],
    want: [["h", 1, 1, 2], ["k", 1, 5, 5]],
  },
  {
    name: "a batch without a column keeps that column's stored value",
    writes: [[FULL, [["h", 1, 1, 1]]], [ONLY_A, [["h", 1, 3]]]],
    want: [["h", 1, 3, 1]],
  },
  {
    name: "duplicates inside one complete batch: the later row wins",
    writes: [[FULL, [["h", 1, 1, 1], ["h", 1, 2, 2]]]],
    want: [["h", 1, 2, 2]],
  },
  {
    name: "duplicates inside one batch with a null: merged in order",
    writes: [[FULL, [["h", 1, 1, 1], ["h", 1, null, 2]]]],
    want: [["h", 1, 1, 2]],
  },
  {
    name: "a null tag in a complete batch reads back as null",
    writes: [[FULL, [[null, 1, 1, 1]]], [FULL, [[null, 1, 2, 2]]]],
    want: [[null, 1, 2, 2]],
  },
];

for (const c of CASES) {
  Deno.test(`last_non_null: ${c.name}`, () => {
    const s = Storage.open({ dataHome: ":memory:" });
    try {
      for (const [columns, rows] of c.writes) {
        s.write("public", [{ table: "m", columns, rows, createType: "last_non_null" }]);
      }
      assert.equal(s.getTable("public", "m")!.options.merge_mode, "last_non_null");
      assert.deepEqual(dump(s, "public", "m", "host, ts"), c.want);
    } finally {
      s.close();
    }
  });
}
