/**
 * SQL type fidelity over HTTP: casts to each timestamp precision, date, boolean, float specials and
 * integer ranges as DataFusion computes them, and DECIMAL(p, s) columns end to end (DDL, DESC,
 * SHOW CREATE TABLE, information_schema, inserts that round and reject overflow, comparisons,
 * ORDER BY, aggregates, casts), and inserts past a narrower integer column's range, each through
 * `/v1/sql` and its greptimedb_v1 JSON.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, sqlRequest, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP(9) TIME INDEX, v DOUBLE, s STRING, i BIGINT)",
  "INSERT INTO t VALUES (1700000000123456789, 1.5, '2023-01-01 00:00:01.999', 5), (-1500000000, 2, 'x', -7)",
  "CREATE TABLE d (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, price DECIMAL(10,2), big DECIMAL, n NUMERIC(5))",
  "INSERT INTO d VALUES (1, 'a', 12.345, 123456789.0123456789, 5), (2, 'a', '-0.005', '1e3', -99999), " +
  "(3, 'b', 7, NULL, 0.5), (4, 'b', 0.1, 0, 1)",
];

const TS = "TimestampSecond", TMS = "TimestampMillisecond", F = "Float64", DEC = "Decimal(10, 2)";

const CASES: TypedCase[] = [
  // timestamp precision casts: the value changes unit (arrow divides, truncating toward zero)
  {
    sql:
      "SELECT ts::timestamp(0), CAST(ts AS TIMESTAMP(3)), ts::timestamp_ms, ts::timestamp(6) FROM t ORDER BY ts",
    // a cast is named by its operand, a column inside an expression qualified
    columns: [["t.ts", TS], ["t.ts", TMS], ["t.ts", TMS], [
      "t.ts",
      "TimestampMicrosecond",
    ]],
    rows: [[-1, -1500, -1500, -1500000], [1700000000, 1700000000123, 1700000000123, 1700000000123456]],
  },
  {
    sql: "SELECT arrow_cast(ts, 'Timestamp(Second, None)') AS a FROM t ORDER BY ts",
    columns: [["a", TS]],
    rows: [[-1], [1700000000]],
  },
  {
    sql: "SELECT '2023-01-01 00:00:00.123'::timestamp(0) AS a, 1700000000::timestamp(0) AS b, " +
      "'2023-01-01 00:00:00.123'::timestamp AS c, s::timestamp(3) AS d FROM t WHERE v = 1.5",
    columns: [["a", TS], ["b", TS], ["c", TMS], ["d", TMS]],
    rows: [[1672531200, 1700000000, 1672531200123, 1672531201999]],
  },
  {
    sql: "SELECT v * 2 AS x, ts::timestamp(0) FROM t ORDER BY ts",
    columns: [["x", F], ["t.ts", TS]],
    rows: [[4, -1], [3, 1700000000]],
  },
  {
    sql:
      "SELECT count(*) AS n FROM t WHERE ts::timestamp(0) = '2023-11-14 22:13:20' AND ts > '2023-11-14'::date",
    columns: [["n", "Int64"]],
    rows: [[1]],
  },
  { sql: "SELECT s::timestamp(3) FROM t", code: 3000, error: /Error parsing timestamp from 'x'/ },
  // dates are days since the epoch
  {
    sql: "SELECT '2023-01-02'::date AS a, 19000::date AS b, ts::date AS c FROM t ORDER BY ts",
    columns: [["a", "Date"], ["b", "Date"], ["c", "Date"]],
    rows: [[19359, 19000, -1], [19359, 19000, 19675]],
  },
  // float specials: NaN and ±inf are floats, and JSON shows them as null
  {
    sql: "SELECT 'NaN'::double AS a, 'inf'::double AS b, '-Infinity'::double AS c, 'infinity'::float AS d, " +
      "'inf'::double > 1e308 AS e",
    columns: [["a", F], ["b", F], ["c", F], ["d", "Float32"], ["e", "Boolean"]],
    rows: [[null, null, null, null, true]],
  },
  { sql: "SELECT 'abc'::double", code: 3000, error: /Cannot cast string 'abc'/ },
  // booleans from strings, integers strictly and in range
  {
    sql: "SELECT 'true'::boolean AS a, 'f'::boolean AS b, 'YES'::boolean AS c, '0'::boolean AS d",
    columns: [["a", "Boolean"], ["b", "Boolean"], ["c", "Boolean"], ["d", "Boolean"]],
    rows: [[true, false, true, false]],
  },
  {
    sql: "SELECT 'maybe'::boolean",
    code: 3000,
    error: /Cannot cast string 'maybe' to value of Boolean type/,
  },
  { sql: "SELECT '1.5'::int", code: 3000, error: /Cannot cast string '1.5' to value of Int32 type/ },
  { sql: "SELECT 300::tinyint", code: 3000, error: /Can't cast value 300 to type Int8/ },
  { sql: "SELECT '-1'::bigint unsigned", code: 3000, error: /Can't cast value -1 to type UInt64/ },
  {
    sql: "SELECT '12'::bigint unsigned AS a, '-5'::smallint AS b",
    columns: [["a", "UInt64"], ["b", "Int16"]],
    rows: [[12, -5]],
  },
  // DECIMAL: schema views
  {
    sql: "DESC d",
    columns: [["Column", "String"], ["Type", "String"], ["Key", "String"], ["Null", "String"], [
      "Default",
      "String",
    ], ["Semantic Type", "String"]],
    rows: [
      ["ts", TMS, "PRI", "NO", "", "TIMESTAMP"],
      ["host", "String", "PRI", "YES", "", "TAG"],
      ["price", DEC, "", "YES", "", "FIELD"],
      ["big", "Decimal(38, 10)", "", "YES", "", "FIELD"],
      ["n", "Decimal(5, 0)", "", "YES", "", "FIELD"],
    ],
  },
  {
    sql: "SELECT column_name, data_type, numeric_precision, numeric_scale FROM information_schema.columns " +
      "WHERE table_name = 'd' AND column_name IN ('price', 'big')",
    columns: [["column_name", "String"], ["data_type", "String"], ["numeric_precision", "Int64"], [
      "numeric_scale",
      "Int64",
    ]],
    rows: [["price", "decimal(10,2)", 10, 2], ["big", "decimal(38,10)", 38, 10]],
  },
  // DECIMAL values: rounded half away from zero to the scale, rendered as strings with the scale
  {
    sql: "SELECT * FROM d ORDER BY price",
    columns: [["ts", TMS], ["host", "String"], ["price", DEC], ["big", "Decimal(38, 10)"], [
      "n",
      "Decimal(5, 0)",
    ]],
    rows: [
      [2, "a", "-0.01", "1000.0000000000", "-99999"],
      [4, "b", "0.10", "0.0000000000", "1"],
      [3, "b", "7.00", null, "1"],
      [1, "a", "12.35", "123456789.0123456789", "5"],
    ],
  },
  {
    sql: "SELECT d.price FROM d WHERE d.price = 0.1 OR price > 12 ORDER BY price DESC",
    columns: [["d.price", DEC]],
    rows: [["12.35"], ["0.10"]],
  },
  {
    sql: "SELECT sum(price), avg(price), min(price), max(price), count(price) FROM d",
    columns: [["sum(d.price)", "Decimal(20, 2)"], ["avg(d.price)", "Decimal(14, 6)"], ["min(d.price)", DEC], [
      "max(d.price)",
      DEC,
    ], ["count(d.price)", "Int64"]],
    rows: [["19.44", "4.860000", "-0.01", "12.35", 4]],
  },
  {
    sql: "SELECT host, sum(price) AS s FROM d GROUP BY host HAVING sum(price) > 7.05 ORDER BY s",
    columns: [["host", "String"], ["s", "Decimal(20, 2)"]],
    rows: [["b", "7.10"], ["a", "12.34"]],
  },
  {
    sql: "SELECT price::string AS a, price::bigint AS b, CAST(price AS DECIMAL(5,1)) AS c, " +
      "'1.25'::decimal(4,1) AS e, price * 2 AS f FROM d WHERE host = 'a' ORDER BY ts",
    columns: [["a", "String"], ["b", "Int64"], ["c", "Decimal(5, 1)"], ["e", "Decimal(4, 1)"], [
      "f",
      "Decimal(31, 2)",
    ]],
    rows: [["12.35", 12, "12.4", "1.3", "24.70"], ["-0.01", 0, "0.0", "1.3", "-0.02"]],
  },
  { sql: "SELECT 'abc'::decimal(5,2)", code: 3000, error: /Cannot parse 'abc' as Decimal\(5, 2\)/ },
  {
    sql: "SELECT '12345.678'::decimal(5,2)",
    code: 3000,
    error: /too large to store in a Decimal128 of precision 5/,
  },
  {
    sql: "INSERT INTO d VALUES (9, 'c', 123456789, 0, 0)",
    code: 1004,
    error: /too large to store in a Decimal128 of precision 10/,
  },
  { sql: "INSERT INTO d VALUES (9, 'c', 'abc', 0, 0)", code: 1004, error: /Cannot parse 'abc' as Decimal/ },
  {
    sql: "INSERT INTO d VALUES (9, 'c', 1, 1234567890, 0)",
    code: 1004,
    error: /more than the 18 to 19 significant digits Petrel stores/,
  },
  {
    sql: "CREATE TABLE bad (ts TIMESTAMP TIME INDEX, p DECIMAL(40, 2))",
    code: 1004,
    error: /Invalid DECIMAL\(40, 2\)/,
  },
];

Deno.test("SQL type casts and DECIMAL over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});

Deno.test("SHOW CREATE TABLE prints DECIMAL(p,s), and a line-protocol float into a decimal column is refused", async () => {
  const server = await startTestServer();
  try {
    await sqlRequest(
      server.url,
      "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, price DECIMAL(10,2))",
    );
    const show = JSON.parse((await sqlRequest(server.url, "SHOW CREATE TABLE m")).text);
    assert.match(show.output[0].records.rows[0][1], /"price" DECIMAL\(10,2\) NULL/);
    const res = await fetch(`${server.url}/v1/influxdb/write?db=public&precision=ms`, {
      method: "POST",
      body: "m,host=a price=1.5 1000",
    });
    const text = await res.text();
    assert.equal(res.status, 400, text);
    assert.match(text, /Column datatype mismatch. For column: price, expected datatype: Decimal\(10, 2\)/);
  } finally {
    await server.stop();
  }
});

Deno.test("INSERT refuses an integer past a narrower column's range (SQLite would keep it)", async () => {
  const server = await startTestServer();
  const run = async (sql: string) => {
    const r = await sqlRequest(server.url, sql);
    return [r.status, JSON.parse(r.text).error ?? null];
  };
  try {
    await run(
      "CREATE TABLE r (ts TIMESTAMP TIME INDEX, u8 TINYINT UNSIGNED, i8 TINYINT, i16 SMALLINT, " +
        "u16 SMALLINT UNSIGNED, i32 INT, u32 INT UNSIGNED, u64 BIGINT UNSIGNED)",
    );
    // [column, literal, the value the error shows, type]
    for (
      const [column, literal, shown, type] of [
        ["u8", "300", "300", "UInt8"],
        ["u8", "'256'", "'256'", "UInt8"],
        ["u8", "255.5 + 1", "256.5", "UInt8"],
        ["i8", "-129", "-129", "Int8"],
        ["i16", "70000", "70000", "Int16"],
        ["u16", "70000", "70000", "UInt16"],
        ["i32", "1099511627776", "1099511627776", "Int32"],
        ["u32", "1099511627776", "1099511627776", "UInt32"],
        ["u64", "18446744073709551616", "18446744073709551616", "UInt64"],
      ]
    ) {
      assert.deepEqual(await run(`INSERT INTO r (ts, ${column}) VALUES (1, ${literal})`), [
        400,
        `Failed to insert value ${shown} into column ${column} of type ${type}`,
      ]);
    }
    // INSERT … SELECT goes through the same conversion
    assert.deepEqual(await run("INSERT INTO r (ts, u8) SELECT 1, 300"), [
      400,
      "Failed to insert value 300 into column u8 of type UInt8",
    ]);
    assert.deepEqual(
      await run(
        "INSERT INTO r VALUES (1, 255, -128, 32767, 65535, -2147483648, 4294967295, 18446744073709551615), " +
          "(2, 0, 127, -32768, 0, 2147483647, 0, 0)",
      ),
      [200, null],
    );
    const rows = JSON.parse((await sqlRequest(server.url, "SELECT * FROM r ORDER BY ts")).text)
      .output[0].records.rows;
    assert.deepEqual(rows.map((r: unknown[]) => r.slice(1, 7)), [
      [255, -128, 32767, 65535, -2147483648, 4294967295],
      [0, 127, -32768, 0, 2147483647, 0],
    ]);
  } finally {
    await server.stop();
  }
});
