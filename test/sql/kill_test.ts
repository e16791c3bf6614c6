/**
 * `KILL '<process id>'` over a real server, as GreptimeDB's docs use it: find a runaway query in
 * `SHOW PROCESSLIST`, kill it by its id; the query's request fails with 1005 Cancelled at once, the
 * KILL answers one affected row (none for an id no longer running), and a malformed id is 1004.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

Deno.test("KILL cancels a running query listed by SHOW PROCESSLIST", async () => {
  const server = await startTestServer();
  try {
    const runaway = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
    const started = Date.now();
    const query = sqlRequest(server.url, runaway);
    let id: string | undefined;
    for (let i = 0; i < 100 && id === undefined; i++) {
      const rows = await sqlRows(server.url, "SHOW PROCESSLIST");
      id = rows.find((r) => r[2] === runaway)?.[0] as string | undefined;
      if (id === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(id, "the runaway query is listed");
    const killed = await sqlRequest(server.url, `KILL '${id}'`);
    assert.equal(killed.status, 200, killed.text);
    assert.deepEqual(JSON.parse(killed.text).output, [{ affectedrows: 1 }]);
    const r = await query;
    assert.equal(r.status, 504, r.text);
    const body = JSON.parse(r.text);
    assert.equal(body.code, 1005);
    assert.match(body.error, /cancelled/);
    // well before the server's 30 s request timeout
    assert.ok(Date.now() - started < 15_000);
    const listed = await sqlRows(server.url, "SELECT count(*) FROM information_schema.process_list");
    assert.deepEqual(listed, [[1]], "only this query runs now");
    // gone already: nothing to kill
    const again = await sqlRequest(server.url, `KILL '${id}'`);
    assert.deepEqual(JSON.parse(again.text).output, [{ affectedrows: 0 }]);
    // the server goes on answering
    assert.deepEqual(await sqlRows(server.url, "SELECT 1 + 1"), [[2]]);
  } finally {
    await server.stop();
  }
});

Deno.test("KILL refuses an id that is not '<frontend>/<n>'", async () => {
  const server = await startTestServer();
  try {
    const cases: Array<[string, number, RegExp]> = [
      ["KILL 'abc'", 1004, /^Invalid process id: abc$/],
      ["KILL '127.0.0.1:4000/x'", 1004, /^Invalid process id: 127\.0\.0\.1:4000\/x$/],
      ["KILL 12", 2000, /a process id string/],
      ["KILL", 2000, /a process id string/],
    ];
    for (const [sql, code, error] of cases) {
      const r = await sqlRequest(server.url, sql);
      assert.equal(r.status, 400, `${sql}: ${r.text}`);
      const body = JSON.parse(r.text);
      assert.equal(body.code, code, `${sql}: ${r.text}`);
      assert.match(body.error, error, sql);
    }
    // another frontend's process: not running here
    const other = await sqlRequest(server.url, "KILL '10.0.0.1:4000/1'");
    assert.deepEqual(JSON.parse(other.text).output, [{ affectedrows: 0 }]);
  } finally {
    await server.stop();
  }
});
