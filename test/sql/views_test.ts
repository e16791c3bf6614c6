/**
 * SQL views over a real server: the statements (CREATE/DROP/SHOW/DESC), SELECT through views (the
 * same rows, names and types as the view's query inline), the errors, restart persistence and
 * read-only users.
 */
import assert from "node:assert/strict";
import { basicAuth, spawnServer, startTestServer, withTestServer } from "../helpers/server.ts";
import { SHOW_COLUMNS_SCHEMA, sqlOk, sqlRecords, sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

const TABLE = "CREATE TABLE m (host STRING, cpu DOUBLE, n INT, ts TIMESTAMP TIME INDEX, PRIMARY KEY (host))";
const ROWS = "INSERT INTO m VALUES ('a', 1.5, 1, 1000), ('b', 2.5, 2, 2000), ('a', 3.5, 3, 3000)";

/** The one records output of a statement, as `{ schema: [[name, type]…], rows }`. */
const records = (url: string, sql: string, db?: string) => sqlRecords(url, sql, db ? { db } : {});

/** A statement that must fail: its HTTP status, GreptimeDB code and message. */
async function failure(url: string, sql: string, db?: string, auth?: string) {
  const reply = await sqlRequest(url, sql, {
    ...(db ? { db } : {}),
    ...(auth ? { headers: { authorization: auth } } : {}),
  });
  const body = JSON.parse(reply.text);
  return { status: reply.status, code: body.code as number, error: String(body.error ?? "") };
}

Deno.test("views: CREATE, SHOW VIEWS/TABLES, SHOW CREATE, DESC, information_schema and DROP", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${TABLE}; ${ROWS}`);
    assert.deepEqual(await sqlOk(url, "CREATE VIEW v AS SELECT * FROM m"), [{ affectedrows: 0 }]);
    await sqlOk(url, "CREATE VIEW agg (h, a) AS SELECT host, avg(cpu) FROM m GROUP BY host");
    assert.deepEqual(await records(url, "SHOW VIEWS"), {
      schema: [["Views", "String"]],
      rows: [["agg"], ["v"]],
    });
    assert.deepEqual((await records(url, "SHOW VIEWS LIKE 'a%'")).rows, [["agg"]]);
    assert.deepEqual((await records(url, "SHOW VIEWS WHERE Views = 'v'")).rows, [["v"]]);
    assert.deepEqual((await records(url, "SHOW VIEWS FROM public")).rows, [["agg"], ["v"]]);
    assert.deepEqual(await sqlRows(url, "SHOW TABLES"), [["agg"], ["m"], ["numbers"], ["v"]]);
    assert.deepEqual(await sqlRows(url, "SHOW FULL TABLES"), [
      ["agg", "VIEW"],
      ["m", "BASE TABLE"],
      ["numbers", "LOCAL TEMPORARY"],
      ["v", "VIEW"],
    ]);
    assert.deepEqual(await records(url, "SHOW CREATE VIEW v"), {
      schema: [["View", "String"], ["Create View", "String"]],
      rows: [["v", "CREATE VIEW v AS SELECT * FROM m"]],
    });
    assert.deepEqual((await records(url, "SHOW CREATE VIEW agg")).rows, [[
      "agg",
      "CREATE VIEW agg (h, a) AS SELECT host, avg(cpu) FROM m GROUP BY host",
    ]]);
    // SHOW CREATE TABLE naming a view answers as SHOW CREATE VIEW
    assert.deepEqual((await records(url, "SHOW CREATE TABLE v")).schema[0], ["View", "String"]);
    const desc = await records(url, "DESC VIEW v");
    assert.deepEqual(desc.schema.map((c) => c[0]), [
      "Column",
      "Type",
      "Key",
      "Null",
      "Default",
      "Semantic Type",
    ]);
    assert.deepEqual(desc.rows, [
      ["host", "String", "", "YES", "", "FIELD"],
      ["cpu", "Float64", "", "YES", "", "FIELD"],
      ["n", "Int32", "", "YES", "", "FIELD"],
      ["ts", "TimestampMillisecond", "", "NO", "", "FIELD"],
    ]);
    assert.deepEqual((await records(url, "DESCRIBE agg")).rows, [
      ["h", "String", "", "YES", "", "FIELD"],
      ["a", "Float64", "", "YES", "", "FIELD"],
    ]);
    assert.deepEqual((await records(url, "DESC TABLE agg")).rows.length, 2);
    // information_schema.columns lists a view's columns as GreptimeDB's (FIELDs without a key), and
    // SHOW [FULL] COLUMNS reads them from there, ordered by name
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT table_name, column_name, ordinal_position, greptime_data_type, semantic_type, column_key, " +
          "is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name IN ('v', 'agg') " +
          "ORDER BY table_name, ordinal_position",
      ),
      [
        ["agg", "h", 1, "String", "FIELD", "", "Yes"],
        ["agg", "a", 2, "Float64", "FIELD", "", "Yes"],
        ["v", "host", 1, "String", "FIELD", "", "Yes"],
        ["v", "cpu", 2, "Float64", "FIELD", "", "Yes"],
        ["v", "n", 3, "Int32", "FIELD", "", "Yes"],
        ["v", "ts", 4, "TimestampMillisecond", "FIELD", "", "No"],
      ],
    );
    assert.deepEqual(await records(url, "SHOW COLUMNS FROM v"), {
      schema: SHOW_COLUMNS_SCHEMA,
      rows: [
        ["cpu", "double", "Yes", "", null, "", "Float64"],
        ["host", "string", "Yes", "", null, "", "String"],
        ["n", "int", "Yes", "", null, "", "Int32"],
        ["ts", "timestamp(3)", "No", "", null, "", "TimestampMillisecond"],
      ],
    });
    assert.deepEqual((await records(url, "SHOW FULL COLUMNS FROM agg LIKE 'h'")).rows, [
      ["h", "string", "utf8_bin", "Yes", "", null, "", "select,insert", "", "String"],
    ]);
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT table_name, table_type, engine FROM information_schema.tables WHERE table_schema = 'public' " +
          "AND table_name IN ('m', 'v', 'agg') ORDER BY table_name",
      ),
      [["agg", "VIEW", ""], ["m", "BASE TABLE", "mito"], ["v", "VIEW", ""]],
    );
    const ids = await sqlRows(
      url,
      "SELECT table_id FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('m', 'v', 'agg')",
    );
    assert.equal(new Set(ids.map(String)).size, 3, "views take ids of the table sequence");
    assert.deepEqual(
      await records(url, "SELECT * FROM information_schema.views WHERE table_name = 'v'"),
      {
        schema: [
          ["table_catalog", "String"],
          ["table_schema", "String"],
          ["table_name", "String"],
          ["view_definition", "String"],
          ["check_option", "String"],
          ["is_updatable", "Boolean"],
          ["definer", "String"],
          ["security_type", "String"],
          ["character_set_client", "String"],
          ["collation_connection", "String"],
        ],
        rows: [[
          "greptime",
          "public",
          "v",
          "CREATE VIEW v AS SELECT * FROM m",
          null,
          false,
          null,
          null,
          "utf8",
          "utf8_bin",
        ]],
      },
    );
    assert.ok((await sqlRows(url, "SHOW TABLES FROM information_schema")).some((r) => r[0] === "views"));

    // IF NOT EXISTS keeps the view; OR REPLACE replaces it
    await sqlOk(url, "CREATE VIEW IF NOT EXISTS v AS SELECT host FROM m");
    assert.equal((await records(url, "SELECT * FROM v")).schema.length, 4);
    await sqlOk(url, "CREATE OR REPLACE VIEW v AS SELECT host FROM m WHERE n > 1");
    assert.deepEqual(await sqlRows(url, "SELECT * FROM v ORDER BY host"), [["a"], ["b"]]);
    assert.deepEqual(
      (await records(url, "SHOW CREATE VIEW v")).rows[0][1],
      "CREATE OR REPLACE VIEW v AS SELECT host FROM m WHERE n > 1",
    );

    assert.deepEqual(await sqlOk(url, "DROP VIEW v, agg"), [{ affectedrows: 0 }]);
    assert.deepEqual(await sqlRows(url, "SHOW VIEWS"), []);
    assert.deepEqual(await sqlOk(url, "DROP VIEW IF EXISTS v"), [{ affectedrows: 0 }]);
    assert.deepEqual(await sqlRows(url, "SHOW TABLES"), [["m"], ["numbers"]]);
    assert.deepEqual(await sqlRows(url, "SELECT count(*) FROM information_schema.views"), [[0]]);
  });
});

Deno.test("views: SELECT through a view returns what its query inline does, with GreptimeDB's names and types", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${TABLE}; ${ROWS}`);
    await sqlOk(
      url,
      "CREATE TABLE hosts (host STRING, dc STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY (host))",
    );
    await sqlOk(url, "INSERT INTO hosts VALUES ('a', 'east', 0), ('b', 'west', 0)");
    // the view's query run on its own answers the same as SELECT * through the view
    const cases: Array<[string, string, string]> = [
      ["v", "SELECT * FROM m", "ts"],
      [
        "stats",
        "SELECT host, avg(cpu) AS a, count(*) AS c, sum(n) AS s, max(ts) AS last FROM m GROUP BY host",
        "host",
      ],
      ["expr", "SELECT host, n * 2 AS n2, cpu + 1 AS c1, ts FROM m", "ts"],
      ["unnamed", "SELECT host, avg(cpu), count(*) FROM m GROUP BY host", "host"],
    ];
    for (const [name, query, order] of cases) {
      await sqlOk(url, `CREATE VIEW ${name} AS ${query}`);
      const select = `SELECT * FROM ${name} ORDER BY ${order}`;
      assert.deepEqual(await records(url, select), await records(url, `${query} ORDER BY ${order}`), select);
    }
    assert.deepEqual(await records(url, "SELECT * FROM stats ORDER BY host"), {
      schema: [["host", "String"], ["a", "Float64"], ["c", "Int64"], ["s", "Int64"], [
        "last",
        "TimestampMillisecond",
      ]],
      rows: [["a", 2.5, 2, 4, 3000], ["b", 2.5, 1, 2, 2000]],
    });
    // unaliased aggregates over a view are named after it, as DataFusion names them
    assert.deepEqual(
      await records(url, "SELECT host, avg(cpu), max(ts) FROM v GROUP BY host ORDER BY host"),
      {
        schema: [["host", "String"], ["avg(v.cpu)", "Float64"], ["max(v.ts)", "TimestampMillisecond"]],
        rows: [["a", 2.5, 3000], ["b", 2.5, 2000]],
      },
    );
    // aggregates over a view's computed columns keep their types; an alias keeps the view column's type
    assert.deepEqual(await records(url, "SELECT max(a) AS top, sum(c) AS total FROM stats"), {
      schema: [["top", "Float64"], ["total", "Int64"]],
      rows: [[2.5, 3]],
    });
    assert.deepEqual((await records(url, "SELECT last AS l FROM stats WHERE host = 'b'")).schema, [[
      "l",
      "TimestampMillisecond",
    ]]);
    // a time literal compared with a view's time column is read in its unit
    assert.deepEqual(await sqlRows(url, "SELECT n FROM v WHERE ts >= '1970-01-01 00:00:02' ORDER BY n"), [
      [2],
      [3],
    ]);
    // WHERE, a join with a table, an alias, a view over a view, a column list
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT x.host, h.dc, x.a FROM stats AS x JOIN hosts h ON x.host = h.host WHERE x.c > 1",
      ),
      [["a", "east", 2.5]],
    );
    await sqlOk(url, "CREATE VIEW busy (who, load) AS SELECT host, a FROM stats WHERE c > 1");
    assert.deepEqual(await records(url, "SELECT * FROM busy"), {
      schema: [["who", "String"], ["load", "Float64"]],
      rows: [["a", 2.5]],
    });
    assert.deepEqual(await sqlRows(url, "SELECT count(*) FROM busy JOIN v ON busy.who = v.host"), [[2]]);
    // a view in another database, named from public and from its own
    await sqlOk(url, "CREATE DATABASE d2");
    await sqlOk(url, "CREATE TABLE t2 (x INT, ts TIMESTAMP TIME INDEX); INSERT INTO t2 VALUES (7, 5)", {
      db: "d2",
    });
    await sqlOk(url, "CREATE VIEW w AS SELECT x, ts FROM t2", { db: "d2" });
    const expected = { schema: [["x", "Int32"], ["ts", "TimestampMillisecond"]], rows: [[7, 5]] };
    assert.deepEqual(await records(url, "SELECT * FROM d2.w"), expected);
    assert.deepEqual(await records(url, "SELECT * FROM w", "d2"), expected);
    await sqlOk(url, "CREATE VIEW d2.w2 AS SELECT x + 1 AS y FROM w");
    assert.deepEqual(await sqlRows(url, "SELECT y FROM d2.w2"), [[8]]);
  });
});

Deno.test("views: errors name what is wrong (4xx), at CREATE for an invalid query", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${TABLE}; ${ROWS}; CREATE VIEW v AS SELECT * FROM m`);
    const cases: Array<[string, number, string | RegExp]> = [
      ["CREATE VIEW v AS SELECT 1", 4000, "View already exists: `greptime.public.v`"],
      ["CREATE VIEW m AS SELECT 1", 4000, "Table already exists: `greptime.public.m`"],
      ["CREATE OR REPLACE VIEW m AS SELECT 1", 4000, "Table already exists"],
      ["CREATE VIEW IF NOT EXISTS m AS SELECT 1", 4000, "Table already exists"],
      ["CREATE TABLE v (ts TIMESTAMP TIME INDEX)", 4000, "Table already exists: `greptime.public.v`"],
      ["CREATE VIEW bad AS SELECT * FROM missing", 4001, "Table not found: greptime.public.missing"],
      ["CREATE VIEW bad AS SELECT nope FROM m", 3000, "nope"],
      ["CREATE VIEW bad AS DELETE FROM m", 2000, "Expected: SELECT, VALUES, or a subquery in the query body"],
      ["CREATE VIEW bad", 2000, "Expected: AS"],
      ["CREATE OR REPLACE VIEW IF NOT EXISTS bad AS SELECT 1", 1004, "cannot be used together"],
      ["CREATE VIEW bad (a, b) AS SELECT host FROM m", 1004, "names 2 columns but its query has 1"],
      ["CREATE OR REPLACE VIEW v AS SELECT * FROM v", 1004, "refers to itself"],
      ["SELECT * FROM nope", 4001, "Table not found: greptime.public.nope"],
      ["SHOW CREATE VIEW nope", 4001, "View not found: nope"],
      ["DESC VIEW nope", 4001, "View not found: nope"],
      ["DROP VIEW nope", 4001, "Table not found: greptime.public.nope"],
      ["DROP VIEW m", 1004, 'Invalid view "greptime.public.m": not a view'],
      ["DROP TABLE v", 1004, "is a view"],
      ["DROP TABLE IF EXISTS v", 1004, "public.v is a view: drop it with DROP VIEW"],
      ["TRUNCATE TABLE v", 1004, "public.v is a view: a view has no rows of its own"],
      ["ALTER TABLE v ADD COLUMN x INT", 1004, "public.v is a view: replace it with CREATE OR REPLACE VIEW"],
      ["TRUNCATE TABLE nope", 4001, "Table not found: greptime.public.nope"],
      ["INSERT INTO v VALUES ('a', 1.0, 1, 1)", 1004, "Cannot write into view greptime.public.v"],
      ["DELETE FROM v", 1004, "Cannot write into view"],
      ["CREATE VIEW nodb.x AS SELECT 1", 4004, "nodb"],
    ];
    for (const [sql, code, message] of cases) {
      const f = await failure(url, sql);
      assert.equal(f.status, 400, `${sql}: ${JSON.stringify(f)}`);
      assert.equal(f.code, code, `${sql}: ${f.error}`);
      if (typeof message === "string") assert.ok(f.error.includes(message), `${sql}: ${f.error}`);
      else assert.match(f.error, message);
    }
    // nothing above changed the view or created one
    assert.deepEqual(await sqlRows(url, "SHOW VIEWS"), [["v"]]);
    assert.equal((await sqlRows(url, "SELECT * FROM v")).length, 3);
    // a view over a table dropped later fails when selected, naming the table
    await sqlOk(url, "DROP TABLE m");
    const f = await failure(url, "SELECT * FROM v");
    assert.deepEqual([f.status, f.code], [400, 4001]);
    assert.ok(f.error.includes("Table not found: greptime.public.m"), f.error);
    // information_schema.columns still answers, without the broken view's columns
    assert.deepEqual(
      await sqlRows(url, "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'public'"),
      [[0]],
    );
  });
});

Deno.test("views: information_schema.columns lists a view's column of a type no table has", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, "CREATE TABLE x (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO x VALUES (1, NULL)");
    // a NULL literal stays Null; make_array is a List
    await sqlOk(url, "CREATE VIEW va AS SELECT ts, make_array(1, 2) AS arr, NULL AS n FROM x");
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT column_name, greptime_data_type, data_type, column_type FROM information_schema.columns " +
          "WHERE table_name = 'va' ORDER BY ordinal_position",
      ),
      [
        ["ts", "TimestampMillisecond", "timestamp(3)", "timestamp(3)"],
        ["arr", "List<Int64>", "list<int64>", "list<int64>"],
        ["n", "Null", "null", "null"],
      ],
    );
    assert.deepEqual((await records(url, "SHOW COLUMNS FROM va")).rows.map((r) => r[0]), ["arr", "n", "ts"]);
  });
});

Deno.test("views: a computed column whose first rows are NULL is typed by a later row, not as Null", async () => {
  await withTestServer(async (url) => {
    await sqlOk(
      url,
      "CREATE TABLE t (ts TIMESTAMP TIME INDEX, val DOUBLE, n INT); " +
        "INSERT INTO t VALUES (1, NULL, NULL), (2, 3.5, NULL), (3, NULL, 4)",
    );
    await sqlOk(url, "CREATE VIEW dv AS SELECT val * 2 AS d, n + 1 AS m, NULL AS z FROM t");
    await sqlOk(url, "CREATE VIEW dn (x) AS SELECT sqrt(val) FROM t");
    assert.deepEqual((await records(url, "DESC VIEW dv")).rows.map((r) => r.slice(0, 2)), [
      ["d", "Float64"],
      ["m", "Int64"],
      ["z", "Null"],
    ]);
    assert.deepEqual((await records(url, "SHOW COLUMNS FROM dn")).rows.map((r) => [r[0], r[6]]), [[
      "x",
      "Float64",
    ]]);
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT table_name, column_name, greptime_data_type FROM information_schema.columns " +
          "WHERE table_name IN ('dv', 'dn') ORDER BY table_name, ordinal_position",
      ),
      [["dn", "x", "Float64"], ["dv", "d", "Float64"], ["dv", "m", "Int64"], ["dv", "z", "Null"]],
    );
  });
});

Deno.test("views: the column types of a view over an endless recursive CTE are read in bounded time", async () => {
  // a process of its own: the read held the server's thread for good (and a test server's is this one's)
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", ":memory:"]);
  try {
    // count(*) * 2 has no type before a row is read
    await sqlOk(
      server.url,
      "CREATE VIEW forever AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) " +
        "SELECT count(*) * 2 AS c FROM r",
    );
    const sql =
      "SELECT column_name, greptime_data_type FROM information_schema.columns WHERE table_name = 'forever'";
    const res = await fetch(`${server.url}/v1/sql?sql=${encodeURIComponent(sql)}`, {
      signal: AbortSignal.timeout(15_000),
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).output[0].records.rows, [["c", "Int64"]]);
    assert.deepEqual((await records(server.url, "DESC VIEW forever")).rows, [[
      "c",
      "Int64",
      "",
      "YES",
      "",
      "FIELD",
    ]]);
  } finally {
    await server.stop("SIGKILL");
  }
});

Deno.test("views: definitions survive a restart", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  try {
    await sqlOk(server.url, `${TABLE}; ${ROWS}`);
    await sqlOk(server.url, "CREATE VIEW v (h, c) AS SELECT host, count(*) FROM m GROUP BY host");
    await sqlOk(server.url, "CREATE DATABASE d2; CREATE VIEW d2.w AS SELECT 1 AS one");
    const before = await records(server.url, "SELECT * FROM v ORDER BY h");
    const id = await sqlRows(
      server.url,
      "SELECT table_id FROM information_schema.tables WHERE table_name = 'v'",
    );
    await server.stop();

    server = await startTestServer({ storage: { data_home: dataHome } });
    // a table a write creates first after the restart does not take the view's id
    const write = await fetch(`${server.url}/v1/influxdb/write?db=public&precision=ms`, {
      method: "POST",
      body: "later,host=a v=1 1000",
    });
    assert.equal(write.status, 204);
    assert.deepEqual(await records(server.url, "SELECT * FROM v ORDER BY h"), before);
    assert.deepEqual(await sqlRows(server.url, "SHOW VIEWS"), [["v"]]);
    assert.deepEqual(await sqlRows(server.url, "SELECT * FROM w", { db: "d2" }), [[1]]);
    assert.deepEqual(
      await sqlRows(server.url, "SELECT table_id FROM information_schema.tables WHERE table_name = 'v'"),
      id,
    );
    const ids = await sqlRows(
      server.url,
      "SELECT table_id FROM information_schema.tables WHERE table_schema = 'public'",
    );
    assert.equal(new Set(ids.map(String)).size, ids.length);
    await sqlOk(server.url, "DROP VIEW v");
    await server.stop();

    server = await startTestServer({ storage: { data_home: dataHome } });
    assert.deepEqual(await sqlRows(server.url, "SHOW VIEWS"), []);
  } finally {
    await server.stop();
  }
});

Deno.test("views: a read-only user can SELECT a view but not CREATE or DROP one", async () => {
  const server = await startTestServer({ user_provider: "static_user_provider:cmd:ro:ro=pw,rw=pw" });
  try {
    const ro = basicAuth("ro", "pw");
    const rw = basicAuth("rw", "pw");
    const as = (authorization: string) => ({ headers: { authorization } });
    await sqlOk(server.url, `${TABLE}; ${ROWS}; CREATE VIEW v AS SELECT host FROM m`, as(rw));
    assert.equal((await sqlRows(server.url, "SELECT * FROM v", as(ro))).length, 3);
    assert.deepEqual(await sqlRows(server.url, "SHOW VIEWS", as(ro)), [["v"]]);
    for (const stmt of ["CREATE VIEW w AS SELECT 1", "CREATE OR REPLACE VIEW v AS SELECT 1", "DROP VIEW v"]) {
      assert.equal((await failure(server.url, stmt, undefined, ro)).status, 403, stmt);
    }
    assert.deepEqual(await sqlRows(server.url, "SHOW VIEWS", as(rw)), [["v"]]);
  } finally {
    await server.stop();
  }
});
