/**
 * DataFusion scalar functions and aliases Petrel lacked, over `/v1/sql`: `today()`, `to_local_time`,
 * `regexp_instr`, `datetrunc` and a one-argument `coalesce`, each with its value, its column name and
 * data type, NULL in → NULL out, and a 4xx for what DataFusion refuses.
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, n BIGINT)",
  "INSERT INTO m VALUES (3700000, 'a', 1)",
];

const I = "Int64", B = "Boolean", TMS = "TimestampMillisecond";

const CASES: TypedCase[] = [
  {
    sql: "SELECT today() = current_date",
    // today is DataFusion's alias of current_date, and the bare word its call
    columns: [["current_date() = current_date()", B]],
    rows: [[true]],
  },
  { sql: "SELECT today() AS d WHERE false", columns: [["d", "Date"]], rows: [] },
  {
    // GreptimeDB's timestamps carry no zone: to_local_time keeps the value and its type
    sql: "SELECT to_local_time(ts), to_local_time(now()) <= now() AS b FROM m",
    columns: [["to_local_time(m.ts)", TMS], ["b", B]],
    rows: [[3700000, true]],
  },
  { sql: "SELECT to_local_time(host) FROM m", code: 3000, error: /only accept Timestamp/ },
  { sql: "SELECT to_local_time('2024-01-01')", code: 3000, error: /only accept Timestamp/ },
  {
    sql: "SELECT regexp_instr('abcb', 'b'), regexp_instr('abcb', 'b', 3) AS a, " +
      "regexp_instr('abcb', 'b', 1, 2) AS b, regexp_instr('abcb', 'x') AS c, " +
      "regexp_instr('aXbc', '(b)(c)', 1, 1, 'i', 2) AS d, regexp_instr('ABC', 'b', 1, 1, 'i') AS e, " +
      "regexp_instr(NULL, 'b') AS f",
    columns: [
      ['regexp_instr(Utf8("abcb"),Utf8("b"))', I],
      ["a", I],
      ["b", I],
      ["c", I],
      ["d", I],
      ["e", I],
      ["f", I],
    ],
    rows: [[2, 4, 4, 0, 4, 2, null]],
  },
  {
    // positions count characters, not UTF-16 units
    sql: "SELECT regexp_instr('é😀b', 'b') AS p",
    columns: [["p", I]],
    rows: [[3]],
  },
  { sql: "SELECT regexp_instr('abc', 'b', 0)", code: 3000, error: /start position must be greater than 0/ },
  {
    sql: "SELECT datetrunc('hour', ts), datetrunc('day', ts) AS d FROM m",
    columns: [['date_trunc(Utf8("hour"),m.ts)', TMS], ["d", TMS]],
    rows: [[3600000, 0]],
  },
  {
    sql: "SELECT coalesce(n) AS a, coalesce(NULL) AS b FROM m",
    columns: [["a", I], ["b", "Null"]],
    rows: [[1, null]],
  },
];

Deno.test("DataFusion functions and aliases over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});
