/**
 * The statement cache drops only the statements of a table whose schema changed: a write to table A
 * keeps its prepared INSERT (and a scan of A its SELECT) while table B is created, grows a column,
 * changes an option or is dropped; a rolled-back write drops only what it changed. The statements of
 * the least recently used tables go beyond a bound.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { ColumnSchema } from "../../src/common/rows.ts";
import { CPU, withMemoryStorage } from "./helpers.ts";
import { CACHED_TABLES } from "../../src/storage/statement_cache.ts";

const T = 1_700_000_000_000;
const WITH_EXTRA: ColumnSchema[] = [...CPU, { name: "extra", type: "String", semantic: "FIELD" }];

const prepares = (s: Storage) => s.database("public").statements.stats().prepares;
const writeA = (s: Storage, i: number) =>
  s.write("public", [{ table: "a", columns: CPU, rows: [["h", T + i, i]] }]);
const scanA = (s: Storage) =>
  s.scanTable("public", "a", { columns: ["v"], timeRange: [BigInt(T), BigInt(T + 99)] });

Deno.test("statement cache: schema changes to table B keep table A's statements", () => {
  withMemoryStorage((s) => {
    writeA(s, 0);
    scanA(s);
    const changes: Array<() => unknown> = [
      () => s.write("public", [{ table: "b", columns: CPU, rows: [["h", T, 1]] }]),
      () => s.write("public", [{ table: "b", columns: WITH_EXTRA, rows: [["h", T + 1, 1, "x"]] }]),
      () => executeSql(s, "ALTER TABLE b ADD COLUMN more STRING", { db: "public" }),
      () => executeSql(s, "ALTER TABLE b SET 'ttl' = '1d'", { db: "public" }),
      () => executeSql(s, "CREATE TABLE c (ts TIMESTAMP TIME INDEX, v DOUBLE)", { db: "public" }),
      () => executeSql(s, "ALTER TABLE c RENAME c2", { db: "public" }),
      () => executeSql(s, "DROP TABLE c2", { db: "public" }),
      () =>
        s.writeMetrics("public", [{
          metric: "m",
          series: [{ labels: { k: "v" }, samples: [{ timestampMs: T, value: 1 }] }],
        }]),
    ];
    for (const [i, change] of changes.entries()) {
      change();
      const before = prepares(s);
      writeA(s, i + 1);
      assert.equal(scanA(s).length, i + 2);
      const after = prepares(s);
      assert.equal(after.insert - before.insert, 0, `A's INSERT was prepared again after change ${i}`);
      assert.equal(after.scan - before.scan, 0, `A's scan was prepared again after change ${i}`);
    }
  });
});

Deno.test("statement cache: a schema change to A itself drops A's statements", () => {
  withMemoryStorage((s) => {
    writeA(s, 0);
    const before = prepares(s).insert;
    executeSql(s, "ALTER TABLE a ADD COLUMN more STRING", { db: "public" });
    writeA(s, 1);
    assert.equal(prepares(s).insert - before, 1);
  });
});

Deno.test("statement cache: a rolled-back write drops only the statements of what it changed", () => {
  withMemoryStorage((s) => {
    writeA(s, 0);
    s.write("public", [{ table: "b", columns: CPU, rows: [["h", T, 1]] }]);
    // b grows a column, then the write fails (a type conflict on a): the transaction rolls back
    assert.throws(() =>
      s.write("public", [
        { table: "b", columns: WITH_EXTRA, rows: [["h", T + 1, 1, "x"]] },
        {
          table: "a",
          columns: [CPU[0], CPU[1], { name: "v", type: "String", semantic: "FIELD" }],
          rows: [["h", T, "x"]],
        },
      ])
    );
    assert.equal(s.getTable("public", "b")!.columns.some((c) => c.name === "extra"), false);
    const before = prepares(s).insert;
    writeA(s, 1);
    assert.equal(prepares(s).insert - before, 0, "A's INSERT was prepared again");
    // b's rolled-back column is gone from its statements: its next write binds what it has
    s.write("public", [{ table: "b", columns: CPU, rows: [["h", T + 2, 2]] }]);
    assert.equal(
      s.scanTable("public", "b", { columns: ["v"], timeRange: [BigInt(T), BigInt(T + 9)] }).length,
      2,
    );
  });
});

Deno.test("statement cache: tables beyond the bound lose their statements, least recently used first", () => {
  withMemoryStorage((s) => {
    const writeTo = (table: string) => s.write("public", [{ table, columns: CPU, rows: [["h", T, 1]] }]);
    writeA(s, 0);
    const first = prepares(s).insert;
    for (let i = 0; i < CACHED_TABLES + 10; i++) {
      writeTo(`once_${i}`);
      writeA(s, 0); // a, used all along, keeps its statement
    }
    const stats = s.database("public").statements.stats();
    assert.equal(stats.tables, CACHED_TABLES);
    assert.ok(stats.evicted >= 10);
    assert.equal(stats.prepares.insert - first, CACHED_TABLES + 10, "a's INSERT was prepared again");
    writeTo("once_0"); // evicted long ago: prepared again
    assert.equal(prepares(s).insert - first, CACHED_TABLES + 11);
    writeTo(`once_${CACHED_TABLES + 9}`); // still cached
    assert.equal(prepares(s).insert - first, CACHED_TABLES + 11);
  });
});
