/**
 * `DELETE FROM <logical metric table> [WHERE …]` over a real server: samples written by remote write,
 * some compacted into chunks, go by label, by time range and by both; SQL and PromQL (which reads the
 * chunks) show exactly the rest, before and after compacting again; another metric on the same
 * physical table keeps its samples; DELETE on the physical table is refused.
 */
import assert from "node:assert/strict";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import type { Series } from "../../src/common/series.ts";
import { startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

const HOUR = 3_600_000, STEP = 600_000;
/** Three closed hour windows ending at least an hour ago, so ADMIN compact_table compacts them all. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
/** Sample times: every 10 minutes over the three windows (18 per series). */
const TIMES = Array.from({ length: 18 }, (_, k) => BASE + k * STEP);

/** What the test expects stored: "metric/job" → time → value. */
type Model = Map<string, Map<number, number>>;

async function write(url: string, model: Model): Promise<void> {
  const series: Series[] = [];
  for (const [metric, job, scale] of [["req", "a", 1], ["req", "b", 100], ["other", "a", 1000]] as const) {
    const m = new Map(TIMES.map((t, k) => [t, k * scale]));
    model.set(`${metric}/${job}`, m);
    series.push({
      labels: { __name__: metric, job },
      samples: [...m].map(([timestampMs, value]) => ({ timestampMs, value })),
    });
  }
  const r = await fetch(`${url}/v1/prometheus/write`, {
    method: "POST",
    body: encodeRemoteWriteV1(series),
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
  });
  assert.equal(r.status, 204, await r.text());
}

/** The model's samples of one metric as SQL rows `[job, ts, value]`, ordered. */
function expectedRows(model: Model, metric: string): unknown[][] {
  const rows: unknown[][] = [];
  for (const [key, m] of [...model].sort(([a], [b]) => a < b ? -1 : 1)) {
    const [name, job] = key.split("/");
    if (name === metric) { for (const [t, v] of [...m].sort(([a], [b]) => a - b)) rows.push([job, t, v]); }
  }
  return rows;
}

/** The samples PromQL reads (a range selector answers raw samples) as rows `[job, ts, value]`. */
async function promqlRows(url: string, metric: string): Promise<unknown[][]> {
  const params = new URLSearchParams({ query: `${metric}[4h]`, time: String((BASE + 3 * HOUR) / 1000) });
  const r = await fetch(`${url}/v1/prometheus/api/v1/query?${params}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  const rows: unknown[][] = [];
  const result = body.data.result as Array<{ metric: { job: string }; values: [number, string][] }>;
  for (const s of result.sort((a, b) => a.metric.job < b.metric.job ? -1 : 1)) {
    for (const [t, v] of s.values) rows.push([s.metric.job, Math.round(t * 1000), Number(v)]);
  }
  return rows;
}

/** The per-series sample counts a PromQL range query computes, as `job → count` at the last step. */
async function promqlCounts(url: string, metric: string): Promise<Record<string, number>> {
  const end = (BASE + 3 * HOUR) / 1000;
  const params = new URLSearchParams({
    query: `count_over_time(${metric}[4h])`,
    start: String(end - 60),
    end: String(end),
    step: "60",
  });
  const r = await fetch(`${url}/v1/prometheus/api/v1/query_range?${params}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  const out: Record<string, number> = {};
  for (const s of body.data.result as Array<{ metric: { job: string }; values: [number, string][] }>) {
    out[s.metric.job] = Number(s.values.at(-1)![1]);
  }
  return out;
}

async function assertRemaining(url: string, model: Model, what: string): Promise<void> {
  for (const metric of ["req", "other"]) {
    const sql = await sqlRows(
      url,
      `SELECT job, greptime_timestamp, greptime_value FROM ${metric} ORDER BY job, 2`,
    );
    const expected = expectedRows(model, metric);
    assert.deepEqual(sql.map(([j, t, v]) => [j, Number(t), v]), expected, `${what}: SQL of ${metric}`);
    assert.deepEqual(await promqlRows(url, metric), expected, `${what}: PromQL of ${metric}`);
    const counts: Record<string, number> = {};
    for (const [job] of expected) counts[job as string] = (counts[job as string] ?? 0) + 1;
    assert.deepEqual(await promqlCounts(url, metric), counts, `${what}: PromQL range counts of ${metric}`);
  }
}

async function affected(url: string, sql: string): Promise<number> {
  const out = await sqlOk(url, sql);
  assert.equal(out.length, 1, sql);
  assert.ok("affectedrows" in out[0], `${sql}: ${JSON.stringify(out)}`);
  return out[0].affectedrows;
}

function forget(model: Model, key: string, keep: (t: number, v: number) => boolean): number {
  const m = model.get(key)!;
  let n = 0;
  for (const [t, v] of [...m]) {
    if (!keep(t, v)) {
      m.delete(t);
      n++;
    }
  }
  return n;
}

Deno.test("DELETE on a metric logical table removes samples, compacted ones included", async () => {
  const server = await startTestServer();
  const url = server.url;
  try {
    const model: Model = new Map();
    await write(url, model);
    await sqlOk(url, "ADMIN compact_table('req')");
    await assertRemaining(url, model, "written and compacted");

    // by label and time (a timestamp literal, as GreptimeDB's docs write it)
    const cut = new Date(BASE + HOUR).toISOString();
    let n = forget(model, "req/a", (t) => t >= BASE + HOUR);
    assert.equal(n, 6);
    assert.equal(await affected(url, `DELETE FROM req WHERE job = 'a' AND greptime_timestamp < '${cut}'`), n);
    await assertRemaining(url, model, "by label and time");

    // by time alone: both series
    const from = BASE + 2 * HOUR + 30 * 60_000;
    n = forget(model, "req/a", (t) => t < from) + forget(model, "req/b", (t) => t < from);
    assert.equal(n, 6);
    assert.equal(await affected(url, `DELETE FROM req WHERE greptime_timestamp >= ${from}`), n);
    await assertRemaining(url, model, "by time");

    // by label and value, the table's name qualifying a column
    n = forget(model, "req/b", (_t, v) => v !== 700);
    assert.equal(n, 1);
    assert.equal(await affected(url, "DELETE FROM req WHERE req.job = 'b' AND greptime_value = 700"), n);
    assert.equal(await affected(url, "DELETE FROM req WHERE job = 'nobody'"), 0);
    await assertRemaining(url, model, "by label and value");

    // compaction rewrites the windows that lost samples: reads stay the same
    await sqlOk(url, "ADMIN compact_table('req')");
    await assertRemaining(url, model, "compacted again");

    // the physical table is refused
    const refused = await sqlRequest(url, "DELETE FROM greptime_physical_table WHERE job = 'a'");
    assert.equal(refused.status, 400, refused.text);
    assert.match(JSON.parse(refused.text).error, /physical table greptime_physical_table/);
    await assertRemaining(url, model, "after the refusal");

    // without WHERE: every sample of the logical table, as TRUNCATE
    n = forget(model, "req/a", () => false) + forget(model, "req/b", () => false);
    assert.equal(await affected(url, "DELETE FROM req"), n);
    await assertRemaining(url, model, "all deleted");
    await sqlOk(url, "ADMIN compact_table('req')");
    await assertRemaining(url, model, "all deleted and compacted");
  } finally {
    await server.stop();
  }
});
