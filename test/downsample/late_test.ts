/**
 * Late writes into windows a `[[downsample]]` rule already computed: the window is marked with the
 * write and recomputed by the next run (only that window), the mark survives a restart, a write
 * landing in the middle of a run is not lost, and writes older than `max_lateness` are left out.
 * Both source kinds: a metric (remote write) and an ordinary table (line protocol).
 */
import assert from "node:assert/strict";
import { parseDownsampleRules } from "../../src/config/downsample.ts";
import type { Series } from "../../src/common/series.ts";
import { Downsampler, ruleKey } from "../../src/downsample/downsampler.ts";
import { readWatermark } from "../../src/downsample/watermark.ts";
import { Storage } from "../../src/storage/mod.ts";
import { startTestServer } from "../helpers/server.ts";
import { lineWrite, metricValue, remoteWrite, sql } from "../retention/http_helpers.ts";

const HOUR = 3_600_000;
const MIN = 60_000;
const DAY = 24 * HOUR;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

/** One series, a sample a minute for an hour: sample k is k. */
function cpu(): Series[] {
  return [{
    labels: { __name__: "cpu", instance: "a" },
    samples: Array.from({ length: 60 }, (_, k) => ({ timestampMs: BASE + k * MIN, value: k })),
  }];
}

async function maxPerWindow(url: string): Promise<number[]> {
  const rows = await sql(url, "SELECT greptime_value FROM cpu_5m_max ORDER BY greptime_timestamp");
  return rows.map((r) => Number(r[0]));
}

Deno.test("downsample late: a late sample into a metric's computed window rewrites that window only", async () => {
  const rules = parseDownsampleRules([{
    source: "cpu",
    interval: "5m",
    aggregates: ["max", "count"],
    target: "cpu_5m",
    delay: "0s",
    max_lateness: "1d",
  }]);
  const server = await startTestServer({ downsample: rules });
  try {
    await remoteWrite(server.url, cpu());
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 12);
    const before = await maxPerWindow(server.url);
    assert.deepEqual(before, Array.from({ length: 12 }, (_, j) => 5 * j + 4));

    await remoteWrite(server.url, [{
      labels: { __name__: "cpu", instance: "a" },
      samples: [{ timestampMs: BASE + 7 * MIN + 30_000, value: 1e6 }],
    }]);
    assert.equal(
      await server.server.downsampler.runOnce(BASE + HOUR),
      1,
      "the one window the sample reached",
    );
    assert.deepEqual(await maxPerWindow(server.url), before.map((v, j) => j === 1 ? 1e6 : v));
    const counts = await sql(
      server.url,
      "SELECT greptime_value FROM cpu_5m_count ORDER BY greptime_timestamp",
    );
    assert.deepEqual(counts.map((r) => Number(r[0])), before.map((_, j) => j === 1 ? 6 : 5));
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 0, "the mark is cleared");

    // Older than max_lateness: neither marked nor computed (it lies below the watermark).
    const old = Math.floor((Date.now() - 2 * DAY) / HOUR) * HOUR;
    await remoteWrite(server.url, [{
      labels: { __name__: "cpu", instance: "a" },
      samples: [{ timestampMs: old, value: 7 }],
    }]);
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 0);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    assert.equal(metricValue(text, 'petrel_downsample_recomputed_windows_total{target="cpu_5m"}'), 1);
    assert.equal(metricValue(text, 'petrel_downsample_windows_total{target="cpu_5m"}'), 13);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample late: a table's late row is marked durably and recomputed after a restart", async () => {
  const rules = parseDownsampleRules([{
    source: "weather",
    interval: "10m",
    aggregates: ["avg", "count"],
    target: "weather_10m",
    target_database: "rollups",
    delay: "0s",
  }]);
  let server = await startTestServer({ downsample: rules });
  const dataHome = server.dataHome;
  const read = async () =>
    (await sql(
      server.url,
      "SELECT temp_avg, temp_count FROM weather_10m ORDER BY greptime_timestamp",
      "rollups",
    ))
      .map((r) => r.map(Number));
  try {
    await lineWrite(
      server.url,
      Array.from({ length: 30 }, (_, k) => `weather,station=s1 temp=${k} ${BASE + k * MIN}`),
    );
    assert.equal(await server.server.downsampler.runOnce(BASE + 30 * MIN), 3);
    assert.deepEqual(await read(), [[4.5, 10], [14.5, 10], [24.5, 10]]);
    // Two late rows into the first window, and one for a window not computed yet.
    await lineWrite(server.url, [
      `weather,station=s1 temp=100 ${BASE + 30_000}`,
      `weather,station=s1 temp=-100 ${BASE + 90_000}`,
      `weather,station=s1 temp=7 ${BASE + 31 * MIN}`,
    ]);
    await server.stop();

    server = await startTestServer({ downsample: rules, storage: { data_home: dataHome } });
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 2, "the new window and the late one");
    assert.deepEqual(await read(), [[45 / 12, 12], [14.5, 10], [24.5, 10], [7, 1]]);
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 0, "the mark is cleared");
  } finally {
    await server.stop();
  }
});

Deno.test("downsample late: writes landing in the middle of a run are neither lost nor computed twice", async () => {
  for (const kind of ["metric", "table"] as const) {
    const dataHome = await Deno.makeTempDir({ prefix: "petrel_test_" });
    const storage = Storage.open({ dataHome });
    const [rule] = parseDownsampleRules([{
      source: "cpu",
      interval: "5m",
      aggregates: ["max"],
      target: "cpu_5m",
      delay: "0s",
    }]);
    const write = (times: number[], value: (k: number) => number) => {
      if (kind === "metric") {
        storage.writeMetrics("public", [{
          metric: "cpu",
          series: [{
            labels: { host: "h" },
            samples: times.map((t, k) => ({ timestampMs: t, value: value(k) })),
          }],
        }]);
      } else {
        storage.write("public", [{
          table: "cpu",
          columns: [
            { name: "host", type: "String", semantic: "TAG" },
            { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
            { name: "v", type: "Float64", semantic: "FIELD" },
          ],
          rows: times.map((t, k) => ["h", t, value(k)]),
        }]);
      }
    };
    const day = BASE - 18 * HOUR; // a day of data, one sample a minute: the run takes four steps
    write(Array.from({ length: 1440 }, (_, k) => day + k * MIN), (k) => k % 5);
    const downsampler = new Downsampler(storage, [rule]);
    try {
      const run = downsampler.runOnce(day + DAY);
      await new Promise((r) => setTimeout(r, 0)); // the run has done its first step, no more
      const target = storage.database("public");
      assert.equal(readWatermark(target, ruleKey(rule)), day + 6 * HOUR, `${kind}: mid-run`);
      // One below the watermark (a window computed a moment ago), one above it.
      write([day + HOUR + 30_000, day + 20 * HOUR + 30_000], () => 1e6);
      assert.equal(await run, 288 + 1, `${kind}: every window once, and the late one again`);
      assert.equal(await downsampler.runOnce(day + DAY), 0, `${kind}: nothing left`);
      const column = kind === "metric" ? "greptime_value" : "v_max";
      const table = kind === "metric" ? "cpu_5m_max" : "cpu_5m";
      const ts = kind === "metric" ? "greptime_timestamp" : "ts";
      const out = target.conn.prepare(`SELECT ${ts} AS t, ${column} AS v FROM ${table} WHERE ${column} > 4`)
        .all();
      assert.deepEqual(out.map((r) => [Number(r.t), Number(r.v)]), [[day + HOUR, 1e6], [
        day + 20 * HOUR,
        1e6,
      ]], kind);
    } finally {
      await downsampler.stop();
      storage.close();
    }
  }
});

Deno.test("downsample late: a recomputed window reaches a rule reading the first rule's target", async () => {
  const rules = parseDownsampleRules([
    { source: "cpu", interval: "5m", aggregates: ["max"], target: "cpu_5m", delay: "0s" },
    { source: "cpu_5m_max", interval: "1h", aggregates: ["max"], target: "cpu_1h", delay: "0s" },
  ]);
  const server = await startTestServer({ downsample: rules });
  try {
    await remoteWrite(server.url, cpu());
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 12 + 1);
    await remoteWrite(server.url, [{
      labels: { __name__: "cpu", instance: "a" },
      samples: [{ timestampMs: BASE + 30 * MIN, value: 1e6 }],
    }]);
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 1 + 1, "one window of each rule");
    const rows = await sql(server.url, "SELECT greptime_value FROM cpu_1h_max");
    assert.deepEqual(rows.map((r) => Number(r[0])), [1e6]);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample late: a skip_wal source marks in its own file; a rolled-back write leaves no mark", async () => {
  const rules = parseDownsampleRules([
    { source: "fast", interval: "10m", aggregates: ["max"], target: "fast_10m", delay: "0s" },
  ]);
  const server = await startTestServer({ downsample: rules });
  const maxes = async () =>
    (await sql(server.url, "SELECT v_max FROM fast_10m ORDER BY ts")).map((r) => Number(r[0]));
  try {
    await sql(server.url, "CREATE TABLE fast (ts TIMESTAMP TIME INDEX, v DOUBLE) WITH (skip_wal = 'true')");
    await sql(server.url, "CREATE TABLE strict (ts TIMESTAMP TIME INDEX, v DOUBLE)");
    await lineWrite(server.url, Array.from({ length: 30 }, (_, k) => `fast v=${k} ${BASE + k * MIN}`));
    assert.equal(await server.server.downsampler.runOnce(BASE + 30 * MIN), 3);
    // The late row is written and marked, then the request fails as a whole (a string into another
    // table's float column): no row, no mark.
    const r = await fetch(`${server.url}/v1/influxdb/write?precision=ms`, {
      method: "POST",
      body: `fast v=500 ${BASE + 30_000}\nstrict v="text" ${BASE + 60_000}`,
    });
    assert.equal(r.status, 400, await r.text());
    assert.equal(await server.server.downsampler.runOnce(BASE + 30 * MIN), 0);
    assert.deepEqual(await sql(server.url, "SELECT count(*) FROM fast"), [[30]]);
    // The marks' table was created and rolled back with that write: the next late write marks anew.
    await lineWrite(server.url, [`fast v=600 ${BASE + 11 * MIN}`]);
    assert.equal(await server.server.downsampler.runOnce(BASE + 30 * MIN), 1);
    assert.deepEqual(await maxes(), [9, 600, 29]);
  } finally {
    await server.stop();
  }
});
