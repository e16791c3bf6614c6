import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Storage } from "../../src/storage/mod.ts";
import { createTable } from "../../src/storage/ddl.ts";
import type { TableMeta } from "../../src/storage/table.ts";
import { createTableSql, keyColumns, layoutOf } from "../../src/storage/table.ts";
import type { ColumnSchema, TableOptions, Value } from "../../src/common/rows.ts";
import { CPU, dump } from "./helpers.ts";

/** The CREATE statements SQLite holds for a table and its indexes. */
function ddlOf(s: Storage, db: string, table: string): string[] {
  const t = s.getTable(db, table)!;
  const rows = s.database(db).conn.prepare(
    `SELECT sql FROM "${t.schema}".sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC`,
  ).all(t.name) as Array<{ sql: string }>;
  return rows.map((r) => r.sql);
}

Deno.test("new tables cluster time-first: dedup key (ts, tags…), append index on ts only", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    const cols: ColumnSchema[] = [...CPU, { name: "dc", type: "String", semantic: "TAG" }];
    s.write("public", [{ table: "keyed", columns: cols, rows: [["a", 1, 1, "x"]] }]);
    s.write("public", [{ table: "logs", columns: cols, rows: [["a", 1, 1, "x"]] }], {
      hints: { append_mode: "true" },
    });
    const keyed = s.getTable("public", "keyed")!, logs = s.getTable("public", "logs")!;
    assert.equal(layoutOf(keyed), 2);
    assert.deepEqual(keyColumns(keyed), ["ts", "host", "dc"]);
    assert.match(ddlOf(s, "public", "keyed")[0], /PRIMARY KEY \("ts", "host", "dc"\)\) WITHOUT ROWID$/);
    assert.deepEqual(keyColumns(logs), ["ts"]);
    assert.match(ddlOf(s, "public", "logs")[1], /CREATE INDEX "__petrel_idx_logs" ON "logs" \("ts"\)$/);
    // CREATE TABLE through the DDL path gets the same layout
    createTable(s.database("public"), {
      name: "made",
      columns: [
        { name: "h", type: "String", semantic: "TAG", nullable: true },
        { name: "t", type: "TimestampMillisecond", semantic: "TIMESTAMP", nullable: false },
      ],
      timeIndex: "t",
      primaryKey: ["h"],
      options: {},
    }, false);
    assert.equal(s.getTable("public", "made")!.layout, 2);
    assert.match(ddlOf(s, "public", "made")[0], /PRIMARY KEY \("t", "h"\)\) WITHOUT ROWID$/);
  } finally {
    s.close();
  }
});

/** Re-creates a table as a pre-layout-version database held it: tags-first key, no `layout` in the catalog. */
function downgradeToLayout1(file: string, table: string): void {
  const conn = new DatabaseSync(file);
  try {
    const row = conn.prepare(`SELECT meta FROM __petrel_catalog WHERE name = ?`).get(table) as {
      meta: string;
    };
    const meta = JSON.parse(row.meta) as TableMeta;
    delete meta.layout;
    conn.exec("BEGIN");
    conn.exec(`ALTER TABLE "${table}" RENAME TO "${table}_new"`);
    conn.exec(`DROP INDEX IF EXISTS "__petrel_idx_${table}"`);
    const old: TableMeta = { ...meta, layout: 1, schema: "main", db: "public" };
    for (const sql of createTableSql(old)) conn.exec(sql);
    conn.exec(`INSERT INTO "${table}" SELECT * FROM "${table}_new"`);
    conn.exec(`DROP TABLE "${table}_new"`);
    conn.prepare(`UPDATE __petrel_catalog SET meta = ? WHERE name = ?`).run(JSON.stringify(meta), table);
    conn.exec("COMMIT");
  } finally {
    conn.close();
  }
}

const OLD_LAYOUT_CASES: Array<{
  name: string;
  hints: TableOptions;
  key: string[];
  /** Rows after writing [a,1,1] [b,1,2] [a,2,3], reopening, then [a,1,null] [b,1,5] [c,3,6]. */
  want: Value[][];
}> = [
  {
    name: "last_row",
    hints: {},
    key: ["host", "ts"],
    want: [["a", 1, null], ["a", 2, 3], ["b", 1, 5], ["c", 3, 6]],
  },
  {
    name: "last_non_null",
    hints: { merge_mode: "last_non_null" },
    key: ["host", "ts"],
    want: [["a", 1, 1], ["a", 2, 3], ["b", 1, 5], ["c", 3, 6]],
  },
  {
    name: "append",
    hints: { append_mode: "true" },
    key: ["host", "ts"],
    want: [["a", 1, null], ["a", 1, 1], ["a", 2, 3], ["b", 1, 2], ["b", 1, 5], ["c", 3, 6]],
  },
];

for (const c of OLD_LAYOUT_CASES) {
  Deno.test(`a layout-1 table (${c.name}) still opens, dedups and reads after a restart`, () => {
    const dir = Deno.makeTempDirSync({ prefix: "petrel-layout-" });
    try {
      let s = Storage.open({ dataHome: dir });
      s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1], ["b", 1, 2], ["a", 2, 3]] }], {
        hints: c.hints,
      });
      s.close();
      downgradeToLayout1(join(dir, "data", "public.sqlite"), "cpu");

      s = Storage.open({ dataHome: dir });
      const t = s.getTable("public", "cpu")!;
      assert.equal(layoutOf(t), 1);
      assert.deepEqual(keyColumns(t), c.key);
      s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, null], ["b", 1, 5], ["c", 3, 6]] }]);
      assert.deepEqual(dump(s, "public", "cpu", "host, ts, v"), c.want);
      assert.equal(layoutOf(s.getTable("public", "cpu")!), 1, "writing must not change the layout");
      s.close();
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  });
}

Deno.test("a new tag rebuilds a layout-1 keyed table into the current layout, keeping its rows", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-layout-" });
  try {
    let s = Storage.open({ dataHome: dir });
    s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1], ["b", 2, 2]] }]);
    s.close();
    downgradeToLayout1(join(dir, "data", "public.sqlite"), "cpu");
    s = Storage.open({ dataHome: dir });
    const cols: ColumnSchema[] = [...CPU, { name: "dc", type: "String", semantic: "TAG" }];
    s.write("public", [{ table: "cpu", columns: cols, rows: [["a", 1, 9, "x"]] }]);
    const t = s.getTable("public", "cpu")!;
    assert.equal(t.layout, 2);
    assert.deepEqual(keyColumns(t), ["ts", "host", "dc"]);
    s.close();
    s = Storage.open({ dataHome: dir });
    assert.equal(s.getTable("public", "cpu")!.layout, 2);
    // the null-tag stand-in sorts after text
    const want = [["a", 1, 9, "x"], ["a", 1, 1, null], ["b", 2, 2, null]];
    assert.deepEqual(dump(s, "public", "cpu", "host, ts, dc"), want);
    s.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("out-of-order batches dedup the same on the time-first key (later rows win)", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    s.write("public", [{
      table: "cpu",
      columns: CPU,
      rows: [["b", 3, 1], ["a", 2, 1], ["b", 1, 1], ["a", 2, 2], [null, 2, 7], ["b", 3, 4], ["a", 1, 5]],
    }]);
    s.write("public", [{ table: "cpu", columns: CPU, rows: [["b", 1, 8], ["a", 0, 0]] }]);
    assert.deepEqual(dump(s, "public", "cpu", "host, ts"), [
      ["a", 0, 0],
      ["a", 1, 5],
      ["a", 2, 2],
      ["b", 1, 8],
      ["b", 3, 4],
      [null, 2, 7],
    ]);
  } finally {
    s.close();
  }
});
