/**
 * Date arithmetic as DataFusion computes it: `date ± INTERVAL` is a Date shifted by calendar months
 * and days (a sub-day rest truncated toward zero), `date - date` the days between them (Int64).
 * Dates render as days since the epoch, as GreptimeDB's JSON has them.
 */
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk } from "../http/fixtures/sql_client.ts";

const JAN_1_2024 = 19723;

const CASES: SqlCase[] = [
  {
    sql: "SELECT '2024-01-01'::date + INTERVAL '1 day'",
    schema: [["'2024-01-01'::date + INTERVAL '1 day'", "Date"]],
    rows: [[JAN_1_2024 + 1]],
  },
  {
    name: "months clamp to the month's last day; years are twelve months",
    sql: "SELECT '2024-01-31'::date + INTERVAL '1 month', CAST('2024-01-01' AS DATE) - INTERVAL '1 year'",
    rows: [[JAN_1_2024 + 29 + 30, JAN_1_2024 - 365]],
  },
  {
    name: "a sub-day interval truncates toward zero and the result stays a Date",
    sql: "SELECT '2024-01-01'::date + INTERVAL '1 hour' AS a, '2024-01-01'::date - INTERVAL '1 hour' AS b, " +
      "'2024-01-01'::date + INTERVAL '25 hours' AS c",
    schema: [["a", "Date"], ["b", "Date"], ["c", "Date"]],
    rows: [[JAN_1_2024, JAN_1_2024, JAN_1_2024 + 1]],
  },
  {
    name: "intervals chain",
    sql: "SELECT CAST('2024-01-01' AS DATE) + INTERVAL '2' DAY + INTERVAL '1 month' AS d",
    schema: [["d", "Date"]],
    rows: [[JAN_1_2024 + 31 + 2]],
  },
  {
    sql: "SELECT '2024-03-01'::date - '2024-01-01'::date AS days",
    schema: [["days", "Int64"]],
    rows: [[60]],
  },
  {
    name: "Date columns and date functions",
    sql: "SELECT d + INTERVAL '1 year' AS y, days.d - INTERVAL '1 day' AS p, d - '2024-01-01'::date AS n, " +
      "to_date('2024-01-01') + INTERVAL '1 day' AS t FROM days",
    schema: [["y", "Date"], ["p", "Date"], ["n", "Int64"], ["t", "Date"]],
    rows: [[JAN_1_2024 + 366 + 58, JAN_1_2024 + 58, 59, JAN_1_2024 + 1]],
  },
  {
    sql: "SELECT count(*) FROM days WHERE d >= '2024-01-31'::date + INTERVAL '1 month'",
    rows: [[1]],
  },
  {
    name: "a date meeting the time index is still a timestamp",
    sql: "SELECT count(*) FROM days WHERE ts < '2024-01-01'::date + INTERVAL '1 day'",
    rows: [[1]],
  },
];

Deno.test("date ± interval and date - date", async (t) => {
  const server = await startTestServer();
  try {
    await sqlOk(server.url, "CREATE TABLE days (ts TIMESTAMP TIME INDEX, d DATE)");
    await sqlOk(server.url, "INSERT INTO days VALUES (1, '2024-02-29')");
    await runCases(t, server.url, CASES);
  } finally {
    await server.stop();
  }
});
