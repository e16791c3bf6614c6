/**
 * GreptimeDB and DataFusion functions beyond the basics, over `/v1/sql`: the ordered aggregates
 * (`first_value(x ORDER BY y)`), GreptimeDB's own functions (clamp, mod, timezone, JSON predicates,
 * IP addresses) and DataFusion's date, string, hash and statistics functions: each with its value,
 * its column data type, NULL in → NULL out, and a 400 for bad arguments.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, cpu DOUBLE, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 1.5, 1), (2000, 'a', 2.5, 2), (3000, 'b', 0.5, 3), (4000, 'b', NULL, 4)",
];

type Col = [string, string];
interface Case {
  sql: string;
  columns?: Col[];
  rows?: unknown[][];
  /** An error: GreptimeDB code and a message pattern. */
  code?: number;
  error?: RegExp;
  headers?: Record<string, string>;
}

const F = "Float64", I = "Int64", S = "String", B = "Boolean", TMS = "TimestampMillisecond";

const ORDERED: Case[] = [
  {
    sql: "SELECT host, last_value(cpu ORDER BY ts) FROM m GROUP BY host ORDER BY host",
    columns: [["host", S], ["last_value(m.cpu) ORDER BY [m.ts ASC NULLS LAST]", F]],
    rows: [["a", 2.5], ["b", null]],
  },
  {
    sql:
      "SELECT host, first_value(cpu ORDER BY ts DESC) AS a, first_value(ts ORDER BY cpu DESC NULLS LAST) AS b, " +
      "first_value(n ORDER BY cpu, ts DESC) AS c FROM m GROUP BY host ORDER BY host",
    columns: [["host", S], ["a", F], ["b", TMS], ["c", I]],
    rows: [["a", 2.5, 2000, 1], ["b", null, 3000, 3]],
  },
  {
    sql: "SELECT first_value(n) AS a, last_value(n ORDER BY ts) AS b FROM m WHERE host = 'a'",
    columns: [["a", I], ["b", I]],
    rows: [[1, 2]],
  },
  {
    sql: "SELECT nth_value(n, 2 ORDER BY ts DESC) AS a, nth_value(n, -1 ORDER BY ts) AS b, " +
      "nth_value(n, 9 ORDER BY ts) AS c FROM m",
    columns: [["a", I], ["b", I], ["c", I]],
    rows: [[3, 4, null]],
  },
  // the window forms stay SQLite's window functions
  {
    sql: "SELECT first_value(cpu) OVER (PARTITION BY host ORDER BY ts) AS a, " +
      "last_value(n) OVER (ORDER BY ts) AS b FROM m ORDER BY ts",
    columns: [["a", F], ["b", I]],
    rows: [[1.5, 1], [1.5, 2], [0.5, 3], [0.5, 4]],
  },
  {
    sql: "SELECT first_value(cpu, 1 ORDER BY ts) FROM m",
    code: 1004,
    error: /first_value expects one argument/,
  },
  {
    sql: "SELECT nth_value(n, 0 ORDER BY ts) FROM m",
    code: 3000,
    error: /nth_value expects n to be non-zero/,
  },
];

const CASES: Case[] = [...ORDERED];

Deno.test("GreptimeDB and DataFusion functions over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) {
      const r = await sqlRequest(server.url, sql);
      assert.equal(r.status, 200, `${sql}: ${r.text}`);
    }
    for (const c of CASES) {
      await t.step(c.sql, async () => {
        const r = await sqlRequest(server.url, c.sql, { headers: c.headers });
        const body = JSON.parse(r.text);
        if (c.code !== undefined) {
          assert.equal(body.code, c.code, r.text);
          assert.match(body.error, c.error!);
          assert.ok(r.status >= 400 && r.status < 500, r.text);
          return;
        }
        assert.equal(r.status, 200, r.text);
        const rec = body.output[0].records;
        const cols = rec.schema.column_schemas.map((
          s: { name: string; data_type: string },
        ) => [s.name, s.data_type]);
        assert.deepEqual(cols, c.columns);
        assert.deepEqual(rec.rows, c.rows);
      });
    }
  } finally {
    await server.stop();
  }
});
