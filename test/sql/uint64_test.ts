/**
 * A `BIGINT UNSIGNED` value ≥ 2^63 is stored as its two's complement: casts, comparisons, ORDER BY
 * and min/max over the column read its value, as DataFusion does (not the negative stored number).
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlExactRows, sqlRequest } from "../http/fixtures/sql_client.ts";

const MAX = "18446744073709551615", HALF = "9223372036854775808";

const rows = sqlExactRows;

/** The values of the first column. */
async function column(url: string, sql: string): Promise<unknown[]> {
  return (await rows(url, sql)).map((r) => r[0]);
}

Deno.test("UInt64 values past 2^63 are read by value", async (t) => {
  const server = await startTestServer();
  const url = server.url;
  try {
    for (
      const sql of [
        "CREATE TABLE u (u BIGINT UNSIGNED, v BIGINT UNSIGNED, i BIGINT, ts TIMESTAMP TIME INDEX)",
        `INSERT INTO u VALUES (${MAX}, 1, -1, 1), (5, 18446744073709551614, 5, 2), (${HALF}, ${HALF}, 7, 3), ` +
        "(NULL, 3, 3, 4)",
      ]
    ) assert.equal((await sqlRequest(url, sql)).status, 200, sql);

    await t.step("casts to text, double and integers (range-checked)", async () => {
      assert.deepEqual(
        await rows(url, "SELECT CAST(u AS STRING), u::double, CAST(u AS DECIMAL(20, 0)) FROM u"),
        [
          [MAX, 18446744073709551615, MAX],
          ["5", 5, "5"],
          [HALF, 9223372036854775808, HALF],
          [null, null, null],
        ],
      );
      assert.deepEqual(await column(url, "SELECT TRY_CAST(t.u AS BIGINT) FROM u t ORDER BY ts"), [
        null,
        5,
        null,
        null,
      ]);
      assert.deepEqual(await column(url, "SELECT CAST(u AS INT) FROM u WHERE ts = 2"), [5]);
      for (const type of ["BIGINT", "INT", "TINYINT UNSIGNED"]) {
        const r = await sqlRequest(url, `SELECT CAST(u AS ${type}) FROM u`);
        assert.equal(r.status, 400, r.text);
        assert.match(JSON.parse(r.text).error, new RegExp(`Can't cast value ${MAX} to type U?Int`));
      }
    });

    await t.step("comparisons with literals and other columns", async () => {
      const where = (cond: string) => column(url, `SELECT ts FROM u WHERE ${cond} ORDER BY ts`);
      assert.deepEqual(await where("u > 10"), [1, 3]);
      assert.deepEqual(await where(`u >= ${HALF} AND u < ${MAX}`), [3]);
      assert.deepEqual(await where(`u = ${MAX}`), [1]);
      assert.deepEqual(await where(`u = '${MAX}'`), [1]);
      assert.deepEqual(await where(`u IN (5, ${HALF})`), [2, 3]);
      assert.deepEqual(await where(`u NOT IN (5)`), [1, 3]);
      assert.deepEqual(await where(`u BETWEEN 6 AND ${MAX}`), [1, 3]);
      assert.deepEqual(await where("u > -1"), [1, 2, 3]);
      assert.deepEqual(await where("u < v"), [2]);
      assert.deepEqual(await where("u > i"), [1, 3]);
      assert.deepEqual(
        await rows(url, "SELECT a.ts, b.ts FROM u a JOIN u b ON a.u > b.v ORDER BY a.ts, b.ts"),
        [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 4], [3, 1], [3, 4]],
      );
      assert.deepEqual(
        await rows(url, "SELECT i, u > 5 FROM u GROUP BY i, u HAVING max(u) > 5 ORDER BY i"),
        [[-1, true], [7, true]],
      );
    });

    await t.step("ORDER BY the column", async () => {
      assert.deepEqual(await column(url, "SELECT u FROM u ORDER BY u"), [5, BigInt(HALF), BigInt(MAX), null]);
      assert.deepEqual(await column(url, "SELECT ts FROM u ORDER BY u DESC"), [4, 1, 3, 2]);
      assert.deepEqual(await column(url, "SELECT ts FROM u ORDER BY v DESC NULLS LAST, ts"), [2, 3, 4, 1]);
      // by its alias or position; an alias of another expression hides the column
      assert.deepEqual(await column(url, "SELECT ts, u AS x FROM u ORDER BY x"), [2, 3, 1, 4]);
      assert.deepEqual(await column(url, "SELECT ts, u FROM u ORDER BY 2 DESC"), [4, 1, 3, 2]);
      assert.deepEqual(await column(url, "SELECT CAST(u AS STRING) AS u FROM u ORDER BY u"), [
        MAX,
        "5",
        HALF,
        null,
      ]);
    });

    await t.step("min and max; avg of the values; sum a UInt64 (wrapping past 2^64)", async () => {
      const r = await sqlRequest(url, "SELECT sum(u), sum(v) FROM u");
      assert.deepEqual(
        JSON.parse(r.text).output[0].records.schema.column_schemas.map((c: { data_type: string }) =>
          c.data_type
        ),
        ["UInt64", "UInt64"],
      );
      assert.deepEqual(await rows(url, "SELECT sum(u), sum(v) FROM u"), [[
        (2n ** 64n - 1n + 5n + 2n ** 63n) % 2n ** 64n,
        (1n + 2n ** 64n - 2n + 2n ** 63n + 3n) % 2n ** 64n,
      ]]);
      assert.deepEqual(
        await column(url, "SELECT sum(u) OVER (ORDER BY ts) FROM u WHERE ts < 3 ORDER BY ts"),
        [
          BigInt(MAX),
          4,
        ],
      );
      assert.deepEqual(await rows(url, "SELECT avg(u), avg(v) FROM u WHERE ts < 4"), [[
        (2 ** 64 - 1 + 5 + 2 ** 63) / 3,
        (1 + 2 ** 64 - 2 + 2 ** 63) / 3,
      ]]);
      assert.deepEqual(await rows(url, "SELECT max(u), min(u), min(v) FROM u"), [[BigInt(MAX), 5, 1]]);
      assert.deepEqual(await column(url, "SELECT max(u) OVER (ORDER BY ts DESC) FROM u ORDER BY ts"), [
        BigInt(MAX),
        BigInt(HALF),
        BigInt(HALF),
        null,
      ]);
      assert.deepEqual(
        await rows(url, "SELECT i > 0, max(u) FROM u GROUP BY i > 0 ORDER BY max(u)"),
        [[true, BigInt(HALF)], [false, BigInt(MAX)]],
      );
    });

    await t.step(
      "arithmetic with an integer is Decimal128 of the value (DataFusion's coercion)",
      async () => {
        const sql = "SELECT u + 1, u - 1, 2 * u, u / 2, u % 7 FROM u ORDER BY ts";
        const r = await sqlRequest(url, sql);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(
          JSON.parse(r.text).output[0].records.schema.column_schemas.map((c: { data_type: string }) =>
            c.data_type
          ),
          ["Decimal(21, 0)", "Decimal(21, 0)", "Decimal(38, 0)", "Decimal(24, 4)", "Decimal(20, 0)"],
        );
        assert.deepEqual(await rows(url, sql), [
          [
            "18446744073709551616",
            "18446744073709551614",
            "36893488147419103230",
            "9223372036854775807.5000",
            String((2n ** 64n - 1n) % 7n),
          ],
          ["6", "4", "10", "2.5000", "5"],
          [
            "9223372036854775809",
            "9223372036854775807",
            "18446744073709551616",
            "4611686018427387904.0000",
            String(2n ** 63n % 7n),
          ],
          [null, null, null, null, null],
        ]);
        assert.deepEqual(await column(url, `SELECT ts FROM u WHERE u - 1 >= ${HALF} ORDER BY ts`), [1]);
        // a qualified column with a signed column: both Decimal(20, 0)
        assert.deepEqual(await column(url, "SELECT ts FROM u t WHERE t.u + i > 10 ORDER BY ts"), [1, 3]);
      },
    );
  } finally {
    await server.stop();
  }
});
