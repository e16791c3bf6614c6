/**
 * The metric engine's series-first read path: closed windows compacted into XOR chunks, late writes,
 * writes racing a compaction, rollbacks, restarts, truncation and the ttl sweep all leave reads
 * equal to what was written (checked against a model of the writes kept by the test).
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import type { MetricSeriesInput } from "../../src/storage/mod.ts";
import type { ColumnarSeries, SampleColumns } from "../../src/common/series.ts";
import { STALE_NAN } from "../../src/common/series.ts";
import { decodeXorInto, encodeXorColumns } from "../../src/codec/xor_chunk.ts";
import { CompactionJob } from "../../src/storage/metric_compaction.ts";
import { isPhysicalTable } from "../../src/storage/metric_layout.ts";
import { logicalChunkRowsSql } from "../../src/storage/metric_series_rows.ts";
import { registerSqlFunctions } from "../../src/sql/functions/registry.ts";
import type { LabelMatcher } from "../../src/common/label_matcher.ts";

const HOUR = 3_600_000;
/** Three closed windows, long ago (so every one is due). */
const BASE = 1_700_000_000_000 - (1_700_000_000_000 % HOUR);

type Point = [t: number, v: number, stale?: boolean];

/** What the test wrote: series key → time → [value, stale]. */
class Model {
  readonly series = new Map<string, Map<number, [number, boolean]>>();

  write(s: Storage, metric: string, data: Record<string, Point[]>): void {
    const input: MetricSeriesInput[] = [];
    for (const [host, points] of Object.entries(data)) {
      input.push({
        labels: { host },
        samples: points.map(([t, v, stale]) =>
          stale ? { timestampMs: t, value: STALE_NAN, stale: true } : { timestampMs: t, value: v }
        ),
      });
    }
    s.writeMetrics("public", [{ metric, series: input }]);
    for (const [host, points] of Object.entries(data)) {
      let m = this.series.get(host);
      if (m === undefined) this.series.set(host, m = new Map());
      for (const [t, v, stale] of points) m.set(t, [v, stale === true]);
    }
  }

  /** The expected read of [start, end] as host → [t, v, stale] lists. */
  expect(start: number, end: number): Record<string, Array<[number, number, boolean]>> {
    const out: Record<string, Array<[number, number, boolean]>> = {};
    for (const [host, m] of [...this.series].sort(([a], [b]) => a < b ? -1 : 1)) {
      const pts = [...m].filter(([t]) => t >= start && t <= end).sort(([a], [b]) => a - b)
        .map(([t, [v, st]]): [number, number, boolean] => [t, st ? NaN : v, st]);
      if (pts.length > 0) out[host] = pts;
    }
    return out;
  }
}

function read(s: Storage, start: number, end: number, matchers: LabelMatcher[] = []) {
  const got = s.selectColumns("public", "m", matchers, start, end) ?? [];
  const out: Record<string, Array<[number, number, boolean]>> = {};
  for (const c of got) out[c.labels.host] = points(c);
  return out;
}

function points(c: ColumnarSeries): Array<[number, number, boolean]> {
  return [...c.timestamps].map((t, i) => {
    const stale = c.stale?.[i] === 1;
    return [t, stale ? NaN : c.values[i], stale];
  });
}

function chunkRows(s: Storage): number {
  const h = s.database("public");
  const physical = h.listTables().find(isPhysicalTable)!;
  return Number(
    (h.conn.prepare(`SELECT count(*) AS n FROM "__petrel_chunks_${physical.id}"`).get() as { n: number }).n,
  );
}

/** 30 series × 3 windows at 15 s, values with NaN, infinities, negatives and a staleness marker. */
function load(s: Storage, model: Model): void {
  const data: Record<string, Point[]> = {};
  for (let h = 0; h < 30; h++) {
    const pts: Point[] = [];
    for (let t = BASE + 7_000; t < BASE + 3 * HOUR; t += 15_000) {
      const i = pts.length;
      const v = i % 97 === 5
        ? NaN
        : i % 89 === 3
        ? -Infinity
        : h % 3 === 0
        ? i * 1.5 - 40
        : Math.sin(i) * 1e6;
      pts.push([t, v, h === 4 && i === 300]);
    }
    data[`h${String(h).padStart(2, "0")}`] = pts;
  }
  model.write(s, "m", data);
}

function assertReads(s: Storage, model: Model): void {
  for (
    const [a, b] of [[BASE, BASE + 3 * HOUR], [BASE + HOUR - 1, BASE + HOUR + 1], [
      BASE + 1234,
      BASE + 2 * HOUR + 99_999,
    ]]
  ) {
    assert.deepEqual(read(s, a, b), model.expect(a, b), `read of [${a - BASE}, ${b - BASE}]`);
  }
  const one = read(s, BASE, BASE + 3 * HOUR, [{ type: "EQ", name: "host", value: "h07" }]);
  assert.deepEqual(Object.keys(one), ["h07"]);
}

function withStorage(fn: (s: Storage, dir: string) => void): void {
  const dir = Deno.makeTempDirSync();
  const s = Storage.open({ dataHome: dir });
  try {
    fn(s, dir);
  } finally {
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("xor columns: stale markers, NaN, infinities and negative times survive a round trip", () => {
  const ts = [-5000, -1, 0, 1, 1000, 1001, 1e12, 1e12 + 15_000];
  const vs = [1.5, NaN, STALE_NAN, -Infinity, Infinity, -0, 42, 1e-300];
  const stale = new Uint8Array(ts.length);
  stale[2] = 1;
  const cols: SampleColumns = { timestamps: Float64Array.from(ts), values: Float64Array.from(vs), stale };
  const bytes = encodeXorColumns(cols, 0, ts.length);
  const out: SampleColumns = {
    timestamps: new Float64Array(ts.length),
    values: new Float64Array(ts.length),
    stale: null,
  };
  assert.equal(decodeXorInto(bytes, out, 0), ts.length);
  assert.deepEqual([...out.timestamps], ts);
  assert.deepEqual([...out.values].map((v, i) => i === 2 ? "stale" : Object.is(v, -0) ? "-0" : v), [
    1.5,
    NaN,
    "stale",
    -Infinity,
    Infinity,
    "-0",
    42,
    1e-300,
  ]);
  assert.deepEqual([...(out.stale ?? [])], [0, 0, 1, 0, 0, 0, 0, 0]);
});

Deno.test("xor columns: a chunk encoded after a longer one has the same bytes as alone", () => {
  const cols = (n: number, seed: number): SampleColumns => ({
    timestamps: Float64Array.from({ length: n }, (_, i) => 1e12 + i * 15_000 + (i % 7) * 3),
    values: Float64Array.from({ length: n }, (_, i) => Math.sin(i * seed) * 1e6),
    stale: null,
  });
  const short = encodeXorColumns(cols(5, 3), 0, 5);
  encodeXorColumns(cols(5000, 7), 0, 5000); // leaves its bits in the encoder's buffer
  assert.deepEqual(encodeXorColumns(cols(5, 3), 0, 5), short);
});

Deno.test("metric chunks: reads are equal before and after compaction, and read chunks afterwards", () => {
  withStorage((s) => {
    const model = new Model();
    load(s, model);
    assertReads(s, model);
    assert.equal(chunkRows(s), 0);
    assert.equal(s.compactMetrics(), 3);
    assert.equal(chunkRows(s), 90, "one chunk per series and window");
    assertReads(s, model);
    assert.equal(s.compactMetrics(), 0, "nothing left to compact");
  });
});

Deno.test("metric chunks: late samples reach reads at once, and the window is compacted again", () => {
  withStorage((s) => {
    const model = new Model();
    load(s, model);
    read(s, BASE, BASE + 1); // the head is loaded: late writes must update it
    s.compactMetrics();
    model.write(s, "m", {
      h01: [[BASE + HOUR + 7_000, 999], [BASE + HOUR + 8_000, -1]],
      h99: [[BASE + 5, 5]],
    });
    assertReads(s, model);
    assert.equal(s.compactMetrics(), 2, "the two dirty windows");
    assertReads(s, model);
  });
});

Deno.test("metric chunks: the head, dirty marks and chunks survive a restart", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const model = new Model();
    let s = Storage.open({ dataHome: dir });
    load(s, model);
    s.compactMetrics();
    model.write(s, "m", { h02: [[BASE + 2 * HOUR + 1, 7]] });
    s.close();
    s = Storage.open({ dataHome: dir });
    assertReads(s, model);
    assert.equal(s.compactMetrics(), 1, "the late write's window is still dirty");
    assertReads(s, model);
    s.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("metric chunks: a write racing the compaction of its window is not lost", () => {
  withStorage((s) => {
    const model = new Model();
    const data: Record<string, Point[]> = {};
    // 100 series × 240 samples: more than one page of a job.
    for (let h = 0; h < 100; h++) {
      data[`r${h}`] = Array.from({ length: 240 }, (_, i): Point => [BASE + i * 15_000, i]);
    }
    model.write(s, "m", data);
    read(s, BASE, BASE + 1);
    const h = s.database("public");
    const physical = h.listTables().find(isPhysicalTable)!;
    const job = new CompactionJob(h, physical.name, BASE);
    assert.equal(job.step(), false);
    model.write(s, "m", { r5: [[BASE + 100, 1e9]], r6: [[BASE + HOUR - 1, -3]] });
    while (!job.step());
    assert.deepEqual(read(s, BASE, BASE + HOUR), model.expect(BASE, BASE + HOUR));
    assert.equal(s.compactMetrics(), 1, "the raced window was left dirty");
    assert.deepEqual(read(s, BASE, BASE + HOUR), model.expect(BASE, BASE + HOUR));
  });
});

Deno.test("metric chunks: a rolled-back write leaves nothing in the head", () => {
  withStorage((s) => {
    const now = Date.now();
    s.writeMetrics("public", [{
      metric: "m",
      series: [{ labels: { host: "a" }, samples: [{ timestampMs: now, value: 1 }] }],
    }]);
    assert.equal(read(s, now - 1000, now + 1000).a.length, 1);
    assert.throws(() =>
      s.writeMetrics("public", [
        { metric: "m", series: [{ labels: { host: "a" }, samples: [{ timestampMs: now + 1, value: 2 }] }] },
        {
          metric: "m2",
          series: [{ labels: { greptime_value: "x" }, samples: [{ timestampMs: now, value: 1 }] }],
        },
      ]), /Label greptime_value of metric m2 collides/);
    assert.deepEqual(read(s, now - 1000, now + 1000), { a: [[now, 1, false]] });
  });
});

Deno.test("metric chunks: truncate, drop and the ttl sweep remove chunks too", () => {
  withStorage((s) => {
    const model = new Model();
    load(s, model);
    s.compactMetrics();
    s.truncateTable("public", "m");
    assert.deepEqual(read(s, BASE, BASE + 3 * HOUR), {});
    assert.equal(chunkRows(s), 0);
    load(s, model);
    s.compactMetrics();
    assert.equal(chunkRows(s), 90);
    s.dropTable("public", "m");
    assert.equal(chunkRows(s), 0);
  });
  withStorage((s) => {
    const pts = Array.from({ length: 480 }, (_, i): Point => [BASE + i * 15_000, i]);
    s.writeMetrics("public", [{
      metric: "m",
      series: [{ labels: { host: "a" }, samples: pts.map(([t, v]) => ({ timestampMs: t, value: v })) }],
    }], {
      hints: { ttl: "1h" },
    });
    s.compactMetrics();
    assert.equal(chunkRows(s), 2);
    assert.deepEqual(read(s, BASE, BASE + 2 * HOUR), {}, "expired samples are hidden");
    assert.ok(s.sweepExpired() > 0);
    assert.equal(chunkRows(s), 0);
  });
});

Deno.test("metric chunks: a read announces its size before reading, and a veto stops it", () => {
  withStorage((s) => {
    const model = new Model();
    load(s, model);
    s.compactMetrics();
    const asked: number[] = [];
    const got = s.selectColumns("public", "m", [], BASE, BASE + 3 * HOUR, (n) => asked.push(n)) ?? [];
    const read = got.reduce((a, c) => a + c.timestamps.length, 0);
    assert.equal(asked.length, 1);
    assert.ok(asked[0] >= read && asked[0] <= read + 30 * 2 * 240, `${asked[0]} announced for ${read} read`);
    assert.throws(
      () =>
        s.selectColumns("public", "m", [], BASE, BASE + 3 * HOUR, () => {
          throw new Error("too many");
        }),
      /too many/,
    );
  });
});

Deno.test("metric chunks: listSeries in a time range, before and after compaction", () => {
  withStorage((s) => {
    const model = new Model();
    load(s, model);
    model.write(s, "m", { late: [[BASE + 4 * HOUR + 10, 1]] });
    const hosts = (start: number, end: number) =>
      (s.listSeries("public", "m", [], { startMs: start, endMs: end }) ?? []).map((l) => l.host);
    for (const compacted of [false, true]) {
      if (compacted) assert.equal(s.compactMetrics(), 4);
      assert.equal(hosts(BASE, BASE + 3 * HOUR).length, 30, `compacted: ${compacted}`);
      assert.deepEqual(hosts(BASE + 3 * HOUR, BASE + 5 * HOUR), ["late"], `compacted: ${compacted}`);
      assert.deepEqual(hosts(BASE - HOUR, BASE), [], `compacted: ${compacted}`);
      assert.equal(hosts(-Infinity, Infinity).length, 31);
    }
    // a late write dirties a compacted window: its series are read from buffers, the rest from chunks
    model.write(s, "m", { dirty: [[BASE + HOUR + 10, 1]] });
    const two = (start: number, end: number) => hosts(start, end).filter((h) => h === "dirty" || h === "h07");
    assert.deepEqual(two(BASE + HOUR, BASE + HOUR + 7_000), ["dirty", "h07"]);
    // a dirty window is read exactly, not at hour granularity
    assert.deepEqual(two(BASE + HOUR + 11, BASE + HOUR + 6_999), []);
    assert.deepEqual(hosts(BASE + 2 * HOUR, BASE + 3 * HOUR).includes("dirty"), false);
    assert.equal(hosts(BASE, BASE + 3 * HOUR).length, 31);
  });
});

Deno.test("metric chunks: a write before the window a first job compacts is not lost", () => {
  withStorage((s) => {
    const model = new Model();
    // samples only from the second window on: the first job compacts it and moves `upto` past the first
    const data: Record<string, Point[]> = {};
    for (let h = 0; h < 100; h++) {
      data[`r${h}`] = Array.from({ length: 240 }, (_, i): Point => [BASE + HOUR + i * 15_000, i]);
    }
    model.write(s, "m", data);
    read(s, BASE, BASE + 1);
    const h = s.database("public");
    const physical = h.listTables().find(isPhysicalTable)!;
    const job = new CompactionJob(h, physical.name, BASE + HOUR);
    assert.equal(job.step(), false);
    // a backfill into the window before, while the job reads: not late (nothing is compacted yet)
    model.write(s, "m", { r5: [[BASE + 100, 1e9]], new1: [[BASE + HOUR - 1, -3]] });
    while (!job.step());
    // SQL reading the series by their chunks (test/sql/metric_series_chunks_test.ts) as the view does
    registerSqlFunctions(h.conn);
    const logical = h.getTable("m")!;
    const bySeries = `SELECT count(*) AS n FROM (${
      logicalChunkRowsSql(physical, logical, `"l_host" IN ('r5', 'new1')`)
    })`;
    const n = (sql: string) => Number((h.conn.prepare(sql).get() as { n: number }).n);
    assert.equal(n(bySeries), n(`SELECT count(*) AS n FROM m WHERE host IN ('r5', 'new1')`));
    assert.deepEqual(read(s, BASE, BASE + 2 * HOUR), model.expect(BASE, BASE + 2 * HOUR));
    s.compactMetrics();
    assert.deepEqual(read(s, BASE, BASE + 2 * HOUR), model.expect(BASE, BASE + 2 * HOUR));
  });
});

async function withStorageAsync(fn: (s: Storage) => Promise<void>, dataHome?: string): Promise<void> {
  const dir = dataHome ?? Deno.makeTempDirSync();
  const s = Storage.open({ dataHome: dir });
  try {
    await fn(s);
  } finally {
    s.close();
    if (dataHome === undefined) Deno.removeSync(dir, { recursive: true });
  }
}

/** Every chunk row, its bytes as hex. */
function chunkDump(s: Storage): unknown[] {
  const h = s.database("public");
  const physical = h.listTables().find(isPhysicalTable)!;
  return h.conn.prepare(
    `SELECT series_id, start_ts, end_ts, hex(data) AS data FROM "__petrel_chunks_${physical.id}" ORDER BY 1, 2`,
  ).all();
}

/** `load`, plus a series denser than a chunk (5000 samples in the first window: two chunks). */
function loadDense(s: Storage, model: Model): void {
  load(s, model);
  model.write(s, "m", { dense: Array.from({ length: 5000 }, (_, i): Point => [BASE + i * 700, i / 3]) });
}

Deno.test("metric chunks: the worker thread writes the very chunks the writer's thread does", async () => {
  const mainModel = new Model(), workerModel = new Model();
  let expected: unknown[] = [];
  await withStorageAsync(async (s) => {
    loadDense(s, mainModel);
    assert.equal(s.compactMetrics(), 3);
    expected = chunkDump(s);
    await Promise.resolve();
  });
  assert.equal(expected.length, 92, "a chunk per series and window, two of the dense series'");
  await withStorageAsync(async (s) => {
    loadDense(s, workerModel);
    assert.deepEqual(await s.compactMetricsDue(), { windows: 3, onWorker: 3 });
    assert.deepEqual(chunkDump(s), expected);
    assertReads(s, workerModel);
    assert.equal(read(s, BASE, BASE + HOUR).dense.length, 5000);
    assert.equal(s.compactMetrics(), 0, "nothing left to compact");
  });
});

Deno.test("metric chunks: a write racing a job on the worker thread is not lost", async () => {
  await withStorageAsync(async (s) => {
    const model = new Model();
    load(s, model);
    read(s, BASE, BASE + 1); // the head is loaded: the job's end must keep the raced window's samples
    const due = s.compactMetricsDue(); // the first window's job is with the worker now
    model.write(s, "m", {
      h05: [[BASE + 100, 1e9]],
      h06: [[BASE + HOUR - 1, -3]],
      h07: [[BASE + 2 * HOUR, 8]],
    });
    // left dirty, the raced window is due first again: the run stops there (once a window per run)
    assert.deepEqual(await due, { windows: 1, onWorker: 1 });
    assertReads(s, model);
    assert.equal(s.compactMetrics(), 3, "the raced window was left dirty, and two more");
    assertReads(s, model);
  });
});

Deno.test("metric chunks: an in-memory storage compacts on the writer's thread", async () => {
  await withStorageAsync(async (s) => {
    const model = new Model();
    load(s, model);
    assert.deepEqual(await s.compactMetricsDue(), { windows: 3, onWorker: 0 });
    assert.equal(chunkRows(s), 90);
    assertReads(s, model);
  }, ":memory:");
});

Deno.test("metric chunks: a truncate while a job is on the worker thread leaves no chunk of what it deleted", async () => {
  await withStorageAsync(async (s) => {
    load(s, new Model());
    const due = s.compactMetricsDue(); // the first window's job is with the worker now
    // This thread blocks (its event loop too) while the worker reads the window and answers: the
    // truncate lands between the worker's read and the chunks' write.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    s.truncateTable("public", "m");
    await due;
    assert.deepEqual(read(s, BASE, BASE + 3 * HOUR), {});
    s.compactMetrics();
    assert.equal(chunkRows(s), 0);
    assert.deepEqual(read(s, BASE, BASE + 3 * HOUR), {});
  });
});
