/**
 * Keyset paging of the forwarding journal's keyed entries (`src/storage/forward_entry.ts`): one large
 * write to a keyed table, its rows sharing a seq and a few timestamps across many tag combinations
 * (null tags too), read a small page at a time, reaches a second Petrel exactly once per row; a
 * delete between two pages passes no row over (an OFFSET did); and each page is a primary-key seek.
 * The upstream table is append-mode, so a row sent twice would show as two rows.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { keyedPageSql } from "../../src/storage/forward_entry.ts";
import { createTableSql } from "../../src/storage/table.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { sqlRows, startEdge, waitDrained } from "./upstreams.ts";

const COLUMNS = `(host STRING, dc STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY (host, dc))`;
const HOSTS = 30, DCS = 4, TIMES = 5;
const T0 = Date.now() - 3_600_000;

async function exec(base: string, statement: string): Promise<void> {
  const res = await fetch(`${base}/v1/sql?db=public`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sql: statement }),
  });
  assert.equal(res.status, 200, `${statement.slice(0, 80)}: ${await res.text()}`);
}

/** Every (host, dc, ts) of the large write: a null dc for each host too. */
function rows(): string[] {
  const out: string[] = [];
  for (let t = 0; t < TIMES; t++) {
    for (let h = 0; h < HOSTS; h++) {
      for (let d = 0; d <= DCS; d++) {
        const dc = d === DCS ? "NULL" : `'dc${d}'`;
        out.push(`('h${String(h).padStart(2, "0")}', ${dc}, ${h * 10 + d}, ${T0 + t * 60_000})`);
      }
    }
  }
  return out;
}

async function setUp(url: (up: TestServer) => string) {
  const up = await startTestServer();
  await exec(up.url, `CREATE TABLE wide ${COLUMNS} WITH (append_mode = 'true')`);
  const edge = await startEdge({ name: "gt", url: url(up), protocol: "greptime", batch_size: 7 });
  await exec(edge.url, `CREATE TABLE wide ${COLUMNS}`);
  return { up, edge };
}

/** The upstream's rows per key: every key once, and the total. */
async function arrived(up: TestServer): Promise<{ keys: number; twice: unknown[][] }> {
  const twice = await sqlRows(
    up.url,
    `SELECT host, dc, ts, count(*) AS n FROM wide GROUP BY host, dc, ts HAVING count(*) > 1 LIMIT 5`,
  );
  const [[keys]] = await sqlRows(up.url, `SELECT count(*) FROM (SELECT DISTINCT host, dc, ts FROM wide)`);
  return { keys: Number(keys), twice };
}

Deno.test("forward journal: one large keyed write paged 7 rows at a time arrives exactly once", async () => {
  const { up, edge } = await setUp((up) => `${up.url}/v1/influxdb/write`);
  try {
    const all = rows();
    await exec(edge.url, `INSERT INTO wide VALUES ${all.join(", ")}`);
    await waitDrained(edge.url);
    const [[total]] = await sqlRows(up.url, `SELECT count(*) FROM wide`);
    assert.deepEqual(await arrived(up), { keys: all.length, twice: [] });
    assert.equal(Number(total), all.length);
    const [[nullDc]] = await sqlRows(up.url, `SELECT count(*) FROM wide WHERE dc IS NULL`);
    assert.equal(Number(nullDc), HOSTS * TIMES);
  } finally {
    await edge.stop();
    await up.stop();
  }
});

Deno.test("forward journal: a delete between two pages of a keyed entry passes no row over", async () => {
  // A proxy holds the first batch's answer until the edge has deleted a row that batch carried.
  let first = true, release!: () => void, sawFirst!: () => void;
  const held = new Promise<void>((r) => release = r), seen = new Promise<void>((r) => sawFirst = r);
  let target = "";
  const proxy = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const u = new URL(req.url);
    const res = await fetch(`${target}${u.pathname}${u.search}`, {
      method: req.method,
      headers: req.headers,
      body: await req.arrayBuffer(),
    });
    const body = await res.arrayBuffer();
    if (first) {
      first = false;
      sawFirst();
      await held;
    }
    return new Response(res.status === 204 ? null : body, { status: res.status, headers: res.headers });
  });
  const { up, edge } = await setUp((up) => {
    target = up.url;
    return `http://127.0.0.1:${proxy.addr.port}/v1/influxdb/write`;
  });
  try {
    const all = rows();
    await exec(edge.url, `INSERT INTO wide VALUES ${all.join(", ")}`);
    await seen;
    // the first row in key order (ts, host, dc), sent with the first page
    await exec(edge.url, `DELETE FROM wide WHERE ts = ${T0} AND host = 'h00' AND dc = 'dc0'`);
    release();
    await waitDrained(edge.url);
    assert.deepEqual(await arrived(up), { keys: all.length, twice: [] });
  } finally {
    release();
    await edge.stop();
    await up.stop();
    await proxy.shutdown();
  }
});

Deno.test("forward journal: a keyed page is a primary-key seek in key order (both layouts)", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    s.write("public", [{
      table: "k",
      columns: [
        { name: "host", type: "String", semantic: "TAG" },
        { name: "dc", type: "String", semantic: "TAG" },
        { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
        { name: "v", type: "Float64", semantic: "FIELD" },
      ],
      rows: [["a", "b", 1, 1.5]],
    }]);
    const h = s.database("public");
    const layout2 = h.getTable("k")!;
    const layout1 = { ...layout2, name: "k1", layout: 1 };
    for (const sql of createTableSql(layout1)) h.conn.exec(sql);
    const cases = [
      { t: layout2, after: false, args: [0, 9, 5], seek: /USING PRIMARY KEY \(ts>\? AND ts<\?\)/ },
      {
        t: layout2,
        after: true,
        args: [9, 1, "a", "b", 5],
        seek: /PRIMARY KEY \(\(ts,host,dc\)>\(\?,\?,\?\) AND ts<\?\)/,
      },
      {
        t: layout1,
        after: true,
        args: [0, 9, "a", "b", 1, 5],
        seek: /PRIMARY KEY \(\(host,dc,ts\)>\(\?,\?,\?\)\)/,
      },
    ];
    for (const c of cases) {
      const plan =
        (h.conn.prepare(`EXPLAIN QUERY PLAN ${keyedPageSql(c.t, c.after)}`).all(...c.args) as Array<
          { detail: string }
        >).map((r) => r.detail).join("; ");
      assert.match(plan, c.seek, `layout ${c.t.layout} after=${c.after}: ${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
    }
  } finally {
    s.close();
  }
});
