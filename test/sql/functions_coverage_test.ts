/**
 * DataFusion functions a pasted GreptimeDB query may use that Petrel lacked: the inverse hyperbolic
 * functions, contains, overlay, substring_index, the mean/var_sample/var_population aliases and the
 * regr_* linear regression aggregates; each with its value, its column name and data type, NULL in →
 * NULL out, and a 400 for a wrong argument count (which DataFusion refuses at planning).
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, cpu DOUBLE, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 1.5, 1), (2000, 'a', 2.5, 2), (3000, 'b', 0.5, 3), (4000, 'b', NULL, 4)",
];

const F = "Float64", S = "String", B = "Boolean";

const SCALARS: TypedCase[] = [
  {
    sql: "SELECT acosh(2), asinh(1), atanh(0.5), acosh(NULL)",
    columns: [["acosh(Int64(2))", F], ["asinh(Int64(1))", F], ["atanh(Float64(0.5))", F], ["acosh(NULL)", F]],
    rows: [[Math.acosh(2), Math.asinh(1), Math.atanh(0.5), null]],
  },
  {
    sql:
      "SELECT contains(host, 'a') AS a, contains('abc', '') AS b, contains(NULL, 'a') AS c FROM m ORDER BY ts",
    columns: [["a", B], ["b", B], ["c", B]],
    rows: [[true, true, null], [true, true, null], [false, true, null], [false, true, null]],
  },
  {
    sql: "SELECT contains('abc', 'B')",
    columns: [['contains(Utf8("abc"),Utf8("B"))', B]],
    rows: [[false]],
  },
  {
    sql: "SELECT overlay('Txxxxas', 'hom', 2, 4) AS a, overlay('Txxxxas', 'hom', 2) AS b, " +
      "overlay('abc', 'XY', 3, 0) AS c, overlay(NULL, 'a', 1) AS d, overlay('abc', 'a', NULL) AS e",
    columns: [["a", S], ["b", S], ["c", S], ["d", S], ["e", S]],
    rows: [["Thomas", "Thomxas", "abXYc", null, null]],
  },
  {
    // DataFusion names the alias's column after substr_index
    sql: "SELECT substring_index('www.apache.org', '.', -2)",
    columns: [['substr_index(Utf8("www.apache.org"),Utf8("."),Int64(-2))', S]],
    rows: [["apache.org"]],
  },
  { sql: "SELECT contains('abc')", code: 3000, error: /'contains' expects 2 arguments, got 1/ },
  { sql: "SELECT overlay('abc', 'x')", code: 3000, error: /'overlay' expects 3 to 4 arguments, got 2/ },
  { sql: "SELECT acosh(1, 2)", code: 3000, error: /'acosh' expects 1 argument, got 2/ },
  // existing functions that answered a value for a wrong argument count (md5() hashed "undefined")
  { sql: "SELECT levenshtein('a')", code: 3000, error: /'levenshtein' expects 2 arguments, got 1/ },
  { sql: "SELECT md5()", code: 3000, error: /'md5' expects 1 argument, got 0/ },
  { sql: "SELECT clamp(1)", code: 3000, error: /'clamp' expects 3 arguments, got 1/ },
  { sql: "SELECT regexp_count('a')", code: 3000, error: /'regexp_count' expects 2 to 4 arguments, got 1/ },
  { sql: "SELECT from_unixtime(1, 2)", code: 3000, error: /'from_unixtime' expects 1 argument, got 2/ },
  { sql: "SELECT make_date(2024, 1)", code: 3000, error: /'make_date' expects 3 arguments, got 2/ },
  { sql: "SELECT json_is_object('{}', 1)", code: 3000, error: /'json_is_object' expects 1 argument, got 2/ },
  { sql: "SELECT vec_dim('[1]', 2)", code: 3000, error: /'vec_dim' expects 1 argument, got 2/ },
  { sql: "SELECT greatest()", code: 3000, error: /'greatest' expects at least 1 argument, got 0/ },
  // DataFusion's date_trunc takes no zone argument (the zone is the timestamp's): a third was dropped
  {
    sql: "SELECT date_trunc('day', ts, 'Asia/Shanghai') FROM m",
    code: 3000,
    error: /'date_trunc' expects 2 arguments, got 3/,
  },
  { sql: "SELECT date_trunc('day') FROM m", code: 3000, error: /'date_trunc' expects 2 arguments, got 1/ },
  {
    sql: "SELECT datepart('day', ts, 1) FROM m",
    code: 3000,
    error: /'date_part' expects 2 arguments, got 3/,
  },
  {
    // DataFusion's (and PostgreSQL's) right with a negative length drops the first characters;
    // split_part counts a negative position from the end
    sql: "SELECT right('abcde', -2) AS a, right('abcde', 2) AS b, right('abcde', 0) AS c, " +
      "split_part('a,b,c', ',', -1) AS d, split_part('a,b,c', ',', -3) AS e, split_part('a,b,c', ',', -4) AS f, " +
      "chr(128512) AS g",
    columns: [["a", S], ["b", S], ["c", S], ["d", S], ["e", S], ["f", S], ["g", S]],
    rows: [["cde", "de", "", "c", "a", "", "\u{1F600}"]],
  },
  {
    sql:
      "SELECT to_hex(NULL) AS a, chr(NULL) AS b, left(NULL, 1) AS c, lpad(NULL, 2) AS d, split_part(NULL, ',', 1) AS e",
    columns: [["a", S], ["b", S], ["c", S], ["d", S], ["e", S]],
    rows: [[null, null, null, null, null]],
  },
  {
    sql:
      "SELECT length('héllo') AS a, char_length(host) AS b, octet_length('é') AS c, strpos('abc', 'c') AS d, " +
      "instr('abc', 'b') AS e, ascii('a') AS f, length(NULL) AS g FROM m WHERE n = 1",
    columns: [
      ["a", "Int32"],
      ["b", "Int32"],
      ["c", "Int32"],
      ["d", "Int32"],
      ["e", "Int32"],
      ["f", "Int32"],
      [
        "g",
        "Int32",
      ],
    ],
    rows: [[5, 1, 2, 3, 2, 97, null]],
  },
  { sql: "SELECT split_part('a,b,c', ',', 0)", code: 3000, error: /field position must not be zero/ },
  { sql: "SELECT chr(0)", code: 3000, error: /null character not permitted/ },
  { sql: "SELECT chr(-1)", code: 3000, error: /requested character too large for encoding/ },
];

const AGGREGATES: TypedCase[] = [
  {
    sql: "SELECT mean(n), mean(cpu), var_sample(cpu), var_population(cpu) FROM m",
    columns: [["avg(m.n)", F], ["avg(m.cpu)", F], ["var(m.cpu)", F], ["var_pop(m.cpu)", F]],
    rows: [[2.5, 1.5, 1, 2 / 3]],
  },
  {
    // DataFusion names an aggregate's column by its own name, not the alias written
    sql: "SELECT var_samp(cpu), stddev_samp(cpu), covar(cpu, n) FROM m",
    columns: [["var(m.cpu)", F], ["stddev(m.cpu)", F], ["covar_samp(m.cpu,m.n)", F]],
    rows: [[1, 1, -0.5]],
  },
  {
    sql: "SELECT host, mean(cpu) AS a FROM m GROUP BY host ORDER BY host",
    columns: [["host", S], ["a", F]],
    rows: [["a", 2], ["b", 0.5]],
  },
  {
    // y = cpu, x = n, over the three rows where both are present
    sql: "SELECT regr_slope(cpu, n), regr_intercept(cpu, n), regr_count(cpu, n), regr_r2(cpu, n) FROM m",
    columns: [
      ["regr_slope(m.cpu,m.n)", F],
      ["regr_intercept(m.cpu,m.n)", F],
      ["regr_count(m.cpu,m.n)", "UInt64"],
      ["regr_r2(m.cpu,m.n)", F],
    ],
    rows: [[-0.5, 2.5, 3, 0.25]],
  },
  {
    sql: "SELECT regr_avgx(cpu, n) AS ax, regr_avgy(cpu, n) AS ay, regr_sxx(cpu, n) AS sxx, " +
      "regr_syy(cpu, n) AS syy, regr_sxy(cpu, n) AS sxy FROM m",
    columns: [["ax", F], ["ay", F], ["sxx", F], ["syy", F], ["sxy", F]],
    rows: [[2, 1.5, 2, 2, -1]],
  },
  {
    // no rows: a count of 0 and NULL statistics; one row or a constant x: no slope, no r2
    sql: "SELECT regr_count(cpu, n) AS c, regr_slope(cpu, n) AS s, regr_sxx(cpu, n) AS x, mean(n) AS m " +
      "FROM m WHERE n > 100",
    columns: [["c", "UInt64"], ["s", F], ["x", F], ["m", F]],
    rows: [[0, null, null, null]],
  },
  {
    sql: "SELECT host, regr_slope(cpu, n) AS s, regr_r2(cpu, n) AS r, regr_slope(n, 1) AS v, " +
      "regr_avgx(cpu, n) AS ax FROM m GROUP BY host ORDER BY host",
    columns: [["host", S], ["s", F], ["r", F], ["v", F], ["ax", F]],
    rows: [["a", 1, 1, null, 1.5], ["b", null, null, null, 3]],
  },
  {
    // as window aggregates, over a growing and a sliding frame
    sql: "SELECT regr_slope(cpu, n) OVER (ORDER BY ts) AS a, " +
      "regr_slope(cpu, n) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS b, " +
      "regr_count(cpu, n) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c, " +
      "regr_avgy(cpu, n) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS d FROM m ORDER BY ts",
    columns: [["a", F], ["b", F], ["c", "UInt64"], ["d", F]],
    rows: [[null, null, 1, 1.5], [1, 1, 2, 2], [-0.5, -2, 2, 1.5], [-0.5, null, 1, 0.5]],
  },
  {
    sql: "SELECT covar_pop(cpu, n) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, " +
      "corr(cpu, n) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS b FROM m ORDER BY ts",
    columns: [["a", F], ["b", F]],
    rows: [[0, null], [0.25, 1], [-0.5, -1], [0, null]],
  },
  { sql: "SELECT corr(cpu) FROM m", code: 3000, error: /'corr' expects 2 arguments, got 1/ },
  { sql: "SELECT stddev(cpu, n) FROM m", code: 3000, error: /'stddev' expects 1 argument, got 2/ },
  { sql: "SELECT regr_slope(cpu) FROM m", code: 3000, error: /'regr_slope' expects 2 arguments, got 1/ },
  { sql: "SELECT regr_slope(host, n) FROM m", code: 3000, error: /regr_slope expects numeric arguments/ },
];

Deno.test("DataFusion functions Petrel lacked, over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, [...SCALARS, ...AGGREGATES], SETUP);
  } finally {
    await server.stop();
  }
});
