/**
 * GreptimeDB and DataFusion functions beyond the basics, over `/v1/sql`: the ordered aggregates
 * (`first_value(x ORDER BY y)`), GreptimeDB's own functions (clamp, mod, timezone, JSON predicates,
 * IP addresses) and DataFusion's date, string, hash and statistics functions: each with its value,
 * its column data type, NULL in → NULL out, and a 400 for bad arguments.
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, cpu DOUBLE, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 1.5, 1), (2000, 'a', 2.5, 2), (3000, 'b', 0.5, 3), (4000, 'b', NULL, 4)",
];

const F = "Float64", I = "Int64", S = "String", B = "Boolean", TMS = "TimestampMillisecond";

const ORDERED: TypedCase[] = [
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
    // DataFusion joins an aggregate's arguments without a space, its sort keys with one
    sql: "SELECT nth_value(n, 2 ORDER BY ts DESC, host) FROM m",
    columns: [["nth_value(m.n,Int64(2)) ORDER BY [m.ts DESC NULLS FIRST, m.host ASC NULLS LAST]", I]],
    rows: [[3]],
  },
  {
    sql: "SELECT nth_value(n, 0 ORDER BY ts) FROM m",
    code: 3000,
    error: /nth_value expects n to be non-zero/,
  },
];

const GREPTIME: TypedCase[] = [
  {
    sql:
      "SELECT clamp(10, 0, 5) AS a, clamp(-1.5, 0, 5) AS b, clamp(n, 2, 3) AS c, clamp_min(cpu, 2) AS d, " +
      "clamp_max(n, 2) AS e, clamp(NULL, 1, 2) IS NULL AS f FROM m ORDER BY ts",
    columns: [["a", I], ["b", F], ["c", I], ["d", F], ["e", I], ["f", B]],
    rows: [[5, 0, 2, 2, 1, true], [5, 0, 2, 2.5, 2, true], [5, 0, 3, 2, 2, true], [5, 0, 3, null, 2, true]],
  },
  { sql: "SELECT clamp(1, 5, 0)", code: 3000, error: /min value 5 is greater than the max value 0/ },
  // integers clamped by float bounds answer a float (GreptimeDB wants one type; README, Compatibility)
  {
    sql:
      "SELECT clamp(5, 0.5, 2) AS a, clamp(n, 0.5, 2.5) AS b, clamp_min(n, 1.5) AS c, clamp_max(1, 0.5) AS d " +
      "FROM m ORDER BY ts",
    columns: [["a", F], ["b", F], ["c", F], ["d", F]],
    rows: [[2, 1, 1.5, 0.5], [2, 2, 2, 0.5], [2, 2.5, 3, 0.5], [2, 2.5, 4, 0.5]],
  },
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
  // an offset shows as chrono's FixedOffset shows it, as GreptimeDB's timezone() answers
  {
    sql: "SET time_zone = '+8:00'; SELECT timezone() AS tz",
    columns: [["tz", S]],
    rows: [["+08:00"]],
  },
  {
    sql: "SELECT timezone() AS tz",
    headers: { "x-greptime-timezone": "-0530" },
    columns: [["tz", S]],
    rows: [["-05:30"]],
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
  // parse_json's result is a JSON value (GreptimeDB types it Json), shown as a JSON column is
  {
    sql: `SELECT parse_json('{"x":[1,2]}') AS p, json_to_string(parse_json('{"x":1}')) AS s, ` +
      `json_get_int(parse_json('{"x":3}'), 'x') AS i, parse_json(NULL) AS n`,
    columns: [["p", "Json"], ["s", S], ["i", I], ["n", "Json"]],
    rows: [[{ x: [1, 2] }, '{"x":1}', 3, null]],
  },
  { sql: "SELECT parse_json('{')", code: 3000, error: /JSON/ },
  // GreptimeDB's json_get_object: the object at a path, typed Json; NULL for anything else or nothing there
  {
    sql: `SELECT json_get_object('{"a":{"b":[1,2.5]},"n":1}', 'a') AS a, ` +
      `json_get_object('{"a":{"b":[1,2.5]}}', 'a.b') AS b, json_get_object('{"n":1}', 'n') AS c, ` +
      `json_get_object('{"n":1}', 'zz') AS d, json_get_object(NULL, 'a') AS e`,
    columns: [["a", "Json"], ["b", "Json"], ["c", "Json"], ["d", "Json"], ["e", "Json"]],
    rows: [[{ b: [1, 2.5] }, null, null, null, null]],
  },
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

const DATAFUSION: TypedCase[] = [
  {
    sql: "SELECT from_unixtime(1700000000) AS a, to_date('2024-03-01') AS b, make_date(2024, 2, 29) AS c, " +
      "to_date(NULL) AS d, make_date(2024, 1, NULL) AS e, current_date() = current_date AS f, " +
      "current_date() = to_date(to_char(now(), '%Y-%m-%d')) AS g",
    columns: [
      ["a", "TimestampSecond"],
      ["b", "Date"],
      ["c", "Date"],
      ["d", "Date"],
      ["e", "Date"],
      ["f", B],
      ["g", B],
    ],
    rows: [[1700000000, 19783, 19782, null, null, true, true]],
  },
  { sql: "SELECT make_date(2023, 2, 29)", code: 3000, error: /2023-2-29 is not a valid date/ },
  {
    sql: "SELECT to_date('01/03/2024', '%Y-%m-%d', '%d/%m/%Y') AS a, to_date(19000) AS b",
    columns: [["a", "Date"], ["b", "Date"]],
    rows: [[19783, 19000]],
  },
  {
    sql: "SELECT to_date('2024 March', '%Y-%m-%d')",
    code: 3000,
    error: /error parsing '2024 March' as a date/,
  },
  {
    sql: "SELECT to_char(ts, '%Y-%m-%d %H:%M:%S%.3f') AS a, to_char('2024-03-01'::date, '%d/%m/%Y') AS b, " +
      "to_char(NULL, '%Y') AS c FROM m WHERE ts = 1000",
    columns: [["a", S], ["b", S], ["c", S]],
    rows: [["1970-01-01 00:00:01.000", "01/03/2024", null]],
  },
  { sql: "SELECT to_char(ts, '%Q') FROM m", code: 3000, error: /invalid format specifier %Q/ },
  {
    sql: "SELECT nvl(cpu, 0) AS a, nvl2(cpu, 'y', 'n') AS b, nanvl(cpu, 2) AS c, iszero(n - 1) AS d, " +
      "iszero(NULL) AS e FROM m ORDER BY ts",
    columns: [["a", F], ["b", S], ["c", F], ["d", B], ["e", B]],
    rows: [[1.5, "y", 1.5, true, null], [2.5, "y", 2.5, false, null], [0.5, "y", 0.5, false, null], [
      0,
      "n",
      null,
      false,
      null,
    ]],
  },
  { sql: "SELECT nvl(cpu) FROM m", code: 1004, error: /nvl expects two arguments/ },
  {
    sql: "SELECT levenshtein('kitten', 'sitting') AS a, translate('12345', '143', 'ax') AS b, " +
      "substr_index('www.apache.org', '.', 2) AS c, substr_index('www.apache.org', '.', -1) AS d, " +
      "find_in_set('b', 'a,b,c') AS e, bit_length('héllo') AS f, cot(1) AS g, factorial(5) AS h, gcd(12, 18) AS i, " +
      "lcm(4, 6) AS j, levenshtein(NULL, 'a') AS k",
    columns: [
      ["a", "Int32"],
      ["b", S],
      ["c", S],
      ["d", S],
      ["e", "Int32"],
      ["f", "Int32"],
      ["g", F],
      ["h", I],
      ["i", I],
      ["j", I],
      ["k", "Int32"],
    ],
    rows: [[3, "a2x5", "www.apache", "org", 2, 48, 0.6420926159343306, 120, 6, 12, null]],
  },
  { sql: "SELECT factorial(21)", code: 3000, error: /Overflow happened on FACTORIAL\(21\)/ },
  { sql: "SELECT gcd(1.5, 2)", code: 3000, error: /gcd expects integer arguments/ },
  {
    sql: "SELECT sha256('a') AS a, encode('hello', 'base64') AS b, encode('hi', 'hex') AS c, " +
      "decode('aGVsbG8', 'base64') AS d, decode('6869', 'hex') AS e, digest('a', 'sha224') = sha224('a') AS f, " +
      "encode(sha512('a'), 'hex') LIKE '1f40fc92%' AS g, encode(sha384(NULL), 'hex') AS h, " +
      "regexp_count('abcabc', 'b') AS i, regexp_count('abcabc', 'B', 3, 'i') AS j",
    columns: [["a", "Binary"], ["b", S], ["c", S], ["d", "Binary"], ["e", "Binary"], ["f", B], ["g", B], [
      "h",
      S,
    ], [
      "i",
      I,
    ], ["j", I]],
    rows: [[
      [...Uint8Array.from(atob("ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs="), (ch) => ch.charCodeAt(0))],
      "aGVsbG8",
      "6869",
      [104, 101, 108, 108, 111],
      [104, 105],
      true,
      true,
      null,
      2,
      1,
    ]],
  },
  { sql: "SELECT encode('x', 'rot13')", code: 3000, error: /no built-in encoding named 'rot13'/ },
  {
    sql: "SELECT digest('a', 'whirlpool')",
    code: 3000,
    error: /no built-in digest algorithm named 'whirlpool'/,
  },
  {
    sql:
      "SELECT arrow_typeof(1) AS a, arrow_typeof(1.5) AS b, arrow_typeof('x') AS c, arrow_typeof(ts) AS d, " +
      "arrow_typeof(NULL) AS e, arrow_typeof(cpu > 1) AS f, arrow_typeof(n) AS g, arrow_typeof(to_date('2024-01-01')) AS h " +
      "FROM m WHERE ts = 1000",
    columns: [["a", S], ["b", S], ["c", S], ["d", S], ["e", S], ["f", S], ["g", S], ["h", S]],
    rows: [[
      "Int64",
      "Float64",
      "Utf8",
      "Timestamp(Millisecond, None)",
      "Null",
      "Boolean",
      "Int64",
      "Date32",
    ]],
  },
  { sql: "SELECT arrow_typeof(n + 1) FROM m", code: 1004, error: /cannot tell the type of this expression/ },
  {
    sql:
      "SELECT corr(cpu, n) AS a, covar_samp(cpu, n) AS b, covar(cpu, n) AS c, covar_pop(cpu, n) AS d, var(n) AS e, " +
      "bit_and(n) AS f, bit_or(n) AS g, bit_xor(n) AS h, approx_percentile_cont_with_weight(n, 1, 0.5) AS i FROM m",
    // approx_percentile_cont_with_weight answers its input's type (n is BIGINT), as DataFusion's
    columns: [["a", F], ["b", F], ["c", F], ["d", F], ["e", F], ["f", I], ["g", I], ["h", I], ["i", I]],
    rows: [[-0.5, -0.5, -0.5, -1 / 3, 5 / 3, 0, 7, 4, 2]],
  },
  {
    sql: "SELECT corr(cpu, n) AS a, var(n) AS b, bit_or(n) AS c FROM m WHERE n > 100",
    columns: [["a", F], ["b", F], ["c", I]],
    rows: [[null, null, null]],
  },
  {
    // DataFusion's decimal places, negative ones too (GreptimeDB's docs bucket with trunc(size, -1))
    sql: "SELECT trunc(104, -1) AS a, trunc(123.4567, 2) AS b, trunc(-1.5) AS c, round(104.5, -1) AS d, " +
      "round(-2.5) AS e, round(2.675, 2) AS f, trunc(n * 17, -1) AS g, round(NULL, 1) AS h FROM m WHERE n = 3",
    columns: [["a", F], ["b", F], ["c", F], ["d", F], ["e", F], ["f", F], ["g", F], ["h", "Null"]],
    rows: [[100, 123.45, -1, 100, -3, 2.68, 50, null]],
  },
  { sql: "SELECT bit_and(cpu) FROM m", code: 3000, error: /bit aggregates expect integer values/ },
  {
    sql: "SELECT approx_percentile_cont_with_weight(n, 1, 2) FROM m",
    code: 3000,
    error: /expects a percentile between 0 and 1/,
  },
];

const CASES: TypedCase[] = [...ORDERED, ...GREPTIME, ...DATAFUSION];

Deno.test("GreptimeDB and DataFusion functions over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});
