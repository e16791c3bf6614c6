/**
 * Small SQL readings that follow DataFusion over `/v1/sql`: arrow_cast of a number (computed too) to a
 * timestamp keeps it as a count of the target unit, strpos counts characters, date_part refuses nanoseconds,
 * the niladic time words take the name of the call DataFusion plans, and a flow's `datetrunc`
 * window is its `date_trunc` one.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, sqlRequest, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE t (ts TIMESTAMP TIME INDEX, n BIGINT, s STRING)",
  "INSERT INTO t VALUES (1500, 7, 'héllo😀x')",
];

const CASES: TypedCase[] = [
  {
    sql:
      "SELECT arrow_cast(1, 'Timestamp(Nanosecond, None)') AS a, arrow_cast(1, 'Timestamp(Second, None)') AS b, " +
      "arrow_cast(-2, 'Timestamp(Microsecond, None)') AS c, arrow_cast(1, 'Timestamp(Millisecond, None)') AS d",
    columns: [["a", "TimestampNanosecond"], ["b", "TimestampSecond"], ["c", "TimestampMicrosecond"], [
      "d",
      "TimestampMillisecond",
    ]],
    rows: [[1, 1, -2, 1]],
  },
  // an integer column is a count too; the time index still changes unit
  {
    sql:
      "SELECT arrow_cast(n, 'Timestamp(Second, None)') AS a, arrow_cast(ts, 'Timestamp(Second, None)') AS b FROM t",
    columns: [["a", "TimestampSecond"], ["b", "TimestampSecond"]],
    rows: [[7, 1]],
  },
  // a computed number is a count as well (it was read as milliseconds); computed time changes unit
  {
    sql:
      "SELECT arrow_cast(n * 2, 'Timestamp(Second, None)') AS a, arrow_cast(1 + 2, 'Timestamp(Second, None)') " +
      "AS b, arrow_cast(length(s) - t.n, 'Timestamp(Second, None)') AS c, " +
      "arrow_cast(CAST(n AS BIGINT) * 1000, 'Timestamp(Second, None)') AS d, " +
      "arrow_cast(ts + INTERVAL '1 second', 'Timestamp(Second, None)') AS e FROM t",
    columns: [["a", "TimestampSecond"], ["b", "TimestampSecond"], ["c", "TimestampSecond"], [
      "d",
      "TimestampSecond",
    ], ["e", "TimestampSecond"]],
    rows: [[14, 3, 0, 7000, 2]],
  },
  {
    sql:
      "SELECT strpos(s, 'x') AS a, position('x' IN s) AS b, strpos(s, 'l') AS c, strpos(s, 'z') AS d FROM t",
    columns: [["a", "Int32"], ["b", "Int32"], ["c", "Int32"], ["d", "Int32"]],
    rows: [[7, 7, 3, 0]],
  },
  {
    sql: "SELECT extract(nanosecond FROM ts) FROM t",
    code: 3000,
    error: /This feature is not implemented: Date part Nanosecond not supported/,
  },
  {
    sql: "SELECT date_part('nanoseconds', ts) FROM t",
    code: 3000,
    error: /Date part Nanosecond not supported/,
  },
  {
    sql: "SELECT date_part('microsecond', ts) AS a FROM t",
    columns: [["a", "Int32"]],
    rows: [[1500000]],
  },
];

Deno.test("SQL readings that follow DataFusion over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});

Deno.test("niladic current_date, current_time and current_timestamp are named as DataFusion's calls", async () => {
  const server = await startTestServer();
  try {
    const r = await sqlRequest(
      server.url,
      "SELECT current_date, current_time, current_timestamp, current_date + 1, now(), today() FROM (SELECT 1)",
    );
    assert.equal(r.status, 200, r.text);
    const names = JSON.parse(r.text).output[0].records.schema.column_schemas.map((c: { name: string }) =>
      c.name
    );
    assert.deepEqual(names, [
      "current_date()",
      "current_time()",
      "now()",
      "current_date() + Int64(1)",
      "now()",
      "current_date()",
    ]);
  } finally {
    await server.stop();
  }
});

Deno.test("a flow's datetrunc window is its date_trunc window: the sink's time index", async () => {
  const server = await startTestServer();
  const sql = async (q: string) => {
    const r = await sqlRequest(server.url, q);
    assert.equal(r.status, 200, `${q}: ${r.text}`);
    return JSON.parse(r.text).output;
  };
  try {
    await sql("CREATE TABLE cpu (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, usage DOUBLE)");
    await sql("INSERT INTO cpu VALUES (60000, 'a', 1), (61000, 'a', 3), (125000, 'a', 5)");
    await sql(
      "CREATE FLOW f SINK TO s AS SELECT host, avg(usage) AS a, datetrunc('minute', ts) AS w FROM cpu " +
        "GROUP BY host, datetrunc('minute', ts)",
    );
    await sql(
      "CREATE FLOW g SINK TO sg AS SELECT avg(usage) AS a, DATETRUNC('minute', ts) AS w FROM cpu GROUP BY w",
    );
    await sql("ADMIN FLUSH_FLOW('f')");
    await sql("ADMIN FLUSH_FLOW('g')");
    for (const sink of ["s", "sg"]) {
      const [shown] = await sql(`SHOW CREATE TABLE ${sink}`);
      assert.match(shown.records.rows[0][1], /TIME INDEX \("w"\)/, sink);
      assert.doesNotMatch(shown.records.rows[0][1], /__ts_placeholder/, sink);
    }
    const [rows] = await sql("SELECT host, a, w FROM s ORDER BY w");
    assert.deepEqual(rows.records.rows, [["a", 2, 60000], ["a", 5, 120000]]);
  } finally {
    await server.stop();
  }
});
