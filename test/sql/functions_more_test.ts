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

const GREPTIME: Case[] = [
  {
    sql:
      "SELECT clamp(10, 0, 5) AS a, clamp(-1.5, 0, 5) AS b, clamp(n, 2, 3) AS c, clamp_min(cpu, 2) AS d, " +
      "clamp_max(n, 2) AS e, clamp(NULL, 1, 2) IS NULL AS f FROM m ORDER BY ts",
    columns: [["a", I], ["b", F], ["c", I], ["d", F], ["e", I], ["f", B]],
    rows: [[5, 0, 2, 2, 1, true], [5, 0, 2, 2.5, 2, true], [5, 0, 3, 2, 2, true], [5, 0, 3, null, 2, true]],
  },
  { sql: "SELECT clamp(1, 5, 0)", code: 3000, error: /min value 5 is greater than the max value 0/ },
  {
    sql: "SELECT mod(7, 3) AS a, mod(-7, 3) AS b, mod(7.5, 2) AS c, mod(n, 2) AS d, mod(cpu, 2) AS e " +
      "FROM m ORDER BY ts",
    columns: [["a", I], ["b", I], ["c", F], ["d", I], ["e", F]],
    rows: [[1, -1, 1.5, 1, 1.5], [1, -1, 1.5, 0, 0.5], [1, -1, 1.5, 1, 0.5], [1, -1, 1.5, 0, null]],
  },
  { sql: "SELECT mod(1, 0)", code: 3000, error: /Divide by zero error/ },
  { sql: "SELECT timezone()", columns: [["timezone()", S]], rows: [["UTC"]] },
  {
    sql: "SELECT timezone() AS tz",
    headers: { "x-greptime-timezone": "+08:00" },
    columns: [["tz", S]],
    rows: [["+08:00"]],
  },
  {
    sql: "SET time_zone = 'Asia/Tokyo'; SELECT timezone() AS tz",
    columns: [["tz", S]],
    rows: [["Asia/Tokyo"]],
  },
  { sql: "SELECT timezone(1)", code: 1004, error: /'timezone' expects 0 argument/ },
  {
    sql: "SELECT build() LIKE '%version: %' AS a, current_schemas(false) AS b, current_schemas(true) AS c, " +
      "pg_backend_pid() > 0 AS d",
    columns: [["a", B], ["b", S], ["c", S], ["d", B]],
    rows: [[true, '["public"]', '["public","information_schema","pg_catalog"]', true]],
  },
  {
    sql: "SELECT isnull(cpu) AS a, isnull(n + 1) AS b FROM m ORDER BY ts",
    columns: [["a", B], ["b", B]],
    rows: [[false, false], [false, false], [false, false], [true, false]],
  },
  {
    sql: "SELECT json_is_int('1') AS a, json_is_float('1.5') AS b, json_is_bool('true') AS c, " +
      "json_is_string('\"x\"') AS d, json_is_array('[1]') AS e, json_is_object('{}') AS f, json_is_int(NULL) AS g, " +
      "json_is_int('1.0') AS h, json_is_object('[]') AS i",
    columns: [["a", B], ["b", B], ["c", B], ["d", B], ["e", B], ["f", B], ["g", B], ["h", B], ["i", B]],
    rows: [[true, true, true, true, true, true, null, false, false]],
  },
  { sql: "SELECT json_is_int('{')", code: 3000, error: /Invalid JSON text/ },
  {
    sql: `SELECT json_path_match('{"a":1,"b":[1,2,3]}', '$.a == 1') AS a, ` +
      `json_path_match('{"a":1,"b":[1,2,3]}', '$.b[*] > 2 && $.a < 0') AS b, ` +
      `json_path_match('{"a":{"c":"x"}}', '$.a.c == "x" || !($.z == 1)') AS c, ` +
      `json_path_match(NULL, '$.a == 1') AS d, json_path_match('{"t":true}', '$.t') AS e`,
    columns: [["a", B], ["b", B], ["c", B], ["d", B], ["e", B]],
    rows: [[true, false, true, null, true]],
  },
  {
    sql: "SELECT json_path_match('{}', '$.a ? (@ > 1)')",
    code: 3000,
    error: /unsupported JSON path predicate .*filters are not supported/,
  },
  {
    sql: "SELECT ipv4_num_to_string(3232235777) AS a, ipv4_string_to_num('192.168.1.1') AS b, " +
      "ipv4_to_cidr('192.168.1.100', 24) AS c, ipv4_to_cidr('10.0.0.0') AS d, " +
      "ipv4_in_range('192.168.1.5', '192.168.1.0/24') AS e, ipv4_in_range('10.0.0.1', '192.168.1.0/24') AS f, " +
      "ipv4_num_to_string(NULL) AS g",
    columns: [["a", S], ["b", "UInt32"], ["c", S], ["d", S], ["e", B], ["f", B], ["g", S]],
    rows: [["192.168.1.1", 3232235777, "192.168.1.0/24", "10.0.0.0/8", true, false, null]],
  },
  { sql: "SELECT ipv4_string_to_num('300.1.1.1')", code: 3000, error: /invalid IPv4 address '300.1.1.1'/ },
  {
    sql:
      "SELECT ipv6_num_to_string('20010db8000000000000000000000001') AS a, ipv6_string_to_num('2001:db8::1') AS b, " +
      "ipv6_to_cidr('2001:db8:abcd::1', 32) AS c, ipv6_in_range('2001:db8::5', '2001:db8::/32') AS d, " +
      "ipv6_num_to_string(ipv6_string_to_num('::ffff:1.2.3.4')) AS e, ipv6_in_range(NULL, '::/0') AS f",
    columns: [["a", S], ["b", "Binary"], ["c", S], ["d", B], ["e", S], ["f", B]],
    rows: [[
      "2001:db8::1",
      [32, 1, 13, 184, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
      "2001:db8::/32",
      true,
      "::ffff:1.2.3.4",
      null,
    ]],
  },
  {
    sql: "SELECT ipv6_to_cidr('2001:db8::1', 200)",
    code: 3000,
    error: /prefix length must be between 0 and 128/,
  },
  {
    sql: "SELECT date_add(ts, INTERVAL '1 day') AS a, date_sub(ts, INTERVAL '1' HOUR) AS b, " +
      "date_add('2024-01-31'::date, INTERVAL '1 month') AS c, date_add(ts, '1 month') AS d, " +
      "date_add(NULL, INTERVAL '1 day') AS e FROM m WHERE ts = 1000",
    columns: [["a", TMS], ["b", TMS], ["c", "Date"], ["d", TMS], ["e", TMS]],
    rows: [[86401000, -3599000, 19782, 2678401000, null]],
  },
  { sql: "SELECT date_add(ts, 5) FROM m", code: 1004, error: /date_add expects an interval literal/ },
];

const CASES: Case[] = [...ORDERED, ...GREPTIME];

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
        // the last statement's result (a SET before it answers no records)
        const rec = body.output[body.output.length - 1].records;
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
