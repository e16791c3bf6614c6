import { httpStatusOf } from "../../src/http/render_error.ts";
/** Every error a user can type is a 4xx PetrelError with GreptimeDB's code; never a 500. */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import { PetrelError } from "../../src/common/errors.ts";

const SETUP = "CREATE TABLE t (host STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX, v DOUBLE)";

const ERRORS: Array<[string, number, RegExp, string?]> = [
  ["", 1004, /^sql parameter is required\.$/],
  ["   ", 1004, /^sql parameter is required\.$/],
  ["SELECT 1", 4004, /^Database not found: nodb$/, "nodb"],
  ["SELECT * FROM missing", 4001, /Table not found: greptime\.public\.missing/],
  ["SELECT * FROM public.missing", 4001, /Table not found: greptime\.public\.missing/],
  ["DESC TABLE missing", 4001, /Table not found: greptime\.public\.missing/],
  ["SHOW CREATE TABLE missing", 4001, /Table not found/],
  ["INSERT INTO missing VALUES (1)", 4001, /Table not found: greptime\.public\.missing/],
  ["DELETE FROM missing", 4001, /Table not found/],
  ["DROP TABLE missing", 4001, /Table not found/],
  ["TRUNCATE TABLE missing", 4001, /Table not found/],
  ["ALTER TABLE missing ADD COLUMN x DOUBLE", 4001, /Table not found/],
  ["SELEC 1", 2000, /SELEC at Line: 1, Column: 1/],
  ["SELECT 1;\n  FROBNICATE", 2000, /FROBNICATE at Line: 2, Column: 3/],
  ["SELECT * FROM t WHERE", 2000, /Expected: an expression, found: EOF at Line: 1, Column: 22/],
  ["SELECT * FROM t\nWHERE v >> > 1", 2000, /near ">": syntax error at Line: 2, Column: 12/],
  ["SELECT (1", 2000, /Expected: \)/],
  ["SELECT 'abc", 2000, /Unterminated string literal at Line: 1, Column: 8/],
  ["SELECT nope FROM t", 3000, /No field named nope/],
  ["SELECT nofunc(1)", 3000, /Invalid function 'nofunc'/],
  ["CREATE TABLE t (ts TIMESTAMP TIME INDEX)", 4000, /Table already exists/],
  [
    "CREATE TABLE i1 (ts TIMESTAMP TIME INDEX, m STRING FULLTEXT INDEX WITH(analyzer = 'Klingon'))",
    1004,
    /^Invalid options for `fulltext` index$/,
  ],
  [
    "CREATE TABLE i2 (ts TIMESTAMP TIME INDEX, m STRING SKIPPING INDEX WITH(colour = 'red'))",
    1004,
    /^Unsupported option `colour` for `skipping` index$/,
  ],
  [
    "CREATE TABLE i3 (ts TIMESTAMP TIME INDEX, m DOUBLE FULLTEXT INDEX)",
    1004,
    /FULLTEXT index only supports string type/,
  ],
  ["CREATE TABLE x (v DOUBLE)", 1004, /Missing time index/],
  ["CREATE TABLE x (ts STRING TIME INDEX)", 1004, /must be a timestamp/],
  ["CREATE TABLE x (ts TIMESTAMP TIME INDEX, v FANCYTYPE)", 2000, /Unsupported data type: FANCYTYPE/],
  ["CREATE TABLE x (ts TIMESTAMP TIME INDEX) WITH (ttl='soon')", 1004, /Invalid ttl value/],
  ["CREATE TABLE x (ts TIMESTAMP TIME INDEX) WITH (foo='bar')", 1004, /Invalid table option key: foo/],
  ["CREATE TABLE x (ts TIMESTAMP TIME INDEX, a STRING, a STRING)", 1004, /Duplicate column name/],
  ["CREATE DATABASE public", 4011, /already exists/],
  ["DROP DATABASE nodb", 4004, /Database not found: nodb/],
  ["USE nodb", 4004, /Database not found: nodb/],
  ["INSERT INTO t VALUES ('a', 'not a time', 1)", 1004, /Failed to insert value 'not a time' into column ts/],
  ["INSERT INTO t VALUES ('a', 1, 'x')", 1004, /into column v of type Float64/],
  ["INSERT INTO t VALUES ('a', 1)", 1004, /Column count doesn't match/],
  ["INSERT INTO t (host, nope, ts) VALUES ('a', 1, 1)", 4002, /Column nope not exists/],
  ["INSERT INTO t (host, v) VALUES ('a', 1)", 1004, /Missing time index column ts/],
  ["ALTER TABLE t ADD COLUMN v DOUBLE", 4003, /already exists/],
  ["ALTER TABLE t SET 'append_mode'='true'", 1004, /not supported/],
  ["ALTER TABLE t DROP COLUMN host", 1004, /index column/],
  ["UPDATE t SET v = 1", 1001, /UPDATE is not supported/],
  ["CREATE TABLE x (ts TIMESTAMP TIME INDEX, t2 TIMESTAMP TIME INDEX)", 2000, /only one TIME INDEX/],
  ["SELECT * FROM t WHERE ts = 'not a time'", 1004, /Failed to cast 'not a time' to TimestampMillisecond/],
  ["SELECT $1", 2000, /Placeholders are not supported, found: \$1/],
  ["SELECT ?", 2000, /Placeholders are not supported/],
  ["SELECT :a", 2000, /Placeholders are not supported, found: :a/],
  ["SELECT @x", 2000, /Placeholders are not supported, found: @x/],
  ["SELECT @@version", 2000, /Placeholders are not supported, found: @version/], // not the @@ operator
  ["SELECT * FROM t LIMIT -1", 1004, /LIMIT must not be negative/],
  ["SELECT 1/0", 3000, /Divide by zero error/],
  ["SELECT 'a' + 1", 1004, /Cannot cast string 'a'/],
  ["SELECT abs('x')", 3000, /abs does not support a string/],
  ["SELECT sum(host) FROM t", 3000, /The function 'sum' does not support inputs of type String/],
  ["SELECT date_bin('nonsense', ts) FROM t", 1004, /Invalid interval/],
  ["SELECT date_bin(INTERVAL '0 minutes', ts) FROM t", 1004, /stride must be a positive interval/],
  ["SELECT * FROM t WHERE ts > '2024-13-45 25:61:61'", 1004, /Failed to cast/],
  ["SELECT * FROM t WHERE ts > '2024-02-30'", 1004, /Failed to cast/],
  ["SELECT CAST('abc' AS INT)", 3000, /Cannot cast string 'abc'/],
  ["WITH x AS (SELECT 1) DELETE FROM t", 1004, /Only queries can run here/],
  ["WITH x AS (SELECT 1) INSERT INTO t (host, ts) VALUES ('z', 5)", 1004, /Only queries can run here/],
  ["SELECT * FROM pragma_table_info('t')", 1004, /Only queries can run here/],
  ["SELECT name FROM (SELECT * FROM t) JOIN sqlite_master ON 1", 4001, /Table not found/],
  ["SELECT v % (v - v) FROM t", 3000, /Divide by zero error/],
  ["SELECT * FROM other.t", 4001, /Table not found: greptime\.other\.t/],
  ["SELECT date_trunc('fortnight', ts) FROM t", 3000, /date_trunc/],
  ["SELECT interval 'forever and a day'", 1004, /Invalid interval/],
  ["SELECT 1", 1004, /Invalid timezone/, "public|Mars/Olympus"],
];

for (const [sql, code, message, dbTz] of ERRORS) {
  Deno.test(`error ${code}: ${JSON.stringify(sql)}`, () => {
    const s = Storage.open({ dataHome: ":memory:" });
    executeSql(s, SETUP + "; INSERT INTO t VALUES ('a', 1, 1)", { db: "public" });
    const [db, timezone] = (dbTz ?? "public").split("|");
    assert.throws(
      () => executeSql(s, sql, { db, timezone }),
      (e: unknown) => {
        assert.ok(e instanceof PetrelError, `not a PetrelError: ${e}`);
        assert.equal(e.code, code, e.message);
        assert.ok(httpStatusOf(e) >= 400 && httpStatusOf(e) < 500, `status ${httpStatusOf(e)}`);
        assert.match(e.message, message);
        return true;
      },
    );
    s.close();
  });
}

Deno.test("the first failing statement stops the request and earlier ones stay applied", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  executeSql(s, SETUP, { db: "public" });
  assert.throws(() =>
    executeSql(
      s,
      "INSERT INTO t VALUES ('a', 1, 1); SELECT * FROM missing; INSERT INTO t VALUES ('b', 1, 1)",
      {
        db: "public",
      },
    ), /Table not found: greptime\.public\.missing/);
  const [out] = executeSql(s, "SELECT host FROM t", { db: "public" });
  assert.deepEqual(out.kind === "records" ? out.rows : [], [["a"]]);
});
