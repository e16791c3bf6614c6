/**
 * The table option variables a pipeline sets (`svc_append_mode`, `svc_merge_mode`, …) are "table
 * options of the same meaning" (SERVICE.md): a value `CREATE TABLE … WITH (…)` refuses is a 400 when
 * it would create the table, as a bad `svc_skip_wal` or `svc_ttl` already is, never silently dropped.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

const server = await startTestServer();
globalThis.addEventListener("unload", () => server.stop());
const client = new PipelineClient(server.url);
const PIPELINE =
  "version: 2\nprocessors: []\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";
await client.uploadOk("opts", PIPELINE);

Deno.test("ingest: invalid table option variables are refused when they would create the table", async (t) => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["svc_append_mode not a boolean", { svc_append_mode: "banana" }, "table option append_mode: 'banana'"],
    ["greptime_append_mode not a boolean", { greptime_append_mode: "yes please" }, "append_mode"],
    [
      "append_mode true with a merge_mode",
      { svc_append_mode: "true", svc_merge_mode: "last_row" },
      "merge_mode is not allowed when append_mode is enabled",
    ],
    ["svc_skip_wal not a boolean (as before)", { svc_skip_wal: "banana" }, "skip_wal"],
  ];
  for (const [i, [name, vars, error]] of cases.entries()) {
    await t.step(name, async () => {
      const table = `bad_opts_${i}`;
      const r = await client.ingest(
        { table, pipeline_name: "opts" },
        JSON.stringify({ ts: 1, v: 1, ...vars }),
      );
      assert.equal(r.status, 400, r.text);
      assert.ok(errorOf(r).includes(error), r.text);
      assert.ok(!(await client.tables()).includes(table));
    });
  }
});

Deno.test("ingest: valid append_mode spellings still create the table", async () => {
  const r = await client.ingest(
    { table: "ok_opts", pipeline_name: "opts" },
    JSON.stringify({ ts: 1, v: 1, svc_append_mode: "TRUE" }),
  );
  assert.equal(r.status, 200, r.text);
  assert.ok((await client.showCreate("ok_opts")).includes("append_mode = 'true'"));
});

Deno.test("ingest: an existing table ignores the variables, as it ignores a bad skip_wal", async () => {
  const table = "existing_opts";
  assert.equal((await client.ingest({ table, pipeline_name: "opts" }, '{"ts":1,"v":1}')).status, 200);
  for (const vars of [{ svc_append_mode: "banana" }, { svc_skip_wal: "banana" }]) {
    const r = await client.ingest({ table, pipeline_name: "opts" }, JSON.stringify({ ts: 2, v: 2, ...vars }));
    assert.equal(r.status, 200, r.text);
  }
});
