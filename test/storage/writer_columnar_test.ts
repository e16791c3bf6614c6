/**
 * Batches held by column (`ColumnarBatch`, as the line-protocol worker delivers them) are written
 * exactly as the same rows given row by row: key order, later duplicates winning, merge modes,
 * nulls, typed-array columns, errors; and once a consumer has read (and changed) `rows`, those win.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { ColumnarBatch, type ColumnSchema, type ColumnValues, type Value } from "../../src/common/rows.ts";
import { dump } from "./helpers.ts";

const COLS: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "dc", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
  { name: "v", type: "Float64", semantic: "FIELD" },
  { name: "n", type: "Int64", semantic: "FIELD" },
];

/** Out of key order, with duplicates (the later must win) and nulls in a tag and in fields. */
const ROWS: Value[][] = [
  ["b", "x", 2000000000000000000n, 1.5, 1],
  ["a", "x", 2000000000000000000n, 2.5, null],
  ["a", null, 1000000000000000000n, null, 3],
  ["b", "x", 2000000000000000000n, null, 4],
  ["c", "y", 1000000000000000000n, -0.25, 5],
  ["a", "x", 2000000000000000000n, 9.5, 6],
];

/** The rows as columns: the float and time columns as typed arrays where they hold no null. */
function columnar(table: string, rows: Value[][]): ColumnarBatch {
  const cols: ColumnValues[] = COLS.map((_, j) => rows.map((r) => r[j]));
  if (rows.every((r) => r[2] !== null)) cols[2] = BigInt64Array.from(rows.map((r) => r[2] as bigint));
  return new ColumnarBatch(table, COLS, cols, rows.length);
}

const MODES: Record<string, string>[] = [
  {},
  { merge_mode: "last_non_null" },
  { merge_mode: "last_row" },
  { append_mode: "true" },
];
for (const hints of MODES) {
  Deno.test(`writer: a columnar batch is stored as its rows would be (${JSON.stringify(hints)})`, () => {
    const s = Storage.open({ dataHome: ":memory:" });
    try {
      assert.equal(
        s.write("public", [{ table: "by_rows", columns: COLS, rows: ROWS.map((r) => [...r]) }], { hints }),
        6,
      );
      const batch = columnar("by_cols", ROWS);
      assert.equal(s.write("public", [batch], { hints }), 6);
      assert.ok(!batch.materialized, "the writer read the columns, not rows");
      const order = "ts, host, dc, v, n";
      assert.deepEqual(dump(s, "public", "by_cols", order), dump(s, "public", "by_rows", order));
      // Columns that are already in key order are taken as they are.
      const sorted = columnar("sorted", [ROWS[2], ROWS[4], ROWS[1], ROWS[0]]);
      s.write("public", [sorted], { hints });
      assert.equal(dump(s, "public", "sorted").length, 4);
    } finally {
      s.close();
    }
  });
}

Deno.test("writer: rows read (and changed) from a columnar batch are what gets written", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    const batch = columnar("m", ROWS.slice(0, 2));
    batch.rows[0][3] = 42;
    assert.ok(batch.materialized);
    s.write("public", [batch]);
    assert.deepEqual(dump(s, "public", "m", "host"), [
      ["a", "x", 2000000000000000000n, 2.5, null],
      ["b", "x", 2000000000000000000n, 42, 1],
    ]);
  } finally {
    s.close();
  }
});

Deno.test("writer: a bad value in a columnar batch fails as in a row batch, writing nothing", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    s.write("public", [columnar("m", ROWS)]);
    const bad = ROWS.map((r) => [...r]);
    bad[3][3] = "oops";
    const byRows = (() => {
      try {
        s.write("public", [{ table: "m", columns: COLS, rows: bad }]);
      } catch (e) {
        return (e as Error).message;
      }
    })();
    assert.throws(() => s.write("public", [columnar("m", bad)]), { message: byRows });
    assert.match(byRows ?? "", /Invalid value 'oops' for column v of type Float64/);
    assert.equal(dump(s, "public", "m").length, 4);
  } finally {
    s.close();
  }
});
