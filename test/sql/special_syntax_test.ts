/**
 * The SQL-standard call syntaxes sqlparser reads into DataFusion function calls, over `/v1/sql`:
 * `substring(s FROM a FOR n)`, `trim(LEADING c FROM s)`, `overlay(s PLACING x FROM a FOR n)`,
 * `position(n IN s)` and `extract(f FROM t)`, each answered and named as the plain call DataFusion
 * plans from it (`substr(…)`, `ltrim(…)`, `strpos(…)`, `date_part(Utf8("YEAR"),…)`), with its type.
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'xxhostxx', 1), (62000, 'b', 2)",
];

const S = "String", I32 = "Int32";

const CASES: TypedCase[] = [
  {
    sql: "SELECT substring('hello' FROM 2 FOR 3), substring('hello' FROM 2), substring('hello' FOR 2)",
    columns: [
      ['substr(Utf8("hello"),Int64(2),Int64(3))', S],
      ['substr(Utf8("hello"),Int64(2))', S],
      // DataFusion's planner supplies the start when only FOR is written
      ['substr(Utf8("hello"),Int64(1),Int64(2))', S],
    ],
    rows: [["ell", "ello", "he"]],
  },
  {
    sql:
      "SELECT substr('hello' FROM 4) AS a, substring(NULL FROM 2) AS b, substring(host FROM 3 FOR 4) AS c " +
      "FROM m ORDER BY ts",
    columns: [["a", S], ["b", S], ["c", S]],
    rows: [["lo", null, "host"], ["lo", null, ""]],
  },
  {
    // DataFusion's positions: a start before 1 eats into the count (SQLite's counts from the end)
    sql:
      "SELECT substring('hello' FROM -1 FOR 3) AS a, substr('hello', 0, 2) AS b, substr('hello', -5) AS c, " +
      "substr('héllo😀x', 5, 2) AS d, substring('hello', 9) AS e",
    columns: [["a", S], ["b", S], ["c", S], ["d", S], ["e", S]],
    rows: [["h", "h", "hello", "o😀", ""]],
  },
  { sql: "SELECT substr('hello', 1, -1)", code: 3000, error: /negative substring length not allowed/ },
  {
    sql: "SELECT trim(BOTH 'x' FROM host), trim(LEADING 'x' FROM host), trim(TRAILING 'x' FROM host), " +
      "trim('x' FROM host) FROM m WHERE n = 1",
    columns: [
      ['btrim(m.host,Utf8("x"))', S],
      ['ltrim(m.host,Utf8("x"))', S],
      ['rtrim(m.host,Utf8("x"))', S],
      ['btrim(m.host,Utf8("x"))', S],
    ],
    rows: [["host", "hostxx", "xxhost", "host"]],
  },
  {
    // without characters (and plain trim(s)) spaces go: every TRIM is DataFusion's btrim
    sql: "SELECT trim(BOTH FROM '  hi  '), trim(LEADING FROM '  hi  ') AS l, trim('  hi  ')",
    columns: [['btrim(Utf8("  hi  "))', S], ["l", S], ['btrim(Utf8("  hi  "))', S]],
    rows: [["hi", "hi  ", "hi"]],
  },
  {
    sql: "SELECT host FROM m WHERE trim('x' FROM host) = 'host'",
    columns: [["host", S]],
    rows: [["xxhostxx"]],
  },
  {
    sql: "SELECT overlay('hello' PLACING 'XX' FROM 2 FOR 3), overlay('hello' PLACING 'XX' FROM 2)",
    columns: [
      ['overlay(Utf8("hello"),Utf8("XX"),Int64(2),Int64(3))', S],
      ['overlay(Utf8("hello"),Utf8("XX"),Int64(2))', S],
    ],
    rows: [["hXXo", "hXXlo"]],
  },
  {
    // DataFusion plans POSITION as strpos, Int32 over Utf8
    sql: "SELECT position('l' IN 'hello'), position('o' IN host) AS p FROM m ORDER BY ts",
    columns: [['strpos(Utf8("hello"),Utf8("l"))', I32], ["p", I32]],
    rows: [[3, 4], [3, 0]],
  },
  {
    sql:
      "SELECT extract(second FROM ts), extract(minute FROM ts) + 1, extract(epoch FROM ts) FROM m ORDER BY ts",
    columns: [
      ['date_part(Utf8("SECOND"),m.ts)', I32],
      ['date_part(Utf8("MINUTE"),m.ts) + Int64(1)', "Int64"],
      ['date_part(Utf8("EPOCH"),m.ts)', "Float64"],
    ],
    rows: [[1, 1, 1], [2, 2, 62]],
  },
];

Deno.test("SQL-standard call syntax over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});
