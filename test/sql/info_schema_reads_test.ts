/**
 * An information_schema query fills only the tables it names, and measures bytes on disk (a walk of
 * every page of the file) only when it may read them: answers stay those of a full refresh.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { Value } from "../../src/common/rows.ts";

function rows(s: Storage, sql: string): Value[][] {
  const out = executeSql(s, sql, { db: "public" });
  const last = out[out.length - 1];
  return last.kind === "records" ? last.rows : [];
}

/** [query, whether it must measure bytes on disk] */
const CASES: [string, boolean][] = [
  ["SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1", false],
  ["SELECT table_name, data_length FROM information_schema.tables ORDER BY 1", true],
  ["SELECT TABLE_NAME, INDEX_LENGTH FROM information_schema.tables ORDER BY 1", true],
  ["SELECT * FROM information_schema.tables ORDER BY table_name", true],
  ["SELECT count(*) FROM information_schema.tables", true],
  [
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'cpu' ORDER BY 1",
    false,
  ],
  ["SELECT schema_name FROM information_schema.schemata ORDER BY 1", false],
  [
    "SELECT t.table_name, c.column_name FROM information_schema.tables t JOIN information_schema.columns c " +
    "ON t.table_name = c.table_name WHERE t.table_schema = 'public' ORDER BY 1, 2",
    false,
  ],
];

Deno.test("information_schema: only the named tables are filled, sizes only when read", () => {
  const dir = Deno.makeTempDirSync();
  const s = Storage.open({ dataHome: dir });
  let walks = 0;
  const diskUsage = s.diskUsage.bind(s);
  s.diskUsage = (db) => (walks++, diskUsage(db));
  try {
    rows(s, "CREATE TABLE cpu (host STRING, usage DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))");
    rows(s, "INSERT INTO cpu VALUES ('a', 1.5, 1700000000000), ('b', 2.5, 1700000000001)");
    const answers = CASES.map(([sql, sizes]) => {
      const before = walks;
      const out = rows(s, sql);
      assert.equal(walks > before, sizes, sql);
      return out;
    });
    assert.ok(answers[0].some((r) => r[0] === "cpu"));
    assert.ok(Number(answers[1].find((r) => r[0] === "cpu")![1]) >= 4096, "cpu's bytes are measured");
    assert.deepEqual(answers[5], [["host", "string"], ["ts", "timestamp(3)"], ["usage", "double"]]);
    assert.ok(answers[6].some((r) => r[0] === "public"));
    assert.ok(answers[7].some((r) => r[0] === "cpu" && r[1] === "usage"));
    // a table not named by the previous query is filled afresh when a later one names it
    rows(s, "CREATE TABLE mem (v DOUBLE, ts TIMESTAMP TIME INDEX)");
    assert.deepEqual(
      rows(s, "SELECT table_name FROM information_schema.columns WHERE table_name = 'mem'").length,
      2,
    );
    assert.ok(rows(s, CASES[0][0]).some((r) => r[0] === "mem"));
  } finally {
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
