import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Storage } from "../../src/storage/mod.ts";
import { CPU, dump } from "./helpers.ts";

Deno.test("databases, tables, options and rows survive a restart", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-persist-" });
  try {
    let s = Storage.open({ dataHome: dir });
    assert.deepEqual(s.listDatabases(), ["greptime_private", "information_schema", "public"]);
    s.createDatabase("metrics", false);
    s.write("metrics", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1], [null, 2, 2]] }], {
      hints: { ttl: "30d" },
    });
    s.write("public", [{ table: "fast", columns: CPU, rows: [["a", 1, 1]] }], {
      hints: { skip_wal: "true" },
    });
    const indexed = CPU.map((c) =>
      c.name === "v" ? { ...c, index: { kind: "skipping" as const, options: { granularity: "8" } } } : c
    );
    s.write("public", [{ table: "indexed", columns: indexed, rows: [["a", 1, 1]] }]);
    s.close();
    assert.ok(existsSync(join(dir, "data", "metrics.sqlite")));
    assert.ok(
      !existsSync(join(dir, "data", "metrics.sqlite-wal")) ||
        Deno.statSync(join(dir, "data", "metrics.sqlite-wal")).size === 0,
    );

    s = Storage.open({ dataHome: dir });
    assert.ok(s.hasDatabase("metrics"));
    const t = s.getTable("metrics", "cpu")!;
    assert.equal(t.options.ttl, "30d");
    assert.deepEqual(t.primaryKey, ["host"]);
    assert.deepEqual(dump(s, "metrics", "cpu", "ts"), [["a", 1, 1], [null, 2, 2]]);
    assert.equal(s.getTable("public", "fast")!.schema, "nowal");
    assert.deepEqual(dump(s, "public", "fast"), [["a", 1, 1]]);
    assert.deepEqual(s.getTable("public", "indexed")!.columns.find((c) => c.name === "v")!.index, {
      kind: "skipping",
      options: { granularity: "8" },
    });
    // the table id counter continues
    s.write("metrics", [{ table: "mem", columns: CPU, rows: [["a", 1, 1]] }]);
    assert.notEqual(s.getTable("metrics", "mem")!.id, t.id);
    s.dropDatabase("metrics");
    s.close();

    s = Storage.open({ dataHome: dir });
    assert.ok(!s.hasDatabase("metrics"));
    assert.ok(!existsSync(join(dir, "data", "metrics.sqlite")));
    s.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test(":memory: storage writes no files", () => {
  const before = Deno.cwd();
  const s = Storage.open({ dataHome: ":memory:" });
  s.createDatabase("x", false);
  s.write("x", [{ table: "t", columns: CPU, rows: [["a", 1, 1]] }]);
  assert.ok(!existsSync(join(before, ":memory:")));
  s.close();
});

Deno.test("createDatabase: exists errors, ifNotExists returns false, bad names rejected", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  assert.equal(s.createDatabase("a", false), true);
  assert.equal(s.createDatabase("a", true), false);
  assert.throws(() => s.createDatabase("a", false), (e: { code: number }) => e.code === 4011);
  for (const bad of ["../etc", "a/b", "", "a b"]) {
    assert.throws(() => s.createDatabase(bad, false), /Invalid database name/);
  }
  s.close();
});

Deno.test("skip_wal tables live in the synchronous=OFF file", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  s.write("public", [{ table: "fast", columns: CPU, rows: [["a", 1, 1]] }], { hints: { skip_wal: "true" } });
  s.write("public", [{ table: "safe", columns: CPU, rows: [["a", 1, 1]] }]);
  assert.equal(s.getTable("public", "fast")!.schema, "nowal");
  assert.equal(s.getTable("public", "safe")!.schema, "main");
  const conn = s.database("public").conn;
  const sync = (schema: string) =>
    (conn.prepare(`PRAGMA ${schema}.synchronous`).get() as { synchronous: number }).synchronous;
  assert.equal(sync("nowal"), 0);
  assert.equal(sync("main"), 1);
  s.close();
});

Deno.test("new database files use 16 KiB pages; a file made with 4 KiB pages keeps them and works", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-pages-" });
  try {
    Deno.mkdirSync(join(dir, "data"));
    const old = new DatabaseSync(join(dir, "data", "old.sqlite"));
    old.exec("PRAGMA page_size=4096; PRAGMA journal_mode=WAL; CREATE TABLE t(x)");
    old.close();
    const s = Storage.open({ dataHome: dir });
    try {
      s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1]] }]);
      s.write("public", [{ table: "fast", columns: CPU, rows: [["a", 1, 1]] }], {
        hints: { skip_wal: "true" },
      });
      const conn = s.database("public").conn;
      assert.equal(conn.prepare("PRAGMA main.page_size").get()?.page_size, 16384);
      assert.equal(conn.prepare("PRAGMA nowal.page_size").get()?.page_size, 16384);
      s.write("old", [{ table: "cpu", columns: CPU, rows: [["b", 2, 2]] }]);
      assert.equal(s.database("old").conn.prepare("PRAGMA main.page_size").get()?.page_size, 4096);
      // The background checkpointer's safety net is a WAL size, so it is more pages of 4 KiB.
      assert.equal(
        s.database("old").conn.prepare("PRAGMA wal_autocheckpoint").get()?.wal_autocheckpoint,
        8192,
      );
      assert.deepEqual(dump(s, "old", "cpu"), [["b", 2, 2]]);
    } finally {
      s.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
