/**
 * Statements as GreptimeDB's SQL reference writes them (docs.greptime.com, "SQL"), pasted over HTTP:
 * INSERT with DEFAULT and INTO TABLE, SHOW [FULL] COLUMNS, SHOW FULL DATABASES, CREATE TABLE … LIKE,
 * ADD COLUMN … FIRST/AFTER, INTERVAL '1' HOUR, date_part of a Date, approx_distinct's type, IS DISTINCT
 * FROM's name, DESC of information_schema tables and information_schema.procedure_info.
 */
import assert from "node:assert/strict";
import { withTestServer } from "../helpers/server.ts";
import {
  type Output,
  SHOW_COLUMNS_SCHEMA,
  sqlOk,
  sqlRecords,
  sqlRequest,
} from "../http/fixtures/sql_client.ts";

const MONITOR = "CREATE TABLE monitor (host STRING, ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP() TIME INDEX, " +
  "cpu FLOAT64 DEFAULT 0, memory FLOAT64, PRIMARY KEY(host))";

const records = (url: string, sql: string) => sqlRecords(url, sql);

Deno.test("INSERT … VALUES takes DEFAULT for a column's default (NULL without one)", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, MONITOR);
    const before = Date.now();
    await sqlOk(
      url,
      "INSERT INTO monitor VALUES ('a', DEFAULT, DEFAULT, DEFAULT), ('b', 1000, 0.5, default)",
    );
    await sqlOk(url, "INSERT INTO monitor (host, cpu, ts) VALUES ('c', DEFAULT, 2000)");
    const { rows } = await records(url, "SELECT host, ts, cpu, memory FROM monitor ORDER BY host");
    assert.equal(rows.length, 3);
    assert.ok(Number(rows[0][1]) >= before - 1000, `ts of 'a' is now: ${rows[0][1]}`);
    assert.deepEqual(rows[0].slice(2), [0, null]);
    assert.deepEqual(rows.slice(1), [["b", 1000, 0.5, null], ["c", 2000, 0, null]]);
  });
});

Deno.test("SHOW [FULL] COLUMNS answers GreptimeDB's columns from information_schema, by column name", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, MONITOR);
    assert.deepEqual(await records(url, "SHOW COLUMNS FROM monitor"), {
      schema: SHOW_COLUMNS_SCHEMA,
      rows: [
        ["cpu", "double", "Yes", "", "0", "", "Float64"],
        ["host", "string", "Yes", "PRI", null, "", "String"],
        ["memory", "double", "Yes", "", null, "", "Float64"],
        ["ts", "timestamp(3)", "No", "TIME INDEX", "current_timestamp()", "", "TimestampMillisecond"],
      ],
    });
    const full = await records(url, "SHOW FULL COLUMNS IN monitor FROM public LIKE 'h%'");
    assert.deepEqual(full.schema.map((c) => c[0]), [
      "Field",
      "Type",
      "Collation",
      "Null",
      "Key",
      "Default",
      "Comment",
      "Privileges",
      "Extra",
      "Greptime_type",
    ]);
    assert.deepEqual(full.rows, [
      ["host", "string", "utf8_bin", "Yes", "PRI", null, "", "select,insert", "", "String"],
    ]);
    assert.deepEqual((await records(url, "SHOW COLUMNS FROM monitor WHERE Field = 'cpu'")).rows, [
      ["cpu", "double", "Yes", "", "0", "", "Float64"],
    ]);
  });
});

Deno.test("CREATE TABLE [IF NOT EXISTS] t LIKE source copies its columns, keys and options", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${MONITOR} WITH (ttl = '7d'); CREATE DATABASE other`);
    assert.deepEqual(await sqlOk(url, "CREATE TABLE IF NOT EXISTS other.monitor_copy LIKE public.monitor"), [
      { affectedrows: 0 },
    ]);
    const shown = await records(url, "SHOW CREATE TABLE other.monitor_copy");
    const original = await records(url, "SHOW CREATE TABLE monitor");
    assert.equal(shown.rows[0][1], String(original.rows[0][1]).replace('"monitor"', '"monitor_copy"'));
    // the copy is empty and takes writes of its own
    assert.deepEqual((await records(url, "SELECT count(*) FROM other.monitor_copy")).rows, [[0]]);
    await sqlOk(url, "INSERT INTO other.monitor_copy (host) VALUES ('a')");
    assert.deepEqual((await records(url, "SELECT host, cpu FROM other.monitor_copy")).rows, [["a", 0]]);
    // IF NOT EXISTS finds it; without, it already exists; a missing source is 4001
    assert.deepEqual(await sqlOk(url, "CREATE TABLE IF NOT EXISTS other.monitor_copy LIKE monitor"), [
      { affectedrows: 0 },
    ]);
    const again = await sqlRequest(url, "CREATE TABLE other.monitor_copy LIKE monitor");
    assert.equal(JSON.parse(again.text).code, 4000);
    const missing = await sqlRequest(url, "CREATE TABLE t2 LIKE nope");
    assert.equal(JSON.parse(missing.text).code, 4001);
  });
});

Deno.test("ALTER TABLE … ADD COLUMN … FIRST | AFTER c places the column, for reads and for writes", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${MONITOR}; INSERT INTO monitor VALUES ('a', 1000, 0.5, 0.2)`);
    await sqlOk(
      url,
      "ALTER TABLE monitor ADD COLUMN load_15 double DEFAULT 0.0 COMMENT 'comment' AFTER memory",
    );
    await sqlOk(url, "ALTER TABLE monitor ADD COLUMN app STRING FIRST, ADD COLUMN load_5 double AFTER cpu");
    const desc = await records(url, "DESC TABLE monitor");
    assert.deepEqual(desc.rows.map((r) => r[0]), ["app", "host", "ts", "cpu", "load_5", "memory", "load_15"]);
    // a VALUES list without column names follows the new order
    await sqlOk(url, "INSERT INTO monitor VALUES ('shop', 'b', 2000, 0.1, 5, 0.3, 15)");
    assert.deepEqual(await records(url, "SELECT * FROM monitor ORDER BY ts"), {
      schema: [
        ["app", "String"],
        ["host", "String"],
        ["ts", "TimestampMillisecond"],
        ["cpu", "Float64"],
        ["load_5", "Float64"],
        ["memory", "Float64"],
        ["load_15", "Float64"],
      ],
      rows: [[null, "a", 1000, 0.5, null, 0.2, 0], ["shop", "b", 2000, 0.1, 5, 0.3, 15]],
    });
    // an append-only table, with a tag placed
    await sqlOk(url, "CREATE TABLE logs (ts TIMESTAMP TIME INDEX, msg STRING) WITH (append_mode = 'true')");
    await sqlOk(url, "INSERT INTO logs VALUES (1000, 'x'), (1000, 'x')");
    await sqlOk(url, "ALTER TABLE logs ADD COLUMN host STRING PRIMARY KEY FIRST");
    await sqlOk(url, "INSERT INTO logs VALUES ('h', 2000, 'y')");
    assert.deepEqual((await records(url, "SELECT * FROM logs ORDER BY ts")).rows, [
      [null, 1000, "x"],
      [null, 1000, "x"],
      ["h", 2000, "y"],
    ]);
    // a default ends before the place
    await sqlOk(url, "ALTER TABLE logs ADD COLUMN region STRING DEFAULT 'eu' AFTER host");
    assert.deepEqual((await records(url, "SELECT host, region, msg FROM logs WHERE ts = 2000")).rows, [
      ["h", "eu", "y"],
    ]);
    assert.deepEqual((await records(url, "DESC logs")).rows.map((r) => r[0]), [
      "host",
      "region",
      "ts",
      "msg",
    ]);
    const bad = await sqlRequest(url, "ALTER TABLE monitor ADD COLUMN x double AFTER nope");
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.text).error, /nope/);
  });
});

Deno.test("INTERVAL '1' HOUR is an interval as INTERVAL '1 hour' is (its unit is no alias)", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${MONITOR}; INSERT INTO monitor VALUES ('a', 7200000, 0.5, 0.2)`);
    assert.deepEqual(await records(url, "SELECT INTERVAL '1' HOUR, INTERVAL '1 hour', '1h'::INTERVAL"), {
      schema: [
        ["INTERVAL '1' HOUR", "IntervalMonthDayNano"],
        ["INTERVAL '1 hour'", "IntervalMonthDayNano"],
        ["'1h'::INTERVAL", "IntervalMonthDayNano"],
      ],
      rows: [[3600000000000, 3600000000000, 3600000000000]],
    });
    assert.deepEqual(await records(url, "SELECT ts - INTERVAL '1' HOUR FROM monitor"), {
      schema: [["ts - INTERVAL '1' HOUR", "TimestampMillisecond"]],
      rows: [[3600000]],
    });
  });
});

Deno.test("date_part and EXTRACT read a Date by the calendar (not its days as a timestamp)", async () => {
  await withTestServer(async (url) => {
    await sqlOk(
      url,
      "CREATE TABLE d (ts TIMESTAMP TIME INDEX, day DATE); INSERT INTO d VALUES (0, '2024-03-05')",
    );
    const sql =
      "SELECT date_part('year', '2024-03-05'::DATE) AS y, extract(MONTH FROM DATE '2024-03-05') AS m, " +
      "date_part('day', day) AS dd, extract(year FROM d.day) AS yy, date_part('epoch', day) AS e FROM d";
    assert.deepEqual((await records(url, sql)).rows, [[2024, 3, 5, 2024, 1709596800]]);
    // a session time zone does not move a date (it has none)
    const [out] = await sqlOk(url, "SELECT date_part('day', day) FROM d", {
      headers: { "x-greptime-timezone": "-08:00" },
    });
    assert.deepEqual((out as Extract<Output, { records: unknown }>).records.rows, [[5]]);
  });
});

Deno.test("approx_distinct answers UInt64, as DataFusion's", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, `${MONITOR}; INSERT INTO monitor VALUES ('a', 1000, 0.5, 0.2), ('b', 1000, 0.5, 0.2)`);
    assert.deepEqual(await records(url, "SELECT approx_distinct(host) FROM monitor"), {
      schema: [["approx_distinct(monitor.host)", "UInt64"]],
      rows: [[2]],
    });
  });
});

Deno.test("SHOW FULL DATABASES adds each database's options", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, "CREATE DATABASE test WITH (ttl = '7d')");
    assert.deepEqual(await records(url, "SHOW FULL DATABASES"), {
      schema: [["Database", "String"], ["Options", "String"]],
      rows: [["greptime_private", ""], ["information_schema", ""], ["public", ""], ["test", "ttl='7days'"]],
    });
    assert.deepEqual((await records(url, "SHOW FULL SCHEMAS LIKE 't%'")).rows, [["test", "ttl='7days'"]]);
    assert.deepEqual((await records(url, "SHOW FULL DATABASES WHERE Options != ''")).rows, [[
      "test",
      "ttl='7days'",
    ]]);
  });
});

Deno.test("IS [NOT] DISTINCT FROM columns are named as DataFusion names them", async () => {
  await withTestServer(async (url) => {
    const out = await records(url, "SELECT 1 IS DISTINCT FROM 2, NULL IS NOT DISTINCT FROM NULL");
    assert.deepEqual(out, {
      schema: [["Int64(1) IS DISTINCT FROM Int64(2)", "Boolean"], [
        "NULL IS NOT DISTINCT FROM NULL",
        "Boolean",
      ]],
      rows: [[true, true]],
    });
  });
});

Deno.test("DESC and SHOW COLUMNS describe information_schema's tables", async () => {
  await withTestServer(async (url) => {
    const desc = await records(url, "DESC TABLE information_schema.schemata");
    assert.deepEqual(desc.schema.map((c) => c[0]), [
      "Column",
      "Type",
      "Key",
      "Null",
      "Default",
      "Semantic Type",
    ]);
    assert.deepEqual(desc.rows[0], ["catalog_name", "String", "", "YES", "", "FIELD"]);
    assert.deepEqual(desc.rows.map((r) => r[0]), [
      "catalog_name",
      "schema_name",
      "default_character_set_name",
      "default_collation_name",
      "sql_path",
      "options",
    ]);
    const cols = await records(url, "SHOW COLUMNS FROM schemata FROM information_schema LIKE 'schema%'");
    assert.deepEqual(cols.rows, [["schema_name", "string", "Yes", "", null, "", "String"]]);
    const missing = await sqlRequest(url, "DESC information_schema.nope");
    assert.equal(JSON.parse(missing.text).code, 4001);
  });
});

Deno.test("information_schema.procedure_info is there, empty (Petrel runs no procedures)", async () => {
  await withTestServer(async (url) => {
    assert.deepEqual(await records(url, "SELECT * FROM information_schema.procedure_info"), {
      schema: [
        ["procedure_id", "String"],
        ["procedure_type", "String"],
        ["start_time", "TimestampMillisecond"],
        ["end_time", "TimestampMillisecond"],
        ["status", "String"],
        ["lock_keys", "String"],
      ],
      rows: [],
    });
  });
});

Deno.test("INSERT INTO TABLE t VALUES … (the range query page's spelling) writes into t", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, "CREATE TABLE host (ts timestamp(3) time index, host STRING PRIMARY KEY, val BIGINT,)");
    assert.deepEqual(
      await sqlOk(url, "INSERT INTO TABLE host VALUES (0, 'host1', 0), (5000, 'host1', null)"),
      [
        { affectedrows: 2 },
      ],
    );
    assert.deepEqual(
      await sqlOk(url, "INSERT INTO TABLE host (ts, host, val) SELECT ts + 1, host, val FROM host"),
      [
        { affectedrows: 2 },
      ],
    );
    assert.deepEqual((await records(url, "SELECT count(*) FROM host")).rows, [[4]]);
  });
});

Deno.test('INSERT … VALUES ("host1", …) reads double-quoted values as strings (the INSERT page writes them)', async () => {
  await withTestServer(async (url) => {
    await sqlOk(
      url,
      "CREATE TABLE system_metrics (host STRING, idc STRING, cpu_util DOUBLE, memory_util DOUBLE, " +
        "disk_util DOUBLE, ts TIMESTAMP DEFAULT CURRENT_TIMESTAMP(), PRIMARY KEY(host, idc), TIME INDEX(ts))",
    );
    assert.deepEqual(
      await sqlOk(
        url,
        'INSERT INTO system_metrics VALUES ("host1", "idc_a", 11.8, 10.3, 10.3, 1667446797450), ' +
          '("host2", "idc_a", 80.1, 70.3, 90.0, 1667446797450), ("host1", "idc_b", 50.0, 66.7, 40.6, 1667446797450)',
      ),
      [{ affectedrows: 3 }],
    );
    assert.deepEqual((await records(url, "SELECT host, idc FROM system_metrics ORDER BY host, idc")).rows, [
      ["host1", "idc_a"],
      ["host1", "idc_b"],
      ["host2", "idc_a"],
    ]);
    // elsewhere "x" stays a column name, as in GreptimeDB
    const bad = await sqlRequest(url, 'SELECT * FROM system_metrics WHERE host = "host1"');
    assert.equal(bad.status, 400);
  });
});

Deno.test("CREATE TABLE takes mito's tuning options (partition-tree memtable, inverted index, remote compaction)", async () => {
  await withTestServer(async (url) => {
    await sqlOk(
      url,
      "CREATE TABLE tuned (host STRING, ts TIMESTAMP TIME INDEX, v DOUBLE, PRIMARY KEY(host)) WITH (" +
        "'memtable.type' = 'partition_tree', 'memtable.partition_tree.index_max_keys_per_shard' = '8192', " +
        "'memtable.partition_tree.data_freeze_threshold' = '32768', " +
        "'memtable.partition_tree.fork_dictionary_bytes' = '1GiB', 'index.inverted_index.ignore_column_ids' = '', " +
        "'index.inverted_index.segment_row_count' = '1024', 'compaction.twcs.remote_compaction' = 'false')",
    );
    const { rows } = await records(url, "SHOW CREATE TABLE tuned");
    assert.match(
      String(rows[0][1]),
      /'memtable\.partition_tree\.index_max_keys_per_shard' = '8192'|memtable\.partition_tree\.index_max_keys_per_shard = '8192'/,
    );
    await sqlOk(url, "INSERT INTO tuned VALUES ('a', 1000, 1.5)");
    assert.deepEqual((await records(url, "SELECT host, v FROM tuned")).rows, [["a", 1.5]]);
  });
});

Deno.test("date_format formats a timestamp in the session time zone (x-greptime-timezone), a Date as it is", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, MONITOR);
    await sqlOk(url, "INSERT INTO monitor (host, ts, cpu) VALUES ('a', 1667446797450, 0.1)");
    const sql = "SELECT date_format(ts, '%Y-%m-%d %H:%M:%S:%3f') AS f, " +
      "date_format('2024-01-31'::date, '%Y-%m-%d') AS d FROM monitor";
    const rowsIn = async (tz?: string) => {
      const reply = await sqlRequest(url, sql, tz ? { headers: { "x-greptime-timezone": tz } } : {});
      assert.equal(reply.status, 200, reply.text);
      return JSON.parse(reply.text).output[0].records.rows;
    };
    assert.deepEqual(await rowsIn(), [["2022-11-03 03:39:57:450", "2024-01-31"]]);
    assert.deepEqual(await rowsIn("+08:00"), [["2022-11-03 11:39:57:450", "2024-01-31"]]);
    assert.deepEqual(await rowsIn("America/New_York"), [["2022-11-02 23:39:57:450", "2024-01-31"]]);
  });
});

Deno.test("SHOW CHARACTER SET, SHOW COLLATION and SHOW STATUS answer MySQL's columns (the SHOW page's statements)", async () => {
  await withTestServer(async (url) => {
    const charset = {
      schema: [["Charset", "String"], ["Description", "String"], ["Default collation", "String"], [
        "Maxlen",
        "Int64",
      ]],
      rows: [["utf8", "UTF-8 Unicode", "utf8_bin", 4]],
    };
    assert.deepEqual(await records(url, "SHOW CHARACTER SET"), charset);
    assert.deepEqual(await records(url, "SHOW CHARSET LIKE 'utf%'"), charset);
    assert.deepEqual((await records(url, "SHOW CHARSET WHERE Charset = 'latin1'")).rows, []);
    assert.deepEqual(await records(url, "SHOW COLLATION"), {
      schema: [["Collation", "String"], ["Charset", "String"], ["Id", "Int64"], ["Default", "String"], [
        "Compiled",
        "String",
      ], ["Sortlen", "Int64"]],
      rows: [["utf8_bin", "utf8", 1, "Yes", "Yes", 1]],
    });
    for (const sql of ["SHOW STATUS", "SHOW GLOBAL STATUS", "SHOW SESSION STATUS LIKE 'Up%'"]) {
      assert.deepEqual(await records(url, sql), {
        schema: [["Variable_name", "String"], ["Value", "String"]],
        rows: [],
      });
    }
  });
});

Deno.test("a timestamp cast to a string is its ISO text, as arrow casts it", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, MONITOR);
    await sqlOk(
      url,
      "INSERT INTO monitor (host, ts) VALUES ('a', 1667446797450), ('b', 1667446797000), ('c', -1)",
    );
    assert.deepEqual(
      await records(
        url,
        "SELECT ts::STRING AS s, CAST(ts AS VARCHAR) AS v, TRY_CAST(monitor.ts AS STRING) AS t FROM monitor ORDER BY host",
      ),
      {
        schema: [["s", "String"], ["v", "String"], ["t", "String"]],
        rows: [
          ["2022-11-03T03:39:57.450", "2022-11-03T03:39:57.450", "2022-11-03T03:39:57.450"],
          ["2022-11-03T03:39:57", "2022-11-03T03:39:57", "2022-11-03T03:39:57"],
          ["1969-12-31T23:59:59.999", "1969-12-31T23:59:59.999", "1969-12-31T23:59:59.999"],
        ],
      },
    );
    // a nanosecond time index keeps its nine digits; the count stays readable through BIGINT
    await sqlOk(url, "CREATE TABLE ns (ts TIMESTAMP(9) TIME INDEX)");
    await sqlOk(url, "INSERT INTO ns VALUES (1667446797000000001)");
    assert.deepEqual(
      (await records(url, "SELECT ts::STRING, CAST(CAST(ts AS BIGINT) AS STRING) FROM ns")).rows,
      [
        ["2022-11-03T03:39:57.000000001", "1667446797000000001"],
      ],
    );
  });
});

Deno.test("SHOW REGION FROM t lists the table's regions (Table, Region, Peer, Leader)", async () => {
  await withTestServer(async (url) => {
    await sqlOk(url, MONITOR);
    await sqlOk(url, "CREATE DATABASE other");
    await sqlOk(url, "CREATE TABLE other.monitor (ts TIMESTAMP TIME INDEX)");
    const peers = await records(
      url,
      "SELECT region_id FROM information_schema.region_peers WHERE table_schema = 'public' AND table_name = 'monitor'",
    );
    const expected = {
      schema: [["Table", "String"], ["Region", "UInt64"], ["Peer", "UInt64"], ["Leader", "String"]],
      rows: [["monitor", peers.rows[0][0], 0, "Yes"]],
    };
    assert.deepEqual(await records(url, "SHOW REGION FROM monitor"), expected);
    assert.deepEqual(await records(url, "SHOW REGION FROM monitor IN public WHERE Leader = 'Yes'"), expected);
    // `IN db` reads that database's table: a table it lacks is not found
    assert.equal((await records(url, "SHOW REGION FROM monitor IN other")).rows.length, 1);
    assert.match((await sqlRequest(url, "SHOW REGION FROM system_metrics IN other")).text, /"code":4001/);
    assert.match((await sqlRequest(url, "SHOW REGION FROM nope")).text, /"code":4001/);
  });
});
