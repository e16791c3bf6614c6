/**
 * Metric-engine tables created by SQL, as GreptimeDB's docs create them: a physical table
 * (`"physical_metric_table" = ""`) and logical tables on it (`"on_physical_table" = "phy"`) with their
 * own time index, value and tag names. INSERT and SELECT, TQL and the Prometheus API over them, DESC
 * and SHOW CREATE TABLE, several logical tables on one physical table, DROP order, TRUNCATE, the
 * validation errors, and remote write into the same physical table.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { checkCase, type SqlCase, sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";
import { remoteWrite } from "../promql/prom_compare.ts";

/** The first sample's time (ms); samples 15 s apart. */
const T = 1_700_000_000_000;
const T2 = T + 15_000;
const T_S = T / 1000;

const PHY =
  `CREATE TABLE phy (ts timestamp time index, val double) engine=metric with ("physical_metric_table" = "")`;
const LG =
  `CREATE TABLE lg (ts timestamp time index, val double, host string primary key) engine = metric with ("on_physical_table" = "phy")`;

async function withServer(fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer();
  try {
    await fn(s);
  } finally {
    await s.stop();
  }
}

/** The Prometheus API's instant query at `timeS`. */
async function promQuery(s: TestServer, query: string, timeS: number) {
  const res = await fetch(
    `${s.url}/v1/prometheus/api/v1/query?${new URLSearchParams({ query, time: String(timeS) })}`,
  );
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data as {
    resultType: string;
    result: { metric: Record<string, string>; value: [number, string] }[];
  };
}

Deno.test("the docs' physical and logical tables: INSERT, SELECT, TQL, PromQL, DESC, SHOW CREATE", async () => {
  await withServer(async (s) => {
    await sqlOk(s.url, PHY);
    await sqlOk(s.url, LG);
    const inserted = await sqlOk(
      s.url,
      `INSERT INTO lg VALUES (${T}, 2.5, 'a'), (${T2}, 3.5, 'a'), (${T}, 10, 'b'), (${T2}, 11, 'b')`,
    );
    assert.deepEqual(inserted, [{ affectedrows: 4 }]);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg ORDER BY host, ts"), [
      [T, 2.5, "a"],
      [T2, 3.5, "a"],
      [T, 10, "b"],
      [T2, 11, "b"],
    ]);
    assert.deepEqual(await sqlRows(s.url, "SELECT host, val FROM lg WHERE ts > " + T + " ORDER BY host"), [
      ["a", 3.5],
      ["b", 11],
    ]);
    // the physical table reads every sample of every logical table, with their labels
    assert.deepEqual(await sqlRows(s.url, "SELECT ts, val, host FROM phy ORDER BY host, ts"), [
      [T, 2.5, "a"],
      [T2, 3.5, "a"],
      [T, 10, "b"],
      [T2, 11, "b"],
    ]);

    await checkCase(s.url, {
      sql: "DESC TABLE lg",
      rows: [
        ["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"],
        ["val", "Float64", "", "YES", "", "FIELD"],
        ["host", "String", "PRI", "YES", "", "TAG"],
      ],
    });
    await checkCase(s.url, {
      sql: "DESC TABLE phy",
      rows: [
        ["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"],
        ["val", "Float64", "", "YES", "", "FIELD"],
        ["host", "String", "PRI", "YES", "", "TAG"],
      ],
    });
    await checkCase(s.url, {
      sql: "SHOW CREATE TABLE lg",
      rows: [[
        "lg",
        'CREATE TABLE IF NOT EXISTS "lg" (\n  "ts" TIMESTAMP(3) NOT NULL,\n  "val" DOUBLE NULL,\n  "host" STRING NULL,\n' +
        '  TIME INDEX ("ts"),\n  PRIMARY KEY ("host")\n)\n\nENGINE=metric\nWITH(\n  on_physical_table = \'phy\'\n)',
      ]],
    });
    const phy = await sqlRows(s.url, "SHOW CREATE TABLE phy");
    assert.match(String(phy[0][1]), /\nENGINE=metric\nWITH\(\n {2}physical_metric_table = ''\n\)$/);

    await checkCase(s.url, {
      sql: `TQL EVAL (${T_S}, ${T_S + 15}, '15s') lg`,
      schema: [["ts", "TimestampMillisecond"], ["val", "Float64"], ["host", "String"]],
      rows: [[T, 2.5, "a"], [T2, 3.5, "a"], [T, 10, "b"], [T2, 11, "b"]],
    });
    const vector = await promQuery(s, 'lg{host="b"}', T_S + 15);
    assert.deepEqual(vector.result, [{ metric: { __name__: "lg", host: "b" }, value: [T_S + 15, "11"] }]);
    const sum = await promQuery(s, "sum(lg)", T_S + 15);
    assert.deepEqual(sum.result, [{ metric: {}, value: [T_S + 15, "14.5"] }]);
  });
});

Deno.test("several logical tables on one physical table, TRUNCATE, IF NOT EXISTS and DROP order", async () => {
  await withServer(async (s) => {
    await sqlOk(s.url, PHY);
    await sqlOk(s.url, LG);
    await sqlOk(
      s.url,
      `CREATE TABLE lg2 (ts timestamp time index, val double, region string, host string, primary key (region, host)) ` +
        `engine = metric with ("on_physical_table" = "phy")`,
    );
    await sqlOk(s.url, `INSERT INTO lg VALUES (${T}, 1, 'a')`);
    await sqlOk(
      s.url,
      `INSERT INTO lg2 (ts, val, region, host) VALUES (${T}, 7, 'eu', 'a'), (${T2}, 8, 'us', 'z')`,
    );
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg"), [[T, 1, "a"]]);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg2 ORDER BY ts"), [[T, 7, "eu", "a"], [
      T2,
      8,
      "us",
      "z",
    ]]);
    assert.deepEqual(await sqlRows(s.url, "SELECT ts, val, host, region FROM phy ORDER BY val"), [
      [T, 1, "a", null],
      [T, 7, "a", "eu"],
      [T2, 8, "z", "us"],
    ]);
    // one series per logical table even with the same labels
    const both = await promQuery(s, '{__name__=~"lg.*", host="a"}', T_S);
    assert.deepEqual(both.result.map((r) => [r.metric.__name__, r.value[1]]).sort(), [["lg", "1"], [
      "lg2",
      "7",
    ]]);

    await checkCase(s.url, { sql: LG.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"), affected: [0] });
    await checkCase(s.url, { sql: LG, error: { status: 400, code: 4000, message: "Table already exists" } });
    await checkCase(s.url, { sql: PHY.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"), affected: [0] });

    await checkCase(s.url, { sql: "TRUNCATE TABLE lg2", affected: [0] });
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg2"), []);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg"), [[T, 1, "a"]]);

    await checkCase(s.url, {
      sql: "DROP TABLE phy",
      error: { status: 400, message: "Physical table phy is used by logical tables: lg, lg2" },
    });
    await sqlOk(s.url, "DROP TABLE lg");
    await checkCase(s.url, {
      sql: "DROP TABLE phy",
      error: { status: 400, message: "Physical table phy is used by logical tables: lg2" },
    });
    await sqlOk(s.url, "DROP TABLE lg2");
    await sqlOk(s.url, "DROP TABLE phy");
    assert.deepEqual(await sqlRows(s.url, "SHOW TABLES"), [["numbers"]]);
    // the names are free again, for any engine
    await sqlOk(s.url, "CREATE TABLE phy (ts TIMESTAMP TIME INDEX, v DOUBLE)");
  });
});

const INVALID: SqlCase[] = [
  {
    name: "a logical table on a missing physical table",
    sql:
      `CREATE TABLE x (ts timestamp time index, val double) engine=metric with ("on_physical_table" = "nope")`,
    error: { status: 400, code: 4001, message: "Physical table nope of x not found" },
  },
  {
    name: "a logical table on an ordinary table",
    sql:
      `CREATE TABLE x (ts timestamp time index, val double) engine=metric with ("on_physical_table" = "plain")`,
    error: { status: 400, message: "Table plain is not a metric engine physical table" },
  },
  {
    name: "a logical table on another logical table",
    sql:
      `CREATE TABLE x (ts timestamp time index, val double) engine=metric with ("on_physical_table" = "lg")`,
    error: { status: 400, message: "Table lg is not a metric engine physical table" },
  },
  {
    name: "a time index named otherwise than the physical table's",
    sql:
      `CREATE TABLE x (t timestamp time index, val double) engine=metric with ("on_physical_table" = "phy")`,
    error: { status: 400, message: "Time index t of x must be named as physical table phy's: ts" },
  },
  {
    name: "a field named otherwise than the physical table's",
    sql:
      `CREATE TABLE x (ts timestamp time index, v double) engine=metric with ("on_physical_table" = "phy")`,
    error: { status: 400, message: "Field v of x must be named as physical table phy's: val" },
  },
  {
    name: "two fields",
    sql: `CREATE TABLE x (ts timestamp time index, val double, other double) engine=metric ` +
      `with ("on_physical_table" = "phy")`,
    error: { status: 400, message: "needs exactly one field column (the value), found 2: val, other" },
  },
  {
    name: "no field",
    sql: `CREATE TABLE x (ts timestamp time index, host string primary key) engine=metric ` +
      `with ("physical_metric_table" = "")`,
    error: { status: 400, message: "needs exactly one field column (the value), found 0" },
  },
  {
    name: "a field that is not a double",
    sql:
      `CREATE TABLE x (ts timestamp time index, val bigint) engine=metric with ("physical_metric_table" = "")`,
    error: { status: 400, message: "must be Float64 (DOUBLE), val is Int64" },
  },
  {
    name: "a tag that is not a string",
    sql: `CREATE TABLE x (ts timestamp time index, val double, n int primary key) engine=metric ` +
      `with ("on_physical_table" = "phy")`,
    error: { status: 400, message: "Tag n of metric engine table x must be a String, got Int32" },
  },
  {
    name: "a time index in seconds",
    sql:
      `CREATE TABLE x (ts timestamp(0) time index, val double) engine=metric with ("physical_metric_table" = "")`,
    error: { status: 400, message: "needs a millisecond time index, ts is TimestampSecond" },
  },
  {
    name: "a tag differing only in case from a label of the physical table",
    sql: `CREATE TABLE x (ts timestamp time index, val double, "HOST" string primary key) engine=metric ` +
      `with ("on_physical_table" = "phy")`,
    error: { status: 400, message: "Label HOST of metric x differs only in case from column host of phy" },
  },
  {
    name: "the metric engine without its options",
    sql: `CREATE TABLE x (ts timestamp time index, val double) engine=metric`,
    error: { status: 400, message: "needs the physical_metric_table option" },
  },
  {
    name: "both options",
    sql: `CREATE TABLE x (ts timestamp time index, val double) engine=metric ` +
      `with ("physical_metric_table" = "", "on_physical_table" = "phy")`,
    error: { status: 400, message: "cannot have both physical_metric_table and on_physical_table" },
  },
];

Deno.test("CREATE TABLE ENGINE=metric refuses what GreptimeDB's metric engine refuses", async () => {
  await withServer(async (s) => {
    await sqlOk(s.url, PHY);
    await sqlOk(s.url, LG);
    await sqlOk(s.url, "CREATE TABLE plain (ts TIMESTAMP TIME INDEX, val DOUBLE)");
    for (const c of INVALID) await checkCase(s.url, c);
    // nothing was left behind by the refusals
    assert.deepEqual(await sqlRows(s.url, "SHOW TABLES"), [["lg"], ["numbers"], ["phy"], ["plain"]]);
    // a write naming a field the table does not have is refused naming the table's own columns
    const res = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, {
      method: "POST",
      body: `lg,host=a other=1 ${T}`,
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Metric table lg only stores ts, val and String tags, not field other/);
  });
});

Deno.test("remote write into logical tables of a physical table created by SQL", async () => {
  await withServer(async (s) => {
    await sqlOk(s.url, PHY);
    await sqlOk(s.url, LG);
    await sqlOk(s.url, `INSERT INTO lg VALUES (${T}, 1, 'a')`);
    // into the SQL-created table: a new label becomes a column at its end
    await remoteWrite(s.url, [
      { labels: { __name__: "lg", host: "c", dc: "x" }, samples: [{ timestampMs: T2, value: 5 }] },
    ], "/v1/prometheus/write");
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg ORDER BY ts"), [[T, 1, "a", null], [
      T2,
      5,
      "c",
      "x",
    ]]);
    // a metric new to the physical table is named as it is
    await remoteWrite(s.url, [
      { labels: { __name__: "rw", job: "j" }, samples: [{ timestampMs: T, value: 3 }] },
    ], "/v1/prometheus/write?physical_table=phy");
    await checkCase(s.url, {
      sql: "SELECT * FROM rw",
      schema: [["job", "String"], ["ts", "TimestampMillisecond"], ["val", "Float64"]],
      rows: [["j", T, 3]],
    });
    const rw = await promQuery(s, "rw", T_S);
    assert.deepEqual(rw.result, [{ metric: { __name__: "rw", job: "j" }, value: [T_S, "3"] }]);
    // a label named as the table's own time index is refused
    await assert.rejects(
      remoteWrite(s.url, [
        { labels: { __name__: "lg", ts: "1" }, samples: [{ timestampMs: T, value: 1 }] },
      ], "/v1/prometheus/write"),
      /Label ts of metric lg collides with the column of the same name/,
    );
    // the default physical table keeps GreptimeDB's names
    await remoteWrite(s.url, [
      { labels: { __name__: "up", job: "j" }, samples: [{ timestampMs: T, value: 1 }] },
    ], "/v1/prometheus/write");
    await checkCase(s.url, {
      sql: "SELECT * FROM up",
      schema: [["greptime_timestamp", "TimestampMillisecond"], ["greptime_value", "Float64"], [
        "job",
        "String",
      ]],
      rows: [[T, 1, "j"]],
    });
    assert.deepEqual(await sqlRows(s.url, "SELECT count(*) FROM phy"), [[3]]);
  });
});

Deno.test("metric tables created by SQL survive a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_metric_sql_" });
  let s = await startTestServer({ storage: { data_home: dir } });
  try {
    await sqlOk(s.url, PHY);
    await sqlOk(s.url, LG);
    await sqlOk(s.url, `INSERT INTO lg VALUES (${T}, 2.5, 'a')`);
    await s.stop();
    s = await startTestServer({ storage: { data_home: dir } });
    await sqlOk(s.url, `INSERT INTO lg VALUES (${T2}, 3.5, 'b')`);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg ORDER BY ts"), [[T, 2.5, "a"], [T2, 3.5, "b"]]);
  } finally {
    await s.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Gives catalog entries the engine and options an older Petrel stored for `ENGINE=metric` tables it made plain. */
function markAsOldMetricTables(file: string, options: Record<string, Record<string, string>>): void {
  const conn = new DatabaseSync(file);
  try {
    for (const [table, opts] of Object.entries(options)) {
      const row = conn.prepare(`SELECT meta FROM __petrel_catalog WHERE name = ?`).get(table) as {
        meta: string;
      };
      const meta = JSON.parse(row.meta);
      conn.prepare(`UPDATE __petrel_catalog SET meta = ? WHERE name = ?`).run(
        JSON.stringify({ ...meta, engine: "metric", options: { ...meta.options, ...opts } }),
        table,
      );
    }
  } finally {
    conn.close();
  }
}

Deno.test("ENGINE=metric tables an older Petrel created as plain tables stay plain tables", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_metric_sql_" });
  let s = await startTestServer({ storage: { data_home: dir } });
  try {
    await sqlOk(s.url, "CREATE TABLE phy (ts TIMESTAMP TIME INDEX, val DOUBLE)");
    await sqlOk(s.url, "CREATE TABLE lg (ts TIMESTAMP TIME INDEX, val DOUBLE, host STRING PRIMARY KEY)");
    await sqlOk(s.url, `INSERT INTO phy VALUES (${T}, 1)`);
    await s.stop();
    markAsOldMetricTables(join(dir, "data", "public.sqlite"), {
      phy: { physical_metric_table: "" },
      lg: { on_physical_table: "phy" },
    });
    s = await startTestServer({ storage: { data_home: dir } });
    await sqlOk(s.url, `INSERT INTO phy VALUES (${T2}, 2)`);
    await sqlOk(s.url, `INSERT INTO lg VALUES (${T}, 3, 'a')`);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM phy ORDER BY ts"), [[T, 1], [T2, 2]]);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM lg"), [[T, 3, "a"]]);
    assert.match(String((await sqlRows(s.url, "SHOW CREATE TABLE phy"))[0][1]), /ENGINE=mito/);
    await sqlOk(s.url, "DROP TABLE phy");
    await sqlOk(s.url, "DROP TABLE lg");
  } finally {
    await s.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
