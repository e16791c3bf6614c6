/**
 * Every statement kind of issue 3 through `GET /v1/sql` with the default greptimedb_v1 format: one ordered
 * case table per area, each case naming the exact schema, rows or affected-row counts GreptimeDB answers.
 */
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase } from "./fixtures/sql_client.ts";
import { MIN, MONITOR_DDL, MONITOR_ROWS, T0 } from "./fixtures/sql_monitor.ts";

const DDL_AND_DML: SqlCase[] = [
  { sql: MONITOR_DDL, affected: [0] },
  { sql: MONITOR_DDL.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"), affected: [0] },
  { name: "CREATE TABLE twice", sql: MONITOR_DDL, error: { code: 4000, message: "monitor" } },
  { sql: MONITOR_ROWS, affected: [4] },
  {
    name: "INSERT without a column list, default filled",
    sql: "CREATE TABLE owners (host STRING, owner STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host));" +
      `INSERT INTO owners VALUES ('h1', 'ann', ${T0}), ('h2', 'bob', ${T0})`,
    affected: [0, 2],
  },
  {
    sql: "SELECT * FROM monitor ORDER BY ts",
    schema: [["host", "String"], ["dc", "String"], ["cpu", "Float64"], ["mem", "Int64"], [
      "ts",
      "TimestampMillisecond",
    ]],
    rows: [
      ["h1", "east", 10.5, 100, T0],
      ["h2", "west", 30.0, 300, T0 + 2 * MIN],
      ["h1", "east", 20.0, 200, T0 + 5 * MIN],
      ["h2", "west", null, 400, T0 + 10 * MIN],
    ],
  },
  {
    name: "a column default fills an omitted column",
    sql: `INSERT INTO monitor (host, dc, cpu, ts) VALUES ('h3', 'east', 1, ${T0})`,
    affected: [1],
  },
  { sql: "SELECT mem FROM monitor WHERE host = 'h3'", rows: [[0]] },
  { sql: `DELETE FROM monitor WHERE host = 'h3'`, affected: [1] },
  { sql: "SELECT count(*) FROM monitor", schema: [["count(*)", "Int64"]], rows: [[4]] },
];

const QUERIES: SqlCase[] = [
  {
    sql: "SELECT host, cpu FROM monitor WHERE host = 'h1' AND ts >= '2024-01-01 00:05:00'",
    rows: [["h1", 20.0]],
  },
  {
    sql: "SELECT host, count(*) AS n, avg(cpu) AS a, max(mem) AS m, min(ts) AS first FROM monitor " +
      "GROUP BY host ORDER BY host",
    schema: [["host", "String"], ["n", "Int64"], ["a", "Float64"], ["m", "Int64"], [
      "first",
      "TimestampMillisecond",
    ]],
    rows: [["h1", 2, 15.25, 200, T0], ["h2", 2, 30.0, 400, T0 + 2 * MIN]],
  },
  { sql: "SELECT mem FROM monitor ORDER BY ts DESC LIMIT 2 OFFSET 1", rows: [[200], [300]] },
  { sql: "SELECT mem FROM monitor ORDER BY mem LIMIT 1", rows: [[100]] },
  {
    name: "join",
    sql: "SELECT m.mem, o.owner FROM monitor m JOIN owners o ON m.host = o.host ORDER BY m.mem",
    rows: [[100, "ann"], [200, "ann"], [300, "bob"], [400, "bob"]],
  },
  {
    name: "scalar subquery",
    sql: "SELECT mem FROM monitor WHERE cpu > (SELECT avg(cpu) FROM monitor) ORDER BY mem",
    rows: [[300]],
  },
  {
    name: "IN subquery",
    sql: "SELECT DISTINCT host FROM monitor WHERE host IN (SELECT host FROM owners WHERE owner = 'bob')",
    rows: [["h2"]],
  },
  {
    name: "CTE",
    sql: "WITH busy AS (SELECT host, sum(mem) AS total FROM monitor GROUP BY host) " +
      "SELECT host FROM busy WHERE total > 500",
    rows: [["h2"]],
  },
  {
    name: "window function",
    sql: "SELECT mem, sum(mem) OVER (PARTITION BY host ORDER BY ts) AS running, " +
      "row_number() OVER (ORDER BY ts) AS rn FROM monitor ORDER BY ts",
    schema: [["mem", "Int64"], ["running", "Int64"], ["rn", "UInt64"]],
    rows: [[100, 100, 1], [300, 300, 2], [200, 300, 3], [400, 700, 4]],
  },
  {
    name: "date_bin buckets in the table's unit",
    sql: "SELECT date_bin(INTERVAL '5 minutes', ts) AS b, count(*) AS n FROM monitor GROUP BY b ORDER BY b",
    schema: [["b", "TimestampMillisecond"], ["n", "Int64"]],
    rows: [[T0, 2], [T0 + 5 * MIN, 1], [T0 + 10 * MIN, 1]],
  },
  {
    sql: "SELECT date_trunc('hour', ts) AS h, to_unixtime(ts) AS u FROM monitor WHERE mem = 200",
    schema: [["h", "TimestampMillisecond"], ["u", "Int64"]],
    rows: [[T0, (T0 + 5 * MIN) / 1000]],
  },
  {
    name: "interval arithmetic keeps the timestamp type",
    sql: "SELECT ts + INTERVAL '5 minutes' AS later FROM monitor WHERE mem = 100",
    schema: [["later", "TimestampMillisecond"]],
    rows: [[T0 + 5 * MIN]],
  },
  {
    sql: "SELECT count(*) FROM monitor WHERE ts > '2024-01-01'::timestamp AND ts < now() - INTERVAL '1 day'",
    rows: [[3]],
  },
  {
    sql: "SELECT '2024-01-01 00:00:01'::timestamp AS t, arrow_cast(7, 'Int32') AS i",
    schema: [["t", "TimestampMillisecond"], ["i", "Int32"]],
    rows: [[T0 + 1000, 7]],
  },
  {
    name: "string and math functions",
    sql: "SELECT upper(host) AS u, lower('AB') AS l, length(dc) AS n, concat(host, '-', dc) AS c, " +
      "substr(dc, 1, 2) AS s, replace(dc, 'st', 'ST') AS r, abs(-2) AS a, round(cpu) AS ro, " +
      "floor(cpu) AS f, ceil(cpu) AS ce, sqrt(mem) AS sq, power(2, 3) AS p FROM monitor WHERE mem = 100",
    rows: [["H1", "ab", 4, "h1-east", "ea", "eaST", 2, 11.0, 10.0, 11.0, 10.0, 8.0]],
  },
  {
    name: "comparisons are Boolean",
    sql: "SELECT now() > '2024-01-01'::timestamp AS after, mem > 150 AS big FROM monitor WHERE mem = 100",
    schema: [["after", "Boolean"], ["big", "Boolean"]],
    rows: [[true, false]],
  },
  { sql: "SELECT count(*) FROM monitor WHERE ts < now()", rows: [[4]] },
  {
    name: "an empty aggregate result keeps its types",
    sql: "SELECT host, count(*) AS n FROM monitor WHERE host = 'nobody' GROUP BY host",
    schema: [["host", "String"], ["n", "Int64"]],
    rows: [],
  },
  {
    name: "an empty scan keeps its types",
    sql: "SELECT host, ts FROM monitor WHERE host = 'nobody'",
    schema: [["host", "String"], ["ts", "TimestampMillisecond"]],
    rows: [],
  },
  {
    name: "multiple statements in one request",
    sql:
      "SELECT count(*) AS n FROM monitor; INSERT INTO owners VALUES ('h9', 'cy', 0); SELECT count(*) FROM owners;",
    outputs: [
      {
        records: {
          schema: { column_schemas: [{ name: "n", data_type: "Int64" }] },
          rows: [[4]],
          total_rows: 1,
        },
      },
      { affectedrows: 1 },
      {
        records: {
          schema: { column_schemas: [{ name: "count(*)", data_type: "Int64" }] },
          rows: [[3]],
          total_rows: 1,
        },
      },
    ],
  },
];

const SHOW_AND_DESC: SqlCase[] = [
  { sql: "SHOW TABLES", schema: [["Tables", "String"]], rows: [["monitor"], ["numbers"], ["owners"]] },
  { sql: "SHOW TABLES LIKE 'mon%'", rows: [["monitor"]] },
  {
    sql: "SHOW FULL TABLES LIKE '%o%'",
    schema: [["Tables", "String"], ["Table_type", "String"]],
    rows: [["monitor", "BASE TABLE"], ["owners", "BASE TABLE"]],
  },
  {
    sql: "DESC TABLE monitor",
    schema: ["Column", "Type", "Key", "Null", "Default", "Semantic Type"].map((n) => [n, "String"]),
    rows: [
      ["host", "String", "PRI", "YES", "", "TAG"],
      ["dc", "String", "PRI", "YES", "", "TAG"],
      ["cpu", "Float64", "", "YES", "", "FIELD"],
      ["mem", "Int64", "", "YES", "0", "FIELD"],
      ["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"],
    ],
  },
  {
    sql: "SHOW CREATE TABLE monitor",
    schema: [["Table", "String"], ["Create Table", "String"]],
    rows: [[
      "monitor",
      [
        `CREATE TABLE IF NOT EXISTS "monitor" (`,
        `  "host" STRING NULL,`,
        `  "dc" STRING NULL,`,
        `  "cpu" DOUBLE NULL,`,
        `  "mem" BIGINT NULL DEFAULT 0,`,
        `  "ts" TIMESTAMP(3) NOT NULL,`,
        `  TIME INDEX ("ts"),`,
        `  PRIMARY KEY ("host", "dc")`,
        `)`,
        ``,
        `ENGINE=mito`,
        ``,
      ].join("\n"),
    ]],
  },
  {
    name: "CREATE TABLE with every option, shown back by SHOW CREATE TABLE",
    sql: "CREATE TABLE opts (ts TIMESTAMP(6) TIME INDEX, v DOUBLE) ENGINE=mito " +
      "WITH(ttl='30d', append_mode='true', skip_wal='true')",
    affected: [0],
  },
  {
    sql: "SHOW CREATE TABLE opts",
    rows: [[
      "opts",
      [
        `CREATE TABLE IF NOT EXISTS "opts" (`,
        `  "ts" TIMESTAMP(6) NOT NULL,`,
        `  "v" DOUBLE NULL,`,
        `  TIME INDEX ("ts")`,
        `)`,
        ``,
        `ENGINE=mito`,
        `WITH(`,
        `  append_mode = 'true',`,
        `  skip_wal = 'true',`,
        `  ttl = '30days'`,
        `)`,
      ].join("\n"),
    ]],
  },
  {
    name: "column constraints, defaults, comments and quoted option keys",
    sql: "CREATE TABLE rich (host STRING NOT NULL, v DOUBLE DEFAULT 0.5 COMMENT 'the value', " +
      "n BIGINT NOT NULL DEFAULT 1, ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP TIME INDEX, PRIMARY KEY(host)) " +
      "ENGINE=mito WITH(ttl='1h30m', merge_mode='last_non_null', 'compaction.type'='twcs', comment='a table')",
    affected: [0],
  },
  {
    sql: "SHOW CREATE TABLE rich",
    rows: [[
      "rich",
      [
        `CREATE TABLE IF NOT EXISTS "rich" (`,
        `  "host" STRING NOT NULL,`,
        `  "v" DOUBLE NULL DEFAULT 0.5 COMMENT 'the value',`,
        `  "n" BIGINT NOT NULL DEFAULT 1,`,
        `  "ts" TIMESTAMP(3) NOT NULL DEFAULT current_timestamp(),`,
        `  TIME INDEX ("ts"),`,
        `  PRIMARY KEY ("host")`,
        `)`,
        ``,
        `ENGINE=mito`,
        `WITH(`,
        `  'comment' = 'a table',`,
        `  'compaction.type' = 'twcs',`,
        `  merge_mode = 'last_non_null',`,
        `  ttl = '1h 30m'`,
        `)`,
      ].join("\n"),
    ]],
  },
  {
    sql: "DESC rich",
    rows: [
      ["host", "String", "PRI", "NO", "", "TAG"],
      ["v", "Float64", "", "YES", "0.5", "FIELD"],
      ["n", "Int64", "", "NO", "1", "FIELD"],
      ["ts", "TimestampMillisecond", "PRI", "NO", "current_timestamp()", "TIMESTAMP"],
    ],
  },
  {
    name: "defaults fill omitted columns, the time index included",
    sql:
      "INSERT INTO rich (host) VALUES ('a'); SELECT host, v, n, ts > now() - INTERVAL '1 minute' AS recent FROM rich",
    outputs: [{ affectedrows: 1 }, {
      records: {
        schema: {
          column_schemas: [
            { name: "host", data_type: "String" },
            { name: "v", data_type: "Float64" },
            { name: "n", data_type: "Int64" },
            { name: "recent", data_type: "Boolean" },
          ],
        },
        rows: [["a", 0.5, 1, true]],
        total_rows: 1,
      },
    }],
  },
  {
    name: "an explicit NULL into a NOT NULL field",
    sql: "INSERT INTO rich (host, n) VALUES ('b', NULL)",
    error: { code: 1004, message: "n" },
  },
  {
    name: "an omitted NOT NULL tag without a default",
    sql: "INSERT INTO rich (v) VALUES (1)",
    error: { code: 1004, message: "host" },
  },
  {
    sql: "SELECT table_name, table_type, engine FROM information_schema.tables " +
      "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    rows: ["monitor", "opts", "owners", "rich"].map((name) => [name, "BASE TABLE", "mito"]),
  },
  {
    name: "information_schema.tables lists numbers",
    sql: "SELECT table_name, table_type, engine FROM information_schema.tables WHERE table_name = 'numbers'",
    rows: [["numbers", "LOCAL TEMPORARY", "test_engine"]],
  },
  {
    name: "an empty information_schema result keeps its types",
    sql: "SELECT table_name, table_rows FROM information_schema.tables WHERE table_name = 'nope'",
    schema: [["table_name", "String"], ["table_rows", "UInt64"]],
    rows: [],
  },
  {
    name: "numbers is GreptimeDB's UInt32 table",
    sql: "SELECT number FROM numbers WHERE number < 2",
    schema: [["number", "UInt32"]],
    rows: [[0], [1]],
  },
  {
    sql: "SELECT column_name, data_type, semantic_type, is_nullable FROM information_schema.columns " +
      "WHERE table_schema = 'public' AND table_name = 'monitor' ORDER BY ordinal_position",
    rows: [
      ["host", "string", "TAG", "Yes"],
      ["dc", "string", "TAG", "Yes"],
      ["cpu", "double", "FIELD", "Yes"],
      ["mem", "bigint", "FIELD", "Yes"],
      ["ts", "timestamp(3)", "TIMESTAMP", "No"],
    ],
  },
];

const ALTER_TRUNCATE_DROP: SqlCase[] = [
  { sql: "ALTER TABLE monitor ADD COLUMN note STRING", affected: [0] },
  { sql: "SELECT note FROM monitor WHERE mem = 100", rows: [[null]] },
  { sql: "ALTER TABLE monitor SET 'ttl'='1d'", affected: [0] },
  {
    name: "the new ttl shows and already hides the 2024 rows",
    sql: "SELECT count(*) FROM monitor",
    rows: [[0]],
  },
  { sql: "ALTER TABLE monitor SET 'ttl'='forever'", affected: [0] },
  { sql: "SELECT count(*) FROM monitor", rows: [[4]] },
  { sql: "TRUNCATE TABLE monitor", affected: [0] },
  { sql: "SELECT count(*) FROM monitor", rows: [[0]] },
  { sql: "DROP TABLE monitor", affected: [0] },
  { name: "dropped table is gone", sql: "SELECT * FROM monitor", error: { code: 4001, message: "monitor" } },
  { sql: "DROP TABLE IF EXISTS monitor", affected: [0] },
];

const DATABASES: SqlCase[] = [
  { sql: "CREATE DATABASE metrics", affected: [1] },
  {
    sql: "CREATE DATABASE IF NOT EXISTS metrics",
    affected: [1],
  },
  { name: "CREATE DATABASE twice", sql: "CREATE DATABASE metrics", error: { code: 4011 } },
  {
    sql: "SHOW DATABASES",
    rows: [["greptime_private"], ["information_schema"], ["metrics"], ["public"]],
  },
  {
    name: "db param selects the database",
    sql: "CREATE TABLE m (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO m VALUES (1, 2.5)",
    db: "metrics",
    affected: [0, 1],
  },
  { sql: "SELECT * FROM m", db: "metrics", rows: [[1, 2.5]] },
  { name: "catalog-schema db form", sql: "SELECT v FROM m", db: "greptime-metrics", rows: [[2.5]] },
  { name: "qualified name from another db", sql: "SELECT v FROM metrics.m", rows: [[2.5]] },
  { name: "not visible from public", sql: "SELECT * FROM m", error: { code: 4001 } },
  { sql: "SHOW TABLES", db: "metrics", rows: [["m"]] },
  { sql: "CREATE TABLE metrics.q (ts TIMESTAMP TIME INDEX, v DOUBLE)", affected: [0] },
  { sql: "INSERT INTO metrics.q VALUES (0, 1)", affected: [1] },
  { sql: "SHOW TABLES FROM metrics", rows: [["m"], ["q"]] },
  { sql: "SHOW FULL TABLES IN metrics LIKE 'q%'", rows: [["q", "BASE TABLE"]] },
  { sql: "SHOW DATABASES LIKE 'met%'", rows: [["metrics"]] },
  { sql: "SHOW DATABASES WHERE Database = 'public'", rows: [["public"]] },
  {
    sql: "DESCRIBE metrics.q",
    rows: [
      ["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"],
      ["v", "Float64", "", "YES", "", "FIELD"],
    ],
  },
  { sql: "SELECT q.v, m.v FROM metrics.q JOIN metrics.m ON q.ts < m.ts", rows: [[1.0, 2.5]] },
  { sql: "DELETE FROM metrics.q WHERE ts = 0", affected: [1] },
  { sql: "DROP TABLE metrics.q", affected: [0] },
  { sql: "SHOW TABLES", db: "metrics", rows: [["m"]] },
  { sql: "DROP DATABASE metrics", affected: [0] },
  // GreptimeDB shows a database ttl in humantime, as it does a table's
  { sql: "CREATE DATABASE weekly WITH (ttl='7d')", affected: [1] },
  {
    sql: "SHOW CREATE DATABASE weekly",
    rows: [["weekly", "CREATE DATABASE IF NOT EXISTS \"weekly\"\nWITH(\n  ttl = '7days'\n)"]],
  },
  {
    sql: "SELECT options FROM information_schema.schemata WHERE schema_name = 'weekly'",
    rows: [["ttl='7days'"]],
  },
  { sql: "ALTER DATABASE weekly SET 'ttl'='36h'", affected: [0] },
  {
    sql: "SELECT options FROM information_schema.schemata WHERE schema_name = 'weekly'",
    rows: [["ttl='1day 12h'"]],
  },
  { sql: "DROP DATABASE weekly", affected: [0] },
  {
    name: "dropped database is unknown",
    sql: "SELECT 1",
    db: "metrics",
    error: { code: 4004, message: "Database not found: metrics" },
  },
];

Deno.test("/v1/sql statements", async (t) => {
  const server = await startTestServer();
  try {
    await t.step("DDL and DML", (t) => runCases(t, server.url, DDL_AND_DML));
    await t.step("queries", (t) => runCases(t, server.url, QUERIES));
    await t.step("SHOW, DESC and information_schema", (t) => runCases(t, server.url, SHOW_AND_DESC));
    await t.step("ALTER, TRUNCATE, DROP", (t) => runCases(t, server.url, ALTER_TRUNCATE_DROP));
    await t.step("databases", (t) => runCases(t, server.url, DATABASES));
  } finally {
    await server.stop();
  }
});
