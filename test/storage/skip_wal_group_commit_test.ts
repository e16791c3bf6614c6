/** Group commit of skip_wal writes: who sees pending rows when, and that nothing acknowledged is lost. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Storage } from "../../src/storage/mod.ts";
import type { QueryOutput, WriteBatch } from "../../src/common/rows.ts";
import {
  enableGroupCommit,
  flushGroupCommit,
  pendingRows,
  setGroupCommit,
} from "../../src/storage/group_commit.ts";
import { executeSql } from "../../src/sql/mod.ts";
import { executeSqlAsync } from "../../src/sql/async.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { CPU } from "./helpers.ts";

const NOWAL = { hints: { skip_wal: "true" } };
const WINDOW_MS = 30;

function fast(rows: Array<[string, number, number]>, table = "fast"): WriteBatch {
  return { table, columns: CPU, rows };
}

/** Row count of a table as another connection (like the query worker) sees it. */
function committedCount(storage: Storage, table: string, db = "public"): number {
  const h = storage.database(db);
  const t = h.requireTable(table);
  const conn = new DatabaseSync(h.files.main!, { readOnly: true });
  try {
    conn.prepare("ATTACH DATABASE ? AS nowal").run(h.files.nowal!);
    const row = conn.prepare(`SELECT count(*) AS n FROM "${t.schema}"."${t.name}"`).get() as { n: number };
    return Number(row.n);
  } finally {
    conn.close();
  }
}

function firstValue(out: QueryOutput[]): number {
  const o = out[0];
  if (o.kind !== "records") throw new Error(`expected records, got ${o.kind}`);
  return Number(o.rows[0][0]);
}

function sqlCount(storage: Storage, table: string, db = "public"): number {
  return firstValue(executeSql(storage, `SELECT count(*) FROM ${table}`, { db }));
}

/** Opens a file-backed storage with group commit on, runs `fn`, then closes and cleans up. */
async function withStorage(
  fn: (s: Storage, dir: string) => void | Promise<void>,
  opts: { maxRows?: number } = {},
): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-groupcommit-" });
  const s = Storage.open({ dataHome: dir });
  enableGroupCommit(s, { windowMs: WINDOW_MS, maxRows: opts.maxRows });
  try {
    await fn(s, dir);
  } finally {
    s.close();
    setGroupCommit({});
    Deno.removeSync(dir, { recursive: true });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("pending skip_wal rows: visible on the connection at once, elsewhere after the window", async () => {
  await withStorage(async (s) => {
    s.write("public", [fast([["a", 1, 1]])], NOWAL); // creates the table: committed at once
    assert.equal(pendingRows(s.database("public")), 0);
    assert.equal(committedCount(s, "fast"), 1);
    s.write("public", [fast([["b", 2, 2], ["c", 3, 3]])], NOWAL);
    assert.equal(pendingRows(s.database("public")), 2);
    assert.equal(sqlCount(s, "fast"), 3);
    assert.equal(committedCount(s, "fast"), 1);
    await sleep(WINDOW_MS + 40);
    assert.equal(pendingRows(s.database("public")), 0);
    assert.equal(committedCount(s, "fast"), 3);
    // the query worker reads its own connection: it sees them once committed
    s.write("public", [fast([["d", 4, 4]])], NOWAL);
    await sleep(WINDOW_MS + 40);
    const out = await executeSqlAsync(s, "SELECT count(*) FROM fast", { db: "public" });
    assert.equal(firstValue(out), 4);
  });
});

Deno.test("a durable write commits before it returns, and commits pending skip_wal rows with it", async () => {
  await withStorage((s) => {
    s.write("public", [fast([["a", 1, 1]])], NOWAL);
    s.write("public", [fast([["a", 1, 1]], "cpu")]);
    s.write("public", [fast([["b", 3, 1]])], NOWAL);
    assert.equal(pendingRows(s.database("public")), 1);
    s.write("public", [fast([["b", 2, 2], ["c", 3, 3]], "cpu")]);
    assert.equal(pendingRows(s.database("public")), 0);
    assert.equal(committedCount(s, "cpu"), 3);
    assert.equal(committedCount(s, "fast"), 2);
    // one call mixing a skip_wal and a durable table is durable
    s.write("public", [fast([["d", 4, 4]]), fast([["d", 4, 4]], "cpu")], NOWAL);
    assert.equal(committedCount(s, "fast"), 3);
    assert.equal(committedCount(s, "cpu"), 4);
  });
});

const FAILING: Array<[string, WriteBatch[], autoCreate?: boolean]> = [
  ["a bad value", [fast([["x", 10, 10]]), { table: "fast", columns: CPU, rows: [["y", 11, "nope"]] }]],
  ["a type clash", [fast([["x", 10, 10]]), {
    table: "fast",
    columns: [CPU[0], CPU[1], { name: "v", type: "String", semantic: "FIELD" }],
    rows: [["y", 11, "s"]],
  }]],
  ["a table created then a failure", [fast([["x", 10, 10]], "fresh"), {
    table: "fresh",
    columns: CPU,
    rows: [["y", null, 1]],
  }]],
  ["a missing table without auto-create", [fast([["x", 10, 10]]), {
    table: "absent",
    columns: CPU,
    rows: [["y", 1, 1]],
  }], false],
];

for (const [name, batches, autoCreate = true] of FAILING) {
  Deno.test(`a failing write (${name}) rolls back only itself, never pending rows`, async () => {
    await withStorage((s) => {
      s.write("public", [fast([["a", 1, 1]])], NOWAL);
      s.write("public", [fast([["b", 2, 2]])], NOWAL);
      assert.equal(pendingRows(s.database("public")), 1);
      assert.throws(
        () =>
          s.write("public", batches, { hints: { skip_wal: "true", auto_create_table: String(autoCreate) } }),
        PetrelError,
      );
      assert.equal(s.getTable("public", "fresh"), undefined);
      assert.equal(sqlCount(s, "fast"), 2);
      s.write("public", [fast([["c", 3, 3]])], NOWAL);
      flushGroupCommit(s.database("public"));
      assert.equal(committedCount(s, "fast"), 3);
    });
  });
}

Deno.test("a failing durable write keeps pending skip_wal rows", async () => {
  await withStorage((s) => {
    s.write("public", [fast([["a", 1, 1]], "cpu")]);
    s.write("public", [fast([["a", 1, 1]])], NOWAL);
    s.write("public", [fast([["b", 2, 2]])], NOWAL);
    assert.throws(
      () => s.write("public", [fast([["a", 2, 2]], "cpu"), fast([["z", -1, 0]], "__petrel_x")]),
      /Invalid table name: __petrel_x/,
    );
    assert.equal(sqlCount(s, "cpu"), 1);
    assert.equal(sqlCount(s, "fast"), 2);
  });
});

Deno.test("DDL, database options, metric writes and the ttl sweep on a connection with pending rows", async () => {
  await withStorage((s) => {
    const q = (sql: string) => executeSql(s, sql, { db: "public" });
    s.write("public", [fast([["a", 1, 1]])], NOWAL);
    // Distinct timestamps: two writes in one millisecond would dedup into one row.
    let n = 0;
    const pend = () => s.write("public", [fast([["p", Date.now() + n++, 1]])], NOWAL);
    pend();
    q("CREATE TABLE made (ts TIMESTAMP TIME INDEX, v DOUBLE) WITH (skip_wal='true')");
    assert.equal(committedCount(s, "fast"), 2);
    pend();
    q("ALTER TABLE fast ADD COLUMN extra STRING");
    assert.equal(committedCount(s, "fast"), 3);
    pend();
    q("ALTER DATABASE public SET 'ttl'='7d'");
    assert.equal(committedCount(s, "fast"), 4);
    pend();
    s.write("public", [{
      table: "up",
      columns: [
        { name: "job", type: "String", semantic: "TAG" },
        { name: "greptime_timestamp", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
        { name: "greptime_value", type: "Float64", semantic: "FIELD" },
      ],
      rows: [["j", Date.now(), 1]],
      createType: "logical",
    }]);
    assert.equal(committedCount(s, "fast"), 5);
    pend();
    q("INSERT INTO made VALUES (1, 1)");
    s.sweepExpired();
    assert.equal(sqlCount(s, "fast"), 5); // ts 1 is older than 7 days
    pend();
    assert.deepEqual(
      q("SELECT table_name FROM information_schema.tables WHERE table_name = 'made'")[0],
      q("SELECT 'made' AS table_name")[0],
    );
    assert.equal(sqlCount(s, "fast"), 6);
    q("TRUNCATE TABLE made");
    q("DROP TABLE made");
    pend();
    s.createDatabase("other");
    s.write("other", [fast([["a", 1, 1]])], NOWAL);
    s.write("other", [fast([["b", 2, 2]])], NOWAL);
    s.dropDatabase("other");
    assert.equal(sqlCount(s, "fast"), 7);
    assert.equal(committedCount(s, "fast"), 6);
  });
});

Deno.test("maxRows pending rows commit at once", async () => {
  await withStorage((s) => {
    s.write("public", [fast([["a", 1, 1]])], NOWAL);
    for (let i = 0; i < 9; i++) s.write("public", [fast([["a", 10 + i, 1]])], NOWAL);
    assert.equal(pendingRows(s.database("public")), 9);
    s.write("public", [fast([["a", 100, 1]])], NOWAL);
    assert.equal(pendingRows(s.database("public")), 0);
    assert.equal(committedCount(s, "fast"), 11);
  }, { maxRows: 10 });
});

Deno.test("a graceful close commits pending rows, and they survive a restart", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-groupcommit-" });
  try {
    let s = Storage.open({ dataHome: dir });
    enableGroupCommit(s, { windowMs: 50 });
    s.write("public", [fast([["a", 1, 1]])], NOWAL);
    for (let i = 0; i < 100; i++) s.write("public", [fast([["h", 10 + i, i]])], NOWAL);
    s.createDatabase("more");
    s.write("more", [fast([["a", 1, 1]])], NOWAL);
    s.write("more", [fast([["b", 2, 2]])], NOWAL);
    assert.equal(pendingRows(s.database("public")), 100);
    s.close();
    setGroupCommit(null);
    s = Storage.open({ dataHome: dir });
    assert.equal(sqlCount(s, "fast"), 101);
    assert.equal(sqlCount(s, "fast", "more"), 2);
    s.close();
  } finally {
    setGroupCommit({});
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("without group commit every skip_wal write commits before it returns", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-groupcommit-" });
  const s = Storage.open({ dataHome: dir });
  setGroupCommit(null);
  try {
    s.write("public", [fast([["a", 1, 1]])], NOWAL);
    s.write("public", [fast([["b", 2, 2]])], NOWAL);
    assert.equal(pendingRows(s.database("public")), 0);
    assert.equal(committedCount(s, "fast"), 2);
  } finally {
    s.close();
    setGroupCommit({});
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("group commit settings are checked", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    assert.throws(() => enableGroupCommit(s, { windowMs: 51 }), RangeError);
    assert.throws(() => enableGroupCommit(s, { maxRows: 0 }), RangeError);
  } finally {
    s.close();
  }
});

Deno.test("group commit is on by default, and a script ending without close() still commits", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-groupcommit-" });
  try {
    const script = join(dir, "write.ts");
    Deno.writeTextFileSync(
      script,
      `import { Storage } from ${JSON.stringify(import.meta.resolve("../../src/storage/mod.ts"))};
import { pendingRows } from ${JSON.stringify(import.meta.resolve("../../src/storage/group_commit.ts"))};
const s = Storage.open({ dataHome: ${JSON.stringify(dir)} });
const columns = ${JSON.stringify(CPU)};
for (let i = 0; i < 3; i++) {
  s.write("public", [{ table: "fast", columns, rows: [["a", i, i]] }], { hints: { skip_wal: "true" } });
}
console.log(pendingRows(s.database("public")));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", fileURLToPath(import.meta.resolve("../../deno.json")), script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "2");
    const s = Storage.open({ dataHome: dir });
    try {
      assert.equal(sqlCount(s, "fast"), 3);
    } finally {
      s.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
