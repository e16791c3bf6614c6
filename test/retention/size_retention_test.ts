/**
 * Retention by size over HTTP: a table or database over `max_disk_size` loses its oldest hour
 * windows first and keeps its newest, for ordinary and metric-engine tables; the bytes per table
 * are in `information_schema.tables` and on `/metrics`, with the windows and rows dropped.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import type { Series } from "../../src/common/series.ts";
import { lineWrite, metricValue, queryRange, remoteWrite, sql, sqlError } from "./http_helpers.ts";

const HOUR = 3_600_000;
/** Ten whole hours, ending two hours ago. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 12 * HOUR;

/**
 * A server whose sweeps and compactions run only when the test calls them: size retention skips a
 * metric table while the background compactor (started a second after a metric write) reads one of
 * its windows, so a test calling `enforceDiskSize()` itself must not race that compactor.
 */
async function startManualServer(storage: { max_disk_size?: number } = {}): Promise<TestServer> {
  const server = await startTestServer({ storage: { ...storage, ttl_sweep_interval: 0 } });
  server.server.app.storage.stopCompactor();
  return server;
}

async function tableBytes(url: string, db: string, table: string): Promise<number> {
  const rows = await sql(
    url,
    `SELECT data_length + index_length FROM information_schema.tables ` +
      `WHERE table_schema = '${db}' AND table_name = '${table}'`,
  );
  return Number(rows[0][0]);
}

Deno.test("size retention: an ordinary table over max_disk_size drops its oldest windows first", async () => {
  const server = await startManualServer();
  const { url } = server;
  try {
    await sql(
      url,
      `CREATE TABLE logs (host STRING, msg STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY (host)) ` +
        `WITH (max_disk_size = '64KiB', append_mode = 'true')`,
    );
    const ddl = await sql(url, "SHOW CREATE TABLE logs");
    assert.match(String(ddl[0][1]), /max_disk_size = '64KiB'/);
    const pad = "x".repeat(200);
    for (let h = 0; h < 10; h++) {
      const lines = Array.from(
        { length: 100 },
        (_, i) => `logs,host=h${i % 4} msg="${pad}" ${BASE + h * HOUR + i * 1000}`,
      );
      await lineWrite(url, lines);
    }
    const before = await tableBytes(url, "public", "logs");
    assert.ok(before > 64 * 1024, `written ${before} bytes, over the bound`);

    const drops = server.server.app.storage.enforceDiskSize();
    assert.ok(drops.length === 1 && drops[0].table === "logs" && drops[0].windows > 0, JSON.stringify(drops));

    const after = await tableBytes(url, "public", "logs");
    assert.ok(after <= 64 * 1024, `after the sweep ${after} bytes fit in 64KiB`);
    const perHour = await sql(
      url,
      "SELECT date_bin(INTERVAL '1 hour', ts) AS w, count(*) FROM logs GROUP BY w ORDER BY w",
    );
    const hours = perHour.map((r) => (Number(r[0]) - BASE) / HOUR);
    const first = 10 - hours.length;
    assert.ok(hours.length >= 1 && hours.length < 10, `kept ${hours.length} windows`);
    assert.deepEqual(
      hours,
      Array.from({ length: hours.length }, (_, i) => first + i),
      "the newest windows remain",
    );
    for (const r of perHour) assert.equal(Number(r[1]), 100, "remaining windows are whole");
    assert.equal(drops[0].windows, first, "one drop per oldest window");
    assert.equal(drops[0].rows, first * 100);

    const metrics = await (await fetch(`${url}/metrics`)).text();
    const labels = '{database="public",table="logs"}';
    assert.equal(metricValue(metrics, `petrel_retention_dropped_windows_total${labels}`), first);
    assert.equal(metricValue(metrics, `petrel_retention_dropped_rows_total${labels}`), first * 100);
    assert.equal(metricValue(metrics, `petrel_table_disk_bytes${labels}`), after);

    assert.deepEqual(server.server.app.storage.enforceDiskSize(), [], "nothing more to drop");
  } finally {
    await server.stop();
  }
});

Deno.test("size retention: bad max_disk_size values and logical tables get a clear 400", async () => {
  const server = await startTestServer();
  try {
    const bad = await sqlError(
      server.url,
      "CREATE TABLE t (v DOUBLE, ts TIMESTAMP TIME INDEX) WITH (max_disk_size = 'lots')",
    );
    assert.equal(bad.status, 400);
    assert.match(bad.error, /max_disk_size: 'lots'/);
    const db = await sqlError(server.url, "CREATE DATABASE d WITH (max_disk_size = '1 parsec')");
    assert.equal(db.status, 400);
    assert.match(db.error, /max_disk_size/);
    await remoteWrite(server.url, hourSeries("m", 1, 1, 1));
    const logical = await sqlError(
      server.url,
      "CREATE TABLE lg (ts TIMESTAMP TIME INDEX, val DOUBLE, host STRING PRIMARY KEY) ENGINE=metric " +
        "WITH (on_physical_table = 'greptime_physical_table', max_disk_size = '1MiB')",
    );
    assert.equal(logical.status, 400);
    assert.match(logical.error, /physical table, not a logical table/);
    const alterLogical = await sqlError(server.url, "ALTER TABLE m SET 'max_disk_size' = '1MiB'");
    assert.equal(alterLogical.status, 400);
    assert.match(alterLogical.error, /physical table, not a logical table/);
    await sql(server.url, "ALTER TABLE greptime_physical_table SET 'max_disk_size' = '1MiB'");
    await sql(server.url, "CREATE TABLE t2 (v DOUBLE, ts TIMESTAMP TIME INDEX)");
    await sql(server.url, "ALTER TABLE t2 SET 'max_disk_size' = '2MiB'");
    assert.match(String((await sql(server.url, "SHOW CREATE TABLE t2"))[0][1]), /max_disk_size = '2MiB'/);
    const badAlter = await sqlError(server.url, "ALTER TABLE t2 SET 'max_disk_size' = '-1'");
    assert.equal(badAlter.status, 400);
    await sql(server.url, "CREATE DATABASE ok WITH (max_disk_size = '1GiB')");
    const shown = await sql(server.url, "SHOW CREATE DATABASE ok");
    assert.match(String(shown[0][1]), /max_disk_size = '1GiB'/);
  } finally {
    await server.stop();
  }
});

function hourSeries(name: string, hours: number, perHour: number, instances: number): Series[] {
  return Array.from({ length: instances }, (_, i) => ({
    labels: { __name__: name, instance: `i-${i}` },
    samples: Array.from({ length: hours * perHour }, (_, k) => ({
      timestampMs: BASE + Math.floor(k * HOUR / perHour) + 1000,
      value: Math.sin(k + i) * 1000 + k,
    })),
  }));
}

Deno.test("size retention: a database bound drops the oldest windows of its metric tables, compacted or not", async () => {
  const server = await startManualServer();
  const { url } = server;
  const storage = server.server.app.storage;
  try {
    await sql(url, "CREATE DATABASE edge WITH (max_disk_size = '256KiB')");
    await remoteWrite(url, hourSeries("node_load", 10, 120, 20), "edge");
    storage.compactMetrics(BASE + 7 * HOUR); // the first windows are in chunks as well, the rest not yet
    const physical = "greptime_physical_table";
    const before = await tableBytes(url, "edge", physical);
    assert.ok(before > 256 * 1024, `written ${before} bytes`);

    const drops = storage.enforceDiskSize();
    assert.equal(drops.length, 1);
    assert.equal(drops[0].table, physical);
    const after = await tableBytes(url, "edge", physical);
    assert.ok(after <= 256 * 1024, `after the sweep ${after} bytes fit in 256KiB`);

    const rows = await sql(
      url,
      "SELECT min(greptime_timestamp), max(greptime_timestamp), count(*) FROM node_load",
      "edge",
    );
    const kept = 10 - drops[0].windows;
    assert.equal(Number(rows[0][0]), BASE + (10 - kept) * HOUR + 1000, "the oldest windows went first");
    assert.equal(Number(rows[0][1]), BASE + 10 * HOUR - HOUR / 120 + 1000, "the newest sample stays");
    assert.equal(Number(rows[0][2]), kept * 120 * 20);
    assert.equal(drops[0].rows, (10 - kept) * 120 * 20);

    // PromQL reads chunks and the head: no dropped window comes back through either.
    const matrix = await queryRange(url, "node_load", BASE, BASE + 10 * HOUR, 600, "edge");
    assert.equal(matrix.length, 20);
    const firstT = Math.min(...matrix.flatMap((s) => s.values.map((v) => v[0] * 1000)));
    assert.ok(firstT >= BASE + (10 - kept) * HOUR, `PromQL's first point ${firstT} is in a kept window`);
    storage.compactMetrics(BASE + 12 * HOUR);
    const again = await queryRange(url, "node_load", BASE, BASE + 10 * HOUR, 600, "edge");
    assert.deepEqual(again, matrix, "compaction afterwards changes nothing");

    const metrics = await (await fetch(`${url}/metrics`)).text();
    const labels = `{database="edge",table="${physical}"}`;
    assert.equal(metricValue(metrics, `petrel_retention_dropped_windows_total${labels}`), drops[0].windows);
    assert.ok((metricValue(metrics, `petrel_table_disk_bytes${labels}`) ?? -1) > 0);
    assert.equal(metricValue(metrics, `petrel_table_disk_bytes{database="edge",table="node_load"}`), 0);
  } finally {
    await server.stop();
  }
});

Deno.test("size retention: the [storage] default bounds databases without their own", async () => {
  const server = await startManualServer({ max_disk_size: 256 * 1024 });
  try {
    await remoteWrite(server.url, hourSeries("up_down", 10, 120, 20));
    await sql(server.url, "CREATE DATABASE big WITH (max_disk_size = '1GiB')");
    await remoteWrite(server.url, hourSeries("up_down", 10, 120, 20), "big");
    const drops = server.server.app.storage.enforceDiskSize();
    assert.deepEqual(drops.map((d) => d.database), ["public"], "only public is over its bound");
    assert.ok(await tableBytes(server.url, "public", "greptime_physical_table") <= 256 * 1024);
    const big = await sql(server.url, "SELECT count(*) FROM up_down", "big");
    assert.equal(Number(big[0][0]), 10 * 120 * 20);
  } finally {
    await server.stop();
  }
});

Deno.test("size retention: the background sweeper enforces the bound on its own", async () => {
  const server = await startTestServer({ storage: { ttl_sweep_interval: 200, max_disk_size: 256 * 1024 } });
  try {
    await remoteWrite(server.url, hourSeries("swept", 10, 120, 20));
    const series = '{database="public",table="greptime_physical_table"}';
    const deadline = Date.now() + 20_000;
    for (;;) {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      if ((metricValue(text, `petrel_retention_dropped_windows_total${series}`) ?? 0) > 0) break;
      assert.ok(Date.now() < deadline, "the sweeper dropped windows within 20 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(await tableBytes(server.url, "public", "greptime_physical_table") <= 256 * 1024);
  } finally {
    await server.stop();
  }
});

Deno.test("size retention: a bound smaller than one window keeps the newest window whole", async () => {
  const server = await startManualServer();
  try {
    await sql(
      server.url,
      "CREATE TABLE tiny (v DOUBLE, ts TIMESTAMP TIME INDEX) WITH (max_disk_size = '1KiB')",
    );
    const values = Array.from(
      { length: 5 * 50 },
      (_, i) => `(${i}, ${BASE + Math.floor(i / 50) * HOUR + i})`,
    );
    await sql(server.url, `INSERT INTO tiny (v, ts) VALUES ${values.join(", ")}`);
    const drops = server.server.app.storage.enforceDiskSize();
    assert.deepEqual(drops.map((d) => [d.table, d.windows, d.rows]), [["tiny", 4, 200]]);
    const rows = await sql(server.url, "SELECT min(ts), count(*) FROM tiny");
    assert.deepEqual(rows[0].map(Number), [BASE + 4 * HOUR + 200, 50]);
    assert.deepEqual(
      server.server.app.storage.enforceDiskSize(),
      [],
      "the newest window stays, over the bound",
    );
  } finally {
    await server.stop();
  }
});
