/**
 * SQL picking a metric table's series by tag and naming no time reads those series by their XOR
 * chunks in compacted windows (a seek per series, `storage/metric_series_rows.ts`) and the samples
 * table only from the compacted end on and in dirty windows, never a scan of every series' samples;
 * the answer is the same, row for row, as the view's (`OR false` keeps the WHERE's meaning but not
 * a conjunct the rewrite relies on): NaN, stale markers, a late sample in a compacted window, a
 * deleted one, and the recent samples next to the compacted ones.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest } from "../http/fixtures/sql_client.ts";
import { remoteWrite } from "../promql/prom_compare.ts";
import { type Series, STALE_NAN } from "../../src/common/series.ts";

const HOUR = 3_600_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;

async function compactedWindows(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^petrel_metric_compaction_windows_total (\d+)/m.exec(text)?.[1] ?? -1);
}

/** 6 hosts over the last 4 hours and more, a sample a minute: 3+ windows close and get compacted. */
function metric(): Series[] {
  const out: Series[] = [];
  for (let h = 0; h < 6; h++) {
    const labels: Record<string, string> = { __name__: "cpu", host: `h${h}`, job: `j${h % 2}` };
    const samples: Array<{ timestampMs: number; value: number }> = [];
    for (let t = BASE + 1_000; t < Date.now(); t += 60_000) {
      const i = samples.length;
      const value = i === 3 ? NaN : i === 4 ? STALE_NAN : i === 5 ? Infinity : h * 100 + i / 4;
      samples.push({ timestampMs: t, value });
    }
    out.push({ labels, samples });
  }
  // another metric on the same physical table: the chosen series are then few of its series
  for (let h = 0; h < 200; h++) {
    const samples = [];
    for (let t = BASE + 2_000; t < Date.now(); t += 300_000) samples.push({ timestampMs: t, value: h });
    out.push({ labels: { __name__: "mem", host: `h${h}` }, samples });
  }
  return out;
}

async function physicalPlan(s: TestServer, sql: string): Promise<string> {
  const out = await sqlOk(s.url, `EXPLAIN ${sql}`);
  const rows = (out[0] as { records: { rows: string[][] } }).records.rows;
  return rows.find((r) => r[0] === "physical_plan")![1];
}

const CASES = [
  "SELECT * FROM cpu WHERE host = 'h3'{w}",
  "SELECT count(*), sum(greptime_value), min(greptime_timestamp), max(greptime_timestamp) FROM cpu " +
  "WHERE job = 'j1'{w}",
  "SELECT host, count(*), max(greptime_value) FROM cpu WHERE host IN ('h1', 'h2', 'h5'){w} GROUP BY host " +
  "ORDER BY host",
  "SELECT * FROM cpu WHERE host ~ '^h[24]$'{w} ORDER BY greptime_timestamp DESC, host LIMIT 7",
  "SELECT greptime_value FROM cpu WHERE host = 'h0'{w} LIMIT 10",
  "SELECT * FROM cpu WHERE host = 'h9'{w}",
];

async function sameAnswers(s: TestServer): Promise<void> {
  for (const c of CASES) {
    assert.deepEqual(
      await sqlOk(s.url, c.replace("{w}", "")),
      await sqlOk(s.url, c.replace("{w}", " OR false")),
      c,
    );
  }
}

Deno.test("tag-filtered SQL with no time reads the picked series' chunks, with the view's answer", async () => {
  const s = await startTestServer();
  try {
    await remoteWrite(s.url, metric(), "/v1/prometheus/write");
    const deadline = Date.now() + 30_000;
    while (await compactedWindows(s.url) < 3) {
      assert.ok(Date.now() < deadline, "three windows compacted within 30 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    await sameAnswers(s);
    const plan = await physicalPlan(s, "SELECT count(*) FROM cpu WHERE host = 'h3'");
    // the chosen series' chunks by key, window by window; the samples table by time range only
    // (from the compacted end, and dirty windows), never scanned (but for the empty `WHERE 0` arm
    // that gives the columns their declared types)
    assert.match(plan, /SEARCH c USING PRIMARY KEY \(series_id=\? AND start_ts>\? AND start_ts<\?\)/);
    assert.match(plan, /SEARCH x USING PRIMARY KEY \(ts>\? AND ts<\?\)/);
    assert.doesNotMatch(plan, /SCAN x\n/);
    assert.equal(plan.match(/SCAN main\.__petrel_samples/g)?.length, 1);
    // a regex picks the series the same way (it runs on the series table before the query)
    assert.match(await physicalPlan(s, "SELECT count(*) FROM cpu WHERE host ~ '^h[24]$'"), /SEARCH c /);
    // many of the physical table's series (a third of cpu's six): decoding them would cost more
    assert.doesNotMatch(await physicalPlan(s, "SELECT count(*) FROM mem WHERE host != 'h1'"), /SEARCH c /);
    // a time named in no bound keeps the scan (a bounded one: metric_series_chunks_range_test.ts)
    const timed = await physicalPlan(
      s,
      `SELECT count(*) FROM cpu WHERE host = 'h3' AND greptime_timestamp + 0 > ${BASE}`,
    );
    assert.doesNotMatch(timed, /SEARCH c /);
    // a late sample in a compacted window (dirty until compacted again) and a deleted one
    await remoteWrite(s.url, [{
      labels: { __name__: "cpu", host: "h3", job: "j1" },
      samples: [{ timestampMs: BASE + 30_500, value: 42 }],
    }], "/v1/prometheus/write");
    await sqlOk(s.url, `DELETE FROM cpu WHERE host = 'h2' AND greptime_timestamp = ${BASE + HOUR + 1_000}`);
    await sameAnswers(s);
    const h3 = await sqlOk(
      s.url,
      `SELECT greptime_value FROM cpu WHERE host = 'h3' AND greptime_timestamp = ${BASE + 30_500}`,
    );
    assert.deepEqual((h3[0] as { records: { rows: unknown[] } }).records.rows, [[42]]);
  } finally {
    await s.stop();
  }
});

async function count(s: TestServer, sql: string): Promise<number> {
  return ((await sqlOk(s.url, sql))[0] as { records: { rows: number[][] } }).records.rows[0][0];
}

Deno.test("a ttl sweep cutting a compacted hour: the chunks no longer show its deleted samples", async () => {
  const s = await startTestServer({ storage: { ttl_sweep_interval: 100 } });
  try {
    await remoteWrite(s.url, metric(), "/v1/prometheus/write");
    await sqlOk(s.url, "ADMIN compact_table('cpu')");
    const picked = "SELECT count(*), min(greptime_timestamp) FROM cpu WHERE host = 'h3'";
    const all = await count(s, "SELECT count(*) FROM cpu WHERE host = 'h3' OR false");
    // a ttl ending mid-hour, swept: the hour's chunk keeps the samples before the cutoff
    await sqlOk(s.url, "ALTER TABLE cpu SET 'ttl' = '150m'");
    const deadline = Date.now() + 10_000;
    while (await count(s, "SELECT count(*) FROM cpu WHERE host = 'h3' OR false") === all) {
      assert.ok(Date.now() < deadline, "swept within 10 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    // a longer ttl shows what the sweep left: the same through the chunks as through the samples
    await sqlOk(s.url, "ALTER TABLE cpu SET 'ttl' = '30d'");
    assert.match(await physicalPlan(s, picked), /SEARCH c /);
    assert.deepEqual(await sqlOk(s.url, picked), await sqlOk(s.url, `${picked} OR false`));
    // a physical table's ttl (which reads do not apply, only the sweep); counted before the ALTER,
    // as a sweep (every 100 ms) may come between the ALTER and a count after it
    const before = await count(s, "SELECT count(*) FROM cpu WHERE host = 'h3' OR false");
    await sqlOk(s.url, "ALTER TABLE greptime_physical_table SET 'ttl' = '100m'");
    while (await count(s, "SELECT count(*) FROM cpu WHERE host = 'h3' OR false") === before) {
      assert.ok(Date.now() < deadline, "swept within 10 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(await sqlOk(s.url, picked), await sqlOk(s.url, `${picked} OR false`));
  } finally {
    await s.stop();
  }
});

Deno.test("the chunks are read for at most 1/32 of the physical table's series, exactly at the edge too", async () => {
  const s = await startTestServer();
  try {
    // 64 series on the physical table (ids 1..64): 2 picked is 1/32, 3 is more
    const series: Series[] = [];
    for (let h = 0; h < 64; h++) {
      series.push({
        labels: { __name__: h < 8 ? "cpu" : "mem", host: `h${h}` },
        samples: [{ timestampMs: BASE + h, value: h }],
      });
    }
    await remoteWrite(s.url, series, "/v1/prometheus/write");
    assert.match(await physicalPlan(s, "SELECT count(*) FROM cpu WHERE host IN ('h1', 'h2')"), /SEARCH c /);
    assert.match(await physicalPlan(s, "SELECT count(*) FROM cpu WHERE host ~ '^h[12]$'"), /SEARCH c /);
    assert.doesNotMatch(
      await physicalPlan(s, "SELECT count(*) FROM cpu WHERE host IN ('h1', 'h2', 'h3')"),
      /SEARCH c /,
    );
  } finally {
    await s.stop();
  }
});

Deno.test("a metric sample time past ±(2^53 - 1) ms is refused, so compaction never stops on it", async () => {
  const s = await startTestServer();
  try {
    await remoteWrite(s.url, metric(), "/v1/prometheus/write");
    const reply = await sqlRequest(
      s.url,
      "INSERT INTO cpu (host, greptime_timestamp, greptime_value) VALUES ('h1', -9007199254740993, 1)",
    );
    assert.equal(reply.status, 400, reply.text);
    assert.match(reply.text, /Invalid timestamp in metric cpu: .*2\^53/);
    // the closed windows compact (a sample at -2^53 ms stopped it at the oldest window for good)
    const deadline = Date.now() + 30_000;
    while (await compactedWindows(s.url) < 3) {
      assert.ok(Date.now() < deadline, "three windows compacted within 30 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    const picked = "SELECT count(*), sum(greptime_value) FROM cpu WHERE host = 'h1'";
    assert.match(await physicalPlan(s, picked), /SEARCH c /);
    assert.deepEqual(await sqlOk(s.url, picked), await sqlOk(s.url, `${picked} OR false`));
  } finally {
    await s.stop();
  }
});
