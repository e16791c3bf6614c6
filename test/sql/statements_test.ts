/**
 * Data-driven statement tests: each case runs on a fresh storage after the shared setup, and the
 * outputs are compared as (column name, data type) lists plus rows.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import { loadFunctionsFor } from "../../src/sql/functions/registry.ts";
import type { QueryOutput, Value } from "../../src/common/rows.ts";

const SETUP = `
CREATE TABLE monitor (
  host STRING,
  ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP() TIME INDEX,
  cpu DOUBLE DEFAULT 0,
  memory DOUBLE,
  PRIMARY KEY(host)
);
INSERT INTO monitor VALUES
  ('127.0.0.1', 1702433141000, 0.5, 0.2),
  ('127.0.0.2', '2023-12-13 02:05:41', 0.3, 0.1),
  ('127.0.0.1', '2023-12-13T02:05:42Z', 0.7, null),
  ('127.0.0.2', 1702433142000, 0.4, 0.3);
`;

type Expect = { affected: number } | { columns: Array<[string, string]>; rows: Value[][] };

interface Case {
  name: string;
  sql: string;
  expect: Expect[];
  db?: string;
  timezone?: string;
}

const recs = (columns: Array<[string, string]>, rows: Value[][]): Expect => ({ columns, rows });
const S = "String";
const F = "Float64";
const I = "Int64";
const TMS = "TimestampMillisecond";

const CASES: Case[] = [
  {
    name: "select all ordered",
    sql: "SELECT * FROM monitor ORDER BY host, ts",
    expect: [recs([["host", S], ["ts", TMS], ["cpu", F], ["memory", F]], [
      ["127.0.0.1", 1702433141000, 0.5, 0.2],
      ["127.0.0.1", 1702433142000, 0.7, null],
      ["127.0.0.2", 1702433141000, 0.3, 0.1],
      ["127.0.0.2", 1702433142000, 0.4, 0.3],
    ])],
  },
  {
    name: "where on a timestamp string, group by, order by, aggregates",
    sql:
      "SELECT host, avg(cpu) AS a, count(*) AS n, max(ts) FROM monitor WHERE ts >= '2023-12-13 02:05:42' GROUP BY host ORDER BY host",
    expect: [recs([["host", S], ["a", F], ["n", I], ["max(monitor.ts)", TMS]], [
      ["127.0.0.1", 0.7, 1, 1702433142000],
      ["127.0.0.2", 0.4, 1, 1702433142000],
    ])],
  },
  {
    name: "between timestamp strings and in-lists",
    sql:
      "SELECT count(*) FROM monitor WHERE ts BETWEEN '2023-12-13 02:05:41' AND '2023-12-13 02:05:41.500' AND host IN ('127.0.0.1', 'x')",
    expect: [recs([["count(*)", I]], [[1]])],
  },
  {
    name: "timestamp cast with :: and CAST",
    sql:
      "SELECT count(*) AS n FROM monitor WHERE ts < '2023-12-13 02:05:42'::timestamp AND ts >= CAST('2023-12-13 02:05:41' AS TIMESTAMP)",
    expect: [recs([["n", I]], [[2]])],
  },
  {
    name: "limit and offset",
    sql: "SELECT cpu FROM monitor ORDER BY cpu DESC LIMIT 2 OFFSET 1",
    expect: [recs([["cpu", F]], [[0.5], [0.4]])],
  },
  {
    name: "date_bin and date_trunc keep the timestamp type",
    sql:
      "SELECT date_bin(INTERVAL '1 minute', ts) AS m, date_trunc('hour', ts) AS h, sum(cpu) AS s FROM monitor GROUP BY m, h",
    expect: [recs([["m", TMS], ["h", TMS], ["s", F]], [[1702433100000, 1702432800000, 1.9]])],
  },
  {
    name: "interval arithmetic against now()",
    sql: "SELECT count(*) AS n FROM monitor WHERE ts > now() - interval '5 minutes'",
    expect: [recs([["n", I]], [[0]])],
  },
  {
    name: "to_unixtime, arrow_cast, date_format",
    sql:
      "SELECT to_unixtime(ts) AS u, arrow_cast(ts, 'Timestamp(Second, None)') AS s, date_format(ts, '%Y-%m-%d %H:%M:%S') AS f FROM monitor WHERE host = '127.0.0.2' ORDER BY ts LIMIT 1",
    expect: [
      recs([["u", I], ["s", "TimestampSecond"], ["f", S]], [[1702433141, 1702433141, "2023-12-13 02:05:41"]]),
    ],
  },
  {
    name: "window functions and CTEs",
    sql:
      "WITH x AS (SELECT host, ts, cpu FROM monitor) SELECT host, cpu, row_number() OVER (PARTITION BY host ORDER BY ts) AS rn FROM x ORDER BY host, rn",
    expect: [recs([["host", S], ["cpu", F], ["rn", "UInt64"]], [
      ["127.0.0.1", 0.5, 1],
      ["127.0.0.1", 0.7, 2],
      ["127.0.0.2", 0.3, 1],
      ["127.0.0.2", 0.4, 2],
    ])],
  },
  {
    name: "joins and subqueries",
    sql:
      "SELECT a.host, b.cpu FROM monitor a JOIN (SELECT host, max(cpu) AS cpu FROM monitor GROUP BY host) b ON a.host = b.host AND a.cpu = b.cpu ORDER BY a.host",
    expect: [recs([["host", S], ["cpu", F]], [["127.0.0.1", 0.7], ["127.0.0.2", 0.4]])],
  },
  {
    name: "math and string functions SQLite lacks",
    sql:
      "SELECT sqrt(16) AS r, pow(2, 10) AS p, ln(1) AS l, floor(2.7) AS f, ceil(2.1) AS c, strpos('hello', 'l') AS i, split_part('a.b.c', '.', 2) AS s, lpad('7', 3, '0') AS z",
    expect: [
      recs([["r", F], ["p", F], ["l", F], ["f", F], ["c", F], ["i", "Int32"], ["s", S], ["z", S]], [[
        4,
        1024,
        0,
        2,
        3,
        3,
        "b",
        "007",
      ]]),
    ],
  },
  {
    name: "median, stddev, approx_percentile_cont",
    sql:
      "SELECT median(cpu) AS m, round(stddev(cpu), 4) AS sd, approx_percentile_cont(cpu, 0.5) AS p FROM monitor",
    // median is exact; approx_percentile_cont is DataFusion's t-digest estimate
    expect: [recs([["m", F], ["sd", F], ["p", F]], [[0.45, 0.1708, 0.42500000000000004]])],
  },
  {
    name: "regex operator, ILIKE, IS DISTINCT FROM",
    sql:
      "SELECT count(*) AS n FROM monitor WHERE host ~ '^127\\.0\\.0\\.1$' AND host ILIKE '127%' AND memory IS DISTINCT FROM 0.2",
    expect: [recs([["n", I]], [[1]])],
  },
  {
    name: "select without from: unaliased expressions are named as DataFusion does, time literals by text",
    sql: "SELECT 1 + 1, '2024-01-01 00:00:00'::timestamp",
    expect: [
      recs([["Int64(1) + Int64(1)", I], ["'2024-01-01 00:00:00'::timestamp", TMS]], [[2, 1704067200000]]),
    ],
  },
  {
    name: "timezone applies to timestamp strings without an offset",
    sql: "SELECT '2024-01-01 08:00:00'::timestamp AS t",
    timezone: "+08:00",
    expect: [recs([["t", TMS]], [[1704067200000]])],
  },
  {
    name: "types SQLite cannot see: comparisons, window ranks, casts, aggregates over no rows, ts ± interval",
    sql:
      "SELECT cpu > 0.4 AS big, row_number() OVER (ORDER BY cpu) AS rn, arrow_cast(7, 'Int32') AS i, ts + INTERVAL '1 second' AS later FROM monitor WHERE host = '127.0.0.2' ORDER BY cpu; " +
      "SELECT host, count(*) AS n, sum(cpu) AS s, min(ts) AS first FROM monitor WHERE host = 'nobody' GROUP BY host",
    expect: [
      recs([["big", "Boolean"], ["rn", "UInt64"], ["i", "Int32"], ["later", TMS]], [
        [false, 1, 7, 1702433142000],
        [false, 2, 7, 1702433143000],
      ]),
      recs([["host", S], ["n", I], ["s", F], ["first", TMS]], []),
    ],
  },
  {
    name: "unaliased aggregates are named as DataFusion names them; backticks are identifiers",
    sql: "SELECT avg(cpu), count(*), `host` FROM monitor GROUP BY `host` ORDER BY `host` LIMIT 1",
    expect: [
      recs([["avg(monitor.cpu)", F], ["count(*)", I], ["host", S]], [
        ["127.0.0.1", 0.6, 2].slice(1).concat([
          "127.0.0.1",
        ]) as Value[],
      ]),
    ],
  },
  {
    name: "division keeps SQLite's precedence and integer semantics",
    sql:
      "SELECT 7 / 2 AS a, 7.0 / 2 AS b, 2 * 9 / 3 % 4 AS c, -8 / -2 AS d, cpu / cpu AS e FROM monitor LIMIT 1",
    expect: [recs([["a", I], ["b", F], ["c", I], ["d", I], ["e", F]], [[3, 3.5, 2, 4, 1]])],
  },
  {
    name: "database() names the current database",
    sql:
      "SELECT database() AS d, count(*) AS n FROM information_schema.tables WHERE table_schema = database()",
    expect: [recs([["d", S], ["n", I]], [["public", 2]])],
  },
  {
    name: "ORDER BY sorts NULLs as DataFusion does: last ascending, first descending, unless told",
    sql: "INSERT INTO monitor VALUES ('n', 1, NULL, 1), ('n', 2, 0.9, 2); " +
      "SELECT cpu FROM monitor WHERE host = 'n' ORDER BY cpu; SELECT cpu FROM monitor WHERE host = 'n' ORDER BY cpu DESC; " +
      "SELECT cpu FROM monitor WHERE host = 'n' ORDER BY cpu NULLS FIRST; " +
      "SELECT cpu, row_number() OVER (ORDER BY cpu) AS rn FROM monitor WHERE host = 'n' ORDER BY rn",
    expect: [
      { affected: 2 },
      recs([["cpu", F]], [[0.9], [null]]),
      recs([["cpu", F]], [[null], [0.9]]),
      recs([["cpu", F]], [[null], [0.9]]),
      recs([["cpu", F], ["rn", "UInt64"]], [[0.9, 1], [null, 2]]),
    ],
  },
  {
    name:
      "DataFusion semantics: case-sensitive LIKE, ILIKE, typed casts, boolean predicates, integral greatest",
    sql:
      "SELECT 'ABC' LIKE 'abc' AS l, 'ABC' ILIKE 'abc' AS il, 'ABC' NOT ILIKE 'x%' AS nil, CAST(1.9 AS INT) AS i, CAST('2' AS BIGINT) AS b, " +
      "CAST(1 AS DOUBLE) AS d, CAST(2 AS STRING) AS s, starts_with('hello', 'he') AS sw, greatest(1, 3, 2) AS g, abs(-2) AS a",
    expect: [recs(
      [
        ["l", "Boolean"],
        ["il", "Boolean"],
        ["nil", "Boolean"],
        ["i", "Int32"],
        ["b", I],
        ["d", F],
        ["s", S],
        ["sw", "Boolean"],
        [
          "g",
          I,
        ],
        ["a", I],
      ],
      [[false, true, true, 1, 2, 1, "2", true, 3, 2]],
    )],
  },
  {
    name: "JSON functions over JSON text",
    sql:
      'CREATE TABLE j (ts TIMESTAMP TIME INDEX, doc JSON); INSERT INTO j VALUES (1, \'{"a": {"b": [1, 2.5]}, "s": "x", "t": true}\'); ' +
      "SELECT json_get_string(doc, 's') AS s, json_get_int(doc, 'a.b[0]') AS i, json_get_float(doc, 'a.b[1]') AS f, json_get_bool(doc, 't') AS b, json_path_exists(doc, 'a.c') AS e FROM j",
    expect: [
      { affected: 0 },
      { affected: 1 },
      recs([["s", S], ["i", I], ["f", F], ["b", "Boolean"], ["e", "Boolean"]], [["x", 1, 2.5, true, false]]),
    ],
  },
  {
    name: "numbers table",
    sql: "SELECT count(*) AS n, max(number) AS m FROM numbers",
    expect: [recs([["n", I], ["m", "UInt32"]], [[100, 99]])],
  },
  {
    name: "DESC the numbers table",
    sql: "DESC TABLE numbers",
    expect: [
      recs(
        ["Column", "Type", "Key", "Null", "Default", "Semantic Type"].map((n) => [n, S]),
        [["number", "UInt32", "PRI", "NO", "", "TAG"]],
      ),
    ],
  },
  {
    name: "insert with column list and defaults, then delete",
    sql:
      "INSERT INTO monitor (host, ts) VALUES ('h', 1), ('h', 2); SELECT host, ts, cpu, memory FROM monitor WHERE host = 'h' ORDER BY ts; DELETE FROM monitor WHERE host = 'h' AND ts > 1; SELECT count(*) FROM monitor WHERE host = 'h'",
    expect: [
      { affected: 2 },
      recs([["host", S], ["ts", TMS], ["cpu", F], ["memory", F]], [["h", 1, 0, null], ["h", 2, 0, null]]),
      { affected: 1 },
      recs([["count(*)", I]], [[1]]),
    ],
  },
  {
    name: "insert replaces on the same key (last_row)",
    sql:
      "INSERT INTO monitor VALUES ('127.0.0.1', 1702433141000, 0.9, null); SELECT cpu, memory FROM monitor WHERE host = '127.0.0.1' AND ts = 1702433141000",
    expect: [{ affected: 1 }, recs([["cpu", F], ["memory", F]], [[0.9, null]])],
  },
  {
    name: "insert ... select",
    sql:
      "CREATE TABLE copy (host STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX, cpu DOUBLE); INSERT INTO copy SELECT host, ts, cpu FROM monitor; SELECT count(*) FROM copy",
    expect: [{ affected: 0 }, { affected: 4 }, recs([["count(*)", I]], [[4]])],
  },
  {
    name: "create database, use, create table in it",
    sql:
      "CREATE DATABASE IF NOT EXISTS d1; CREATE DATABASE IF NOT EXISTS d1; USE d1; CREATE TABLE t (ts TIMESTAMP(9) TIME INDEX, v BIGINT UNSIGNED); INSERT INTO t VALUES ('2024-01-01T00:00:00.000000001Z', 18446744073709551615); SELECT * FROM t",
    expect: [
      { affected: 1 },
      { affected: 1 },
      { affected: 0 },
      { affected: 0 },
      { affected: 1 },
      recs([["ts", "TimestampNanosecond"], ["v", "UInt64"]], [[1704067200000000001n, 18446744073709551615n]]),
    ],
  },
  {
    name: "drop database",
    sql: "CREATE DATABASE d2; DROP DATABASE d2; DROP DATABASE IF EXISTS d2; SHOW DATABASES",
    expect: [
      { affected: 1 },
      { affected: 0 },
      { affected: 0 },
      recs([["Database", S]], [["greptime_private"], [
        "information_schema",
      ], ["public"]]),
    ],
  },
  {
    name: "show tables, like, full, where",
    sql:
      "CREATE TABLE other (ts TIMESTAMP TIME INDEX); SHOW TABLES; SHOW TABLES LIKE 'mon%'; SHOW FULL TABLES WHERE Tables = 'other'",
    expect: [
      { affected: 0 },
      recs([["Tables", S]], [["monitor"], ["numbers"], ["other"]]),
      recs([["Tables", S]], [["monitor"]]),
      recs([["Tables", S], ["Table_type", S]], [["other", "BASE TABLE"]]),
    ],
  },
  {
    name: "desc table",
    sql: "DESC TABLE monitor",
    expect: [
      recs([["Column", S], ["Type", S], ["Key", S], ["Null", S], ["Default", S], ["Semantic Type", S]], [
        ["host", "String", "PRI", "YES", "", "TAG"],
        ["ts", "TimestampMillisecond", "PRI", "NO", "current_timestamp()", "TIMESTAMP"],
        ["cpu", "Float64", "", "YES", "0", "FIELD"],
        ["memory", "Float64", "", "YES", "", "FIELD"],
      ]),
    ],
  },
  {
    name: "show create table with options",
    sql:
      "CREATE TABLE IF NOT EXISTS logs (ts TIMESTAMP(9) TIME INDEX, msg STRING, lvl STRING, PRIMARY KEY(lvl)) ENGINE=mito WITH(ttl='7d', append_mode='true'); SHOW CREATE TABLE logs",
    expect: [
      { affected: 0 },
      recs([["Table", S], ["Create Table", S]], [[
        "logs",
        'CREATE TABLE IF NOT EXISTS "logs" (\n  "ts" TIMESTAMP(9) NOT NULL,\n  "msg" STRING NULL,\n  "lvl" STRING NULL,\n  TIME INDEX ("ts"),\n  PRIMARY KEY ("lvl")\n)\n\nENGINE=mito\nWITH(\n  append_mode = \'true\',\n  ttl = \'7days\'\n)',
      ]]),
    ],
  },
  {
    name: "show create table keeps column index clauses, GreptimeDB's defaults filled in",
    sql:
      "CREATE TABLE idx (ts TIMESTAMP TIME INDEX, host STRING INVERTED INDEX, msg STRING FULLTEXT INDEX WITH(analyzer = 'Chinese', case_sensitive = 'true'), lvl STRING SKIPPING INDEX, n INT COMMENT 'n' SKIPPING INDEX WITH(granularity = 8192)); SHOW CREATE TABLE idx",
    expect: [
      { affected: 0 },
      recs([["Table", S], ["Create Table", S]], [[
        "idx",
        'CREATE TABLE IF NOT EXISTS "idx" (\n  "ts" TIMESTAMP(3) NOT NULL,\n  "host" STRING NULL INVERTED INDEX,\n' +
        "  \"msg\" STRING NULL FULLTEXT INDEX WITH(analyzer = 'Chinese', backend = 'bloom', case_sensitive = 'true', false_positive_rate = '0.01', granularity = '10240'),\n" +
        "  \"lvl\" STRING NULL SKIPPING INDEX WITH(false_positive_rate = '0.01', granularity = '10240', type = 'BLOOM'),\n" +
        "  \"n\" INT NULL COMMENT 'n' SKIPPING INDEX WITH(false_positive_rate = '0.01', granularity = '8192', type = 'BLOOM'),\n" +
        '  TIME INDEX ("ts")\n)\n\nENGINE=mito\n',
      ]]),
    ],
  },
  {
    name: "alter table add column, set ttl, truncate",
    sql:
      "ALTER TABLE monitor ADD COLUMN disk DOUBLE DEFAULT 1; ALTER TABLE monitor SET 'ttl'='1d'; ALTER TABLE monitor UNSET 'ttl'; SELECT disk FROM monitor LIMIT 1; TRUNCATE TABLE monitor; SELECT count(*) FROM monitor",
    expect: [
      { affected: 0 },
      { affected: 0 },
      { affected: 0 },
      recs([["disk", F]], [[1]]),
      { affected: 0 },
      recs([["count(*)", I]], [[0]]),
    ],
  },
  {
    name: "alter table add a tag column rebuilds the key",
    sql:
      "ALTER TABLE monitor ADD COLUMN dc STRING PRIMARY KEY; INSERT INTO monitor (host, dc, ts, cpu) VALUES ('127.0.0.1', 'x', 1702433141000, 9); SELECT dc, cpu FROM monitor WHERE host = '127.0.0.1' AND ts = 1702433141000 ORDER BY cpu",
    expect: [{ affected: 0 }, { affected: 1 }, recs([["dc", S], ["cpu", F]], [[null, 0.5], ["x", 9]])],
  },
  {
    name: "information_schema tables and columns",
    sql:
      "SELECT table_name, table_type, engine FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name; SELECT table_name, table_rows FROM information_schema.tables WHERE table_name = 'nope'; SELECT column_name, greptime_data_type, semantic_type, is_nullable FROM information_schema.columns WHERE table_name = 'monitor' ORDER BY ordinal_position",
    expect: [
      recs([["table_name", S], ["table_type", S], ["engine", S]], [["monitor", "BASE TABLE", "mito"], [
        "numbers",
        "LOCAL TEMPORARY",
        "test_engine",
      ]]),
      recs([["table_name", S], ["table_rows", "UInt64"]], []),
      recs([["column_name", S], ["greptime_data_type", S], ["semantic_type", S], ["is_nullable", S]], [
        ["host", "String", "TAG", "Yes"],
        ["ts", "TimestampMillisecond", "TIMESTAMP", "No"],
        ["cpu", "Float64", "FIELD", "Yes"],
        ["memory", "Float64", "FIELD", "Yes"],
      ]),
    ],
  },
  {
    name: "explain returns a plan",
    sql: "EXPLAIN SELECT * FROM monitor WHERE host = 'a'",
    expect: [], // checked separately below
  },
];

function shape(out: QueryOutput): Expect {
  if (out.kind === "affected") return { affected: out.rows };
  return { columns: out.columns.map((c) => [c.name, String(c.data_type)]), rows: out.rows };
}

function setup(): Storage {
  const s = Storage.open({ dataHome: ":memory:" });
  executeSql(s, SETUP, { db: "public" });
  return s;
}

for (const c of CASES) {
  if (c.expect.length === 0) continue;
  Deno.test(`sql: ${c.name}`, async () => {
    const s = setup();
    // executeSql runs synchronously: the rare function groups it uses load first, as the server does
    await loadFunctionsFor(c.sql);
    const outs = executeSql(s, c.sql, { db: c.db ?? "public", timezone: c.timezone });
    assert.deepEqual(outs.map(shape), c.expect);
    s.close();
  });
}

Deno.test("sql: explain returns plan rows", () => {
  const s = setup();
  const [out] = executeSql(s, "EXPLAIN SELECT * FROM monitor WHERE host = 'a'", { db: "public" });
  assert.equal(out.kind, "records");
  if (out.kind === "records") {
    assert.deepEqual(out.columns.map((c) => c.name), ["plan_type", "plan"]);
    assert.match(String(out.rows[1][1]), /SEARCH|SCAN/);
  }
  s.close();
});

Deno.test("sql: statements survive a restart", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-sql-" });
  try {
    let s = Storage.open({ dataHome: dir });
    executeSql(
      s,
      SETUP +
        "; CREATE DATABASE db2; CREATE TABLE db2.t (ts TIMESTAMP TIME INDEX, v DOUBLE) WITH (ttl='forever')",
      {
        db: "public",
      },
    );
    s.close();
    s = Storage.open({ dataHome: dir });
    const outs = executeSql(s, "SELECT count(*) FROM monitor; SHOW CREATE TABLE db2.t", { db: "public" });
    assert.deepEqual(shape(outs[0]), recs([["count(*)", I]], [[4]]));
    assert.match(String((outs[1] as { rows: Value[][] }).rows[0][1]), /ttl = 'forever'/);
    s.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("sql: null tags read back as NULL everywhere (IS NULL, count, group by, types)", () => {
  const s = setup();
  const outs = executeSql(
    s,
    "ALTER TABLE monitor ADD COLUMN dc STRING PRIMARY KEY; INSERT INTO monitor (host, dc, ts, cpu) VALUES ('127.0.0.1', 'x', 1, 1), (NULL, NULL, 2, 2); " +
      "SELECT count(*) FROM monitor WHERE dc IS NULL; SELECT count(dc), count(host) FROM monitor; " +
      "SELECT dc, count(*) FROM monitor GROUP BY dc ORDER BY dc; SELECT host, dc FROM monitor WHERE ts = 2",
    { db: "public" },
  );
  assert.deepEqual(outs.slice(2).map(shape), [
    recs([["count(*)", I]], [[5]]),
    recs([["count(monitor.dc)", I], ["count(monitor.host)", I]], [[1, 5]]),
    recs([["dc", S], ["count(*)", I]], [["x", 1], [null, 5]]),
    recs([["host", S], ["dc", S]], [[null, null]]),
  ]);
  s.close();
});

Deno.test("sql: a query may read another database's tables, one database per query", () => {
  const s = setup();
  const outs = executeSql(
    s,
    "CREATE DATABASE d; CREATE TABLE d.t (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO d.t VALUES (1, 2.5); " +
      "SELECT v FROM d.t; SELECT x.v FROM greptime.d.t AS x; INSERT INTO monitor (host, ts, cpu) SELECT 'copied', ts, v FROM d.t",
    { db: "public" },
  );
  assert.deepEqual(outs.slice(3).map(shape), [recs([["v", F]], [[2.5]]), recs([["v", F]], [[2.5]]), {
    affected: 1,
  }]);
  assert.throws(
    () => executeSql(s, "SELECT * FROM d.t JOIN monitor ON true", { db: "public" }),
    (e: { code: number }) => e.code === 1001,
  );
  s.close();
});

Deno.test("sql: date_bin and date_trunc by arithmetic agree with the function forms, across units and offsets", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  executeSql(
    s,
    "CREATE TABLE n (ts TIMESTAMP(9) TIME INDEX, v DOUBLE); INSERT INTO n VALUES (-1, 1), (1702433141123456789, 2), ('1969-12-31 23:59:59.5', 3)",
    { db: "public" },
  );
  for (const tz of ["UTC", "+08:00", "-03:30"]) {
    const sql = "SELECT date_bin(INTERVAL '1 hour', ts) AS a, __petrel_date_bin(3600000000000, ts) AS b, " +
      "date_bin(INTERVAL '15 minutes', ts, '1970-01-01 00:05:00') AS c, __petrel_date_bin(900000000000, ts, 300000000000) AS d, " +
      "date_trunc('day', ts) AS e, __petrel_date_trunc('day', ts, 'ns', '" + tz + "') AS f, " +
      "date_trunc('minute', ts) AS g, __petrel_date_trunc('minute', ts, 'ns', '" + tz +
      "') AS h FROM n ORDER BY ts";
    const [out] = executeSql(s, sql, { db: "public", timezone: tz });
    assert.equal(out.kind, "records");
    if (out.kind !== "records") continue;
    for (const r of out.rows) {
      assert.equal(r[0], r[1], `date_bin ${tz}`);
      assert.equal(r[2], r[3], `date_bin with origin ${tz}`);
      assert.equal(r[4], r[5], `date_trunc day ${tz}`);
      assert.equal(r[6], r[7], `date_trunc minute ${tz}`);
    }
  }
  s.close();
});

Deno.test("sql: a database ttl applies to its tables without their own, and survives a restart", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-dbttl-" });
  try {
    let s = Storage.open({ dataHome: dir });
    const now = Date.now();
    executeSql(
      s,
      "CREATE DATABASE dttl WITH(ttl='1h'); USE dttl; CREATE TABLE inherit (v DOUBLE, ts TIMESTAMP TIME INDEX); " +
        "CREATE TABLE own (v DOUBLE, ts TIMESTAMP TIME INDEX) WITH(ttl='forever'); " +
        `INSERT INTO inherit VALUES (1, ${now - 7_200_000}), (2, ${now}); INSERT INTO own VALUES (1, ${
          now - 7_200_000
        })`,
      { db: "public" },
    );
    const check = () => {
      const outs = executeSql(
        s,
        "SELECT v FROM inherit; SELECT v FROM own; SELECT options FROM information_schema.schemata WHERE schema_name = 'dttl'; SHOW CREATE DATABASE dttl",
        { db: "dttl" },
      );
      assert.deepEqual(outs.map(shape).slice(0, 3), [
        recs([["v", F]], [[2]]),
        recs([["v", F]], [[1]]),
        recs([["options", S]], [["ttl='1h'"]]),
      ]);
      assert.deepEqual((outs[3] as { rows: Value[][] }).rows, [[
        "dttl",
        "CREATE DATABASE IF NOT EXISTS \"dttl\"\nWITH(\n  ttl = '1h'\n)",
      ]]);
    };
    check();
    s.close();
    s = Storage.open({ dataHome: dir });
    check();
    executeSql(s, "ALTER DATABASE dttl UNSET 'ttl'", { db: "public" });
    assert.deepEqual(
      shape(executeSql(s, "SELECT count(*) FROM inherit", { db: "dttl" })[0]),
      recs([["count(*)", I]], [[2]]),
    );
    assert.throws(
      () => executeSql(s, "CREATE DATABASE bad WITH(append_mode='true')", { db: "public" }),
      /append_mode/,
    );
    s.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
