/**
 * Line-protocol writes whose bodies are parsed in the worker (`src/protocols/lineproto_pool.ts`):
 * the same rows stored, the same 400 naming the line, nothing written on a malformed body, and
 * concurrent large requests all landing.
 */
import assert from "node:assert/strict";
import { lineProtocolBody } from "../../src/protocols/lineproto/bench.ts";
import { lineProtocolWorkerReady } from "../../src/protocols/lineproto/stream/pool.ts";
import { post, sqlRows, tableNames, uniqueName, withServer } from "./util.ts";

/** ~1 MB: well past the size from which bodies go to the worker. */
function bigBody(table: string, rows: number, from: number): string {
  return lineProtocolBody(rows, 1000, from).replaceAll(/^cpu,/gm, `${table},`);
}

Deno.test("lineproto HTTP via worker: large bodies, concurrently; malformed ones rejected whole", async () => {
  await withServer(async ({ url }) => {
    // The first large body starts the worker (and is parsed inline while it loads).
    const t = uniqueName("wk");
    const first = await post(`${url}/v1/lineproto/write`, bigBody(t, 5000, 0));
    assert.equal(first.status, 204, first.text);
    assert.ok(await lineProtocolWorkerReady(), "worker did not start");

    const results = await Promise.all(
      [1, 2, 3, 4].map((k) => post(`${url}/v1/lineproto/write?precision=ns`, bigBody(t, 5000, k * 5000))),
    );
    for (const r of results) assert.equal(r.status, 204, r.text);
    assert.deepEqual(await sqlRows(url, `SELECT count(*), count(DISTINCT host) FROM ${t}`), [[25000, 1000]]);
    // Values arrive with their types: float, int, tag string and ns time.
    assert.deepEqual(
      await sqlRows(
        url,
        `SELECT host, usage_user, procs, greptime_timestamp FROM ${t} WHERE host = 'host_7' ORDER BY greptime_timestamp LIMIT 1`,
      ),
      [["host_7", 0.7, 7, 1700000000000000000]],
    );

    const bad = uniqueName("wkbad");
    const body = bigBody(bad, 5000, 0) + `${bad},host=x usage_user=1 oops\n`;
    const r = await post(`${url}/v1/lineproto/write`, body);
    assert.equal(r.status, 400, r.text);
    assert.match(
      JSON.parse(r.text).error,
      /^Failed to parse InfluxDB line protocol: error parsing line 5001 /,
    );
    assert.ok(!(await tableNames(url)).includes(bad));

    const conflict = await post(
      `${url}/v1/lineproto/write`,
      bigBody(t, 5000, 0).replace("procs=0i", 'procs="s"'),
    );
    assert.equal(conflict.status, 400, conflict.text);
    assert.deepEqual(await sqlRows(url, `SELECT count(*) FROM ${t}`), [[25000]]);
  });
});
