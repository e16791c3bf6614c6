/**
 * Loki's tenant header `X-Scope-OrgID` (Promtail/Alloy `tenant_id`, Vector, Fluent Bit) is ignored, as
 * GreptimeDB's Loki handler ignores it: lines of every tenant go to the database the request selects
 * (`x-greptime-db-name`, `?db=`, else `public`) and carry no tenant column.
 */
import assert from "node:assert/strict";
import { post, sqlExec, sqlRows, withServer } from "../protocols_http/util.ts";

function push(line: string): string {
  return JSON.stringify({ streams: [{ stream: { app: "a" }, values: [["1700000000000000000", line]] }] });
}

Deno.test("Loki X-Scope-OrgID: ignored; tenants share the selected database and table", async () => {
  await withServer(async (s) => {
    const url = `${s.url}/v1/loki/api/v1/push`;
    for (const tenant of ["tenant-a", "tenant-b"]) {
      const r = await post(url, push(tenant), {
        "content-type": "application/json",
        "x-scope-orgid": tenant,
      });
      assert.equal(r.status, 200, r.text);
    }
    assert.deepEqual(await sqlRows(s.url, "SELECT line FROM loki_logs ORDER BY line"), [["tenant-a"], [
      "tenant-b",
    ]]);
    const columns = (await sqlRows(s.url, "DESC TABLE loki_logs")).map((r) => r[0]);
    assert.deepEqual(columns, ["greptime_timestamp", "line", "structured_metadata", "app"]);
    const databases = (await sqlRows(s.url, "SHOW DATABASES")).map((r) => r[0]);
    assert.ok(!databases.includes("tenant-a") && !databases.includes("tenant_a"), String(databases));

    // A tenant's own database is chosen with GreptimeDB's header, whatever X-Scope-OrgID says.
    await sqlExec(s.url, "CREATE DATABASE team_c");
    const r = await post(url, push("team c"), {
      "content-type": "application/json",
      "x-scope-orgid": "tenant-a",
      "x-greptime-db-name": "team_c",
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await sqlRows(s.url, "SELECT line FROM loki_logs", "team_c"), [["team c"]]);
  });
});
