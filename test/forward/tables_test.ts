/**
 * `greptime` forwarding of ordinary (SQL and pipeline) tables through the write journal, to a second
 * Petrel: a keyed table with several column types, late rows included, and an append-mode table
 * whose rows must arrive exactly once (append tables do not dedup upstream) although the upstream is
 * killed and the edge restarted mid-stream. The journal is trimmed once every destination passed it.
 */
import assert from "node:assert/strict";
import { waitFor } from "../helpers/debian.ts";
import type { TestServer } from "../helpers/server.ts";
import { forwardStatus, petrelUpstream, sqlRows, startEdge, waitDrained } from "./upstreams.ts";

const KEYED =
  `CREATE TABLE sensors (host STRING, dc STRING, temp DOUBLE, n BIGINT, ok BOOLEAN, note STRING, ` +
  `ts TIMESTAMP TIME INDEX, PRIMARY KEY (host, dc))`;
const APPEND = `CREATE TABLE app_logs (svc STRING, msg STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY (svc)) ` +
  `WITH (append_mode = 'true')`;

async function exec(base: string, statement: string): Promise<void> {
  const res = await fetch(`${base}/v1/sql?db=public`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sql: statement }),
  });
  const body = await res.text();
  assert.equal(res.status, 200, `${statement}: ${body}`);
}

Deno.test("forward greptime: a keyed SQL table goes up with its types, late rows included", async () => {
  const up = petrelUpstream();
  await up.start();
  await exec(up.base, KEYED);
  const edge = await startEdge({ name: "gt", url: `${up.base}/v1/influxdb/write`, protocol: "greptime" });
  try {
    await exec(edge.url, KEYED);
    const t0 = Date.now() - 600_000;
    await exec(
      edge.url,
      `INSERT INTO sensors VALUES ('a', 'x', 1.5, 7, true, 'say "hi", ok', ${t0}), ` +
        `('d', 'x y,z=1', 4, 0, true, 'two\nlines \\ back', ${t0}), ` +
        `('b', 'x', 2, -3, false, NULL, ${t0 + 1000})`,
    );
    await waitDrained(edge.url);
    // a late row (older than everything forwarded) and an overwrite of a key already sent
    await exec(edge.url, `INSERT INTO sensors VALUES ('c', 'y', 3.25, 1, true, 'late', ${t0 - 60_000})`);
    await exec(edge.url, `INSERT INTO sensors VALUES ('a', 'x', 9.5, 8, false, 'new', ${t0})`);
    const want = [
      ["a", "x", 9.5, 8, false, "new", t0],
      ["b", "x", 2, -3, false, null, t0 + 1000],
      ["c", "y", 3.25, 1, true, "late", t0 - 60_000],
      ["d", "x y,z=1", 4, 0, true, "two\nlines \\ back", t0],
    ];
    const read = () => sqlRows(up.base, "SELECT host, dc, temp, n, ok, note, ts FROM sensors ORDER BY host");
    await waitFor(async () => JSON.stringify(await read()) === JSON.stringify(want) || null, 20_000);
    assert.deepEqual(await read(), want);
  } finally {
    await edge.stop();
    await up.kill();
  }
});

Deno.test("forward greptime: an append table arrives exactly once across an upstream kill and an edge restart", async () => {
  const up = petrelUpstream();
  await up.start();
  await exec(up.base, APPEND);
  const forward = { name: "logs", url: `${up.base}/v1/influxdb/write`, protocol: "greptime", batch_size: 7 };
  let edge: TestServer = await startEdge(forward);
  const dataHome = edge.dataHome;
  const t0 = Date.now() - 600_000;
  let n = 0;
  const insert = async () => {
    const rows = Array.from({ length: 10 }, () => {
      n++;
      // same timestamp for several rows: only an append table keeps them all
      return `('svc${n % 3}', 'line ${n}', ${t0 + Math.floor(n / 4) * 1000})`;
    });
    await exec(edge.url, `INSERT INTO app_logs VALUES ${rows.join(", ")}`);
  };
  try {
    await exec(edge.url, APPEND);
    for (let i = 0; i < 3; i++) await insert();
    await up.kill();
    for (let i = 0; i < 3; i++) await insert();
    await edge.stop();
    edge = await startEdge(forward, dataHome);
    for (let i = 0; i < 2; i++) await insert();
    await up.start();
    for (let i = 0; i < 2; i++) await insert();
    const count = () =>
      sqlRows(up.base, "SELECT count(*), count(DISTINCT msg) FROM app_logs").then((r) => r[0]);
    await waitFor(async () => (await count())[1] === n || null, 30_000, 200);
    await waitDrained(edge.url);
    const [total, distinct] = await count();
    assert.equal(distinct, n, "every row acknowledged at the edge is upstream");
    // a batch in flight when the upstream died may be sent twice: at most one batch of 7
    assert.ok((total as number) - n <= 7, `${(total as number) - n} duplicates`);
    // the journal is trimmed below the cursor
    const handle = edge.server.app.storage.database("public");
    edge.server.app.forwarder!.trimJournals();
    const left = handle.conn.prepare("SELECT count(*) AS c FROM __petrel_forward_journal").get() as {
      c: number;
    };
    assert.equal(left.c, 0);
    const st = await forwardStatus(edge.url);
    assert.equal(st.queue_rows, 0);
  } finally {
    await edge.stop();
    await up.kill();
  }
});
