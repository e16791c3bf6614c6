/**
 * `TRY_CAST(x AS type)`: DataFusion's cast that answers NULL where CAST fails (literals and column
 * values alike), with CAST's output types; and the type names a cast refuses or must keep as bytes.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

/** The expression, its type and value, and its column name when not its text (a cast is named by its operand). */
const CASES: Array<[string, string, unknown, string?]> = [
  ["TRY_CAST('abc' AS INT)", "Int32", null, 'Utf8("abc")'],
  ["TRY_CAST('12' AS BIGINT)", "Int64", 12, 'Utf8("12")'],
  ["TRY_CAST(1.7 AS INT)", "Int32", 1, "Float64(1.7)"],
  ["TRY_CAST(300 AS TINYINT)", "Int8", null, "Int64(300)"],
  ["TRY_CAST(99999999999999999999 AS BIGINT)", "Int64", null],
  ["TRY_CAST(5 AS STRING)", "String", "5", "Int64(5)"],
  ["CAST(true AS STRING)", "String", "true", "Boolean(true)"],
  ["TRY_CAST('2023-01-01' AS TIMESTAMP)", "TimestampMillisecond", 1672531200000],
  ["TRY_CAST('soon' AS TIMESTAMP)", "TimestampMillisecond", null],
  ["TRY_CAST('1.234' AS DECIMAL(5,2))", "Decimal(5, 2)", "1.23", 'Utf8("1.234")'],
  ["TRY_CAST('abc' AS DECIMAL(5,2))", "Decimal(5, 2)", null, 'Utf8("abc")'],
  ["TRY_CAST('12345' AS DECIMAL(5,2))", "Decimal(5, 2)", null, 'Utf8("12345")'],
  ["TRY_CAST('yes' AS BOOLEAN)", "Boolean", true, 'Utf8("yes")'],
  ["TRY_CAST('maybe' AS BOOLEAN)", "Boolean", null, 'Utf8("maybe")'],
  ["TRY_CAST('2023-02-30' AS DATE)", "Date", null],
  ["try_cast('5' as double) + 1", "Float64", 6, 'Utf8("5") + Int64(1)'],
  ["CAST('ab' AS BINARY)", "Binary", [97, 98], 'Utf8("ab")'],
];

Deno.test("TRY_CAST answers NULL where CAST fails; unknown cast types are refused", async (t) => {
  const server = await startTestServer();
  try {
    for (const [expr, type, value, name] of CASES) {
      await t.step(expr, async () => {
        const r = await sqlRequest(server.url, `SELECT ${expr}`);
        assert.equal(r.status, 200, r.text);
        const rec = JSON.parse(r.text).output[0].records;
        assert.deepEqual(rec.schema.column_schemas, [{ name: name ?? expr, data_type: type }]);
        assert.deepEqual(rec.rows, [[value]]);
      });
    }
    await t.step("column values that do not convert are NULL, the rest converted", async () => {
      for (
        const sql of [
          "CREATE TABLE s (ts TIMESTAMP TIME INDEX, v STRING)",
          "INSERT INTO s VALUES (1, '7'), (2, 'seven'), (3, NULL), (4, '-3')",
        ]
      ) assert.equal((await sqlRequest(server.url, sql)).status, 200);
      const r = await sqlRequest(server.url, "SELECT TRY_CAST(v AS INT) FROM s ORDER BY ts");
      assert.deepEqual(JSON.parse(r.text).output[0].records.rows, [[7], [null], [null], [-3]]);
      const strict = await sqlRequest(server.url, "SELECT CAST(v AS INT) FROM s");
      assert.equal(strict.status, 400, strict.text);
    });
    await t.step("typed literals TIMESTAMP '…' and DATE '…' are casts of their string", async () => {
      const r = await sqlRequest(
        server.url,
        "SELECT TIMESTAMP '2024-01-01 00:00:01', DATE '2024-01-02', count(*) FROM s WHERE ts < TIMESTAMP '1970-01-01 00:00:00.003'",
      );
      assert.equal(r.status, 200, r.text);
      const rec = JSON.parse(r.text).output[0].records;
      assert.deepEqual(
        rec.schema.column_schemas.map((c: { name: string; data_type: string }) => [c.name, c.data_type]),
        [
          ["TIMESTAMP '2024-01-01 00:00:01'", "TimestampMillisecond"],
          ["DATE '2024-01-02'", "Date"],
          ["count(*)", "Int64"],
        ],
      );
      assert.deepEqual(rec.rows, [[1704067201000, 19724, 2]]);
      const bad = await sqlRequest(server.url, "SELECT DATE 'someday'");
      assert.equal(bad.status, 400, bad.text);
      assert.match(JSON.parse(bad.text).error, /Cannot cast 'someday' to Date/);
    });
    await t.step("an unknown type is a syntax error for CAST and TRY_CAST", async () => {
      for (const sql of ["SELECT CAST(1 AS FOO)", "SELECT TRY_CAST(1 AS FOO(3))", "SELECT 1::nosuch"]) {
        const r = await sqlRequest(server.url, sql);
        assert.equal(r.status, 400, `${sql}: ${r.text}`);
        assert.match(JSON.parse(r.text).error, /Unsupported data type: (FOO|NOSUCH)/);
      }
    });
  } finally {
    await server.stop();
  }
});

Deno.test("a Boolean column or predicate cast to a string is 'true'/'false' as arrow casts it (SQLite holds 1/0)", async () => {
  const server = await startTestServer();
  try {
    for (
      const sql of [
        "CREATE TABLE flags (ok BOOLEAN, ts TIMESTAMP TIME INDEX)",
        "INSERT INTO flags VALUES (true, 1), (false, 2), (NULL, 3)",
      ]
    ) assert.equal((await sqlRequest(server.url, sql)).status, 200);
    const r = await sqlRequest(
      server.url,
      "SELECT CAST(ok AS STRING), flags.ok::string, CAST(ts > 1 AS STRING), CAST(NOT ok OR ts = 3 AS STRING), " +
        "CAST(CASE WHEN ts > 1 THEN ts END AS STRING), CAST((ts > 1) AS STRING), " +
        "CAST((SELECT count(*) FROM flags WHERE ts > 1) AS STRING) FROM flags ORDER BY ts",
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(JSON.parse(r.text).output[0].records.rows, [
      ["true", "true", "false", "false", null, "false", "2"],
      ["false", "false", "true", "true", "2", "true", "2"],
      [null, null, "true", "true", "3", "true", "2"],
    ]);
  } finally {
    await server.stop();
  }
});
