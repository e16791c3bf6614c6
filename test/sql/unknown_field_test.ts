/**
 * A column no relation has fails as DataFusion's schema error, with its tail: the name as normalized
 * (qualified as written) and the valid fields of the SELECT it stands in, qualified by relation and
 * quoted where DataFusion quotes them, then a period.
 */
import { runOnServer, type SqlCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  'CREATE TABLE t (host STRING, ts TIMESTAMP TIME INDEX, v DOUBLE, "Mixed" BOOLEAN, PRIMARY KEY (host))',
  "CREATE TABLE u (ts TIMESTAMP TIME INDEX, w DOUBLE)",
];

const T_FIELDS = 't.host, t.ts, t.v, t."Mixed"';

function unknown(message: string): SqlCase["error"] {
  return { status: 400, code: 3000, message: `Failed to plan SQL: Schema error: No field named ${message}` };
}

const CASES: SqlCase[] = [
  { sql: "SELECT foo FROM t", error: unknown(`foo. Valid fields are ${T_FIELDS}.`) },
  { name: "an unquoted name is lowercased", sql: "SELECT FOO FROM t", error: unknown("foo. Valid") },
  { sql: "SELECT t.foo FROM t", error: unknown(`t.foo. Valid fields are ${T_FIELDS}.`) },
  {
    name: "qualified by the relation's alias",
    sql: "SELECT x.foo FROM t AS x",
    error: unknown('x.foo. Valid fields are x.host, x.ts, x.v, x."Mixed".'),
  },
  { sql: "SELECT host FROM t WHERE nope > 1", error: unknown(`nope. Valid fields are ${T_FIELDS}.`) },
  {
    name: "a join's relations in FROM order",
    sql: "SELECT t.host FROM t JOIN u ON t.ts = u.ts WHERE w2 > 0",
    error: unknown(`w2. Valid fields are ${T_FIELDS}, u.ts, u.w.`),
  },
  {
    name: "in a subquery, its own FROM's fields",
    sql: "SELECT host FROM t WHERE v > (SELECT max(zz) FROM u)",
    error: unknown("zz. Valid fields are u.ts, u.w."),
  },
  { name: "no FROM: no fields", sql: "SELECT foo", error: unknown("foo.") },
];

Deno.test("unknown columns: DataFusion's schema error and valid fields", (t) =>
  runOnServer(t, SETUP, { kind: "cases", cases: CASES }));
