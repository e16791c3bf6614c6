/**
 * Subqueries in FROM keep their columns' types: the outer query reports what the inner query alone
 * does (a `max(ts)` is the time index's timestamp, not Int64), nested or joined, and compares a
 * timestamp string with such a column as with a time column.
 */
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk } from "../http/fixtures/sql_client.ts";

const CASES: SqlCase[] = [
  {
    sql: "SELECT max(ts) AS last FROM m GROUP BY host ORDER BY last",
    schema: [["last", "TimestampMillisecond"]],
    rows: [[1000], [2000]],
  },
  {
    name: "the same query as a derived table",
    sql: "SELECT * FROM (SELECT max(ts) AS last FROM m GROUP BY host) ORDER BY last",
    schema: [["last", "TimestampMillisecond"]],
    rows: [[1000], [2000]],
  },
  {
    sql:
      "SELECT s.host, s.last, s.top FROM (SELECT host, max(ts) AS last, max(v) AS top FROM m GROUP BY host) AS s " +
      "WHERE s.last > '1970-01-01 00:00:01' ORDER BY s.host",
    schema: [["host", "String"], ["last", "TimestampMillisecond"], ["top", "Float64"]],
    rows: [["b", 2000, 2]],
  },
  {
    name: "a derived table ordered inside",
    sql:
      "SELECT * FROM (SELECT host, row_number() OVER (ORDER BY ts DESC) AS n FROM m ORDER BY host DESC LIMIT 1)",
    schema: [["host", "String"], ["n", "UInt64"]],
    rows: [["b", 1]],
  },
  {
    name: "nested derived tables",
    sql: "SELECT * FROM (SELECT * FROM (SELECT max(ts) AS last, count(*) AS n FROM m) x) y",
    schema: [["last", "TimestampMillisecond"], ["n", "Int64"]],
    rows: [[2000, 2]],
  },
  {
    name: "a joined derived table",
    sql: "SELECT m.host, z.first FROM m JOIN (SELECT host, min(ts) AS first FROM m GROUP BY host) z " +
      "ON m.host = z.host ORDER BY m.host",
    schema: [["host", "String"], ["first", "TimestampMillisecond"]],
    rows: [["a", 1000], ["b", 2000]],
  },
];

Deno.test("derived tables in FROM keep their columns' types", async (t) => {
  const server = await startTestServer();
  try {
    await sqlOk(server.url, "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE)");
    await sqlOk(server.url, "INSERT INTO m VALUES (1000, 'a', 1), (2000, 'b', 2)");
    await runCases(t, server.url, CASES);
  } finally {
    await server.stop();
  }
});

const VALUES_ALIASES: SqlCase[] = [
  {
    sql: "SELECT x, y FROM (VALUES (1, 'a'), (2, 'b')) AS t(x, y) ORDER BY x DESC",
    schema: [["x", "Int64"], ["y", "String"]],
    rows: [[2, "b"], [1, "a"]],
  },
  {
    sql:
      "SELECT m.id, n.name FROM (VALUES (1), (2)) AS m(id) JOIN (VALUES (1, 'one')) n(id, name) ON m.id = n.id",
    schema: [["id", "Int64"], ["name", "String"]],
    rows: [[1, "one"]],
  },
  {
    sql: "SELECT * FROM (VALUES (1)) AS t(a, b)",
    error: { code: 1004, message: "Source table contains 1 columns but 2 names given" },
  },
];

Deno.test("VALUES lists with column aliases: AS t(a, b) names the columns; a count mismatch is a 400", async (t) => {
  const server = await startTestServer();
  try {
    await runCases(t, server.url, VALUES_ALIASES);
  } finally {
    await server.stop();
  }
});
