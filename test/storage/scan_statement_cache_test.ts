/**
 * Table scans read whole at once reuse one prepared statement per SQL shape (a statement dropped
 * unfinalized holds ~10 KB of SQLite memory until V8's next full GC, and readers scanned thousands of
 * times a minute), bounded per database, dropped on a schema change of their table, and giving the rows of each
 * scan's own range, bigint setting and values.
 */
import assert from "node:assert/strict";
import { T, withApplog } from "./applog_fixture.ts";
import type { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";

const scanKeys = (s: Storage) =>
  [...s.database("public").statements.keys()].filter((k) => k.startsWith("s\u0001"));

Deno.test("table scans: one prepared statement per shape, bounded, dropped on their table's schema change", () => {
  withApplog((s) => {
    for (let i = 0; i < 50; i++) {
      const rows = s.scanTable("public", "applog", {
        columns: ["line"],
        timeRange: [T + BigInt(i % 20), T + BigInt(i % 20)],
      });
      assert.deepEqual(rows, [[`l${i % 20}`]]);
    }
    assert.equal(scanKeys(s).length, 1);
    // the cached statement takes each scan's own bigint setting
    const [[asBig]] = s.scanTable("public", "applog", { columns: ["ts"], timeRange: [T, T], bigInts: true });
    assert.equal(asBig, T);
    const [[asNumber]] = s.scanTable("public", "applog", { columns: ["ts"], timeRange: [T, T] });
    assert.equal(asNumber, Number(T));
    assert.deepEqual(
      s.scanTable("public", "applog", { columns: ["line"], timeRange: [T, T + 19n], equal: { app: "a1" } })
        .length,
      7,
    );
    // an iteration dropped part way leaves the cached statement of the same shape usable
    const it = s.iterateTable("public", "applog", { columns: ["line"], timeRange: [T, T + 19n] });
    it.next();
    assert.equal(s.scanTable("public", "applog", { columns: ["line"], timeRange: [T, T + 19n] }).length, 20);
    // a scan that fails mid-read (an integer past 2^53 without bigInts) leaves the cache
    executeSql(s, "CREATE TABLE nums (v BIGINT, ts TIMESTAMP TIME INDEX)", { db: "public" });
    executeSql(s, `INSERT INTO nums VALUES (1, ${T}), (9007199254740993, ${T + 1n})`, { db: "public" });
    const nums = { columns: ["v"], timeRange: [T, T + 1n] as [bigint, bigint] };
    assert.throws(() => s.scanTable("public", "nums", nums), /too large/);
    assert.equal(scanKeys(s).filter((k) => k.includes('"nums"')).length, 0);
    assert.deepEqual(s.scanTable("public", "nums", { ...nums, bigInts: true }), [[1n], [9007199254740993n]]);
    // many shapes (here 300 combinations of tag equalities) keep at most the bound
    const tags = Array.from({ length: 9 }, (_, j) => `t${j}`);
    executeSql(
      s,
      `CREATE TABLE wide (${tags.map((t) => `${t} STRING`).join(", ")}, ts TIMESTAMP TIME INDEX, ` +
        `PRIMARY KEY(${tags.join(", ")}))`,
      { db: "public" },
    );
    for (let i = 1; i <= 300; i++) {
      const equal = Object.fromEntries(tags.filter((_, j) => (i >> j) & 1).map((t) => [t, "x"]));
      assert.deepEqual(s.scanTable("public", "wide", { columns: ["ts"], timeRange: [T, T], equal }), []);
    }
    assert.equal(scanKeys(s).length, 128);
    // a schema change drops the scans of its table only
    s.scanTable("public", "applog", { columns: ["line"], timeRange: [T, T] });
    assert.equal(scanKeys(s).filter((k) => k.includes('"applog"')).length, 1);
    executeSql(s, "ALTER TABLE applog ADD COLUMN extra STRING", { db: "public" });
    assert.equal(scanKeys(s).filter((k) => k.includes('"applog"')).length, 0);
    assert.equal(scanKeys(s).length, 127);
    assert.deepEqual(s.scanTable("public", "applog", { columns: ["extra"], timeRange: [T, T] }), [[null]]);
  });
});

Deno.test("table iterations: borrow the cached statement of their shape and give it back when done", () => {
  withApplog((s) => {
    const prepares = () => s.database("public").statements.stats().prepares.scan;
    const scan = {
      columns: ["line"],
      timeRange: [T, T + 19n] as [bigint, bigint],
      orderBy: ["ts"],
      descending: true,
    };
    const lines = () => [...s.iterateTable("public", "applog", scan)].map((r) => r[0]);
    assert.equal(lines().length, 20);
    const first = prepares();
    // read to the end, returned early (a search wanting the latest N), or with no row: reused
    assert.deepEqual(lines(), Array.from({ length: 20 }, (_, i) => `l${19 - i}`));
    for (const row of s.iterateTable("public", "applog", scan)) {
      assert.deepEqual(row, ["l19"]);
      break;
    }
    assert.deepEqual([...s.iterateTable("public", "applog", { ...scan, timeRange: [T + 99n, T + 99n] })], []);
    assert.equal(lines().length, 20);
    assert.equal(prepares(), first);
    // two at once of one shape: the second has its own, and each reads all its rows
    const a = s.iterateTable("public", "applog", scan), b = s.iterateTable("public", "applog", scan);
    assert.deepEqual(a.next().value, ["l19"]);
    assert.deepEqual(b.next().value, ["l19"]);
    assert.equal([...a].length + [...b].length, 38);
    assert.equal(prepares(), first + 1);
    // a whole-table scan of the same shape meanwhile does not disturb an iteration
    const c = s.iterateTable("public", "applog", scan);
    assert.deepEqual(c.next().value, ["l19"]);
    assert.equal(s.scanTable("public", "applog", scan).length, 20);
    assert.equal([...c].length, 19);
    // one borrowed across a schema change is not given back (its table may be the one changed)
    const d = s.iterateTable("public", "applog", scan);
    assert.deepEqual(d.next().value, ["l19"]);
    executeSql(s, "CREATE TABLE other (ts TIMESTAMP TIME INDEX, v DOUBLE)", { db: "public" });
    assert.equal([...d].length, 19);
    const before = prepares();
    assert.equal(lines().length, 20);
    assert.equal(prepares(), before + 1);
  });
});
