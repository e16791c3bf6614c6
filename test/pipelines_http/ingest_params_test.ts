/**
 * `/v1/ingest` boolean query parameters: `skip_error` and `ignore_errors` take true/false (and the
 * truthy words header parameters take); anything else is a 400 naming the parameter, as GreptimeDB's
 * query-string deserializer answers, never a silent `false`. The header's `skip_error` still wins.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

const server = await startTestServer();
globalThis.addEventListener("unload", () => server.stop());
const client = new PipelineClient(server.url);
const BODY = '{"message":"ok"}\nnot json\n';
const ident = { table: "params_t", pipeline_name: "greptime_identity" };

Deno.test("ingest: skip_error / ignore_errors values", async (t) => {
  const cases: Array<[Record<string, string>, Record<string, string>, number, string]> = [
    [{ skip_error: "banana" }, {}, 400, "skip_error: provided string was not `true` or `false`"],
    [{ ignore_errors: "maybe" }, {}, 400, "ignore_errors: provided string was not `true` or `false`"],
    [{ skip_error: "true" }, {}, 200, ""],
    [{ skip_error: "TRUE" }, {}, 200, ""],
    [{ skip_error: "1" }, {}, 200, ""],
    [{ skip_error: "false" }, {}, 400, "not json"],
    [{}, {}, 400, "not json"],
    // the header's skip_error overrides the query parameter
    [{ skip_error: "false" }, { "x-greptime-pipeline-params": "skip_error=true" }, 200, ""],
  ];
  for (const [query, headers, status, error] of cases) {
    await t.step(`${JSON.stringify(query)} ${JSON.stringify(headers)}`, async () => {
      const r = await client.ingest({ ...ident, ...query }, BODY, "application/x-ndjson", headers);
      assert.equal(r.status, status, r.text);
      if (error) assert.match(errorOf(r), new RegExp(error.replace(/[`()]/g, "\\$&")));
    });
  }
});
