/**
 * Deleting source rows of a `[[downsample]]` rule: an SQL DELETE (with or without a time predicate)
 * or a TRUNCATE marks the windows the rows fed, and the next run recomputes them, so the target
 * agrees with the source again: a thinned window is aggregated anew, a window (or a series of it)
 * left with no rows loses its target rows, through SQL and PromQL (compacted chunks too), and a rule
 * reading the first rule's target follows. TTL expiry and size retention leave the targets alone.
 */
import assert from "node:assert/strict";
import { parseDownsampleRules } from "../../src/config/downsample.ts";
import type { Series } from "../../src/common/series.ts";
import { startTestServer } from "../helpers/server.ts";
import { lineWrite, queryRange, remoteWrite, sql } from "../retention/http_helpers.ts";

const HOUR = 3_600_000;
const MIN = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

/** Two stations, a row a minute for 30 minutes: station s1's row k is k, s2's is 100 + k. */
function weather(table = "weather"): string[] {
  return Array.from({ length: 30 }, (_, k) => [
    `${table},station=s1 temp=${k} ${BASE + k * MIN}`,
    `${table},station=s2 temp=${100 + k} ${BASE + k * MIN}`,
  ]).flat();
}

const WEATHER_RULE = {
  source: "weather",
  interval: "10m",
  aggregates: ["avg", "count"],
  target: "weather_10m",
  target_database: "rollups",
  delay: "0s",
};

async function rollups(url: string): Promise<Array<[string, number, number, number]>> {
  // station, time index, temp_avg, temp_count
  const rows = await sql(url, "SELECT * FROM weather_10m ORDER BY 1, 2", "rollups");
  return rows.map((r) => [String(r[0]), (Number(r[1]) - BASE) / MIN, Number(r[2]), Number(r[3])]);
}

Deno.test("downsample delete: DELETE recomputes the windows it touched; an emptied window loses its rows", async () => {
  const server = await startTestServer({ downsample: parseDownsampleRules([WEATHER_RULE]) });
  const run = () => server.server.downsampler.runOnce(BASE + HOUR);
  try {
    await lineWrite(server.url, weather());
    assert.equal(await run(), 3);
    assert.equal((await rollups(server.url)).length, 6);

    // s1 loses its first five rows (window 0 thinned); both stations lose window 10m–20m entirely
    const at = (ms: number) => `'${new Date(ms).toISOString()}'`;
    await sql(
      server.url,
      `DELETE FROM weather WHERE station = 's1' AND greptime_timestamp < ${at(BASE + 5 * MIN)}`,
    );
    await sql(
      server.url,
      `DELETE FROM weather WHERE greptime_timestamp >= ${at(BASE + 10 * MIN)} AND greptime_timestamp < ${
        at(BASE + 20 * MIN)
      }`,
    );
    assert.equal(await run(), 2, "the two windows touched");
    assert.deepEqual(await rollups(server.url), [
      ["s1", 0, 7, 5],
      ["s1", 20, 24.5, 10],
      ["s2", 0, 104.5, 10],
      ["s2", 20, 124.5, 10],
    ]);
    assert.equal(await run(), 0, "the marks are cleared");

    // no time predicate: every window station s2 had rows in
    await sql(server.url, `DELETE FROM weather WHERE station = 's2'`);
    assert.equal(await run(), 2);
    assert.deepEqual(await rollups(server.url), [["s1", 0, 7, 5], ["s1", 20, 24.5, 10]]);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample delete: TRUNCATE of a metric source empties its windows, chunks and the rule reading its target", async () => {
  const rules = parseDownsampleRules([
    { source: "cpu", interval: "5m", aggregates: ["max"], target: "cpu_5m", delay: "0s" },
    { source: "cpu_5m_max", interval: "1h", aggregates: ["max"], target: "cpu_1h", delay: "0s" },
  ]);
  const server = await startTestServer({ downsample: rules });
  const run = () => server.server.downsampler.runOnce(BASE + 2 * HOUR);
  const series: Series[] = [{
    labels: { __name__: "cpu", instance: "a" },
    samples: Array.from({ length: 60 }, (_, k) => ({ timestampMs: BASE + k * MIN, value: k })),
  }];
  try {
    await remoteWrite(server.url, series);
    assert.equal(await run(), 12 + 1);
    // the targets' windows are compacted into chunks, which PromQL reads
    server.server.app.storage.compactMetrics(Date.now());
    const promql = async (q: string) =>
      (await queryRange(server.url, q, BASE, BASE + HOUR - MIN, 60)).flatMap((s) => s.values);
    assert.equal((await promql("cpu_5m_max")).length > 0, true);

    await sql(server.url, "TRUNCATE TABLE cpu");
    assert.equal(await run(), 12 + 1, "every window of both rules");
    assert.deepEqual(await sql(server.url, "SELECT * FROM cpu_5m_max"), []);
    assert.deepEqual(await sql(server.url, "SELECT * FROM cpu_1h_max"), []);
    assert.deepEqual(await promql("cpu_5m_max"), []);
    assert.deepEqual(await promql("cpu_1h_max"), []);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample delete: TTL expiry and size retention of a source leave its downsampled windows", async () => {
  const rules = parseDownsampleRules([
    WEATHER_RULE,
    { ...WEATHER_RULE, source: "logs", target: "logs_10m" },
  ]);
  const server = await startTestServer({ downsample: rules, storage: { ttl_sweep_interval: 0 } });
  const storage = server.server.app.storage;
  const run = () => server.server.downsampler.runOnce(BASE + HOUR);
  try {
    await sql(
      server.url,
      `CREATE TABLE weather (station STRING, temp DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY (station)) ` +
        `WITH (ttl = '7h')`,
    );
    await sql(
      server.url,
      `CREATE TABLE logs (station STRING, temp DOUBLE, pad STRING, ts TIMESTAMP TIME INDEX, ` +
        `PRIMARY KEY (station)) WITH (max_disk_size = '16KiB', append_mode = 'true')`,
    );
    await lineWrite(server.url, weather());
    await lineWrite(server.url, weather("logs"));
    assert.equal(await run(), 6);
    const before = await rollups(server.url);
    const logsBefore = await sql(server.url, "SELECT * FROM logs_10m ORDER BY 1, 2", "rollups");
    assert.equal(logsBefore.length, 6);

    // two hours on, every weather row is past its ttl; a write pushes logs over its size bound
    assert.equal(storage.sweepExpired(Date.now() + 2 * HOUR), 60);
    const pad = "x".repeat(400);
    await lineWrite(
      server.url,
      Array.from(
        { length: 200 },
        (_, k) => `logs,station=s3 temp=1,pad="${pad}" ${BASE + 3 * HOUR + k * 1000}`,
      ),
    );
    const drops = storage.enforceDiskSize();
    assert.ok(drops.some((d) => d.table === "logs" && d.windows > 0), JSON.stringify(drops));
    assert.deepEqual(await sql(server.url, `SELECT count(*) FROM logs WHERE ts < ${BASE + HOUR}`), [[0]]);

    assert.equal(await run(), 0, "nothing recomputed");
    assert.deepEqual(await rollups(server.url), before);
    assert.deepEqual(await sql(server.url, "SELECT * FROM logs_10m ORDER BY 1, 2", "rollups"), logsBefore);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample delete: DELETE from a metric source recomputes the windows it touched", async () => {
  const rules = parseDownsampleRules([
    { source: "cpu", interval: "5m", aggregates: ["max"], target: "cpu_5m", delay: "0s" },
  ]);
  const server = await startTestServer({ downsample: rules });
  const run = () => server.server.downsampler.runOnce(BASE + 2 * HOUR);
  const series: Series[] = [{
    labels: { __name__: "cpu", instance: "a" },
    samples: Array.from({ length: 60 }, (_, k) => ({ timestampMs: BASE + k * MIN, value: k })),
  }];
  try {
    await remoteWrite(server.url, series);
    assert.equal(await run(), 12);
    // window 10m–15m thinned (its max goes), window 20m–25m emptied
    await sql(
      server.url,
      `DELETE FROM cpu WHERE greptime_value = 14 OR (greptime_timestamp >= ${BASE + 20 * MIN} ` +
        `AND greptime_timestamp < ${BASE + 25 * MIN})`,
    );
    assert.deepEqual(await sql(server.url, "SELECT count(*) FROM cpu"), [[54]]);
    assert.equal(await run(), 2, "the two windows touched");
    const rows = await sql(
      server.url,
      "SELECT greptime_timestamp, greptime_value FROM cpu_5m_max ORDER BY 1",
    );
    assert.deepEqual(
      rows.map((r) => [(Number(r[0]) - BASE) / MIN, r[1]]),
      [[0, 4], [5, 9], [10, 13], [15, 19], ...[25, 30, 35, 40, 45, 50, 55].map((m) => [m, m + 4])],
    );
  } finally {
    await server.stop();
  }
});
