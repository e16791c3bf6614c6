/**
 * Real InfluxDB clients against Petrel: `@influxdata/influxdb-client` (v2 API, Token auth, `u`
 * uints, `T` booleans) and a v1 write shaped like the node `influx` client's (Basic auth, empty `rp=`,
 * no Content-Type), checked through SQL.
 */
import assert from "node:assert/strict";
import { InfluxDB, Point, setLogger } from "@influxdata/influxdb-client";
import { basicAuth } from "../helpers/server.ts";
import { withServer } from "./util.ts";

const USERS = "static_user_provider:cmd:writer=wr1te";

async function sql(base: string, query: string): Promise<unknown[][]> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(query)}`, {
    headers: { authorization: basicAuth("writer", "wr1te") },
  });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.output[0].records.rows;
}

Deno.test({
  name: "influxdb-client (v2 API) writes points and records; SQL reads them",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withServer(async (s) => {
      const client = new InfluxDB({ url: `${s.url}/v1/influxdb`, token: "writer:wr1te" });
      const writeApi = client.getWriteApi("my-org", "public", "ns", {
        batchSize: 1000,
        flushInterval: 0,
        maxRetries: 0,
      });
      writeApi.useDefaultTags({ app: "influx-clients" });
      writeApi.writePoint(
        new Point("v2_mem").tag("host", "a").floatField("used_pct", 42.25).intField("total", 16000000000)
          .uintField("free", 123).booleanField("ok", true).stringField("msg", "a,b c=d")
          .timestamp("1700000000000000000"),
      );
      writeApi.writeRecord("v2_raw,host=b value=1i 1700000000000000001");
      await writeApi.close();
      assert.deepEqual(await sql(s.url, "SELECT app, host, used_pct, total, free, ok, msg FROM v2_mem"), [
        ["influx-clients", "a", 42.25, 16000000000, 123, true, "a,b c=d"],
      ]);
      assert.deepEqual(await sql(s.url, "SELECT host, value FROM v2_raw"), [["b", 1]]);
      const desc = await sql(s.url, "DESC TABLE v2_mem");
      assert.deepEqual(
        desc.map((r) => [r[0], r[1]]).filter((r) => ["free", "ok", "total"].includes(String(r[0]))),
        [
          ["free", "UInt64"],
          ["ok", "Boolean"],
          ["total", "Int64"],
        ],
      );

      // A bad token is a write error the client surfaces.
      const bad = new InfluxDB({ url: `${s.url}/v1/influxdb`, token: "writer:nope" })
        .getWriteApi("o", "public", "ns", { flushInterval: 0, maxRetries: 0 });
      bad.writeRecord("v2_denied v=1 1");
      const errors: string[] = [];
      const previous = setLogger({
        error: (m: string) => errors.push(m),
        warn: (m: string) => errors.push(m),
      });
      try {
        await assert.rejects(bad.close(), /401|[Uu]nauthorized|mismatch/);
      } finally {
        setLogger(previous);
      }
      assert.ok(errors.length > 0);
      assert.deepEqual(
        await sql(s.url, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'v2_denied'"),
        [[0]],
      );
    }, { user_provider: USERS }),
});

Deno.test("v1 write as the node influx client sends it (Basic auth, rp=, no Content-Type)", async () => {
  await withServer(async (s) => {
    const body = 'v1_cpu,host=a,region=eu cores=8,note="ok \\"quoted\\"",up=true,usage=12.5 1700000000000\n' +
      "v1_cpu,host=b usage=0.001 1700000001000";
    const r = await fetch(`${s.url}/v1/influxdb/write?db=public&precision=ms&rp=`, {
      method: "POST",
      body: new TextEncoder().encode(body),
      headers: { authorization: basicAuth("writer", "wr1te") },
    });
    assert.equal(r.status, 204, await r.text());
    assert.deepEqual(
      await sql(s.url, "SELECT host, region, cores, note, up, usage FROM v1_cpu ORDER BY host"),
      [
        ["a", "eu", 8, 'ok "quoted"', true, 12.5],
        ["b", null, null, null, null, 0.001],
      ],
    );
    // u/p query credentials, as curl users send them.
    const r2 = await fetch(`${s.url}/v1/lineproto/write?db=public&u=writer&p=wr1te`, {
      method: "POST",
      body: "v1_cpu,host=c usage=1 1700000002000000000",
    });
    assert.equal(r2.status, 204, await r2.text());
    assert.deepEqual(await sql(s.url, "SELECT count(*) FROM v1_cpu"), [[3]]);
  }, { user_provider: USERS });
});
