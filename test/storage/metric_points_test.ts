/**
 * The metric engine's points form (`MetricWrite.points`, parallel columns of one-sample series)
 * against the series form it stands in for: the same writes into two databases read back the same
 * through SQL, PromQL and `selectSeries` (new series, known ones, a key twice in one write,
 * NaN values, a label appearing later, points beside series in one write), and fail the same.
 */
import assert from "node:assert/strict";
import { MetricPoints, type MetricSeriesInput, type MetricWrite, Storage } from "../../src/storage/mod.ts";
import { seriesKey } from "../../src/storage/metric_series.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { Value } from "../../src/common/rows.ts";
import { PromQLEngine } from "../../src/promql/engine.ts";
import { StorageQueryable } from "../../src/query/promql_queryable.ts";

const T = 1_700_000_000_000;

/** One point: its labels (no empty values), time and value. */
type Point = [labels: Record<string, string>, ts: number, value: number];

function asSeries(points: Point[]): MetricSeriesInput[] {
  return points.map(([labels, timestampMs, value]) => ({ labels, samples: [{ timestampMs, value }] }));
}

function asPoints(points: Point[]): MetricPoints {
  const out = new MetricPoints();
  for (const [labels, ts, value] of points) out.add(seriesKey(labels), ts, value);
  return out;
}

function rows(s: Storage, sql: string, db: string): Value[][] {
  const out = executeSql(s, sql, { db });
  const last = out[out.length - 1];
  assert.equal(last.kind, "records");
  return last.kind === "records" ? last.rows : [];
}

/** Writes each batch of points by series into `public` and as points into `flat`; returns each side's outcome. */
function writeBoth(s: Storage, metric: string, batches: Point[][]): void {
  for (const batch of batches) {
    const bySeries: MetricWrite = { metric, series: asSeries(batch) };
    const byPoints: MetricWrite = { metric, series: [], points: asPoints(batch) };
    assert.equal(
      s.writeMetrics("flat", [byPoints]),
      s.writeMetrics("public", [bySeries]),
      "samples written",
    );
  }
}

/** What both databases answer for `sql`, which must be the same. */
function sameRows(s: Storage, sql: string): Value[][] {
  const old = rows(s, sql, "public");
  assert.deepStrictEqual(rows(s, sql, "flat"), old, sql);
  return old;
}

/** What both databases answer for a PromQL range query, which must be the same. */
async function samePromQL(s: Storage, query: string, startMs: number, endMs: number): Promise<unknown[]> {
  const range = (db: string) =>
    new PromQLEngine(new StorageQueryable(s, db, { maxSamples: 1e6 })).rangeQuery(
      query,
      startMs,
      endMs,
      15_000,
    );
  const old = await range("public");
  assert.deepStrictEqual(await range("flat"), old, query);
  return old.result;
}

async function withStorage(fn: (s: Storage) => void | Promise<void>): Promise<void> {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    executeSql(s, "CREATE DATABASE flat", { db: "public" });
    await fn(s);
  } finally {
    s.close();
  }
}

Deno.test("metric points: the same rows through SQL, PromQL and selectSeries as the series form", async () => {
  await withStorage(async (s) => {
    const a = { host: "a", region: "eu" }, b = { host: "b", region: "us" };
    writeBoth(s, "cpu", [
      [[a, T, 1], [b, T, 2], [a, T + 15_000, 3]],
      // known series, a new one with a label the table has not seen, NaN, and the same key twice
      [[b, T + 15_000, NaN], [{ host: "c", zone: "z1" }, T + 15_000, 5], [a, T + 30_000, 6], [
        a,
        T + 45_000,
        7,
      ]],
      [[{}, T + 30_000, 8]],
    ]);
    const all = sameRows(
      s,
      "SELECT host, region, zone, greptime_timestamp, greptime_value FROM cpu ORDER BY greptime_timestamp, host",
    );
    assert.equal(all.length, 8);
    assert.deepEqual(sameRows(s, "DESC TABLE cpu").map((r) => r[0]), [
      "greptime_timestamp",
      "greptime_value",
      "host",
      "region",
      "zone",
    ]);
    assert.equal((await samePromQL(s, "cpu", T, T + 45_000)).length, 4);
    assert.equal((await samePromQL(s, "sum by (region) (cpu)", T, T + 45_000)).length, 3);
    const flat = s.selectSeries("flat", "cpu", [], 0, T + 60_000)!;
    assert.deepStrictEqual(flat, s.selectSeries("public", "cpu", [], 0, T + 60_000));
    assert.equal(flat.length, 4);
  });
});

Deno.test("metric points: beside series in one write, both kept", async () => {
  await withStorage((s) => {
    s.writeMetrics("flat", [{
      metric: "m",
      series: asSeries([[{ h: "s" }, T, 1]]),
      points: asPoints([[{ h: "p" }, T, 2], [{ h: "s" }, T + 1, 3]]),
    }]);
    assert.deepEqual(rows(s, "SELECT h, greptime_value FROM m ORDER BY greptime_timestamp, h", "flat"), [
      ["p", 2],
      ["s", 1],
      ["s", 3],
    ]);
  });
});

Deno.test("metric points: a bad time or a label naming a column fails as the series form does, nothing kept", async () => {
  await withStorage((s) => {
    writeBoth(s, "e", [[[{ h: "a" }, T, 1]]]);
    const cases: [string, Point[]][] = [
      ["a time that is no number", [[{ h: "new" }, T, 1], [{ h: "a" }, NaN, 2]]],
      ["a label named as the value column", [[{ greptime_value: "x" }, T, 1]]],
      ["a label named as the time index", [[{ h: "b", greptime_timestamp: "x" }, T, 1]]],
    ];
    for (const [what, batch] of cases) {
      const error = (f: () => unknown) => {
        try {
          f();
        } catch (e) {
          return (e as Error).message;
        }
        assert.fail(`${what}: no error`);
      };
      assert.equal(
        error(() => s.writeMetrics("flat", [{ metric: "e", series: [], points: asPoints(batch) }])),
        error(() => s.writeMetrics("public", [{ metric: "e", series: asSeries(batch) }])),
        what,
      );
    }
    writeBoth(s, "e", [[[{ h: "c" }, T, 3]]]);
    assert.deepEqual(sameRows(s, "SELECT h, greptime_value FROM e ORDER BY h"), [["a", 1], ["c", 3]]);
  });
});
