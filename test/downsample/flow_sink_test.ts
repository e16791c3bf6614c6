/**
 * `CREATE FLOW` makes its sink table at once, as GreptimeDB does: listed, described and readable
 * (empty) before the first window is computed, with the schema that window's write then fills; in
 * another database too; kept across a restart and after `DROP FLOW`. A sink that cannot be made
 * leaves no flow, and `IF NOT EXISTS` on an existing flow makes nothing.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { lineWrite, sql, sqlError } from "../retention/http_helpers.ts";

const HOUR = 3_600_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;

const flow = (name: string, sink: string) =>
  `CREATE FLOW ${name} SINK TO ${sink} AS SELECT host, avg(usage) AS avg_usage, count(usage) AS n, ` +
  `date_bin(INTERVAL '1 minute', greptime_timestamp) AS w FROM cpu GROUP BY host, w`;

const tables = async (url: string, db = "public") => (await sql(url, "SHOW TABLES", db)).map((r) => r[0]);

Deno.test("flow sink: made by CREATE FLOW with the schema its first window fills, kept across a restart", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  try {
    await lineWrite(server.url, [`cpu,host=a usage=1 ${BASE}`, `cpu,host=b usage=3 ${BASE + 1000}`]);
    await sql(server.url, flow("cpu_1m", "cpu_usage_1m"));
    assert.ok((await tables(server.url)).includes("cpu_usage_1m"), "listed right after CREATE FLOW");
    assert.deepEqual(await sql(server.url, "SELECT * FROM cpu_usage_1m"), [], "readable, empty");
    const before = await sql(server.url, "DESC TABLE cpu_usage_1m");
    assert.deepEqual(before.map((r) => [r[0], r[1], r[5]]), [
      ["host", "String", "TAG"],
      ["avg_usage", "Float64", "FIELD"],
      ["n", "Int64", "FIELD"],
      ["update_at", "TimestampMillisecond", "FIELD"],
      ["w", "TimestampMillisecond", "TIMESTAMP"],
    ]);
    const createBefore = await sql(server.url, "SHOW CREATE TABLE cpu_usage_1m");

    assert.equal(Number((await sql(server.url, "ADMIN FLUSH_FLOW('cpu_1m')"))[0][0]), 1);
    assert.equal((await sql(server.url, "SELECT count(*) FROM cpu_usage_1m"))[0][0], 2);
    assert.deepEqual(await sql(server.url, "DESC TABLE cpu_usage_1m"), before, "the write changed no column");
    assert.deepEqual(await sql(server.url, "SHOW CREATE TABLE cpu_usage_1m"), createBefore);

    // a flow whose first window is not computed yet still has its sink after a restart
    await sql(server.url, flow("cpu_1m_b", "cpu_usage_1m_b"));
    await server.stop();
    server = await startTestServer({ storage: { data_home: dataHome } });
    assert.ok((await tables(server.url)).includes("cpu_usage_1m_b"));
    assert.deepEqual(await sql(server.url, "DESC TABLE cpu_usage_1m_b"), before);
    assert.deepEqual(await sql(server.url, "SELECT * FROM cpu_usage_1m_b"), []);

    await sql(server.url, "DROP FLOW cpu_1m_b");
    assert.ok((await tables(server.url)).includes("cpu_usage_1m_b"), "DROP FLOW leaves the sink");
  } finally {
    await server.stop();
  }
});

Deno.test("flow sink: in another database; a missing database stores no flow; IF NOT EXISTS makes nothing", async () => {
  const server = await startTestServer();
  try {
    await lineWrite(server.url, [`cpu,host=a usage=1 ${BASE}`]);
    await sql(server.url, "CREATE DATABASE rollups");
    await sql(server.url, flow("to_rollups", "rollups.cpu_1m"));
    assert.deepEqual(await tables(server.url, "rollups"), ["cpu_1m"]);
    assert.ok(!(await tables(server.url)).includes("cpu_1m"), "not in the flow's own database");
    assert.deepEqual(await sql(server.url, "SELECT * FROM cpu_1m", "rollups"), []);
    assert.equal(Number((await sql(server.url, "ADMIN FLUSH_FLOW('to_rollups')"))[0][0]), 1);
    assert.deepEqual(await sql(server.url, "SELECT host, avg_usage, n FROM cpu_1m", "rollups"), [[
      "a",
      1,
      1,
    ]]);

    const missing = await sqlError(server.url, flow("nowhere", "nodb.cpu_1m"));
    assert.equal(missing.status, 400);
    assert.match(missing.error, /nodb/);
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), [["to_rollups"]], "the refused flow is not stored");

    await sql(server.url, flow("IF NOT EXISTS to_rollups", "other_sink"));
    assert.ok(!(await tables(server.url)).includes("other_sink"), "an existing flow makes no sink");
  } finally {
    await server.stop();
  }
});
