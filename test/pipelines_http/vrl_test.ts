/** VRL pipelines over HTTP (service spec: a script sets the special variables from input fields). */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

const TAIL = "transform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";

Deno.test({
  name: "vrl: suffix and ttl from the data (greptime_* and svc_*), one-to-many, null drops",
  fn: async () => {
    const server = await startTestServer();
    const client = new PipelineClient(server.url);
    const now = Date.now();
    try {
      await client.uploadOk(
        "by_id",
        "version: 2\nprocessors:\n  - vrl:\n      source: |\n" +
          '        .greptime_table_suffix = "_" + to_string!(.id)\n' +
          '        .greptime_ttl = "1d"\n' +
          "        .\n" + TAIL,
      );
      let r = await client.ingest(
        { table: "vrl", pipeline_name: "by_id" },
        // Recent timestamps: the 1-day ttl would hide rows from 1970.
        JSON.stringify([{ ts: now, id: 7, msg: "a" }, { ts: now + 1, id: 8, msg: "b" }]),
      );
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(await client.sql("SELECT id, msg FROM vrl_7"), [[7, "a"]]);
      assert.deepEqual(await client.sql("SELECT id, msg FROM vrl_8"), [[8, "b"]]);
      assert.ok((await client.showCreate("vrl_7")).includes("ttl = '1day'"));
      assert.ok(!(await client.showCreate("vrl_7")).includes("greptime_"));

      await client.uploadOk(
        "svc",
        "version: 2\nprocessors:\n  - vrl:\n      source: |\n" +
          '        .svc_table_suffix = "_svc"\n        .svc_skip_wal = "true"\n        .\n' + TAIL,
      );
      r = await client.ingest({ table: "vrl", pipeline_name: "svc" }, JSON.stringify({ ts: 3, v: 1 }));
      assert.equal(r.status, 200, r.text);
      assert.ok((await client.showCreate("vrl_svc")).includes("skip_wal = 'true'"));

      await client.uploadOk(
        "fan",
        "version: 2\nprocessors:\n  - vrl:\n      source: |\n" +
          "        if .drop == true { null } else {\n" +
          '          [{"ts": .ts, "part": 1}, {"ts": to_int!(.ts) + 1, "part": 2, "greptime_table_suffix": "_two"}]\n' +
          "        }\n" + TAIL,
      );
      r = await client.ingest(
        { table: "fan", pipeline_name: "fan" },
        JSON.stringify([{ ts: 10 }, { ts: 20, drop: true }]),
      );
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(await client.sql("SELECT part FROM fan"), [[1]]);
      assert.deepEqual(await client.sql("SELECT part FROM fan_two"), [[2]]);

      const bad = await client.upload("bad", "processors:\n  - vrl:\n      source: '.a = '\n");
      assert.equal(bad.status, 400);
      assert.ok(errorOf(bad).includes("Failed to compile VRL"), bad.text);
    } finally {
      await server.stop();
    }
  },
});
