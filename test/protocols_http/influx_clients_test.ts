/**
 * Real InfluxDB clients against Petrel: `@influxdata/influxdb-client` (v2 API, Token auth, `u`
 * uints, `T` booleans) and a v1 write shaped like the node `influx` client's (Basic auth, empty `rp=`,
 * no Content-Type), checked through SQL; and the v2 client's retries: Petrel's 429 is retried, its 400
 * is not.
 */
import assert from "node:assert/strict";
import { InfluxDB, Point, setLogger } from "@influxdata/influxdb-client";
import { basicAuth, startTestServer } from "../helpers/server.ts";
import { bodyMemoryOf } from "../../src/http/body_memory.ts";
import { waitFor } from "../helpers/debian.ts";
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

/** How many requests to `path` Petrel answered with `code`, from its own request counter. */
async function answered(base: string, path: string, code: number): Promise<number> {
  const page = await (await fetch(`${base}/metrics`)).text();
  const line = page.split("\n").find((l) =>
    l.startsWith("greptime_servers_http_requests_total{") && l.includes(`path="${path}"`) &&
    l.includes(`code="${code}"`)
  );
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

Deno.test({
  name:
    "influxdb-client retries Petrel's 429 until the body fits and stores the batch once; a 400 is not retried",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const budget = 64 * 1024;
    const s = await startTestServer({ http: { max_total_body_memory: budget } });
    const memory = bodyMemoryOf(s.server.app);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(s.url).port) });
    try {
      // An upload that stops after its headers holds all but 100 bytes of the budget.
      const head = "held,host=a v=1i 1700000000000\n";
      const held = head + "\n".repeat(budget - 100 - head.length);
      await conn.write(new TextEncoder().encode(
        `POST /v1/influxdb/write?precision=ms HTTP/1.1\r\nhost: x\r\ncontent-length: ${held.length}\r\n\r\n` +
          held.slice(0, 10),
      ));
      for (let i = 0; i < 200 && memory.inUse === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(memory.inUse, held.length);

      // Petrel counts requests by route pattern; /v1/influxdb is an alias of /v1/lineproto.
      const path = "/v1/influxdb/api/v2/write"; // counted under the path the client used
      const writeApi = new InfluxDB({ url: `${s.url}/v1/influxdb`, token: "t" }).getWriteApi(
        "o",
        "public",
        "ms",
        {
          flushInterval: 0,
          // The client reads `Retry-After: 1` as 1 ms (plus up to 200 ms jitter): leave it room.
          maxRetries: 20,
          gzipThreshold: 1 << 30,
        },
      );
      writeApi.writeRecords(
        Array.from({ length: 20 }, (_, i) => `retried,host=h${i} v=${i} ${1700000000000 + i}`),
      );
      // The first attempt is refused 429: the client reports it and keeps the batch for a retry.
      const previous = setLogger({ error: () => {}, warn: () => {} });
      try {
        await assert.rejects(writeApi.flush(), /429/);
        assert.ok(await answered(s.url, path, 429) >= 1);
        // The held upload completes, so a retry fits.
        await conn.write(new TextEncoder().encode(held.slice(10)));
        const reply = new Uint8Array(1024);
        const n = await conn.read(reply);
        assert.match(new TextDecoder().decode(reply.subarray(0, n ?? 0)), /^HTTP\/1\.1 204/);
        assert.ok(await waitFor(async () => await answered(s.url, path, 204) === 1 || null, 5_000));
        await writeApi.close();
      } finally {
        setLogger(previous);
      }
      assert.equal(await answered(s.url, path, 204), 1);
      assert.deepEqual(await sql(s.url, "SELECT count(*), sum(v) FROM retried"), [[20, 190]]);

      // A malformed line is a 400: the client gives up at once instead of retrying.
      const bad = new InfluxDB({ url: `${s.url}/v1/influxdb`, token: "t" }).getWriteApi("o", "public", "ms", {
        flushInterval: 0,
        maxRetries: 2,
      });
      bad.writeRecord("retried,host=z v= 1");
      const quiet = setLogger({ error: () => {}, warn: () => {} });
      try {
        await assert.rejects(bad.close(), /400|missing value/);
      } finally {
        setLogger(quiet);
      }
      assert.equal(await answered(s.url, path, 400), 1);
      assert.deepEqual(await sql(s.url, "SELECT count(*) FROM retried"), [[20]]);
    } finally {
      conn.close();
      await s.stop();
    }
  },
});
