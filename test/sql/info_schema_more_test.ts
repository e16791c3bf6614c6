/**
 * The information_schema tables GreptimeDB has beyond tables/columns/schemata/flows/views, and the
 * SHOW statements answered from them (INDEX, TABLE STATUS, PROCESSLIST), over a real server: each
 * table's columns and types, the rows for a table with tags, a time index and indexed columns and
 * for a metric-engine table, and filtering, joining and ordering as on any table.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

/** `"name name:Type …"` → `[name, type]` pairs (String when no type is given). */
function cols(spec: string): [string, string][] {
  return spec.trim().split(/\s+/).map((c) => {
    const [name, type] = c.split(":");
    return [name, type ?? "String"];
  });
}

const T = "TimestampMicrosecond";
const STATS = "deleted_rows update_count free_extents total_extents extent_size initial_size maximum_size " +
  "autoextend_size";

/** Each new table's columns and data types, in order. */
const SCHEMAS: Record<string, string> = {
  build_info: "git_branch git_commit git_commit_short git_clean pkg_version",
  engines: "engine support comment transactions xa savepoints",
  key_column_usage: "constraint_catalog constraint_schema constraint_name table_catalog real_table_catalog " +
    "table_schema table_name column_name ordinal_position:UInt32 position_in_unique_constraint:UInt32 " +
    "referenced_table_schema referenced_table_name referenced_column_name greptime_index_type",
  table_constraints: "constraint_catalog constraint_schema constraint_name table_schema table_name " +
    "constraint_type enforced",
  partitions: "table_catalog table_schema table_name partition_name subpartition_name " +
    "partition_ordinal_position:Int64 subpartition_ordinal_position:Int64 partition_method " +
    "subpartition_method partition_expression subpartition_expression partition_description " +
    "table_rows:Int64 avg_row_length:Int64 data_length:Int64 max_data_length:Int64 index_length:Int64 " +
    "data_free:Int64 create_time:TimestampSecond update_time:TimestampSecond check_time:TimestampSecond " +
    "checksum:Int64 partition_comment nodegroup tablespace_name greptime_partition_id:UInt64",
  region_peers: "table_catalog table_schema table_name region_id:UInt64 peer_id:UInt64 peer_addr is_leader " +
    "status down_seconds:Int64",
  region_statistics: "region_id:UInt64 table_id:UInt32 region_number:UInt32 region_rows:UInt64 " +
    "written_bytes_since_open:UInt64 disk_size:UInt64 memtable_size:UInt64 manifest_size:UInt64 " +
    "sst_size:UInt64 sst_num:UInt64 index_size:UInt64 engine region_role",
  cluster_info: "peer_id:Int64 peer_type peer_addr version git_commit start_time:TimestampMillisecond " +
    "uptime active_time",
  runtime_metrics: "metric_name value:Float64 labels peer_addr peer_type timestamp:TimestampMillisecond",
  procedure_info:
    "procedure_id procedure_type start_time:TimestampMillisecond end_time:TimestampMillisecond " +
    "status lock_keys",
  character_sets: "character_set_name default_collate_name description maxlen:Int64",
  collations: "collation_name character_set_name id:Int64 is_default is_compiled sortlen:Int64",
  collation_character_set_applicability: "collation_name character_set_name",
  process_list: "id catalog schemas query client frontend start_timestamp:TimestampMillisecond " +
    "elapsed_time:Int64",
  check_constraints: "constraint_catalog constraint_schema constraint_name check_clause",
  column_privileges: "grantee table_catalog table_schema table_name column_name privilege_type is_grantable",
  column_statistics: "schema_name table_name column_name histogram",
  events: "event_catalog event_schema event_name definer time_zone event_body event_definition event_type " +
    `execute_at:${T} interval_value:Int64 interval_field sql_mode starts:${T} ends:${T} status ` +
    `on_completion created:${T} last_altered:${T} last_executed:${T} event_comment originator:Int64 ` +
    "character_set_client collation_connection database_collation",
  files: "file_id:Int64 file_name file_type tablespace_name table_catalog table_schema table_name " +
    `logfile_group_name logfile_group_number:Int64 engine fulltext_keys ${
      STATS.split(" ").map((c) => `${c}:Int64`).join(" ")
    } creation_time:${T} last_update_time:${T} last_access_time:${T} recover_time:${T} ` +
    "transaction_counter:Int64 version:Int64 row_format table_rows:Int64 avg_row_length:Int64 " +
    `data_length:Int64 max_data_length:Int64 index_length:Int64 data_free:Int64 create_time:${T} ` +
    `update_time:${T} check_time:${T} checksum:Int64 status extra`,
  global_status: "variable_name variable_value",
  optimizer_trace: "query trace missing_bytes_beyond_max_mem_size:Int64 insufficient_privileges:Boolean",
  parameters: "specific_catalog specific_schema specific_name ordinal_position:Int64 parameter_mode " +
    "parameter_name data_type character_maximum_length:Int64 character_octet_length:Int64 " +
    "numeric_precision:Int64 numeric_scale:Int64 datetime_precision:Int64 character_set_name " +
    "collation_name dtd_identifier routine_type",
  profiling: "query_id:Int64 seq:Int64 state duration:Int64 cpu_user:Int64 cpu_system:Int64 " +
    "context_voluntary:Int64 context_involuntary:Int64 block_ops_in:Int64 block_ops_out:Int64 " +
    "messages_sent:Int64 messages_received:Int64 page_faults_major:Int64 page_faults_minor:Int64 " +
    "swaps:Int64 source_function source_file source_line:Int64",
  referential_constraints: "constraint_catalog constraint_schema constraint_name unique_constraint_catalog " +
    "unique_constraint_schema unique_constraint_name match_option update_rule delete_rule table_name " +
    "referenced_table_name",
  routines: "specific_name routine_catalog routine_schema routine_name routine_type data_type " +
    "character_maximum_length:Int64 character_octet_length:Int64 numeric_precision:Int64 " +
    "numeric_scale:Int64 datetime_precision:Int64 character_set_name collation_name dtd_identifier " +
    "routine_body routine_definition external_name external_language parameter_style is_deterministic " +
    `sql_data_access sql_path security_type created:${T} last_altered:${T} sql_mode routine_comment ` +
    "definer character_set_client collation_connection database_collation",
  schema_privileges: "grantee table_catalog table_schema privilege_type is_grantable",
  session_status: "variable_name variable_value",
  table_privileges: "grantee table_catalog table_schema table_name privilege_type is_grantable",
  triggers: "trigger_catalog trigger_schema trigger_name event_manipulation event_object_catalog " +
    "event_object_schema event_object_table action_order:Int64 action_condition action_statement " +
    "action_orientation action_timing action_reference_old_table action_reference_new_table " +
    `action_reference_old_row action_reference_new_row created:${T} sql_mode definer ` +
    "character_set_client collation_connection database_collation",
  user_privileges: "grantee table_catalog privilege_type is_grantable",
};

const EMPTY = [
  "check_constraints",
  "column_privileges",
  "column_statistics",
  "events",
  "files",
  "global_status",
  "optimizer_trace",
  "parameters",
  "profiling",
  "referential_constraints",
  "routines",
  "schema_privileges",
  "session_status",
  "table_privileges",
  "triggers",
  "user_privileges",
];

const CREATE_M = "CREATE TABLE m (host STRING, dc STRING INVERTED INDEX, msg STRING FULLTEXT INDEX, " +
  "trace_id STRING SKIPPING INDEX, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host, dc))";

const INDEX_SCHEMA = cols(
  "Table Non_unique:Int64 Key_name Seq_in_index:UInt32 Column_name Collation Cardinality:Null " +
    "Sub_part:Null Packed:Null Null Index_type Comment Index_comment Visible Expression:Null",
);

/** A SHOW INDEX row: table m, then key name, position, column, Null and index type. */
function indexRow(key: string, seq: number, column: string, nullable: string, type: string): unknown[] {
  return ["m", 1, key, seq, column, "A", null, null, null, nullable, type, "", "", "YES", null];
}

const M_INDEX = [
  indexRow("FULLTEXT INDEX", 3, "msg", "YES", "greptime-fulltext-index-bloom"),
  indexRow("PRIMARY", 1, "host", "YES", "greptime-primary-key-v1"),
  indexRow("PRIMARY, INVERTED INDEX", 2, "dc", "YES", "greptime-primary-key-v1, greptime-inverted-index-v1"),
  indexRow("SKIPPING INDEX", 4, "trace_id", "YES", "greptime-bloom-filter-v1"),
  indexRow("TIME INDEX", 1, "ts", "NO", ""),
];

const STATUS_SCHEMA = cols(
  "Name Engine Version:UInt64 Row_format Rows:UInt64 Avg_row_length:UInt64 Data_length:UInt64 " +
    "Max_data_length:UInt64 Index_length:UInt64 Data_free:UInt64 Auto_increment:UInt64 Create_time " +
    "Update_time Check_time Collation Checksum:UInt64 Create_options Comment",
);

const CASES: SqlCase[] = [
  ...Object.entries(SCHEMAS).map(([table, spec]): SqlCase => ({
    name: `columns of ${table}`,
    sql: `SELECT * FROM information_schema.${table} LIMIT 0`,
    schema: cols(spec),
    rows: [],
  })),
  ...EMPTY.map((table): SqlCase => ({
    name: `${table} is empty`,
    sql: `SELECT count(*) AS n FROM information_schema.${table}`,
    rows: [[0]],
  })),
  {
    sql: "SELECT * FROM information_schema.key_column_usage WHERE table_name = 'm' ORDER BY column_name",
    rows: [
      [
        "def",
        "public",
        "PRIMARY, INVERTED INDEX",
        "def",
        "greptime",
        "public",
        "m",
        "dc",
        2,
        null,
        null,
        null,
        null,
        "greptime-primary-key-v1, greptime-inverted-index-v1",
      ],
      [
        "def",
        "public",
        "PRIMARY",
        "def",
        "greptime",
        "public",
        "m",
        "host",
        1,
        null,
        null,
        null,
        null,
        "greptime-primary-key-v1",
      ],
      [
        "def",
        "public",
        "FULLTEXT INDEX",
        "def",
        "greptime",
        "public",
        "m",
        "msg",
        3,
        null,
        null,
        null,
        null,
        "greptime-fulltext-index-bloom",
      ],
      [
        "def",
        "public",
        "SKIPPING INDEX",
        "def",
        "greptime",
        "public",
        "m",
        "trace_id",
        4,
        null,
        null,
        null,
        null,
        "greptime-bloom-filter-v1",
      ],
      ["def", "public", "TIME INDEX", "def", "greptime", "public", "m", "ts", 1, null, null, null, null, ""],
    ],
  },
  {
    sql: "SELECT constraint_name, constraint_type, enforced FROM information_schema.table_constraints " +
      "WHERE table_schema = 'public' AND table_name = 'm' ORDER BY constraint_name",
    rows: [["PRIMARY", "PRIMARY KEY", "YES"], ["TIME INDEX", "TIME INDEX", "YES"]],
  },
  {
    name: "a table without tags has only its time index constraint",
    sql: "SELECT constraint_name FROM information_schema.table_constraints WHERE table_name = 'plain'",
    rows: [["TIME INDEX"]],
  },
  {
    name: "partitions: one p0 per table, id = region id = table_id << 32",
    sql: "SELECT p.partition_name, p.partition_ordinal_position, p.partition_expression, " +
      "p.greptime_partition_id = t.table_id * 4294967296 FROM information_schema.partitions p " +
      "JOIN information_schema.tables t ON p.table_schema = t.table_schema AND p.table_name = t.table_name " +
      "WHERE p.table_name = 'm'",
    rows: [["p0", 1, null, true]],
  },
  {
    name: "region_statistics: one region per table, its rows counted",
    sql: "SELECT s.region_number, s.region_rows, s.disk_size > 0, s.disk_size = s.sst_size + s.index_size, " +
      "s.memtable_size, s.engine, s.region_role, s.region_id = t.table_id * 4294967296 " +
      "FROM information_schema.region_statistics s JOIN information_schema.tables t ON s.table_id = t.table_id " +
      "WHERE t.table_name = 'm'",
    rows: [[0, 3, true, true, 0, "mito", "Leader", true]],
  },
  {
    name: "tables.table_rows is the region's rows, as GreptimeDB sums its region statistics",
    sql: "SELECT t.table_name, t.table_rows, t.table_rows = s.region_rows, " +
      "t.avg_row_length = t.data_length / t.table_rows FROM information_schema.tables t " +
      "JOIN information_schema.region_statistics s ON s.table_id = t.table_id " +
      "WHERE t.table_name IN ('m', 'greptime_physical_table') ORDER BY 1",
    rows: [["greptime_physical_table", 4, true, true], ["m", 3, true, true]],
  },
  {
    sql: "SELECT table_name, table_rows, avg_row_length FROM information_schema.tables " +
      "WHERE table_name IN ('up', 'plain') ORDER BY 1",
    rows: [["plain", 0, 0], ["up", 0, 0]],
  },
  {
    name: "a logical metric table lives in its physical table's region",
    sql: "SELECT p.table_name, p.region_id = s.region_id, s.engine, s.region_rows " +
      "FROM information_schema.region_peers p JOIN information_schema.region_statistics s " +
      "ON p.region_id = s.region_id WHERE p.table_name IN ('up', 'greptime_physical_table') " +
      "ORDER BY p.table_name",
    rows: [["greptime_physical_table", true, "metric", 4], ["up", true, "metric", 4]],
  },
  {
    sql: "SELECT table_name FROM information_schema.region_statistics s JOIN information_schema.tables t " +
      "ON s.table_id = t.table_id WHERE t.table_schema = 'public' ORDER BY 1",
    rows: [["greptime_physical_table"], ["m"], ["plain"]],
  },
  {
    sql: "SELECT * FROM information_schema.engines ORDER BY engine DESC",
    rows: [
      ["mito", "DEFAULT", "Storage engine for time-series data", "NO", "NO", "NO"],
      [
        "metric",
        "YES",
        "Storage engine for observability scenarios, which is adept at handling a large number of small tables, making it particularly suitable for cloud-native monitoring",
        "NO",
        "NO",
        "NO",
      ],
    ],
  },
  {
    sql: "SELECT * FROM information_schema.character_sets",
    rows: [["utf8", "utf8_bin", "UTF-8 Unicode", 4]],
  },
  { sql: "SELECT * FROM information_schema.collations", rows: [["utf8_bin", "utf8", 1, "Yes", "Yes", 1]] },
  {
    sql: "SELECT * FROM information_schema.collation_character_set_applicability",
    rows: [["utf8_bin", "utf8"]],
  },
  {
    name: "the process list shows the query that reads it",
    sql: "SELECT catalog, schemas, query, client FROM information_schema.process_list",
    rows: [[
      "greptime",
      "public",
      "SELECT catalog, schemas, query, client FROM information_schema.process_list",
      "http",
    ]],
  },
  { sql: "SHOW INDEX FROM m", schema: INDEX_SCHEMA, rows: M_INDEX },
  { sql: "SHOW INDEXES IN m FROM public", rows: M_INDEX },
  { sql: "SHOW KEYS FROM public.m WHERE Key_name = 'TIME INDEX'", rows: [M_INDEX[4]] },
  { name: "SHOW INDEX … LIKE matches column names", sql: "SHOW INDEX FROM m LIKE 'd%'", rows: [M_INDEX[2]] },
  {
    sql: "SHOW INDEX FROM up",
    rows: [
      ["up", 1, "TIME INDEX", 1, "greptime_timestamp", "A", null, null, null, "NO", "", "", "", "YES", null],
      [
        "up",
        1,
        "PRIMARY",
        3,
        "job",
        "A",
        null,
        null,
        null,
        "YES",
        "greptime-primary-key-v1",
        "",
        "",
        "YES",
        null,
      ],
    ].sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
  },
  { sql: "SHOW INDEX FROM nope", error: { status: 400, code: 4001, message: "nope" } },
  { sql: "SHOW INDEX m", error: { status: 400, code: 2000, message: "Expected: FROM or IN" } },
  {
    name: "a SHOW's WHERE cannot close the query it filters",
    sql: "SHOW TABLE STATUS WHERE Name = 'm') UNION SELECT 1",
    // the `)` is left after a whole statement, as GreptimeDB's parser loop says
    error: { status: 400, code: 1001, message: "SQL statement is not supported, keyword: )" },
  },
  { sql: "SHOW TABLE STATUS LIKE 'm%'", schema: STATUS_SCHEMA },
  {
    name: "SHOW TABLE STATUS lists tables, views and numbers of the database, by name",
    sql: "SELECT table_name, engine FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    rows: [["greptime_physical_table", "metric"], ["m", "mito"], ["numbers", "test_engine"], [
      "plain",
      "mito",
    ], [
      "up",
      "metric",
    ]],
  },
  { sql: "SHOW TABLE STATUS FROM nodb", error: { status: 400, code: 4004 } },
  {
    sql: "SHOW PROCESSLIST",
    schema: [["Id", "String"], ["Catalog", "String"], ["Query", "String"], ["Elapsed Time", "Int64"]],
  },
  {
    sql: "SHOW FULL PROCESSLIST",
    schema: [
      ["Id", "String"],
      ["Catalog", "String"],
      ["Schema", "String"],
      ["Client", "String"],
      ["Frontend", "String"],
      ["Start Time", "TimestampMillisecond"],
      ["Elapsed Time", "Int64"],
      ["Query", "String"],
    ],
  },
];

Deno.test("information_schema: GreptimeDB's other tables and the SHOW statements built on them", async (t) => {
  const server = await startTestServer();
  try {
    await sqlOk(server.url, CREATE_M);
    await sqlOk(
      server.url,
      "INSERT INTO m VALUES ('a', 'x', 'hi', 't1', 1, 1000), ('a', 'y', 'yo', 't2', 2, 2000), " +
        "('b', 'x', 'ho', 't3', 3, 3000)",
    );
    await sqlOk(server.url, "CREATE TABLE plain (v DOUBLE, ts TIMESTAMP TIME INDEX)");
    const w = await fetch(`${server.url}/v1/prometheus/write`, {
      method: "POST",
      body: encodeRemoteWriteV1([{
        labels: { __name__: "up", job: "node" },
        samples: [1, 2, 3, 4].map((k) => ({ timestampMs: Date.now() - k * 1000, value: k })),
      }]),
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    });
    assert.equal(w.status, 204);
    await runCases(t, server.url, CASES);

    await t.step("SHOW TABLE STATUS: one row per table, as information_schema.tables has it", async () => {
      const status = await sqlRows(server.url, "SHOW TABLE STATUS FROM public");
      assert.deepEqual(status.map((r) => [r[0], r[1]]), [
        ["greptime_physical_table", "metric"],
        ["m", "mito"],
        ["numbers", "test_engine"],
        ["plain", "mito"],
        ["up", "metric"],
      ]);
      const m = status.find((r) => r[0] === "m")!;
      assert.ok(Number(m[6]) > 0, "Data_length is measured");
      assert.equal(m[4], 3, "Rows");
      assert.equal(m[5], Math.floor(Number(m[6]) / 3), "Avg_row_length");
      assert.equal(m[14], "utf8_bin");
      assert.deepEqual(
        (await sqlRows(server.url, "SHOW TABLE STATUS WHERE Engine = 'metric'")).map((r) => r[0]),
        [
          "greptime_physical_table",
          "up",
        ],
      );
    });

    await t.step("SHOW TABLES FROM information_schema lists every table", async () => {
      const names = (await sqlRows(server.url, "SHOW TABLES FROM information_schema")).map((r) => r[0]);
      const expected = [...Object.keys(SCHEMAS), "columns", "flows", "schemata", "tables", "views"].sort();
      assert.deepEqual(names, expected);
      const listed = await sqlRows(
        server.url,
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'information_schema'",
      );
      assert.deepEqual(listed, [[expected.length]]);
    });

    await t.step("build_info, cluster_info and region_peers speak of this server", async () => {
      const status = await (await fetch(`${server.url}/status`)).json();
      const [build] = await sqlRows(server.url, "SELECT * FROM information_schema.build_info");
      assert.deepEqual([build[0], build[1], build[4]], [status.branch, status.commit, status.version]);
      assert.ok(String(status.commit).startsWith(String(build[2])));
      assert.ok(["true", "false", "unknown"].includes(String(build[3])));
      const addr = `127.0.0.1:${server.server.port}`;
      const cluster = await sqlRows(server.url, "SELECT * FROM information_schema.cluster_info");
      assert.equal(cluster.length, 1);
      const [peerId, type, peerAddr, version, commit, start, uptime, active] = cluster[0];
      assert.deepEqual([peerId, type, peerAddr, version, active], [
        0,
        "STANDALONE",
        addr,
        status.version,
        null,
      ]);
      assert.ok(String(status.commit).startsWith(String(commit)));
      assert.ok(Number(start) <= Date.now() && Number(start) > Date.now() - 60_000, `start_time ${start}`);
      assert.match(String(uptime), /^(\d+[hms] ?)+$/);
      const peers = await sqlRows(
        server.url,
        "SELECT DISTINCT peer_id, peer_addr, is_leader, status FROM information_schema.region_peers",
      );
      assert.deepEqual(peers, [[0, addr, "Yes", "ALIVE"]]);
    });

    await t.step("runtime_metrics holds the server's own metrics", async () => {
      const rows = await sqlRows(
        server.url,
        "SELECT value, labels, peer_addr, peer_type FROM information_schema.runtime_metrics " +
          "WHERE metric_name = 'greptime_servers_http_requests_total' AND labels LIKE '%path=/v1/sql%' " +
          "AND labels LIKE '%code=200%'",
      );
      assert.equal(rows.length, 1, JSON.stringify(rows));
      assert.ok(Number(rows[0][0]) >= 10, "the sql requests above were counted");
      assert.deepEqual(rows[0].slice(2), [null, "STANDALONE"]);
    });
  } finally {
    await server.stop();
  }
});
