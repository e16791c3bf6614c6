/**
 * DELETE matches rows as queries see them: a null tag (stored as X'' in a keyed table) is NULL to
 * `WHERE tag IS NULL`, to comparisons and to functions, and only the matched rows go.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { Value } from "../../src/common/rows.ts";

function rows(s: Storage, sql: string): Value[][] {
  const out = executeSql(s, sql, { db: "public" }).at(-1)!;
  return out.kind === "records" ? out.rows : [[out.rows]];
}

function withNullTags(appendMode: boolean): Storage {
  const s = Storage.open({ dataHome: ":memory:" });
  executeSql(
    s,
    `CREATE TABLE t (host STRING, dc STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host, dc))` +
      (appendMode ? " WITH (append_mode = 'true')" : "") +
      `; INSERT INTO t VALUES ('a', 'x', 1, 1), (NULL, 'x', 2, 2), ('b', NULL, 3, 3), (NULL, NULL, 4, 4), ('', 'y', 5, 5)`,
    { db: "public" },
  );
  return s;
}

for (const appendMode of [false, true]) {
  const kind = appendMode ? "append-mode table" : "keyed table";
  Deno.test(`DELETE on a ${kind}: WHERE tag IS NULL removes exactly the null-tag rows`, () => {
    const s = withNullTags(appendMode);
    try {
      assert.deepEqual(rows(s, "DELETE FROM t WHERE host IS NULL"), [[2]]);
      assert.deepEqual(rows(s, "SELECT host, dc, v FROM t ORDER BY v"), [["a", "x", 1], ["b", null, 3], [
        "",
        "y",
        5,
      ]]);
      assert.deepEqual(rows(s, "DELETE FROM t WHERE dc IS NULL AND v > 2"), [[1]]);
      assert.deepEqual(rows(s, "DELETE FROM t WHERE coalesce(host, 'none') = ''"), [[1]]);
      assert.deepEqual(rows(s, "SELECT host, dc, v FROM t ORDER BY v"), [["a", "x", 1]]);
      assert.deepEqual(rows(s, "DELETE FROM t WHERE host IS NOT NULL"), [[1]]);
      assert.deepEqual(rows(s, "SELECT count(*) FROM t"), [[0]]);
    } finally {
      s.close();
    }
  });
}

Deno.test("DELETE on a keyed table without null tags, and without WHERE, is plain", () => {
  const s = withNullTags(false);
  try {
    executeSql(s, "CREATE TABLE u (host STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))", {
      db: "public",
    });
    executeSql(s, "INSERT INTO u VALUES ('a', 1, 1), ('b', 2, 2)", { db: "public" });
    assert.deepEqual(rows(s, "DELETE FROM u WHERE host = 'a'"), [[1]]);
    assert.deepEqual(rows(s, "DELETE FROM t"), [[5]]);
    assert.deepEqual(rows(s, "SELECT host FROM u"), [["b"]]);
  } finally {
    s.close();
  }
});
