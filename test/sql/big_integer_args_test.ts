/**
 * An integer past 2^53 given to one of Petrel's own SQL functions (scalar or aggregate) is answered:
 * node:sqlite (Deno 2.9.6) spins for good, burning CPU and memory, when it hands such an integer to a
 * JS function as a number, so the registry takes every integer as a bigint and makes it a number itself
 * (`src/sql/functions/registry.ts`), as DataFusion coerces Int64 to Float64.
 */
import assert from "node:assert/strict";
import { withTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

const BIG = "9007199254740993"; // 2^53 + 1

Deno.test("functions given an integer past 2^53 answer instead of hanging", async () => {
  await withTestServer(async (url) => {
    const ask = async (sql: string) => {
      const r = await sqlRequest(url, sql, { headers: { "x-greptime-timeout": "10s" } });
      assert.equal(r.status, 200, `${sql}: ${r.text}`);
      return JSON.parse(r.text).output[0].records.rows;
    };
    await sqlRequest(url, "CREATE TABLE big (ts TIMESTAMP TIME INDEX, b BIGINT)");
    await sqlRequest(url, `INSERT INTO big VALUES (1, ${BIG}), (2, 8)`);
    assert.deepEqual(await ask("SELECT cbrt(b) FROM big ORDER BY ts"), [[Math.cbrt(Number(BIG))], [2]]);
    const [[sketch]] = await ask("SELECT uddsketch_calc(0.5, uddsketch_state(128, 0.01, b)) FROM big");
    assert.ok(typeof sketch === "number" && sketch > 0, String(sketch));
    // the window function's inverse step takes the same arguments
    const medians = await ask(
      "SELECT median(b) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM big ORDER BY ts",
    );
    assert.equal(medians.length, 2);
  });
});
