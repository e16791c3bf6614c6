/**
 * A list's trailing comma, as GreptimeDB's parser (sqlparser with `trailing_commas`) accepts it: in a
 * SELECT list before FROM, in GROUP BY / ORDER BY, before a closing parenthesis, at the end of the
 * statement; and GreptimeDB's documentation flow written that way (`… AS time_window,\nFROM …`). A
 * comma inside a string, or one a list still needs, is left alone.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, sqlOk, sqlRows, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE ngx_access_log (client STRING, stat INT, size INT, access_time TIMESTAMP TIME INDEX) " +
  "WITH ('append_mode' = 'true')",
  "INSERT INTO ngx_access_log VALUES ('cli1', 200, 100, '2022-01-01 00:00:00'), ('cli2', 200, 104, " +
  "'2022-01-01 00:00:01'), ('cli1', 200, 120, '2022-01-01 00:00:02'), ('cli1', 404, 150, '2022-01-01 00:00:03'),",
];

const CASES: TypedCase[] = [
  {
    sql: "SELECT stat, size, FROM ngx_access_log WHERE size < 110 ORDER BY size,",
    columns: [["stat", "Int32"], ["size", "Int32"]],
    rows: [[200, 100], [200, 104]],
  },
  {
    sql:
      "SELECT stat, count(*) AS n, FROM ngx_access_log GROUP BY stat, HAVING count(*) > 0 ORDER BY stat, LIMIT 5",
    columns: [["stat", "Int32"], ["n", "Int64"]],
    rows: [[200, 3], [404, 1]],
  },
  {
    sql:
      "SELECT stat FROM ngx_access_log WHERE stat IN (404, 500,) UNION ALL SELECT stat, FROM ngx_access_log " +
      "WHERE size = 100 ORDER BY 1",
    columns: [["stat", "Int32"]],
    rows: [[200], [404]],
  },
  {
    sql: "SELECT ',' AS a, 'x, FROM' AS b,",
    columns: [["a", "String"], ["b", "String"]],
    rows: [[",", "x, FROM"]],
  },
  { sql: "SELECT 1, , 2", code: 2000, error: /syntax/i },
];

Deno.test("SQL: a list's trailing comma is accepted as GreptimeDB's parser accepts it", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});

Deno.test("SQL: GreptimeDB's documented ngx_distribution flow, trailing comma and trunc(size, -1) buckets", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    for (const s of SETUP) await sqlOk(url, s);
    await sqlOk(
      url,
      "CREATE TABLE ngx_distribution (stat INT, bucket_size INT, total_logs BIGINT, " +
        "time_window TIMESTAMP TIME INDEX, update_at TIMESTAMP, PRIMARY KEY(stat, bucket_size))",
    );
    await sqlOk(
      url,
      `CREATE FLOW calc_ngx_distribution SINK TO ngx_distribution AS
SELECT
    stat,
    trunc(size, -1)::INT as bucket_size,
    count(client) AS total_logs,
    date_bin(INTERVAL '1 minutes', access_time) as time_window,
FROM ngx_access_log
GROUP BY
    stat,
    time_window,
    bucket_size;`,
    );
    await sqlRows(url, "ADMIN FLUSH_FLOW('calc_ngx_distribution')");
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT stat, bucket_size, total_logs FROM ngx_distribution ORDER BY stat, bucket_size",
      ),
      [[200, 100, 2], [200, 120, 1], [404, 150, 1]],
    );
  } finally {
    await server.stop();
  }
});
