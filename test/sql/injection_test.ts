/** Names are always quoted when Petrel builds SQL: hostile table and column names stay names. */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { ColumnSchema } from "../../src/common/rows.ts";

const HOSTILE = [
  `x"; DROP TABLE victim; --`,
  `x" (ts) ; DELETE FROM victim WHERE "1"="1`,
  `'); DROP TABLE victim; --`,
  "x`; DROP TABLE victim; --",
  'victim" WHERE 1=1 --',
  "a]b[c",
  "名前 with spaces",
];

function withVictim(): Storage {
  const s = Storage.open({ dataHome: ":memory:" });
  executeSql(s, "CREATE TABLE victim (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO victim VALUES (1, 1)", {
    db: "public",
  });
  return s;
}

function victimIntact(s: Storage): void {
  const [out] = executeSql(s, "SELECT count(*) FROM victim", { db: "public" });
  assert.deepEqual(out.kind === "records" ? out.rows : [], [[1]]);
}

for (const name of HOSTILE) {
  Deno.test(`writer: hostile table and column name ${JSON.stringify(name)}`, () => {
    const s = withVictim();
    const cols: ColumnSchema[] = [
      { name, type: "String", semantic: "TAG" },
      { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
      { name: `${name}_f`, type: "Float64", semantic: "FIELD" },
    ];
    s.write("public", [{ table: name, columns: cols, rows: [["a", 1, 1]] }]);
    s.write("public", [{
      table: name,
      columns: [...cols, { name: `${name}_tag2`, type: "String", semantic: "TAG" }],
      rows: [["a", 2, 2, "t"]],
    }]);
    victimIntact(s);
    const t = s.getTable("public", name)!;
    assert.deepEqual(t.columns.map((c) => c.name), [name, "ts", `${name}_f`, `${name}_tag2`]);
    s.close();
  });

  Deno.test(`sql: hostile quoted name ${JSON.stringify(name)}`, () => {
    const s = withVictim();
    const q = `"${name.replaceAll('"', '""')}"`;
    executeSql(s, `CREATE TABLE ${q} (ts TIMESTAMP TIME INDEX, ${q} STRING PRIMARY KEY)`, { db: "public" });
    executeSql(s, `INSERT INTO ${q} (ts, ${q}) VALUES (1, 'v')`, { db: "public" });
    const [out] = executeSql(s, `SELECT ${q} FROM ${q}`, { db: "public" });
    assert.deepEqual(out.kind === "records" ? [out.columns[0].name, out.rows] : [], [name, [["v"]]]);
    const [desc] = executeSql(s, `DESC TABLE ${q}`, { db: "public" });
    assert.equal(desc.kind === "records" ? desc.rows[1][0] : "", name);
    executeSql(s, `DELETE FROM ${q} WHERE ${q} = 'v'; DROP TABLE ${q}`, { db: "public" });
    victimIntact(s);
    s.close();
  });
}

Deno.test("string literals cannot break out either", () => {
  const s = withVictim();
  executeSql(s, "CREATE TABLE t (ts TIMESTAMP TIME INDEX, s STRING)", { db: "public" });
  const evil = "x'); DROP TABLE victim; --";
  executeSql(s, `INSERT INTO t VALUES (1, '${evil.replaceAll("'", "''")}')`, { db: "public" });
  const [out] = executeSql(s, `SELECT s FROM t WHERE s = '${evil.replaceAll("'", "''")}'`, { db: "public" });
  assert.deepEqual(out.kind === "records" ? out.rows : [], [[evil]]);
  victimIntact(s);
});

Deno.test("SHOW ... LIKE and WHERE with hostile patterns", () => {
  const s = withVictim();
  const [a] = executeSql(s, "SHOW TABLES LIKE 'v%''; DROP TABLE victim; --'", { db: "public" });
  assert.deepEqual(a.kind === "records" ? a.rows : [], []);
  victimIntact(s);
});
