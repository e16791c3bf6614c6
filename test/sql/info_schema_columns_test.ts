/**
 * information_schema.columns over a real server lists information_schema's own tables' columns too
 * (as GreptimeDB, for SQL tools' autocompletion), with the names and types those tables return,
 * beside the user tables' columns, which still change with the catalog.
 */
import assert from "node:assert/strict";
import { withTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";

const OWN = "SELECT column_name, ordinal_position, greptime_data_type, data_type, semantic_type, " +
  "column_key, is_nullable FROM information_schema.columns WHERE table_schema = 'information_schema'";

Deno.test("information_schema.columns lists the columns of information_schema.tables in order", async () => {
  await withTestServer(async (url) => {
    const rows = await sqlRows(url, `${OWN} AND table_name = 'tables' ORDER BY ordinal_position`);
    const names = rows.map((r) => r[0]);
    assert.deepEqual(names.slice(0, 4), ["table_catalog", "table_schema", "table_name", "table_type"]);
    const at = (name: string) => rows.find((r) => r[0] === name)!;
    assert.deepEqual(at("table_schema"), ["table_schema", 2, "String", "string", "FIELD", "", "Yes"]);
    assert.deepEqual(at("table_name").slice(0, 2), ["table_name", 3]);
    assert.deepEqual(at("table_rows"), ["table_rows", 14, "UInt64", "bigint unsigned", "FIELD", "", "Yes"]);
    assert.deepEqual(rows.map((r) => r[1]), rows.map((_, i) => i + 1));
  });
});

Deno.test("information_schema.columns: every information_schema table, as its SELECT * returns it", async () => {
  await withTestServer(async (url) => {
    const tables = (await sqlRows(url, "SHOW TABLES FROM information_schema")).map((r) => String(r[0]));
    const listed = await sqlRows(
      url,
      "SELECT count(DISTINCT table_name) FROM information_schema.columns WHERE table_schema = 'information_schema'",
    );
    assert.deepEqual(listed, [[tables.length]]);
    assert.ok(tables.length > 20, tables.join(", "));
    for (const table of tables) {
      const [out] = await sqlOk(url, `SELECT * FROM information_schema.${table} LIMIT 0`);
      assert.ok("records" in out);
      const returned = out.records.schema.column_schemas.map((c) => [c.name, c.data_type]);
      const listedColumns = await sqlRows(
        url,
        `SELECT column_name, greptime_data_type FROM information_schema.columns
          WHERE table_schema = 'information_schema' AND table_name = '${table}' ORDER BY ordinal_position`,
      );
      assert.deepEqual(listedColumns, returned, table);
    }
  });
});

Deno.test("information_schema.columns: user tables' rows follow the catalog; its own rows stay once", async () => {
  await withTestServer(async (url) => {
    const own = async () => (await sqlRows(url, `${OWN} ORDER BY table_name, ordinal_position`)).length;
    const before = await own();
    assert.ok(before > 100, `${before} rows of information_schema's own columns`);
    const publicRows = "SELECT table_name, column_name, semantic_type FROM information_schema.columns " +
      "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position";
    assert.deepEqual(await sqlRows(url, publicRows), []);
    await sqlOk(url, "CREATE TABLE cpu (host STRING PRIMARY KEY, usage DOUBLE, ts TIMESTAMP TIME INDEX)");
    assert.deepEqual(await sqlRows(url, publicRows), [
      ["cpu", "host", "TAG"],
      ["cpu", "usage", "FIELD"],
      ["cpu", "ts", "TIMESTAMP"],
    ]);
    await sqlOk(url, "DROP TABLE cpu; CREATE TABLE mem (v DOUBLE, ts TIMESTAMP TIME INDEX)");
    assert.deepEqual(await sqlRows(url, publicRows), [["mem", "v", "FIELD"], ["mem", "ts", "TIMESTAMP"]]);
    assert.equal(await own(), before);
    const [[all]] = await sqlRows(url, "SELECT count(*) FROM information_schema.columns");
    assert.equal(all, before + 2);
  });
});
