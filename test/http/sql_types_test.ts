/**
 * Column types, time units and the places where SQLite's semantics differ from DataFusion's, through
 * `/v1/sql`: GreptimeDB's data_type names and answers are expected.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase } from "./fixtures/sql_client.ts";
import { MONITOR_DDL, MONITOR_ROWS, T0 } from "./fixtures/sql_monitor.ts";

/** Where SQLite's and DataFusion's semantics part ways, GreptimeDB's (DataFusion's) answer is expected. */
const SEMANTICS: SqlCase[] = [
  {
    name: "LIKE is case-sensitive",
    sql:
      "SELECT 'ABC' LIKE 'abc' AS l, 'ABC' ILIKE 'abc' AS il, count(*) AS n FROM monitor WHERE host LIKE 'H%'",
    rows: [[false, true, 0]],
  },
  { name: "ILIKE ignores case", sql: "SELECT count(*) FROM monitor WHERE host ILIKE 'H%'", rows: [[4]] },
  {
    name:
      "a time function's segment reads its string literals as times (text would compare above any number)",
    sql:
      "SELECT now() - INTERVAL '1 day' > '2020-01-01' AS a, date_trunc('day', now()) >= '2020-01-01T00:00:00Z' AS b",
    schema: [["a", "Boolean"], ["b", "Boolean"]],
    rows: [[true, true]],
  },
  {
    name: "a cast to INTERVAL is an interval",
    sql: "SELECT '1h'::INTERVAL AS a, CAST('30 minutes' AS INTERVAL) AS b, ts + '1h'::INTERVAL AS t " +
      "FROM monitor WHERE mem = 100",
    schema: [["a", "IntervalMonthDayNano"], ["b", "IntervalMonthDayNano"], ["t", "TimestampMillisecond"]],
    rows: [[3_600_000_000_000, 1_800_000_000_000, T0 + 3_600_000]],
  },
  {
    name: "ORDER BY an expression with the division guard: the NULLS order goes after the whole item",
    sql: "SELECT mem FROM monitor ORDER BY mem % 300 DESC, mem / 200, mem",
    rows: [[200], [100], [400], [300]],
  },
  {
    name: "a bare TRUE/FALSE select item is a Boolean (reference §9), as in DataFusion",
    sql: "SELECT true AS t, FALSE AS f, count(*) AS n FROM monitor",
    schema: [["t", "Boolean"], ["f", "Boolean"], ["n", "Int64"]],
    rows: [[true, false, 4]],
  },
  {
    name: "a cast to JSON is the JSON value (reference §9), not SQLite's numeric affinity",
    sql: `SELECT '{"a":[1,2]}'::JSON AS j, CAST('"x"' AS JSON) AS s, TRY_CAST('{' AS JSON) AS bad`,
    schema: [["j", "Json"], ["s", "Json"], ["bad", "Json"]],
    rows: [[{ a: [1, 2] }, "x", null]],
  },
  {
    name: "a cast of text that is not JSON to JSON is an error",
    sql: "SELECT CAST('{' AS JSON) AS j",
    error: {},
  },
  {
    name: "literals keep their types in an empty result (reference §6.1: the schema is still there)",
    sql: "SELECT 1 AS i, -2 AS n, 1.5 AS f, 'a' AS s, true AS b FROM monitor WHERE mem < 0",
    schema: [["i", "Int64"], ["n", "Int64"], ["f", "Float64"], ["s", "String"], ["b", "Boolean"]],
    rows: [],
  },
  {
    name: "literals with rows",
    sql: "SELECT 1 AS i, -2 AS n, 1.0 AS f, 'a' AS s",
    schema: [["i", "Int64"], ["n", "Int64"], ["f", "Float64"], ["s", "String"]],
    rows: [[1, -2, 1, "a"]],
  },
  { name: "regex match", sql: "SELECT count(*) FROM monitor WHERE host ~ '^h[12]$'", rows: [[4]] },
  {
    name: "~* and !~* ignore case, also over a concatenated pattern",
    sql:
      "SELECT count(*) FILTER (WHERE host ~* '^H[12]$') AS ci, count(*) FILTER (WHERE host ~ '^H') AS cs, " +
      "count(*) FILTER (WHERE host !~* 'H' || '1') AS nci, 'ABC' ~* 'b' AS lit FROM monitor",
    rows: [[4, 0, 2, true]],
  },
  {
    name: "a failed string cast is an error",
    sql: "SELECT CAST('abc' AS INT) AS x",
    error: {},
  },
  {
    name: "CAST to INT is Int32",
    sql:
      "SELECT CAST(1.9 AS INT) AS i, CAST(1 AS BIGINT) AS b, CAST(1 AS DOUBLE) AS d, CAST(2 AS STRING) AS s",
    schema: [["i", "Int32"], ["b", "Int64"], ["d", "Float64"], ["s", "String"]],
    rows: [[1, 1, 1.0, "2"]],
  },
  {
    name: "predicate functions are Boolean",
    sql: "SELECT starts_with('hello', 'he') AS sw, regexp_like('Web', '^w', 'i') AS rl",
    schema: [["sw", "Boolean"], ["rl", "Boolean"]],
    rows: [[true, true]],
  },
  {
    name: "integer arithmetic stays integral",
    sql: "SELECT 7 / 2 AS d, 7.0 / 2 AS f, 5 % 3 AS m, count(DISTINCT host) AS n FROM monitor",
    schema: [["d", "Int64"], ["f", "Float64"], ["m", "Int64"], ["n", "Int64"]],
    rows: [[3, 3.5, 2, 2]],
  },
  {
    name: "greatest/least keep the argument type",
    sql: "SELECT greatest(1, 3, 2) AS g, least(1, 3, 2) AS l",
    schema: [["g", "Int64"], ["l", "Int64"]],
    rows: [[3, 1]],
  },
  {
    name: "string functions",
    sql: "SELECT strpos('hello', 'l') AS p, split_part('a,b,c', ',', 2) AS sp, trim('  x ') AS t, " +
      "lpad('7', 3, '0') AS lp, btrim('xxaxx', 'x') AS bt, left('hello', 2) AS le, right('hello', 2) AS ri, " +
      "reverse('abc') AS rv, repeat('ab', 2) AS rp, initcap('hello world') AS ic, md5('a') AS m, " +
      "to_hex(255) AS hx, char_length('ü') AS cl, octet_length('ü') AS ol, 'a' || 'b' AS cc",
    rows: [[
      3,
      "b",
      "x",
      "007",
      "a",
      "he",
      "lo",
      "cba",
      "abab",
      "Hello World",
      "0cc175b9c0f1b6a831c399e269772661",
      "ff",
      1,
      2,
      "ab",
    ]],
  },
  {
    name: "math functions",
    sql: "SELECT ln(exp(1)) AS ln, log10(100) AS lg, pi() AS pi, trunc(2.7) AS tr, cbrt(27.0) AS cb, " +
      "round(-1.25, 1) AS r, signum(-3.0) AS sg",
    rows: [[1.0, 2.0, Math.PI, 2.0, 3.0, -1.3, -1.0]],
  },
  {
    name: "time functions",
    sql: "SELECT extract(hour FROM ts) AS e, to_timestamp_millis(1000) AS t1, " +
      "date_format(ts, '%Y-%m-%d %H:%M:%S') AS f FROM monitor WHERE mem = 400",
    rows: [[0, 1000, "2024-01-01 00:10:00"]],
  },
];

/** Tables in second, microsecond and nanosecond units: literals, comparisons and results stay in the unit. */
const TIME_UNITS: SqlCase[] = [
  {
    sql:
      "CREATE TABLE s0 (ts TIMESTAMP(0) TIME INDEX, v BIGINT); CREATE TABLE s6 (ts TIMESTAMP_US TIME INDEX, v BIGINT);" +
      "CREATE TABLE s9 (ts TIMESTAMP(9) TIME INDEX, v BIGINT)",
    affected: [0, 0, 0],
  },
  {
    sql: `INSERT INTO s0 VALUES ('2024-01-01 00:00:01', 1), (${T0 / 1000 + 2}, 2);` +
      `INSERT INTO s6 VALUES ('2024-01-01T00:00:00.000001Z', 1), (${T0 * 1000 + 2}, 2);` +
      `INSERT INTO s9 VALUES ('2024-01-01 00:00:00.000000001', 1), (${BigInt(T0) * 1_000_000n + 2n}, 2)`,
    affected: [2, 2, 2],
  },
  {
    sql: "SELECT ts, v FROM s0 ORDER BY ts",
    schema: [["ts", "TimestampSecond"], ["v", "Int64"]],
    rows: [
      [T0 / 1000 + 1, 1],
      [T0 / 1000 + 2, 2],
    ],
  },
  {
    sql: "SELECT ts FROM s6 ORDER BY ts",
    schema: [["ts", "TimestampMicrosecond"]],
    rows: [[T0 * 1000 + 1], [
      T0 * 1000 + 2,
    ]],
  },
  {
    name: "nanoseconds beyond 2^53 survive as JSON integers",
    sql: "SELECT ts FROM s9 ORDER BY ts",
    format: "csv",
    body: `${BigInt(T0) * 1_000_000n + 1n}\r\n${BigInt(T0) * 1_000_000n + 2n}\r\n`,
  },
  { sql: "SELECT v FROM s0 WHERE ts >= '2024-01-01 00:00:02' AND ts < now()", rows: [[2]] },
  { sql: "SELECT v FROM s6 WHERE ts > '2024-01-01 00:00:00.000001'", rows: [[2]] },
  { sql: "SELECT v FROM s9 WHERE ts > '2024-01-01 00:00:00.000000001'", rows: [[2]] },
  {
    name: "INSERT … SELECT stores each timestamp as the same instant in the target's unit",
    sql: "CREATE TABLE u3 (ts TIMESTAMP(3) TIME INDEX, v BIGINT); INSERT INTO u3 SELECT ts, v FROM s0; " +
      "INSERT INTO u3 (ts, v) SELECT max(ts), 9 FROM s9",
    affected: [0, 2, 1],
  },
  {
    sql: "SELECT ts, v FROM u3 ORDER BY ts",
    schema: [["ts", "TimestampMillisecond"], ["v", "Int64"]],
    rows: [[T0, 9], [T0 + 1000, 1], [T0 + 2000, 2]],
  },
  {
    sql:
      "SELECT date_bin(INTERVAL '1 minute', ts) AS b, date_trunc('minute', ts) AS d, to_unixtime(ts) AS u " +
      "FROM s9 WHERE v = 1",
    schema: [["b", "TimestampNanosecond"], ["d", "TimestampNanosecond"], ["u", "Int64"]],
    rows: [[T0 * 1_000_000, T0 * 1_000_000, T0 / 1000]],
  },
  {
    name: "extract's FROM is the call's, not the query's: the field is read in the column's unit",
    sql: "SELECT extract(epoch FROM ts) AS e, date_part('epoch', ts) AS p FROM s0 WHERE v = 1",
    schema: [["e", "Float64"], ["p", "Float64"]],
    rows: [[T0 / 1000 + 1, T0 / 1000 + 1]],
  },
  {
    sql:
      "SELECT extract(epoch FROM date_trunc('second', ts)) AS e, extract(minute FROM ts) AS m FROM s9 WHERE v = 1",
    schema: [["e", "Float64"], ["m", "Int32"]],
    rows: [[T0 / 1000, 0]],
  },
  {
    name:
      "date_part fields other than epoch are DataFusion's Int32 (seconds whole, sub-second parts in ms/µs)",
    sql: "SELECT date_part('second', ts) AS s, date_part('millisecond', ts) AS ms, " +
      "date_part('microsecond', ts) AS us, extract(year FROM ts) AS y FROM s6 WHERE v = 2",
    schema: [["s", "Int32"], ["ms", "Int32"], ["us", "Int32"], ["y", "Int32"]],
    rows: [[0, 0, 2, 2024]],
  },
  {
    sql: "SELECT date_trunc('minute', ts) AS d, max(ts) AS m FROM s0 GROUP BY d",
    schema: [["d", "TimestampSecond"], ["m", "TimestampSecond"]],
    rows: [[T0 / 1000, T0 / 1000 + 2]],
  },
  {
    sql: "SELECT arrow_cast(ts, 'Timestamp(Millisecond, None)') AS m FROM s9 WHERE v = 1",
    schema: [["m", "TimestampMillisecond"]],
    rows: [[T0]],
  },
  {
    name: "the session timezone reads local literals",
    sql: "SELECT v FROM s0 WHERE ts = '2024-01-01 08:00:01'",
    headers: { "x-greptime-timezone": "+08:00" },
    rows: [[1]],
  },
  {
    name: "SHOW VARIABLES time_zone is the header's zone",
    sql: "SHOW VARIABLES time_zone",
    headers: { "x-greptime-timezone": "Asia/Shanghai" },
    schema: [["TIME_ZONE", "String"]],
    rows: [["Asia/Shanghai"]],
  },
  {
    name: "an empty timezone header is the server default",
    sql: "SHOW VARIABLES time_zone; SHOW VARIABLES system_time_zone",
    headers: { "x-greptime-timezone": "" },
    outputs: [
      {
        records: {
          schema: { column_schemas: [{ name: "TIME_ZONE", data_type: "String" }] },
          rows: [["UTC"]],
          total_rows: 1,
        },
      },
      {
        records: {
          schema: { column_schemas: [{ name: "SYSTEM_TIME_ZONE", data_type: "String" }] },
          rows: [["UTC"]],
          total_rows: 1,
        },
      },
    ],
  },
  {
    name: "SET time_zone shows in SHOW VARIABLES",
    sql: "SET time_zone = '+08:00'; SHOW VARIABLES TIMEZONE",
    outputs: [{ affectedrows: 0 }, {
      records: {
        schema: { column_schemas: [{ name: "TIMEZONE", data_type: "String" }] },
        rows: [["+08:00"]],
        total_rows: 1,
      },
    }],
  },
  { name: "an unknown variable", sql: "SHOW VARIABLES nope", error: { code: 1001, message: /NOPE/ } },
];

/** `default_timezone` is the zone of every request without `x-greptime-timezone`. */
const DEFAULT_ZONE: SqlCase[] = [
  { sql: "CREATE TABLE z (ts TIMESTAMP TIME INDEX, v DOUBLE)", affected: [0] },
  { sql: "INSERT INTO z VALUES ('2024-01-01 08:00:00', 1)", affected: [1] },
  { sql: "SELECT ts FROM z", rows: [[1704067200000]] },
  { sql: "SHOW VARIABLES time_zone", rows: [["Asia/Shanghai"]] },
  {
    sql: "SHOW VARIABLES system_time_zone",
    headers: { "x-greptime-timezone": "UTC" },
    schema: [["SYSTEM_TIME_ZONE", "String"]],
    rows: [["Asia/Shanghai"]],
  },
];

/** Every column type: GreptimeDB's data_type names in results, DESC and information_schema. */
const TYPES: [string, string, string, string, string][] = [
  // [column, SQL type, data_type, information_schema type, inserted literal]
  ["i8", "TINYINT", "Int8", "tinyint", "-1"],
  ["i16", "SMALLINT", "Int16", "smallint", "-2"],
  ["i32", "INT", "Int32", "int", "-3"],
  ["i64", "BIGINT", "Int64", "bigint", "-4"],
  ["u8", "TINYINT UNSIGNED", "UInt8", "tinyint unsigned", "1"],
  ["u16", "SMALLINT UNSIGNED", "UInt16", "smallint unsigned", "2"],
  ["u32", "INT UNSIGNED", "UInt32", "int unsigned", "3"],
  ["u64", "BIGINT UNSIGNED", "UInt64", "bigint unsigned", "18446744073709551615"],
  ["f32", "FLOAT", "Float32", "float", "1.5"],
  ["f64", "DOUBLE", "Float64", "double", "2"],
  ["b", "BOOLEAN", "Boolean", "boolean", "true"],
  ["s", "STRING", "String", "string", "'s'"],
  ["vc", "VARCHAR", "String", "string", "'v'"],
  ["d", "DATE", "Date", "date", "'2024-01-02'"],
  ["j", "JSON", "Json", "json", `'{"a":[1,2]}'`],
  ["ts", "TIMESTAMP TIME INDEX", "TimestampMillisecond", "timestamp(3)", "0"],
];

const TYPE_CASES: SqlCase[] = [
  { sql: `CREATE TABLE ty (${TYPES.map(([c, t]) => `${c} ${t}`).join(", ")})`, affected: [0] },
  { sql: `INSERT INTO ty VALUES (${TYPES.map((t) => t[4]).join(", ")})`, affected: [1] },
  {
    sql: "SELECT * FROM ty",
    schema: TYPES.map(([c, , t]) => [c, t]),
    rows: [[
      -1,
      -2,
      -3,
      -4,
      1,
      2,
      3,
      18446744073709551615,
      1.5,
      2.0,
      true,
      "s",
      "v",
      19724,
      { a: [1, 2] },
      0,
    ]],
  },
  {
    name: "exact digits of the largest UInt64, dates as days, JSON as text",
    sql: "SELECT u64, d, j FROM ty",
    format: "csvwithnamesandtypes",
    body: 'u64,d,j\r\nUInt64,Date,Json\r\n18446744073709551615,19724,"{""a"":[1,2]}"\r\n',
  },
  {
    sql: "DESC ty",
    rows: TYPES.map(([c, , t]) =>
      c === "ts" ? [c, t, "PRI", "NO", "", "TIMESTAMP"] : [c, t, "", "YES", "", "FIELD"]
    ),
  },
  {
    sql: "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'ty' " +
      "ORDER BY ordinal_position",
    rows: TYPES.map(([c, , , t]) => [c, t]),
  },
];

Deno.test("/v1/sql types, units and semantics", async (t) => {
  const server = await startTestServer();
  try {
    await runCases(t, server.url, [{ sql: `${MONITOR_DDL}; ${MONITOR_ROWS}`, affected: [0, 4] }]);
    await t.step("DataFusion semantics", (t) => runCases(t, server.url, SEMANTICS));
    await t.step("time units", (t) => runCases(t, server.url, TIME_UNITS));
    await t.step("column types", (t) => runCases(t, server.url, TYPE_CASES));
  } finally {
    await server.stop();
  }
});

Deno.test("/v1/sql default_timezone", async (t) => {
  const server = await startTestServer({ default_timezone: "Asia/Shanghai" });
  try {
    await runCases(t, server.url, DEFAULT_ZONE);
  } finally {
    await server.stop();
  }
});

Deno.test("/v1/sql: a cast to UInt64 past 2^63 is a JSON number (reference §9), not its text", async () => {
  const s = await startTestServer();
  try {
    const sql =
      "SELECT CAST('18446744073709551615' AS BIGINT UNSIGNED) AS u, 18446744073709551614::BIGINT UNSIGNED AS v";
    const res = await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent(sql)}`);
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.match(text, /"rows":\[\[18446744073709551615,18446744073709551614\]\]/);
  } finally {
    await s.stop();
  }
});
