/**
 * `SET` and `SHOW VARIABLES` over `/v1/sql` as GreptimeDB's HTTP channel answers them: the variables
 * it keeps (time zone, DateStyle, read preference, bytea_output, allow_query_fallback, client_encoding) are taken and
 * shown, any other name is a 1001 "Unsupported set variable", as are the MySQL- and Postgres-only ones.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, sqlOk, type TypedCase } from "../http/fixtures/sql_client.ts";

const S = "String";

const CASES: TypedCase[] = [
  { sql: "SET bogus = 1", code: 1001, error: /^Not supported: Unsupported set variable BOGUS$/ },
  { sql: "SET SESSION nope TO 'x'", code: 1001, error: /Unsupported set variable NOPE$/ },
  // MAX_EXECUTION_TIME and `@@` names are MySQL's; STATEMENT_TIMEOUT and SEARCH_PATH Postgres'
  { sql: "SET max_execution_time = 1000", code: 1001, error: /Unsupported set variable MAX_EXECUTION_TIME$/ },
  {
    sql: "SET @@session.max_execution_time = 1000",
    code: 1001,
    error: /Unsupported set variable @@SESSION\.MAX_EXECUTION_TIME$/,
  },
  { sql: "SET statement_timeout = 1000", code: 1001, error: /Unsupported set variable STATEMENT_TIMEOUT$/ },
  { sql: "SET search_path = public", code: 1001, error: /Unsupported set variable SEARCH_PATH$/ },
  {
    sql: "SHOW VARIABLES max_execution_time",
    code: 1001,
    error: /Unsupported show variable: MAX_EXECUTION_TIME/,
  },
  { sql: "SET client_encoding = 'latin1'", code: 1001, error: /client encoding of 'LATIN1'/ },
  { sql: "SET datestyle = 'nope'", code: 1004, error: /Invalid value for DateStyle: NOPE/ },
  { sql: "SET bytea_output = 'base64'", code: 1004, error: /BYTEA_OUTPUT: base64/ },
  { sql: "SET time_zone = 'nowhere'", code: 1004, error: /nowhere/ },
  // a failed SET stops the request before the statements after it
  { sql: "SET bogus = 1; SELECT 1", code: 1001, error: /BOGUS/ },
  { sql: "SHOW VARIABLES datestyle", columns: [["DATESTYLE", S]], rows: [["ISO, MDY"]] },
  {
    sql: "SET DateStyle = 'SQL'; SHOW VARIABLES datestyle",
    columns: [["DATESTYLE", S]],
    rows: [["SQL, MDY"]],
  },
  {
    sql: "SET datestyle = euro, postgres; SHOW VARIABLES DateStyle",
    columns: [["DATESTYLE", S]],
    rows: [["Postgres, DMY"]],
  },
  { sql: "SET TIME ZONE '+8:00'; SHOW VARIABLES time_zone", columns: [["TIME_ZONE", S]], rows: [["+08:00"]] },
  // chrono's FixedOffset: 75 minutes carry into the hour, a day or more is no offset
  {
    sql: "SET time_zone = '+05:75'; SHOW VARIABLES time_zone",
    columns: [["TIME_ZONE", S]],
    rows: [["+06:15"]],
  },
  {
    sql: "SET time_zone = '-0:30'; SHOW VARIABLES time_zone",
    columns: [["TIME_ZONE", S]],
    rows: [["-00:30"]],
  },
  { sql: "SET time_zone = '+25:00'", code: 1004, error: /Invalid timezone: \+25:00/ },
  { sql: "SET time_zone = '-24:00'", code: 1004, error: /Invalid timezone: -24:00/ },
  {
    sql: "SET SESSION timezone TO 'Asia/Tokyo'; SHOW VARIABLES timezone",
    columns: [["TIMEZONE", S]],
    rows: [["Asia/Tokyo"]],
  },
  // standalone GreptimeDB keeps the session's read preference (its one region answers any of them)
  { sql: "SHOW VARIABLES read_preference", columns: [["READ_PREFERENCE", S]], rows: [["leader"]] },
  {
    sql: "SET READ_PREFERENCE = 'Follower'; SHOW VARIABLES READ_PREFERENCE",
    columns: [["READ_PREFERENCE", S]],
    rows: [["follower"]],
  },
  {
    sql:
      "SET read_preference TO 'follower_preferred'; SET READ_PREFERENCE = 'leader'; SHOW VARIABLES read_preference",
    columns: [["READ_PREFERENCE", S]],
    rows: [["leader"]],
  },
  {
    sql: "SET READ_PREFERENCE = 'nearest'",
    code: 1001,
    error: /^Not supported: Invalid read preference expr nearest in set variable statement$/,
  },
  {
    sql: "SET READ_PREFERENCE = leader",
    code: 1001,
    error: /^Not supported: Unsupported read preference expr leader in set variable statement$/,
  },
];

Deno.test("SET and SHOW VARIABLES over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES);
    await t.step("the variables GreptimeDB keeps over HTTP are taken", async () => {
      assert.deepEqual(
        await sqlOk(
          server.url,
          "SET client_encoding = 'UTF8'; SET bytea_output = 'hex'; SET allow_query_fallback = true; " +
            "SET time_zone = 'UTC'; SET LOCAL DATESTYLE TO 'ISO, YMD'; SET READ_PREFERENCE = 'leader'",
        ),
        Array(6).fill({ affectedrows: 0 }),
      );
    });
  } finally {
    await server.stop();
  }
});
