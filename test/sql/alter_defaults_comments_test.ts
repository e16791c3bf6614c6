/**
 * `ALTER TABLE t MODIFY COLUMN c SET DEFAULT x | DROP DEFAULT` and `COMMENT ON TABLE|COLUMN|FLOW … IS …`:
 * what INSERT, SHOW CREATE TABLE, DESC and information_schema show afterwards, kept across a restart,
 * and the refusals.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

async function rows(url: string, sql: string): Promise<unknown[][]> {
  const r = await sqlRequest(url, sql);
  assert.equal(r.status, 200, `${sql}: ${r.text}`);
  return JSON.parse(r.text).output[0].records.rows;
}

async function ok(url: string, sql: string): Promise<void> {
  const r = await sqlRequest(url, sql);
  assert.equal(r.status, 200, `${sql}: ${r.text}`);
}

async function refused(url: string, sql: string, code: number, message: RegExp): Promise<void> {
  const r = await sqlRequest(url, sql);
  const body = JSON.parse(r.text);
  assert.ok(r.status >= 400 && r.status < 500, `${sql}: ${r.text}`);
  assert.equal(body.code, code, `${sql}: ${r.text}`);
  assert.match(body.error, message);
}

const showCreate = async (url: string) => (await rows(url, "SHOW CREATE TABLE cpu"))[0][1] as string;

Deno.test("column defaults change with ALTER TABLE MODIFY COLUMN … SET/DROP DEFAULT", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_alter_default_" });
  let server = await startTestServer({ storage: { data_home: dir } });
  try {
    await ok(
      server.url,
      "CREATE TABLE cpu (host STRING PRIMARY KEY, usage DOUBLE, n INT, ts TIMESTAMP TIME INDEX)",
    );
    await ok(server.url, "INSERT INTO cpu VALUES ('a', 0.5, 1, 1000)");
    await ok(server.url, "ALTER TABLE cpu MODIFY COLUMN usage SET DEFAULT 0.25");
    // several at once, as GreptimeDB's parser takes them
    await ok(server.url, "ALTER TABLE cpu MODIFY COLUMN n SET DEFAULT 7, MODIFY COLUMN host SET DEFAULT 'h'");
    await ok(server.url, "INSERT INTO cpu (ts) VALUES (2000)");
    assert.deepEqual(await rows(server.url, "SELECT host, usage, n, ts FROM cpu ORDER BY ts"), [
      ["a", 0.5, 1, 1000],
      ["h", 0.25, 7, 2000],
    ]);
    let text = await showCreate(server.url);
    assert.match(text, /"usage" DOUBLE NULL DEFAULT 0.25,/);
    assert.match(text, /"n" INT NULL DEFAULT 7,/);
    await ok(server.url, "ALTER TABLE cpu MODIFY COLUMN n DROP DEFAULT");
    await server.stop();

    server = await startTestServer({ storage: { data_home: dir } });
    text = await showCreate(server.url);
    assert.match(text, /"usage" DOUBLE NULL DEFAULT 0.25,/);
    assert.match(text, /"n" INT NULL,/);
    assert.deepEqual(
      await rows(
        server.url,
        "SELECT column_name, column_default FROM information_schema.columns WHERE table_name = 'cpu' " +
          "ORDER BY column_name",
      ),
      [["host", "'h'"], ["n", null], ["ts", null], ["usage", "0.25"]],
    );
    // the default SQLite fills in is the new one after the restart too
    await ok(server.url, "INSERT INTO cpu (host, ts) VALUES ('b', 3000)");
    assert.deepEqual(await rows(server.url, "SELECT usage, n FROM cpu WHERE ts = 3000"), [[0.25, null]]);
    await refused(
      server.url,
      "ALTER TABLE cpu MODIFY COLUMN nope SET DEFAULT 1",
      4002,
      /Column nope not exists/,
    );
    await refused(server.url, "ALTER TABLE cpu MODIFY COLUMN ts DROP DEFAULT", 1004, /cannot be dropped/);
    await refused(
      server.url,
      "ALTER TABLE cpu MODIFY COLUMN n SET DEFAULT abs(1)",
      1004,
      /Unsupported default/,
    );
    // a numeric column takes a number (SQLite would keep the text in it), also in CREATE TABLE
    await refused(
      server.url,
      "ALTER TABLE cpu MODIFY COLUMN usage SET DEFAULT 'high'",
      1004,
      /Invalid default value 'high' for column usage of type Float64/,
    );
    await refused(
      server.url,
      "CREATE TABLE bad (v DOUBLE DEFAULT 'abc', ts TIMESTAMP TIME INDEX)",
      1004,
      /Invalid default value 'abc' for column v/,
    );
    await ok(server.url, "ALTER TABLE cpu MODIFY COLUMN usage SET DEFAULT NULL");
    assert.match(await showCreate(server.url), /"usage" DOUBLE NULL DEFAULT NULL,/);
  } finally {
    await server.stop();
  }
});

Deno.test("COMMENT ON TABLE, COLUMN and FLOW set and remove comments", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_comment_on_" });
  let server = await startTestServer({ storage: { data_home: dir } });
  try {
    await ok(server.url, "CREATE TABLE cpu (host STRING PRIMARY KEY, usage DOUBLE, ts TIMESTAMP TIME INDEX)");
    await ok(server.url, "COMMENT ON TABLE cpu IS 'CPU samples'");
    await ok(server.url, "COMMENT ON COLUMN public.cpu.usage IS 'busy share, 0..1'");
    await ok(server.url, "COMMENT ON COLUMN cpu.host IS 'temporary'");
    await ok(server.url, "COMMENT ON COLUMN cpu.host IS NULL");
    await ok(
      server.url,
      "CREATE FLOW peaks SINK TO cpu_peaks COMMENT 'old' AS SELECT host, max(usage) AS m, " +
        "date_bin(INTERVAL '1 minute', ts) AS w FROM cpu GROUP BY host, w",
    );
    await ok(server.url, "COMMENT ON FLOW peaks IS 'per-minute peaks'");
    await server.stop();

    server = await startTestServer({ storage: { data_home: dir } });
    const text = await showCreate(server.url);
    assert.match(text, /"usage" DOUBLE NULL COMMENT 'busy share, 0..1',/);
    assert.match(text, /"host" STRING NULL,/);
    assert.match(text, /'comment' = 'CPU samples'/);
    assert.deepEqual(
      await rows(server.url, "SELECT table_comment FROM information_schema.tables WHERE table_name = 'cpu'"),
      [["CPU samples"]],
    );
    assert.deepEqual(
      await rows(
        server.url,
        "SELECT column_name, column_comment FROM information_schema.columns WHERE table_name = 'cpu' " +
          "ORDER BY column_name",
      ),
      [["host", ""], ["ts", ""], ["usage", "busy share, 0..1"]],
    );
    assert.match(
      (await rows(server.url, "SHOW CREATE FLOW peaks"))[0][1] as string,
      /\nCOMMENT 'per-minute peaks'\n/,
    );
    assert.deepEqual(await rows(server.url, "SELECT comment FROM information_schema.flows"), [[
      "per-minute peaks",
    ]]);
    await ok(server.url, "COMMENT ON FLOW peaks IS NULL");
    assert.doesNotMatch((await rows(server.url, "SHOW CREATE FLOW peaks"))[0][1] as string, /COMMENT/);
    await refused(server.url, "COMMENT ON FLOW nope IS 'x'", 8001, /Flow not found: greptime.nope/);
    await ok(server.url, "COMMENT ON TABLE cpu IS NULL");
    assert.doesNotMatch(await showCreate(server.url), /'comment'/);
    await refused(server.url, "COMMENT ON TABLE nope IS 'x'", 4001, /Table not found: greptime.public.nope/);
    await refused(
      server.url,
      "COMMENT ON COLUMN cpu.nope IS 'x'",
      4002,
      /Column nope not exists in table cpu/,
    );
    await refused(server.url, "COMMENT ON TABLE cpu IS 42", 2000, /Expected: a string literal/);
  } finally {
    await server.stop();
  }
});
