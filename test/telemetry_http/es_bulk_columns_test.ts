/**
 * Elasticsearch bulk through the identity pipeline stores what the row path stored, for the
 * documents the columnar path (`engine/identity_columns.ts`) takes and for those it hands back:
 * keys first seen in later documents, nested objects, arrays, nulls, integers in a float column,
 * integers past 2^53, a type conflict that fails one table's items while another table's succeed,
 * hint keys, and a table that already exists (a float for its integer column fails its items). The
 * expected values are what the row path stored.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { postBulk } from "./es_bulk_client.ts";

const server = await startTestServer();
globalThis.addEventListener("unload", () => server.stop());

async function sql(q: string): Promise<unknown[][]> {
  const r = await fetch(`${server.url}/v1/sql?sql=${encodeURIComponent(q)}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.output[0].records.rows;
}

const bulk = (docs: [string, string][]) => postBulk(server.url, docs);

/** Column names and types, and the rows without the arrival time, ordered by `by`. */
async function stored(table: string, by: string): Promise<{ desc: unknown[][]; rows: unknown[][] }> {
  const desc = (await sql(`DESC TABLE ${table}`)).map((r) => [r[0], r[1]]);
  const names = desc.map((d) => `"${d[0]}"`).filter((n) => n !== '"greptime_timestamp"');
  const rows = await sql(`SELECT ${names.join(", ")} FROM ${table} ORDER BY ${by}`);
  return { desc, rows };
}

const OK = (n: number) => ({
  errors: false,
  items: Array.from({ length: n }, () => ({ create: { status: 201 } })),
});

Deno.test("ES bulk: later keys, nested objects, arrays, nulls and ints in a float column", async () => {
  const [status, res] = await bulk([
    ["col_mixed", '{"s":"a","f":1.5,"n":{"x":1,"y":{"z":"deep"}},"b":true}'],
    ["col_mixed", '{"s":"b","f":2,"arr":[1,"two",null,{"k":1}],"n":{"x":null},"late":"only later"}'],
    ["col_mixed", '{"f":null,"s":"c","b":false,"e":{},"big":1716668197217123457}'],
    ["col_mixed", '{"s":"d","n":"not an object now"}'],
  ]);
  assert.deepEqual([status, res], [200, OK(4)]);
  const { desc, rows } = await stored("col_mixed", "s");
  assert.deepEqual(desc, [
    ["greptime_timestamp", "TimestampNanosecond"],
    ["b", "Boolean"],
    ["f", "Float64"],
    ["n.x", "Int64"],
    ["n.y.z", "String"],
    ["s", "String"],
    ["arr", "String"],
    ["late", "String"],
    ["big", "Int64"],
    ["n", "String"],
  ]);
  assert.deepEqual(rows.map((r) => r.slice(0, 7).concat(r.slice(8))), [
    [true, 1.5, 1, "deep", "a", null, null, null],
    [null, 2, null, null, "b", '[1,"two",null,{"k":1}]', "only later", null],
    [false, null, null, null, "c", null, null, null],
    [null, null, null, null, "d", null, null, "not an object now"],
  ]);
  assert.deepEqual(await sql("SELECT CAST(big AS STRING) FROM col_mixed WHERE big IS NOT NULL"), [[
    "1716668197217123457",
  ]]);
  // one arrival time for the whole request
  assert.deepEqual(await sql("SELECT count(DISTINCT greptime_timestamp) FROM col_mixed"), [[1]]);
});

Deno.test("ES bulk: a type conflict fails its table's items, another table's are stored", async () => {
  const [status, res] = await bulk([
    ["col_ok", '{"v":1,"w":"x"}'],
    ["col_bad", '{"v":1}'],
    ["col_ok", '{"v":2}'],
    ["col_bad", '{"v":"one"}'],
  ]);
  const failed = {
    create: {
      _index: "col_bad",
      status: 400,
      error: {
        type: "illegal_argument_exception",
        reason: "Column datatype mismatch. For column: v, expected datatype: Int64, actual datatype: String",
      },
    },
  };
  const ok = { create: { _index: "col_ok", status: 201 } };
  assert.deepEqual([status, res], [200, { errors: true, items: [ok, failed, ok, failed] }]);
  assert.deepEqual(await stored("col_ok", "v"), {
    desc: [["greptime_timestamp", "TimestampNanosecond"], ["v", "Int64"], ["w", "String"]],
    rows: [[1, "x"], [2, null]],
  });
  assert.deepEqual(await sql("SHOW TABLES LIKE 'col_bad'"), []);
});

Deno.test("ES bulk: hint keys beside plain documents, and an existing table's types", async () => {
  assert.deepEqual(
    await bulk([
      ["col_hint", '{"m":"plain","f":1.5,"i":3}'],
      ["col_hint", '{"m":"hinted","greptime_ttl":"7d","i":4}'],
    ]),
    [200, OK(2)],
  );
  assert.deepEqual(await stored("col_hint", "m"), {
    desc: [["greptime_timestamp", "TimestampNanosecond"], ["f", "Float64"], ["i", "Int64"], ["m", "String"]],
    rows: [[null, 4, "hinted"], [1.5, 3, "plain"]],
  });
  // the table's types win: an integer into the float column is stored as a float
  assert.deepEqual(
    await bulk([
      ["col_hint", '{"m":"again","f":2,"i":5,"big":12345678901234567890}'],
      ["col_hint", '{"m":"float int","i":6.0,"f":9007199254740993}'],
    ]),
    [200, OK(2)],
  );
  // a float into the integer one fails its table's items (GreptimeDB's datatype mismatch); nothing of
  // them is stored, and another index in the request is
  for (const value of ["6.5", "1e400"]) {
    const failed = {
      create: {
        _index: "col_hint",
        status: 400,
        error: {
          type: "illegal_argument_exception",
          reason:
            "Column datatype mismatch. For column: i, expected datatype: Int64, actual datatype: Float64",
        },
      },
    };
    assert.deepEqual(
      await bulk([
        ["col_hint", '{"m":"fine","i":7}'],
        ["col_other", `{"i":${value}}`],
        ["col_hint", `{"m":"float","i":${value}}`],
      ]),
      [200, { errors: true, items: [failed, { create: { _index: "col_other", status: 201 } }, failed] }],
    );
  }
  assert.deepEqual(await stored("col_hint", "m"), {
    desc: [
      ["greptime_timestamp", "TimestampNanosecond"],
      ["f", "Float64"],
      ["i", "Int64"],
      ["m", "String"],
      ["big", "Float64"],
    ],
    rows: [
      [2, 5, "again", 12345678901234567000],
      [9007199254740992, 6, "float int", null],
      [null, 4, "hinted", null],
      [1.5, 3, "plain", null],
    ],
  });
});
