import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { batchFromRecords } from "../../src/storage/writer.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { ColumnSchema } from "../../src/common/rows.ts";
import { canonical, CPU, dump } from "./helpers.ts";

function fresh(autoCreateTable = true): Storage {
  return Storage.open({ dataHome: ":memory:", autoCreateTable });
}

Deno.test("write creates the table with tags as primary key and the comment option", () => {
  const s = fresh();
  const n = s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1.5], ["b", 1, 2.5]] }]);
  assert.equal(n, 2);
  const t = s.getTable("public", "cpu")!;
  assert.deepEqual(t.primaryKey, ["host"]);
  assert.equal(t.timeIndex, "ts");
  assert.deepEqual(t.columns.map((c) => [c.name, c.type, c.semantic]), [
    ["host", "String", "TAG"],
    ["ts", "TimestampMillisecond", "TIMESTAMP"],
    ["v", "Float64", "FIELD"],
  ]);
  assert.equal(t.options.comment, "Created on insertion");
  assert.deepEqual(dump(s, "public", "cpu"), [["a", 1, 1.5], ["b", 1, 2.5]]);
  s.close();
});

const CREATE_TYPES: Array<[string, Record<string, string> | undefined, Record<string, string>]> = [
  ["physical", { append_mode: "true", ttl: "7d" }, { append_mode: "true", ttl: "7d" }],
  ["log", { merge_mode: "last_non_null" }, { append_mode: "true" }],
  ["last_non_null", undefined, { merge_mode: "last_non_null" }],
  // physical_table picks a metric engine's physical table: no option of an ordinary table (reference §8)
  ["physical", { skip_wal: "true", auto_create_table: "true", physical_table: "greptime_physical_table" }, {
    skip_wal: "true",
  }],
];

for (const [createType, hints, expected] of CREATE_TYPES) {
  Deno.test(`createType ${createType} with hints ${JSON.stringify(hints)} gives ${JSON.stringify(expected)}`, () => {
    const s = fresh();
    s.write("public", [{ table: "t", columns: CPU, rows: [["a", 1, 1]], createType: createType as "log" }], {
      hints,
    });
    const opts = { ...s.getTable("public", "t")!.options };
    delete opts.comment;
    assert.deepEqual(opts, expected);
    s.close();
  });
}

Deno.test("auto_create_table disabled (globally or by hint) refuses to create", () => {
  for (const [s, hints] of [[fresh(false), undefined], [fresh(), { auto_create_table: "false" }]] as const) {
    assert.throws(
      () => s.write("public", [{ table: "nope", columns: CPU, rows: [["a", 1, 1]] }], { hints }),
      (e: PetrelError) => e.code === 1004 && httpStatusOf(e) === 400 && /auto_create_table/.test(e.message),
    );
    assert.equal(s.getTable("public", "nope"), undefined);
    s.close();
  }
  const s = fresh();
  assert.throws(
    () =>
      s.write("public", [{ table: "x", columns: CPU, rows: [["a", 1, 1]] }], {
        hints: { auto_create_table: "maybe" },
      }),
    /must be a boolean/,
  );
});

Deno.test("unknown database is 4004", () => {
  const s = fresh();
  assert.throws(
    () => s.write("nodb", [{ table: "t", columns: CPU, rows: [["a", 1, 1]] }]),
    (e: PetrelError) => e.code === 4004 && e.message === "Database not found: nodb",
  );
});

Deno.test("type conflicts are a 400 naming the column and both types", () => {
  const s = fresh();
  s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1]] }]);
  const bad: ColumnSchema[] = [CPU[0], CPU[1], { name: "v", type: "Int64", semantic: "FIELD" }];
  assert.throws(
    () => s.write("public", [{ table: "cpu", columns: bad, rows: [["a", 2, 1]] }]),
    (e: PetrelError) =>
      e.code === 1004 && httpStatusOf(e) === 400 &&
      e.message ===
        "Column datatype mismatch. For column: v, expected datatype: Float64, actual datatype: Int64",
  );
});

Deno.test("an integer past a narrower column's range is a 400 on every write path, not a stored 300", () => {
  const s = fresh();
  const cols: ColumnSchema[] = [CPU[0], CPU[1], { name: "u", type: "UInt8", semantic: "FIELD" }];
  s.write("public", [{ table: "narrow", columns: cols, rows: [["a", 1, 255]] }]);
  for (const v of [300, 256n, -1]) {
    assert.throws(
      () => s.write("public", [{ table: "narrow", columns: cols, rows: [["b", 2, v]] }]),
      (e: PetrelError) =>
        httpStatusOf(e) === 400 && e.message === `Value ${v} is out of range for column u of type UInt8`,
    );
    // the client's value (a pipeline's JSON) is GreptimeDB's datatype mismatch
    assert.throws(
      () =>
        s.write("public", [{ table: "narrow", columns: cols, rows: [["b", 2, v]] }], { clientNumbers: true }),
      (e: PetrelError) =>
        e.message ===
          "Column datatype mismatch. For column: u, expected datatype: UInt8, actual datatype: Int64",
    );
  }
  assert.deepEqual(dump(s, "public", "narrow"), [["a", 1, 255]]);
  s.close();
});

Deno.test("a failing batch rolls back every batch of the call", () => {
  const s = fresh();
  s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1]] }]);
  const bad: ColumnSchema[] = [CPU[0], CPU[1], { name: "v", type: "String", semantic: "FIELD" }];
  assert.throws(() =>
    s.write("public", [
      { table: "cpu", columns: CPU, rows: [["b", 2, 2]] },
      { table: "other", columns: CPU, rows: [["b", 2, 2]] },
      { table: "cpu", columns: bad, rows: [["c", 3, "x"]] },
    ]), /Column datatype mismatch\. For column: v/);
  assert.deepEqual(dump(s, "public", "cpu"), [["a", 1, 1]]);
  assert.equal(s.getTable("public", "other"), undefined);
  // and the catalog cache still works afterwards
  assert.equal(s.write("public", [{ table: "other", columns: CPU, rows: [["b", 2, 2]] }]), 1);
});

Deno.test("schema evolution: new fields are added, new tags extend the key and old rows read a null tag", () => {
  const s = fresh();
  s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1]] }]);
  const wider: ColumnSchema[] = [
    ...CPU,
    { name: "dc", type: "String", semantic: "TAG" },
    { name: "load", type: "Int64", semantic: "FIELD" },
  ];
  s.write("public", [{ table: "cpu", columns: wider, rows: [["a", 1, 2, "x", 7], ["a", 2, 3, null, null]] }]);
  const t = s.getTable("public", "cpu")!;
  assert.deepEqual(t.primaryKey, ["host", "dc"]);
  assert.deepEqual(t.columns.map((c) => c.name), ["host", "ts", "v", "dc", "load"]);
  // (a, null, 1) and (a, x, 1) are different series now; (a, null, 2) is new
  assert.deepEqual(
    canonical(dump(s, "public", "cpu")),
    canonical([["a", 1, 1, null, null], ["a", 2, 3, null, null], ["a", 1, 2, "x", 7]]),
  );
  // a batch missing columns writes nulls
  s.write("public", [{ table: "cpu", columns: [CPU[1], CPU[0]], rows: [[5, "b"]] }]);
  assert.deepEqual(dump(s, "public", "cpu", "host, ts").at(-1), ["b", 5, null, null, null]);
});

Deno.test("schema evolution on an append table adds a tag without a rebuild", () => {
  const s = fresh();
  s.write("public", [{ table: "logs", columns: CPU, rows: [["a", 1, 1]], createType: "log" }]);
  s.write("public", [{
    table: "logs",
    columns: [...CPU, { name: "pod", type: "String", semantic: "TAG" }],
    rows: [["a", 1, 1, "p"]],
  }]);
  assert.deepEqual(dump(s, "public", "logs", "rowid"), [["a", 1, 1, null], ["a", 1, 1, "p"]]);
});

Deno.test("the time index must be present and non-null", () => {
  const s = fresh();
  assert.throws(
    () => s.write("public", [{ table: "t", columns: [CPU[0], CPU[2]], rows: [["a", 1]] }]),
    /time index/,
  );
  assert.throws(
    () => s.write("public", [{ table: "t", columns: CPU, rows: [["a", null, 1]] }]),
    /Time index must be non null/,
  );
  s.write("public", [{ table: "t", columns: CPU, rows: [["a", 1, 1]] }]);
  const renamed = [CPU[0], { ...CPU[1], name: "time" }, CPU[2]];
  assert.throws(
    () => s.write("public", [{ table: "t", columns: renamed, rows: [["a", 2, 1]] }]),
    /does not match the time index/,
  );
  // accommodate_existing_schema renames it
  s.write("public", [{ table: "t", columns: renamed, rows: [["a", 2, 1]] }], {
    accommodateExistingSchema: true,
  });
  assert.equal(dump(s, "public", "t").length, 2);
});

Deno.test("invalid and reserved names are rejected", () => {
  const s = fresh();
  for (const table of ["", "sqlite_master", "__petrel_catalog"]) {
    assert.throws(
      () => s.write("public", [{ table, columns: CPU, rows: [["a", 1, 1]] }]),
      (e: PetrelError) => httpStatusOf(e) === 400,
    );
  }
  const dup = [...CPU, { name: "V", type: "Float64", semantic: "FIELD" } as ColumnSchema];
  assert.throws(
    () => s.write("public", [{ table: "t", columns: dup, rows: [["a", 1, 1, 2]] }]),
    /Duplicate column/,
  );
});

Deno.test("values of every type round-trip: bigint ns timestamps, UInt64 past 2^63, booleans, binary", () => {
  const s = fresh();
  const cols: ColumnSchema[] = [
    { name: "ts", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
    { name: "u", type: "UInt64", semantic: "FIELD" },
    { name: "b", type: "Boolean", semantic: "FIELD" },
    { name: "bin", type: "Binary", semantic: "FIELD" },
    { name: "i", type: "Int64", semantic: "FIELD" },
  ];
  const ts = 1716668197217000123n;
  s.write("public", [{
    table: "types",
    columns: cols,
    rows: [[ts, 18446744073709551615n, true, new Uint8Array([1, 2]), -5]],
  }]);
  const [row] = dump(s, "public", "types");
  assert.equal(row[0], ts);
  assert.equal(row[1], -1, "UInt64 max is stored as its two's complement");
  assert.equal(row[2], 1);
  assert.deepEqual(row[3], new Uint8Array([1, 2]));
  assert.equal(row[4], -5);
});

Deno.test("batchFromRecords builds a batch from row objects", () => {
  const s = fresh();
  const batch = batchFromRecords("cpu", CPU, [{ host: "a", ts: 1, v: 1 }, { ts: 2, host: "b" }]);
  assert.deepEqual(batch.rows, [["a", 1, 1], ["b", 2, null]]);
  s.write("public", [batch]);
  assert.deepEqual(dump(s, "public", "cpu"), [["a", 1, 1], ["b", 2, null]]);
});

Deno.test("large batches use multi-row statements and keep every row", () => {
  const s = fresh();
  const rows = Array.from({ length: 1237 }, (_, i) => [`h${i % 7}`, i, i / 2]);
  assert.equal(s.write("public", [{ table: "big", columns: CPU, rows }]), 1237);
  assert.equal(dump(s, "public", "big").length, 1237);
});

Deno.test("values of the wrong kind for their column are a 400, not a silently mistyped cell", () => {
  const s = fresh();
  const cases: Array<[unknown[], RegExp]> = [
    [["a", 1, "1.5"], /Invalid value '1.5' for column v of type Float64/],
    [[7, 1, 1.5], /Invalid value 7 for column host of type String/],
    [["a", "2024-01-01", 1.5], /Invalid value '2024-01-01' for column ts of type TimestampMillisecond/],
  ];
  for (const [row, message] of cases) {
    assert.throws(
      () => s.write("public", [{ table: "cpu", columns: CPU, rows: [row as never] }]),
      (e: PetrelError) => e.code === 1004 && message.test(e.message),
    );
  }
});

Deno.test("NOT NULL columns refuse nulls and must be written unless they have a default", () => {
  const s = fresh();
  executeSqlSetup(s);
  const cols: ColumnSchema[] = [CPU[0], CPU[1]];
  assert.throws(
    () => s.write("public", [{ table: "strict", columns: [CPU[1], CPU[2]], rows: [[1, 1]] }]),
    /host is NOT NULL/,
  );
  assert.throws(
    () => s.write("public", [{ table: "strict", columns: cols, rows: [[null, 1]] }]),
    /host is NOT NULL/,
  );
  assert.equal(s.write("public", [{ table: "strict", columns: cols, rows: [["a", 1]] }]), 1);
});

function executeSqlSetup(s: Storage): void {
  executeSql(s, "CREATE TABLE strict (host STRING NOT NULL PRIMARY KEY, ts TIMESTAMP TIME INDEX, v DOUBLE)", {
    db: "public",
  });
}

Deno.test("widenIntToFloat: an Int64 field becomes Float64, an append table keeps its rowids and index", () => {
  for (const append of [true, false]) {
    const s = fresh();
    const cols: ColumnSchema[] = [
      { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
      { name: "k", type: "String", semantic: "TAG" },
      { name: "n", type: "Int64", semantic: "FIELD" },
    ];
    const hints: Record<string, string> = append ? { append_mode: "true" } : {};
    s.write("public", [{ table: "w", columns: cols, rows: [[1, "a", 5], [2, "b", 6]] }], { hints });
    const float = cols.map((c) => c.name === "n" ? { ...c, type: "Float64" as const } : c);
    assert.throws(
      () => s.write("public", [{ table: "w", columns: float, rows: [[3, "c", 2.5]] }]),
      /mismatch/,
    );
    const conn = s.database("public").conn;
    const rowids = () =>
      conn.prepare(`SELECT rowid, n FROM "w" ORDER BY ts`).all().map((r) => [r.rowid, r.n]);
    const before = append ? rowids() : [];
    s.write("public", [{ table: "w", columns: float, rows: [[3, "c", 2.5]] }], { widenIntToFloat: true });
    assert.equal(s.getTable("public", "w")!.columns.find((c) => c.name === "n")!.type, "Float64");
    assert.deepEqual(dump(s, "public", "w").map((r) => r.at(-1)), [5, 6, 2.5]);
    if (append) {
      assert.deepEqual(rowids().slice(0, 2), before);
      const idx = conn.prepare(
        `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'w'`,
      )
        .get();
      assert.equal(idx!.n, 1);
    }
    s.close();
  }
});

Deno.test("auto_create_table: a hint of true does not override the server's false", () => {
  const s = fresh(false);
  assert.throws(
    () =>
      s.write("public", [{ table: "cpu", columns: CPU, rows: [["a", 1, 1.5]] }], {
        hints: { auto_create_table: "true" },
      }),
    /auto_create_table/,
  );
  assert.equal(s.getTable("public", "cpu"), undefined);
  s.close();
});
