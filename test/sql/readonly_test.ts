import assert from "node:assert/strict";
import { isReadOnlySql } from "../../src/sql/mod.ts";

const CASES: Array<[string, boolean]> = [
  ["SELECT 1", true],
  ["select * from t; show tables", true],
  ["WITH x AS (SELECT 1) SELECT * FROM x", true],
  ["(SELECT 1) UNION (SELECT 2)", true],
  ["SHOW CREATE TABLE t", true],
  ["DESC TABLE t", true],
  ["describe t", true],
  ["EXPLAIN SELECT 1", true],
  ["INSERT INTO t VALUES (1)", false],
  ["SELECT 1; INSERT INTO t VALUES (1)", false],
  ["CREATE TABLE t (ts TIMESTAMP TIME INDEX)", false],
  ["DROP TABLE t", false],
  ["DELETE FROM t", false],
  ["ALTER TABLE t ADD COLUMN x DOUBLE", false],
  ["TRUNCATE t", false],
  ["USE public", false],
  ["SET time_zone = 'UTC'", false],
  ["COPY t TO '/tmp/t.csv' WITH (FORMAT = 'csv')", false],
  ["COPY (SELECT 1) TO '/tmp/q.csv'", false],
  ["SELECT 'unterminated", false],
];

for (const [sql, ro] of CASES) {
  Deno.test(`isReadOnlySql(${JSON.stringify(sql)}) is ${ro}`, () => assert.equal(isReadOnlySql(sql), ro));
}
