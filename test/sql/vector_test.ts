/**
 * GreptimeDB's `VECTOR(dim)` columns and vector functions over `/v1/sql`: values in and out in their
 * text form (and binary in), the dimension checked on every insert, the type as SHOW CREATE TABLE,
 * DESC and information_schema show it, distances against hand-computed f32 values, kNN ordering,
 * element-wise and aggregate functions, errors as 400s, and a vector column across a restart.
 */
import assert from "node:assert/strict";
import { tableFromIPC, Type } from "apache-arrow";
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk, sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

const f32 = Math.fround;

const SETUP = [
  "CREATE TABLE vv (ts TIMESTAMP TIME INDEX, e VECTOR(3))",
  "INSERT INTO vv VALUES (1, '[1.0, 2.0, 3.0]'), (2, '[0.1,0,-1]'), (3, parse_vec('[4,5,6]')), (4, NULL)",
  // binary in: the f32s little-endian (1.0 = 0000803F, 2.0 = 00000040, 0.5 = 0000003F)
  "INSERT INTO vv VALUES (5, X'0000803F000000400000003F')",
  "CREATE TABLE pts (ts TIMESTAMP TIME INDEX, id STRING PRIMARY KEY, p VECTOR(2))",
  "INSERT INTO pts VALUES (1, 'east', '[1, 0]'), (1, 'northeast', '[1, 1]'), (1, 'north', '[0, 2]'), " +
  "(1, 'west', '[-3, 0]'), (1, 'far_east', '[10, 0.5]')",
];

const CASES: SqlCase[] = [
  {
    name: "a vector column reads back as its text, typed Vector(3)",
    sql: "SELECT ts, e FROM vv ORDER BY ts",
    schema: [["ts", "TimestampMillisecond"], ["e", "Vector(3)"]],
    rows: [[1, "[1,2,3]"], [2, "[0.1,0,-1]"], [3, "[4,5,6]"], [4, null], [5, "[1,2,0.5]"]],
  },
  {
    name: "csv shows the same text",
    sql: "SELECT ts, e FROM vv WHERE ts <= 2 ORDER BY ts",
    format: "csv",
    body: '1,"[1,2,3]"\r\n2,"[0.1,0,-1]"\r\n',
  },
  {
    name: "the table format shows the same text",
    sql: "SELECT e FROM vv WHERE ts = 3",
    format: "table",
    body: '┌─e─────────┐\n│ "[4,5,6]" │\n└───────────┘\n',
  },
  // distances, as f32 (hand-computed: [1,2,3]·[4,5,6] = 32, |[1,2,3]-[4,5,6]|² = 27)
  {
    sql: "SELECT vec_dot_product(e, '[4,5,6]') AS dot, vec_l2sq_distance(e, '[4.0, 5.0, 6.0]') AS l2sq, " +
      "vec_cos_distance('[2,4,6]', e) AS cos FROM vv WHERE ts = 1",
    schema: [["dot", "Float32"], ["l2sq", "Float32"], ["cos", "Float32"]],
    rows: [[32, 27, 0]],
  },
  {
    name: "cosine distance: orthogonal is 1, 45° is 1 − 1/√2 in f32, a zero vector is 1",
    sql: "SELECT vec_cos_distance('[1,0]', '[0,1]') AS a, vec_cos_distance('[1,0]', '[1,1]') AS b, " +
      "vec_cos_distance('[0,0]', '[1,1]') AS c, vec_cos_distance('[3,4]', '[-6,-8]') AS d",
    rows: [[1, f32(1 - f32(1 / f32(Math.SQRT2))), 1, 2]],
  },
  {
    name: "vector arithmetic returns binary vectors; vec_to_string shows them",
    sql: "SELECT vec_to_string(vec_add(e, '[1,1,1]')) AS a, vec_to_string(vec_sub(e, '[1,1,1]')) AS s, " +
      "vec_to_string(vec_mul(e, '[2,0,-1]')) AS m, vec_to_string(vec_div(e, '[2,4,8]')) AS d, " +
      "vec_add(e, '[1,1,1]') AS raw FROM vv WHERE ts = 1",
    schema: [["a", "String"], ["s", "String"], ["m", "String"], ["d", "String"], ["raw", "Binary"]],
    rows: [["[2,3,4]", "[0,1,2]", "[2,0,-3]", "[0.5,0.5,0.375]", [0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64]]],
  },
  {
    sql: "SELECT vec_dim(e) AS dim, vec_elem_sum(e) AS sum, vec_elem_product(e) AS prod, " +
      "vec_kth_elem(e, 0) AS first, vec_kth_elem(e, 2) AS last, vec_to_string(vec_subvector(e, 1, 3)) AS sub, " +
      "vec_to_string(vec_norm('[3, 4]')) AS unit FROM vv WHERE ts = 3",
    schema: [
      ["dim", "UInt64"],
      ["sum", "Float32"],
      ["prod", "Float32"],
      ["first", "Float32"],
      ["last", "Float32"],
      ["sub", "String"],
      ["unit", "String"],
    ],
    rows: [[3, 15, 120, 4, 6, "[5,6]", "[0.6,0.8]"]],
  },
  {
    name: "the scalar comes first in vec_scalar_add and vec_scalar_mul",
    sql: "SELECT vec_to_string(vec_scalar_add(-1, '[1, 2.5]')) AS a, " +
      "vec_to_string(vec_scalar_mul(2, '[1, 2.5]')) AS m, vec_to_string(parse_vec('[1e-7, 0.1]')) AS t",
    rows: [["[0,1.5]", "[2,5]", "[0.0000001,0.1]"]],
  },
  {
    name: "vec_sum and vec_product fold element by element, skipping nulls",
    sql: "SELECT vec_to_string(vec_sum(e)) AS s, vec_to_string(vec_product(e)) AS p FROM vv WHERE ts <= 4",
    rows: [["[5.1,7,8]", "[0.4,0,-18]"]],
  },
  {
    name: "CAST to VECTOR(n) parses the text form and checks the dimension; TRY_CAST answers NULL",
    sql: "SELECT CAST('[1, 2.5, 3]' AS VECTOR(3)) AS v, vec_dim('[7,8]'::VECTOR(2)) AS d, " +
      "TRY_CAST('[1]' AS VECTOR(3)) AS t",
    schema: [["v", "Vector(3)"], ["d", "UInt64"], ["t", "Vector(3)"]],
    rows: [["[1,2.5,3]", 2, null]],
  },
  { sql: "SELECT '[1, 2]'::VECTOR(3)", error: { status: 400, message: "wrong dimension" } },
  {
    name: "nine dimensions: the dot product's eight partial sums plus the rest",
    sql: "SELECT vec_dot_product('[1,2,3,4,5,6,7,8,9]', '[1,2,3,4,5,6,7,8,9]') AS dot, " +
      "vec_l2sq_distance('[1,2,3,4,5,6,7,8,9]', '[0,0,0,0,0,0,0,0,0]') AS l2sq, " +
      "vec_cos_distance('[1,1,1,1,1,1,1,1,1]', '[2,2,2,2,2,2,2,2,2]') AS cos",
    rows: [[285, 285, 0]],
  },
  {
    sql: "SELECT sum(e) FROM vv",
    error: { status: 400, message: "The function 'sum' does not support inputs of type Vector(3)" },
  },
  // kNN: nearest first, by the distance computed on the stored vectors
  {
    sql: "SELECT id FROM pts ORDER BY vec_cos_distance(p, '[1, 0]'), id LIMIT 3",
    rows: [["east"], ["far_east"], ["northeast"]],
  },
  {
    sql: "SELECT id, vec_l2sq_distance(p, '[0, 0]') AS d FROM pts ORDER BY d DESC LIMIT 2",
    rows: [["far_east", 100.25], ["west", 9]],
  },
  // dimensions and malformed values are the client's error
  {
    sql: "INSERT INTO vv VALUES (9, '[1.0, 2.0]')",
    error: { status: 400, code: 1004, message: "column e of type VECTOR(3): expected 3 dimensions, got 2" },
  },
  {
    sql: "INSERT INTO vv VALUES (9, X'0000803F')",
    error: {
      status: 400,
      code: 1004,
      message: "column e of type VECTOR(3): expected 3 dimensions (12 bytes)",
    },
  },
  {
    sql: "INSERT INTO vv VALUES (9, '[1, x, 2]')",
    error: { status: 400, message: "elements are not all float32" },
  },
  {
    sql: "SELECT vec_cos_distance(e, '[1, 2]') FROM vv",
    error: {
      status: 400,
      message: "vec_cos_distance: the vectors must have the same dimension, got 3 and 2",
    },
  },
  {
    sql: "SELECT vec_add('[1]', '[1, 2]')",
    error: { status: 400, message: "vec_add: the vectors must have the same dimension, got 1 and 2" },
  },
  {
    sql: "SELECT vec_kth_elem(e, 3) FROM vv",
    error: { status: 400, message: "k must be in the range [0, 2]" },
  },
  { sql: "SELECT vec_subvector('[1,2]', 1, 3)", error: { status: 400, message: "vec_len=2" } },
  { sql: "SELECT parse_vec('1, 2')", error: { status: 400, message: "not properly enclosed in brackets" } },
  { sql: "SELECT count(*) AS n FROM vv", rows: [[5]] },
  // the type as GreptimeDB shows it
  {
    sql: "SHOW CREATE TABLE vv",
    rows: [[
      "vv",
      'CREATE TABLE IF NOT EXISTS "vv" (\n  "ts" TIMESTAMP(3) NOT NULL,\n  "e" VECTOR(3) NULL,\n  TIME INDEX ("ts")\n)\n\nENGINE=mito\n',
    ]],
  },
  {
    sql: "DESC TABLE pts",
    rows: [["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"], [
      "id",
      "String",
      "PRI",
      "YES",
      "",
      "TAG",
    ], ["p", "Vector(2)", "", "YES", "", "FIELD"]],
  },
  {
    sql: "SELECT greptime_data_type, data_type, column_type FROM information_schema.columns " +
      "WHERE table_name = 'vv' AND column_name = 'e'",
    rows: [["Vector(3)", "vector(3)", "vector(3)"]],
  },
  {
    sql: "CREATE TABLE bad (ts TIMESTAMP TIME INDEX, e VECTOR)",
    error: { status: 400, message: "Invalid VECTOR(): the dimension must be a positive integer" },
  },
  {
    sql: "ALTER TABLE vv MODIFY COLUMN e STRING",
    error: { status: 400, message: "VECTOR columns cannot change type" },
  },
];

Deno.test("VECTOR columns and vector functions over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, CASES);
    await t.step("the arrow format ships a vector as its f32 bytes (Binary)", async () => {
      const reply = await sqlRequest(server.url, "SELECT e FROM vv WHERE ts = 5", { format: "arrow" });
      assert.equal(reply.status, 200, reply.text);
      const table = tableFromIPC(reply.bytes);
      assert.equal(table.schema.fields[0].type.typeId, Type.Binary);
      const bytes = table.getChild("e")!.get(0) as Uint8Array;
      assert.deepEqual([...new Float32Array(Uint8Array.from(bytes).buffer)], [1, 2, 0.5]);
    });
  } finally {
    await server.stop();
  }
});

Deno.test("COPY TO and FROM keep vectors (csv and json as hex bytes, parquet as binary)", async () => {
  const server = await startTestServer();
  const dir = await Deno.makeTempDir({ prefix: "petrel_vector_copy_" });
  try {
    await sqlOk(server.url, "CREATE TABLE src (ts TIMESTAMP TIME INDEX, e VECTOR(2))");
    await sqlOk(server.url, "INSERT INTO src VALUES (1, '[1, 2]'), (2, '[0.5, -3]'), (3, NULL)");
    for (const format of ["csv", "json", "parquet"]) {
      await sqlOk(server.url, `COPY src TO '${dir}/out.${format}' WITH (FORMAT = '${format}')`);
      await sqlOk(server.url, `CREATE TABLE dst_${format} (ts TIMESTAMP TIME INDEX, e VECTOR(2))`);
      await sqlOk(server.url, `COPY dst_${format} FROM '${dir}/out.${format}' WITH (FORMAT = '${format}')`);
      assert.deepEqual(
        await sqlRows(server.url, `SELECT ts, e FROM dst_${format} ORDER BY ts`),
        [[1, "[1,2]"], [2, "[0.5,-3]"], [3, null]],
        format,
      );
    }
    await sqlOk(server.url, "CREATE TABLE narrow (ts TIMESTAMP TIME INDEX, e VECTOR(3))");
    const wrong = await sqlRequest(server.url, `COPY narrow FROM '${dir}/out.csv' WITH (FORMAT = 'csv')`);
    assert.equal(wrong.status, 400, wrong.text);
    assert.match(wrong.text, /column e of type VECTOR\(3\): expected 3 dimensions \(12 bytes\), got 8 bytes/);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a vector column added by ALTER TABLE, with a default, survives a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_vector_" });
  let server = await startTestServer({ storage: { data_home: dir } });
  try {
    await sqlOk(
      server.url,
      "CREATE TABLE emb (ts TIMESTAMP TIME INDEX, doc STRING PRIMARY KEY, e VECTOR(3))",
    );
    await sqlOk(server.url, "INSERT INTO emb VALUES (1, 'a', '[1, 0, 0]'), (2, 'b', '[0, 0.25, 1]')");
    await sqlOk(server.url, "ALTER TABLE emb ADD COLUMN f VECTOR(2) DEFAULT '[1.5, -2]'");
    await sqlOk(server.url, "INSERT INTO emb (ts, doc, e) VALUES (3, 'c', '[3, 2, 1]')");
    await server.stop();
    server = await startTestServer({ storage: { data_home: dir } });
    const out = await sqlOk(server.url, "SELECT doc, e, f FROM emb ORDER BY ts");
    assert.ok("records" in out[0]);
    assert.deepEqual(out[0].records.schema.column_schemas.map((c) => c.data_type), [
      "String",
      "Vector(3)",
      "Vector(2)",
    ]);
    assert.deepEqual(out[0].records.rows, [
      ["a", "[1,0,0]", "[1.5,-2]"],
      ["b", "[0,0.25,1]", "[1.5,-2]"],
      ["c", "[3,2,1]", "[1.5,-2]"],
    ]);
    assert.deepEqual(
      await sqlRows(server.url, "SELECT doc FROM emb ORDER BY vec_dot_product(e, '[0, 0, 1]') DESC LIMIT 1"),
      [["b"]],
    );
    const wrong = await sqlRequest(server.url, "INSERT INTO emb (ts, doc, f) VALUES (4, 'd', '[1, 2, 3]')");
    assert.equal(wrong.status, 400, wrong.text);
    assert.match(wrong.text, /column f of type VECTOR\(2\): expected 2 dimensions, got 3/);
  } finally {
    await server.stop();
  }
});
