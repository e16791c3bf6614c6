/**
 * Columns holding one value across a statement's rows are bound once (`writer_insert.ts`): what
 * is stored, and in which order, is exactly what binding every row gives (the reference here is
 * the same rows written one row per write, which takes the per-row form). Strings that need
 * quoting, NULLs, big integers, floats, JSON, groups that end mid-statement, and each merge mode.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { ColumnarBatch, type ColumnSchema, type Value } from "../../src/common/rows.ts";
import { nextChunk } from "../../src/storage/writer_insert.ts";
import type { SqlColumn } from "../../src/storage/writer_values.ts";

const COLS: ColumnSchema[] = [
  { name: "ts", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
  { name: "scope", type: "String", semantic: "TAG" },
  { name: "body", type: "String", semantic: "FIELD" },
  { name: "attrs", type: "Json", semantic: "FIELD" },
  { name: "big", type: "Int64", semantic: "FIELD" },
  { name: "u", type: "UInt64", semantic: "FIELD" },
  { name: "f", type: "Float64", semantic: "FIELD" },
  { name: "flag", type: "Boolean", semantic: "FIELD" },
  { name: "nothing", type: "String", semantic: "FIELD" },
  { name: "url", type: "String", semantic: "FIELD" },
];

const QUOTED = `it's "quoted" ; -- '); DROP TABLE x; ?1 ? $a :b \u00e9\u{1f600}\n\tend`;

/** Groups of rows that share their scope columns, sized to end inside and across statements. */
function rows(): Value[][] {
  const out: Value[][] = [];
  const groups = [
    { scope: QUOTED, attrs: '{"k":"v\'s","n":[1,2.5,null]}', url: "" },
    { scope: "", attrs: "{}", url: null },
    { scope: "b", attrs: '{"big":9223372036854775807}', url: "https://x/'y'" },
  ];
  const sizes = [600, 37, 300, 1, 9];
  let t = 1_700_000_000_000_000_000n;
  sizes.forEach((size, g) => {
    const grp = groups[g % groups.length];
    for (let i = 0; i < size; i++) {
      out.push([
        t++,
        grp.scope,
        i % 3 === 0 ? QUOTED : `line ${i} 'x'`,
        grp.attrs,
        g % 2 ? 9007199254740993n + BigInt(i % 2) : -(2n ** 63n),
        g === 2 ? 18446744073709551615n : BigInt(i),
        g === 0 ? 0.1 : g === 1 ? -0 : i % 2 ? 1e308 : -2.5e-300,
        g % 2 === 0,
        null,
        grp.url,
      ]);
    }
  });
  // a run of identical rows: every column the same
  const same = out[out.length - 1];
  for (let i = 0; i < 40; i++) out.push([...same]);
  return out;
}

/** Every row in storage order (rowid for append tables, key order otherwise), with types. */
function stored(s: Storage, table: string): unknown[][] {
  const h = s.database("public");
  const t = h.requireTable(table);
  const cols = t.columns.map((c) => `"${c.name}", typeof("${c.name}")`).join(", ");
  const stmt = h.conn.prepare(`SELECT ${cols} FROM "${t.schema}"."${t.name}"`);
  (stmt as unknown as { setReturnArrays(b: boolean): void }).setReturnArrays(true);
  stmt.setReadBigInts(true);
  return stmt.all() as unknown as unknown[][];
}

const MODES: Record<string, string>[] = [
  { append_mode: "true" },
  {},
  { merge_mode: "last_non_null" },
  { merge_mode: "last_row" },
];
for (const hints of MODES) {
  Deno.test(`writer: constant columns bound once store what per-row binding does (${JSON.stringify(hints)})`, () => {
    const s = Storage.open({ dataHome: ":memory:" });
    try {
      const data = rows();
      for (const r of data) {
        s.write("public", [{ table: "one_by_one", columns: COLS, rows: [[...r]] }], { hints });
      }
      const reference = stored(s, "one_by_one");
      // keyed tables keep one of the 41 identical rows at the end
      assert.equal(reference.length, hints.append_mode ? data.length : data.length - 40);
      s.write("public", [{ table: "by_rows", columns: COLS, rows: data.map((r) => [...r]) }], { hints });
      const cols = COLS.map((_, j) => data.map((r) => r[j]));
      s.write("public", [new ColumnarBatch("by_cols", COLS, cols, data.length)], { hints });
      assert.deepEqual(stored(s, "by_rows"), reference);
      assert.deepEqual(stored(s, "by_cols"), reference);
      // spot checks against the values sent, not only against the other path
      const first = reference.find((r) => r[0] === data[0][0])!;
      assert.equal(first[2], QUOTED);
      assert.equal(first[6], '{"k":"v\'s","n":[1,2.5,null]}');
      assert.equal(first[8], -(2n ** 63n));
      assert.deepEqual([first[16], first[17]], [null, "null"]);
      assert.deepEqual([first[12], first[13]], [0.1, "real"]);
    } finally {
      s.close();
    }
  });
}

Deno.test("writer: a later duplicate still wins when the key's columns are bound once", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    const cols: ColumnSchema[] = [COLS[0], COLS[1], COLS[2], COLS[3], COLS[9]];
    const t = 1_700_000_000_000_000_000n;
    const batch: Value[][] = [];
    for (let i = 0; i < 40; i++) batch.push([t, "s", `v${i}`, i === 39 ? null : "{}", "u"]);
    s.write("public", [{ table: "m", columns: cols, rows: batch }], {
      hints: { merge_mode: "last_non_null" },
    });
    assert.deepEqual(stored(s, "m").map((r) => [r[2], r[4], r[6], r[8]]), [["s", "v39", "{}", "u"]]);
  } finally {
    s.close();
  }
});

/** The statement sizes `insertAll` runs over `columns`, with how many columns each binds once. */
function plan(columns: SqlColumn[], n: number, perStatement: number): string[] {
  const out: string[] = [];
  for (let from = 0; from < n;) {
    const { size, constant } = nextChunk(columns, from, n, perStatement);
    out.push(`${size}:${constant?.filter(Boolean).length ?? 0}`);
    from += size;
  }
  return out;
}

Deno.test("writer: short groups do not cut statements short to bind one more column once", () => {
  // OTLP spans: resource/scope columns constant, ten spans a trace; per-span columns vary
  const n = 1000, traces = Array.from({ length: n }, (_, i) => `t${Math.floor(i / 10)}`);
  const constant = () => new Array(n).fill("bench");
  const varying = () => Array.from({ length: n }, (_, i) => i);
  const spans = [constant(), constant(), constant(), traces, varying(), varying()];
  // was 100 statements of 10 rows, each binding trace_id once
  assert.deepEqual(plan(spans, n, 512), ["512:3", "256:3", "128:3", "64:3", "32:3", "8:4"]);
});

Deno.test("writer: long groups (Loki streams) still cut statements at their ends", () => {
  const n = 1500, stream = Array.from({ length: n }, (_, i) => `s${Math.floor(i / 500)}`);
  const cols = [stream, stream.map((s) => `${s}x`), Array.from({ length: n }, (_, i) => i)];
  // the last stream is the batch's rest: power-of-two statements (few shapes get prepared)
  const rest = ["256:2", "128:2", "64:2", "32:2", "16:2", "4:2"];
  assert.deepEqual(plan(cols, n, 512), ["496:2", "4:2", "496:2", "4:2", ...rest]);
});
