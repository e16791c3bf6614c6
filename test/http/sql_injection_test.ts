/**
 * SQL injection attempts through `/v1/sql`: hostile table, column and database names and values must be
 * stored and queried as names/values, and SQLite-only statements must never reach SQLite. A `victim`
 * table is checked after every attempt.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { checkCase, runCases, type SqlCase, sqlRequest, sqlRows } from "./fixtures/sql_client.ts";

/** Hostile names, as stored, with how to quote them in SQL. */
const NAMES: { name: string; quoted: string }[] = [
  { name: `a"; DROP TABLE victim; --`, quoted: `"a""; DROP TABLE victim; --"` },
  { name: "x`; DELETE FROM victim; --", quoted: "`x``; DELETE FROM victim; --`" },
  { name: `it's "quoted"`, quoted: `"it's ""quoted"""` },
  { name: "with space", quoted: `"with space"` },
  { name: "semi;colon", quoted: `"semi;colon"` },
  { name: "数据表", quoted: `"数据表"` },
  { name: "emoji 🚀 ünï", quoted: `"emoji 🚀 ünï"` },
  { name: "victim) --", quoted: `"victim) --"` },
];

const T0 = 1704067200000;

function nameCases(name: string, quoted: string, i: number): SqlCase[] {
  // The column gets the same hostile name with a suffix, so both positions are exercised.
  const col = `${name} col`;
  const qcol = quoted.startsWith("`") ? `${quoted.slice(0, -1)} col\`` : `${quoted.slice(0, -1)} col"`;
  return [
    {
      name: `create ${name}`,
      sql: `CREATE TABLE ${quoted} (${qcol} STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(${qcol}))`,
      affected: [0],
    },
    {
      name: `insert into ${name}`,
      sql: `INSERT INTO ${quoted} (${qcol}, v, ts) VALUES ('x''); DROP TABLE victim; --', ${i}, ${T0})`,
      affected: [1],
    },
    {
      name: `select from ${name}`,
      sql: `SELECT ${qcol}, v FROM ${quoted} WHERE ${qcol} = 'x''); DROP TABLE victim; --'`,
      schema: [[col, "String"], ["v", "Float64"]],
      rows: [["x'); DROP TABLE victim; --", i]],
    },
    {
      name: `select * from ${name}`,
      sql: `SELECT * FROM ${quoted}`,
      schema: [[col, "String"], ["v", "Float64"], ["ts", "TimestampMillisecond"]],
      rows: [["x'); DROP TABLE victim; --", i, T0]],
    },
    {
      name: `desc ${name}`,
      sql: `DESC TABLE ${quoted}`,
      rows: [
        [col, "String", "PRI", "YES", "", "TAG"],
        ["v", "Float64", "", "YES", "", "FIELD"],
        ["ts", "TimestampMillisecond", "PRI", "NO", "", "TIMESTAMP"],
      ],
    },
    {
      name: `alter ${name}`,
      sql: `ALTER TABLE ${quoted} ADD COLUMN ${qcol.slice(0, -1)}2${qcol.slice(-1)} BIGINT`,
      affected: [0],
    },
    {
      name: `information_schema has ${name}`,
      sql: `SELECT table_name FROM information_schema.tables WHERE table_name = '${
        name.replaceAll("'", "''")
      }'`,
      rows: [[name]],
    },
  ];
}

const SQLITE_ONLY: SqlCase[] = [
  { sql: "ATTACH DATABASE '/tmp/petrel_evil.sqlite' AS evil", error: { code: 2000 } },
  { sql: "PRAGMA table_info(victim)", error: { code: 2000 } },
  { sql: "SELECT * FROM sqlite_schema", error: { code: 4001 } },
  { sql: "SELECT * FROM main.victim", error: { code: 4001 } },
  {
    name: "SQLite's own tables are not Petrel names",
    sql: `CREATE TABLE "sqlite_master" (v DOUBLE, ts TIMESTAMP TIME INDEX)`,
    error: { code: 1004, message: "sqlite_master" },
  },
  { sql: "VACUUM", error: { code: 2000 } },
  {
    sql: "SELECT file FROM pragma_database_list()",
    error: {},
  },
  {
    sql: "SELECT name FROM pragma_table_info('victim')",
    error: {},
  },
  {
    sql: "SELECT count(*) FROM pragma_function_list()",
    error: {},
  },
  { sql: "SELECT load_extension('/tmp/evil.so')", error: { code: 3000 } },
  {
    name: "a string value that closes the statement",
    sql: "INSERT INTO victim VALUES ('ok''); DROP TABLE victim; --', 2, 1)",
    affected: [1],
  },
  { sql: "SHOW TABLES LIKE '%''; DROP TABLE victim; --'", rows: [] },
  {
    name: "db param with a quote",
    sql: "SELECT 1",
    db: `public"; DROP TABLE victim; --`,
    error: { code: 4004 },
  },
  {
    name: "hostile database name",
    sql: `CREATE DATABASE "x""; DROP TABLE victim; --"`,
    error: { code: 1004 },
  },
];

Deno.test("/v1/sql injection attempts stay names and values", async (t) => {
  const server = await startTestServer();
  const victimIntact = async () => {
    assert.deepEqual(await sqlRows(server.url, "SELECT host, v FROM victim WHERE ts = 0"), [["safe", 1.0]]);
  };
  try {
    await checkCase(server.url, {
      sql: "CREATE TABLE victim (host STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host));" +
        "INSERT INTO victim VALUES ('safe', 1, 0)",
      affected: [0, 1],
    });
    for (const [i, { name, quoted }] of NAMES.entries()) {
      await t.step(name, async (t) => {
        await runCases(t, server.url, nameCases(name, quoted, i));
        await victimIntact();
      });
    }
    await t.step("SHOW TABLES lists every hostile name as it was written", async () => {
      const tables = (await sqlRows(server.url, "SHOW TABLES")).map((r) => r[0]);
      for (const { name } of NAMES) assert.ok(tables.includes(name), `${name} in ${JSON.stringify(tables)}`);
    });
    await t.step("SQLite-only statements and hostile values", async (t) => {
      await runCases(t, server.url, SQLITE_ONLY);
      await victimIntact();
      assert.equal(await Deno.stat("/tmp/petrel_evil.sqlite").then(() => true, () => false), false);
    });
    await t.step("every hostile table drops by name alone", async () => {
      for (const { quoted } of NAMES) {
        const reply = await sqlRequest(server.url, `DROP TABLE ${quoted}`);
        assert.equal(reply.status, 200, `${quoted}: ${reply.text}`);
      }
      assert.deepEqual((await sqlRows(server.url, "SHOW TABLES")).map((r) => r[0]), ["numbers", "victim"]);
      await victimIntact();
    });
  } finally {
    await server.stop();
  }
});
