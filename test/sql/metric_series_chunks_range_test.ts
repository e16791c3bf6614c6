/**
 * SQL picking a few of a metric table's series by tag and bounding the time reads their XOR chunks
 * over the range only (`storage/metric_series_rows.ts`: the windows the range touches, the chunks'
 * samples trimmed to it, the samples table by its key over the range) when that costs less than a
 * scan of the range; the answer is the view's, row for row (`OR false` keeps the WHERE's meaning but
 * not a conjunct the rewrite relies on): bounds on a sample's exact time, a range inside one chunk,
 * one across compacted and open hours, late samples, a ttl.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { sqlOk } from "../http/fixtures/sql_client.ts";
import { remoteWrite } from "../promql/prom_compare.ts";
import type { Series } from "../../src/common/series.ts";

const HOUR = 3_600_000, MIN = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
/** Two sample times of every cpu series, ten minutes apart inside the second (compacted) hour. */
const T1 = BASE + HOUR + 1_000 + 10 * MIN, T2 = T1 + 10 * MIN;

/** When `metric()` last made its samples: each series has samples up to (not at) this time. */
let writtenUntil = 0;

/** 6 cpu hosts a sample a minute from BASE on, and 1000 other series: a host is few of them. */
function metric(): Series[] {
  const out: Series[] = [];
  writtenUntil = Date.now();
  for (let h = 0; h < 6; h++) {
    const samples: Series["samples"] = [];
    for (let t = BASE + 1_000; t < writtenUntil; t += MIN) {
      samples.push({ timestampMs: t, value: h * 1000 + t / MIN });
    }
    out.push({ labels: { __name__: "cpu", host: `h${h}`, job: `j${h % 2}` }, samples });
  }
  for (let h = 0; h < 1000; h++) {
    const samples = [];
    for (let t = BASE + 2_000 + h; t < writtenUntil; t += 30 * MIN) {
      samples.push({ timestampMs: t, value: h });
    }
    out.push({ labels: { __name__: "mem", host: `m${h}` }, samples });
  }
  return out;
}

async function physicalPlan(s: TestServer, sql: string): Promise<string> {
  const out = await sqlOk(s.url, `EXPLAIN ${sql}`);
  const rows = (out[0] as { records: { rows: string[][] } }).records.rows;
  return rows.find((r) => r[0] === "physical_plan")![1];
}

async function rows(s: TestServer, sql: string): Promise<unknown[][]> {
  return ((await sqlOk(s.url, sql))[0] as { records: { rows: unknown[][] } }).records.rows;
}

const SELECT = "SELECT greptime_timestamp, greptime_value, host, job FROM cpu WHERE";

/**
 * The rows of host h3 in `where` (time, value, host, job), asserted the view's, read by chunks or
 * not as `chunks` says; `count` rows if given.
 */
async function same(s: TestServer, where: string, count?: number, chunks = true): Promise<unknown[][]> {
  const sql = `${SELECT} host = 'h3' AND ${where}`;
  (chunks ? assert.match : assert.doesNotMatch)(await physicalPlan(s, sql), /SEARCH c /, where);
  const got = await rows(s, sql);
  assert.deepEqual(got, await rows(s, `${SELECT} (host = 'h3' AND ${where}) OR false`), where);
  if (count !== undefined) assert.equal(got.length, count, where);
  return got;
}

const sameByChunks = (s: TestServer, where: string, count?: number) => same(s, where, count);

Deno.test("a time-bounded read of few series reads their chunks over the range, with the view's answer", async () => {
  const s = await startTestServer();
  try {
    await remoteWrite(s.url, metric(), "/v1/prometheus/write");
    await sqlOk(s.url, "ADMIN compact_table('cpu')");
    const ts = "greptime_timestamp";
    // inside one chunk, bounds on sample times: each bound inclusive or not as written
    await sameByChunks(s, `${ts} >= ${T1} AND ${ts} < ${T2}`, 10);
    await sameByChunks(s, `${ts} > ${T1} AND ${ts} <= ${T2}`, 10);
    await sameByChunks(s, `${ts} BETWEEN ${T1} AND ${T2}`, 11);
    await sameByChunks(s, `${T1} <= ${ts} AND ${T2} > ${ts}`, 10);
    await sameByChunks(
      s,
      `${ts} >= '${new Date(T1).toISOString()}' AND ${ts} <= '${new Date(T2).toISOString()}'`,
      11,
    );
    // across a window's end, and from a compacted hour into the open one
    await sameByChunks(
      s,
      `${ts} >= ${BASE + 2 * HOUR - 5 * MIN} AND ${ts} < ${BASE + 2 * HOUR + 5 * MIN}`,
      10,
    );
    // from 160 minutes before the last hour on: in an hour's first 5 minutes (compaction's grace)
    // the hour before is still open too, and the chunk path must still pay for reading it twice
    const from = BASE + HOUR + 1_000 + 20 * MIN;
    const open = await sameByChunks(s, `${ts} >= ${from}`);
    assert.equal(open.length, Math.ceil((writtenUntil - from) / MIN));
    await sameByChunks(s, `${ts} > now() - INTERVAL '180 minutes' AND ${ts} < now()`);
    // an upper bound on a sample's time in the open hour (read from the samples table)
    const openSample = BASE + 4 * HOUR + 1_000;
    if (writtenUntil > openSample) {
      await sameByChunks(s, `${ts} >= ${BASE + HOUR + 1_000} AND ${ts} <= ${openSample}`, 181);
    }
    // an upper bound only, and no row in the range
    await sameByChunks(s, `${ts} < ${BASE + HOUR}`, 60);
    // the range bounds the reads: chunk windows from the range's first on, samples up to its end
    // (with no range the window list seeks chunks from the first and samples up to the last)
    const plan = await physicalPlan(s, `${SELECT} host = 'h3' AND ${ts} BETWEEN ${T1} AND ${T2}`);
    assert.match(plan, /SEARCH c USING PRIMARY KEY \(series_id=\? AND start_ts>\? AND start_ts<\?\)/);
    assert.doesNotMatch(plan, /SEARCH c USING PRIMARY KEY \(series_id=\? AND start_ts<\?\)/);
    assert.match(plan, /SEARCH x USING PRIMARY KEY \(ts>\? AND ts<\?\)/);
    assert.doesNotMatch(plan, /SEARCH x USING PRIMARY KEY \(ts>\?\)\n|SCAN x\n/);
    // late samples: one in the range, one just before it: their hour is dirty (read from the samples
    // table, so all of it a scan), the next ones still by chunks; then compacted again
    await remoteWrite(s.url, [{
      labels: { __name__: "cpu", host: "h3", job: "j1" },
      samples: [{ timestampMs: T1 + 500, value: -1 }, { timestampMs: T1 - 500, value: -2 }],
    }], "/v1/prometheus/write");
    await same(s, `${ts} >= ${T1} AND ${ts} <= ${T2}`, 12, false);
    const across = `${ts} >= ${T1} AND ${ts} <= ${T1 + 2 * HOUR}`;
    assert.deepEqual((await sameByChunks(s, across, 122)).slice(0, 2).map((r) => r.slice(0, 2)), [[
      T1,
      3_000 + T1 / MIN,
    ], [T1 + 500, -1]]);
    await sqlOk(s.url, "ADMIN compact_table('cpu')");
    await sameByChunks(s, `${ts} >= ${T1} AND ${ts} <= ${T2}`, 12);
    assert.deepEqual((await sameByChunks(s, across, 122)).slice(0, 2).map((r) => r.slice(0, 2)), [[
      T1,
      3_000 + T1 / MIN,
    ], [T1 + 500, -1]]);
  } finally {
    await s.stop();
  }
});

Deno.test("a time-bounded read keeps the scan where the chunks would cost more", async () => {
  const s = await startTestServer();
  try {
    await remoteWrite(s.url, metric(), "/v1/prometheus/write");
    await sqlOk(s.url, "ADMIN compact_table('cpu')");
    const scan = (where: string, count?: number) => same(s, where, count, false);
    // only the open hour: nothing to decode
    await scan(`greptime_timestamp >= ${BASE + 4 * HOUR}`);
    // a second of a compacted hour: the whole hour's chunk against a second of samples
    await scan(`greptime_timestamp >= ${T1} AND greptime_timestamp < ${T1 + 1_000}`, 1);
    await scan(`greptime_timestamp = ${T1}`, 1);
    // a bound that is not a constant, and a time named in no bound: no range to read by
    await scan(`greptime_timestamp >= (SELECT ${T1})`);
    await scan(`greptime_timestamp IS NOT NULL`);
  } finally {
    await s.stop();
  }
});

Deno.test("a time-bounded chunk read under a ttl not yet swept shows what the view shows", async () => {
  const s = await startTestServer({ storage: { ttl_sweep_interval: 3_600_000 } });
  try {
    await remoteWrite(s.url, metric(), "/v1/prometheus/write");
    await sqlOk(s.url, "ADMIN compact_table('cpu')");
    // the cutoff inside the second hour: its chunk still holds the expired samples (not swept)
    await sqlOk(s.url, `ALTER TABLE cpu SET 'ttl' = '${Math.floor((Date.now() - T1) / MIN)}m'`);
    const all = await sameByChunks(s, `greptime_timestamp >= ${BASE + HOUR}`);
    const cutoff = all[0][0] as number;
    assert.ok(cutoff > BASE + HOUR + 10 * MIN && cutoff <= T1 + MIN, `first row at ${cutoff}`);
    await sameByChunks(s, `greptime_timestamp BETWEEN ${BASE + HOUR} AND ${T2}`);
    await same(s, `greptime_timestamp < ${BASE + HOUR}`, 0, false);
  } finally {
    await s.stop();
  }
});
