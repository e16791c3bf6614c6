/**
 * `ALTER TABLE t MODIFY COLUMN c SET|UNSET FULLTEXT|SKIPPING|INVERTED INDEX [WITH (…)]`: the column's
 * index as SHOW CREATE TABLE prints it afterwards, kept across a restart, and the refusals.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest } from "../http/fixtures/sql_client.ts";

async function showCreate(url: string): Promise<string> {
  const r = await sqlRequest(url, "SHOW CREATE TABLE logs");
  assert.equal(r.status, 200, r.text);
  return JSON.parse(r.text).output[0].records.rows[0][1];
}

async function ok(url: string, sql: string): Promise<void> {
  const r = await sqlRequest(url, sql);
  assert.equal(r.status, 200, `${sql}: ${r.text}`);
}

Deno.test("ALTER TABLE MODIFY COLUMN sets and unsets secondary indexes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "petrel_alter_index_" });
  let server = await startTestServer({ storage: { data_home: dir } });
  try {
    await ok(server.url, "CREATE TABLE logs (ts TIMESTAMP TIME INDEX, host STRING, msg STRING, n INT)");
    await ok(server.url, "ALTER TABLE logs MODIFY COLUMN msg SET FULLTEXT INDEX WITH (analyzer = 'Chinese')");
    await ok(server.url, "ALTER TABLE logs MODIFY COLUMN host SET INVERTED INDEX");
    await ok(server.url, "ALTER TABLE logs MODIFY COLUMN n SET SKIPPING INDEX WITH (granularity = 4096)");
    let text = await showCreate(server.url);
    assert.match(
      text,
      /"msg" STRING NULL FULLTEXT INDEX WITH\(analyzer = 'Chinese', backend = 'bloom', case_sensitive = 'false'/,
    );
    assert.match(text, /"host" STRING NULL INVERTED INDEX/);
    assert.match(
      text,
      /"n" INT NULL SKIPPING INDEX WITH\(false_positive_rate = '0.01', granularity = '4096'/,
    );
    await ok(server.url, "ALTER TABLE logs MODIFY COLUMN host UNSET INVERTED INDEX");
    await ok(server.url, "ALTER TABLE logs MODIFY COLUMN n UNSET FULLTEXT INDEX"); // not its kind: kept
    await server.stop();
    server = await startTestServer({ storage: { data_home: dir } });
    text = await showCreate(server.url);
    assert.match(text, /"host" STRING NULL,/);
    assert.match(text, /"n" INT NULL SKIPPING INDEX/);
    assert.match(text, /"msg" STRING NULL FULLTEXT INDEX/);
    const refusals: Array<[string, number, RegExp]> = [
      [
        "ALTER TABLE logs MODIFY COLUMN nope SET INVERTED INDEX",
        4002,
        /Column nope not exists in table logs/,
      ],
      [
        "ALTER TABLE logs MODIFY COLUMN n SET FULLTEXT INDEX",
        1004,
        /FULLTEXT index only supports string type/,
      ],
      [
        "ALTER TABLE logs MODIFY COLUMN msg SET FULLTEXT INDEX WITH (analyzer = 'Klingon')",
        1004,
        /Invalid options for `fulltext` index/,
      ],
      [
        "ALTER TABLE logs MODIFY COLUMN msg SET BTREE INDEX",
        2000,
        /Expected: FULLTEXT, SKIPPING or INVERTED/,
      ],
    ];
    for (const [sql, code, error] of refusals) {
      const r = await sqlRequest(server.url, sql);
      assert.equal(r.status, 400, `${sql}: ${r.text}`);
      const body = JSON.parse(r.text);
      assert.equal(body.code, code, r.text);
      assert.match(body.error, error);
    }
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
