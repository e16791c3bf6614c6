import { httpStatusOf } from "../../src/http/render_error.ts";
import { PetrelError } from "../../src/common/errors.ts";
/** The metric engine: logical tables on physical tables, as SQL and remote read see them. */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { withMemoryStorage } from "./helpers.ts";
import type { MetricSeriesInput } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { LabelMatcher } from "../../src/common/label_matcher.ts";
import type { Value } from "../../src/common/rows.ts";

const T = 1_700_000_000_000;

function series(labels: Record<string, string>, ...points: Array<[number, number]>): MetricSeriesInput {
  return { labels, samples: points.map(([timestampMs, value]) => ({ timestampMs, value })) };
}

function rows(s: Storage, sql: string, db = "public"): Value[][] {
  const out = executeSql(s, sql, { db });
  const last = out[out.length - 1];
  assert.equal(last.kind, "records");
  return last.kind === "records" ? last.rows : [];
}

Deno.test("metric engine: logical tables as SHOW TABLES, DESC, SHOW CREATE TABLE and information_schema show them", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{
      metric: "cpu",
      series: [series({ host: "a", dc: "x" }, [T, 1]), series({ host: "b", dc: "y" }, [T, 2])],
      options: { "greptime.semantic.source": "prometheus" },
    }]);
    assert.deepEqual(rows(s, "SHOW TABLES"), [["cpu"], ["greptime_physical_table"], ["numbers"]]);
    assert.deepEqual(rows(s, "DESC TABLE cpu").map((r) => [r[0], r[1], r[2], r[5]]), [
      ["dc", "String", "PRI", "TAG"],
      ["greptime_timestamp", "TimestampMillisecond", "PRI", "TIMESTAMP"],
      ["greptime_value", "Float64", "", "FIELD"],
      ["host", "String", "PRI", "TAG"],
    ]);
    const ddl = String(rows(s, "SHOW CREATE TABLE cpu")[0][1]);
    assert.match(ddl, /ENGINE=metric/);
    assert.match(ddl, /on_physical_table = 'greptime_physical_table'/);
    assert.match(ddl, /'greptime.semantic.source' = 'prometheus'/);
    assert.match(ddl, /PRIMARY KEY \("dc", "host"\)/);
    const phys = String(rows(s, "SHOW CREATE TABLE greptime_physical_table")[0][1]);
    assert.match(phys, /ENGINE=metric/);
    assert.match(phys, /physical_metric_table = 'true'/);
    assert.deepEqual(
      rows(
        s,
        "SELECT table_name, engine FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'numbers' ORDER BY table_name",
      ),
      [["cpu", "metric"], ["greptime_physical_table", "metric"]],
    );
    assert.deepEqual(
      rows(
        s,
        "SELECT column_name, semantic_type FROM information_schema.columns WHERE table_name = 'cpu' ORDER BY column_name",
      ),
      [["dc", "TAG"], ["greptime_timestamp", "TIMESTAMP"], ["greptime_value", "FIELD"], ["host", "TAG"]],
    );
  });
});

Deno.test("metric engine: SELECT with filters, aggregates and the result types GreptimeDB reports", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{
      metric: "cpu",
      series: [series({ host: "a" }, [T, 1], [T + 1000, 3]), series({ host: "b" }, [T, 10])],
    }]);
    assert.deepEqual(rows(s, "SELECT * FROM cpu WHERE host = 'a' ORDER BY greptime_timestamp"), [
      [T, 1, "a"],
      [T + 1000, 3, "a"],
    ]);
    assert.deepEqual(rows(s, "SELECT host, sum(greptime_value) FROM cpu GROUP BY host ORDER BY host"), [
      ["a", 4],
      ["b", 10],
    ]);
    const out = executeSql(s, "SELECT greptime_timestamp, greptime_value, host FROM cpu LIMIT 1", {
      db: "public",
    })[0];
    assert.ok(out.kind === "records");
    assert.deepEqual(out.columns.map((c) => c.data_type), ["TimestampMillisecond", "Float64", "String"]);
    assert.deepEqual(rows(s, "SELECT count(*) FROM greptime_physical_table"), [[3]]);
  });
});

Deno.test("metric engine: a label appearing later becomes a new column; older series read it as NULL", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{ metric: "up", series: [series({ job: "a" }, [T, 1])] }]);
    s.writeMetrics("public", [{ metric: "up", series: [series({ job: "a", zone: "z" }, [T, 0])] }]);
    assert.deepEqual(s.getTable("public", "up")!.primaryKey, ["job", "zone"]);
    assert.deepEqual(rows(s, "SELECT job, zone, greptime_value FROM up ORDER BY zone NULLS FIRST"), [
      ["a", null, 1],
      ["a", "z", 0],
    ]);
  });
});

Deno.test("metric engine: several metrics share a physical table; a named physical table holds others", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [
      { metric: "m1", series: [series({ a: "1" }, [T, 1])] },
      { metric: "m2", series: [series({ b: "2" }, [T, 2])] },
      { metric: "m3", physicalTable: "other_phys", series: [series({ c: "3" }, [T, 3])] },
    ]);
    s.writeMetrics("public", [{ metric: "m4", series: [series({}, [T, 4])] }], {
      hints: { physical_table: "other_phys" },
    });
    const on = (t: string) => s.getTable("public", t)!.options.on_physical_table;
    assert.deepEqual(["m1", "m2", "m3", "m4"].map(on), [
      "greptime_physical_table",
      "greptime_physical_table",
      "other_phys",
      "other_phys",
    ]);
    // the physical table carries every label column of its logical tables
    assert.deepEqual(s.getTable("public", "greptime_physical_table")!.primaryKey, ["a", "b"]);
    assert.deepEqual(rows(s, "SELECT count(*) FROM greptime_physical_table"), [[2]]);
    assert.deepEqual(rows(s, "SELECT * FROM m2"), [["2", T, 2]]);
    assert.deepEqual(rows(s, "SELECT greptime_value FROM m4"), [[4]]);
    // a physical table in use cannot be dropped; once its logical tables are gone it can
    assert.throws(() => executeSql(s, "DROP TABLE other_phys", { db: "public" }), /used by logical tables/);
    executeSql(s, "DROP TABLE m3; DROP TABLE m4; DROP TABLE other_phys", { db: "public" });
    assert.equal(s.getTable("public", "other_phys"), undefined);
    assert.deepEqual(rows(s, "SHOW TABLES"), [["greptime_physical_table"], ["m1"], ["m2"], ["numbers"]]);
  });
});

Deno.test("metric engine: the same series and time replaces (dedup); SQL INSERT goes through the engine", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{ metric: "d", series: [series({ h: "a" }, [T, 1], [T, 2])] }]);
    s.writeMetrics("public", [{ metric: "d", series: [series({ h: "a" }, [T, 3], [T + 1, 4])] }]);
    executeSql(
      s,
      "INSERT INTO d (h, greptime_timestamp, greptime_value) VALUES ('b', 5, 5), ('a', 1700000000001, 9)",
      {
        db: "public",
      },
    );
    assert.deepEqual(
      rows(s, "SELECT h, greptime_timestamp, greptime_value FROM d ORDER BY h, greptime_timestamp"),
      [
        ["a", T, 3],
        ["a", T + 1, 9],
        ["b", 5, 5],
      ],
    );
    assert.deepEqual(executeSql(s, "DELETE FROM d WHERE h = 'b'", { db: "public" }), [{
      kind: "affected",
      rows: 1,
    }]);
    assert.deepEqual(rows(s, "SELECT h FROM d"), [["a"], ["a"]]);
    assert.throws(
      () => executeSql(s, "DELETE FROM greptime_physical_table", { db: "public" }),
      /not supported on metric engine physical table/,
    );
    assert.throws(
      () => executeSql(s, "ALTER TABLE d ADD COLUMN x STRING", { db: "public" }),
      /only SET\/UNSET options/,
    );
    executeSql(s, "TRUNCATE TABLE d", { db: "public" });
    assert.deepEqual(rows(s, "SELECT count(*) FROM d"), [[0]]);
  });
});

Deno.test("metric engine: stale markers and plain NaN stay apart on read; SQL sees both as NULL", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{
      metric: "st",
      series: [{
        labels: { h: "a" },
        samples: [
          { timestampMs: T, value: 1 },
          { timestampMs: T + 1, value: NaN, stale: true },
          { timestampMs: T + 2, value: NaN },
        ],
      }],
    }]);
    const [got] = s.selectSeries("public", "st", [], 0, T + 10)!;
    assert.deepEqual(got.labels, { __name__: "st", h: "a" });
    assert.equal(got.samples.length, 3);
    assert.deepEqual(got.samples[0], { timestampMs: T, value: 1 });
    assert.equal(got.samples[1].stale, true);
    assert.ok(Number.isNaN(got.samples[1].value));
    assert.equal(got.samples[2].stale, undefined);
    assert.ok(Number.isNaN(got.samples[2].value));
  });
});

const MATCHER_DATA = [
  series({ job: "api", instance: "i1" }, [T, 1]),
  series({ job: "api", instance: "i2" }, [T, 2]),
  series({ job: "db", instance: "i1" }, [T, 3]),
  series({ instance: "i3" }, [T, 4]),
];
const matcherCases: Array<{ name: string; matchers: LabelMatcher[]; values: number[] }> = [
  { name: "none", matchers: [], values: [1, 2, 3, 4] },
  { name: "EQ", matchers: [{ type: "EQ", name: "job", value: "api" }], values: [1, 2] },
  { name: "EQ empty = label absent", matchers: [{ type: "EQ", name: "job", value: "" }], values: [4] },
  { name: "NEQ", matchers: [{ type: "NEQ", name: "job", value: "api" }], values: [3, 4] },
  { name: "RE anchored", matchers: [{ type: "RE", name: "job", value: "a.*" }], values: [1, 2] },
  { name: "RE not a substring match", matchers: [{ type: "RE", name: "job", value: "p" }], values: [] },
  { name: "NRE", matchers: [{ type: "NRE", name: "instance", value: "i[12]" }], values: [4] },
  {
    name: "combined",
    matchers: [{ type: "RE", name: "job", value: "api|db" }, { type: "NEQ", name: "instance", value: "i2" }],
    values: [1, 3],
  },
  { name: "__name__", matchers: [{ type: "EQ", name: "__name__", value: "other" }], values: [] },
];
for (const c of matcherCases) {
  Deno.test(`metric engine selectSeries: matcher ${c.name}`, () => {
    withMemoryStorage((s) => {
      s.writeMetrics("public", [{ metric: "mm", series: MATCHER_DATA }]);
      const got = s.selectSeries("public", "mm", c.matchers, T - 1, T + 1)!;
      assert.deepEqual(got.map((x) => x.samples[0].value).sort(), c.values);
    });
  });
}

Deno.test("metric engine selectSeries: time range bounds are inclusive; series sorted by label set", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{
      metric: "r",
      series: [series({ b: "2" }, [T, 1], [T + 10, 2], [T + 20, 3]), series({ a: "1" }, [T + 10, 5])],
    }]);
    const got = s.selectSeries("public", "r", [], T + 10, T + 20)!;
    assert.deepEqual(got, [
      { labels: { __name__: "r", a: "1" }, samples: [{ timestampMs: T + 10, value: 5 }] },
      {
        labels: { __name__: "r", b: "2" },
        samples: [{ timestampMs: T + 10, value: 2 }, { timestampMs: T + 20, value: 3 }],
      },
    ]);
    assert.equal(s.selectSeries("public", "missing", [], 0, T), undefined);
  });
});

Deno.test("metric engine: tables, series and samples survive a restart; new series continue", () => {
  const dir = Deno.makeTempDirSync({ prefix: "petrel-metric-" });
  try {
    let s = Storage.open({ dataHome: dir });
    s.writeMetrics("public", [{ metric: "p", series: [series({ h: "a" }, [T, 1])] }]);
    s.close();
    s = Storage.open({ dataHome: dir });
    s.writeMetrics("public", [{
      metric: "p",
      series: [series({ h: "a" }, [T + 1, 2]), series({ h: "b" }, [T, 3])],
    }]);
    assert.deepEqual(rows(s, "SELECT h, greptime_value FROM p ORDER BY h, greptime_timestamp"), [
      ["a", 1],
      ["a", 2],
      ["b", 3],
    ]);
    assert.equal(
      s.selectSeries("public", "p", [{ type: "EQ", name: "h", value: "a" }], 0, T + 5)![0].samples.length,
      2,
    );
    s.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("metric engine: a failed write leaves no series behind (the cached index is rebuilt)", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{ metric: "f", series: [series({ h: "a" }, [T, 1])] }]);
    assert.throws(() =>
      s.writeMetrics("public", [
        { metric: "f", series: [series({ h: "new" }, [T, 2])] },
        { metric: "f", series: [series({ "bad\u0000label": "x" }, [T, 3])] },
      ]), /Invalid label name/);
    s.writeMetrics("public", [{ metric: "f", series: [series({ h: "c" }, [T, 4])] }]);
    assert.deepEqual(rows(s, "SELECT h, greptime_value FROM f ORDER BY h"), [["a", 1], ["c", 4]]);
  });
});

Deno.test("metric engine: the physical table's ttl hides and sweeps old samples of its logical tables", () => {
  withMemoryStorage((s) => {
    const now = Date.now();
    s.writeMetrics(
      "public",
      [{ metric: "t", series: [series({ h: "a" }, [now - 3_600_000, 1], [now, 2])] }],
      {
        hints: { ttl: "10m" },
      },
    );
    assert.equal(s.getTable("public", "greptime_physical_table")!.options.ttl, "10m");
    assert.deepEqual(rows(s, "SELECT greptime_value FROM t"), [[2]]);
    assert.deepEqual(s.selectSeries("public", "t", [], 0, now + 1)![0].samples.map((x) => x.value), [2]);
    assert.equal(s.sweepExpired(now), 1);
    const id = s.getTable("public", "greptime_physical_table")!.id;
    const left = s.database("public").conn.prepare(`SELECT count(*) AS n FROM "__petrel_samples_${id}"`)
      .get();
    assert.equal(left?.n, 1);
  });
});

Deno.test("metric engine: a batch for a metric table through Storage.write (line protocol shape)", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [{ metric: "lp", series: [series({ h: "a" }, [T, 1])] }]);
    s.write("public", [{
      table: "lp",
      columns: [
        { name: "h", type: "String", semantic: "TAG" },
        { name: "greptime_value", type: "Float64", semantic: "FIELD" },
        { name: "greptime_timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
      ],
      rows: [["b", 2, BigInt(T + 1) * 1_000_000n]],
    }]);
    assert.deepEqual(rows(s, "SELECT h, greptime_timestamp, greptime_value FROM lp ORDER BY h"), [
      ["a", T, 1],
      ["b", T + 1, 2],
    ]);
    assert.throws(
      () =>
        s.write("public", [{
          table: "lp",
          columns: [
            { name: "greptime_timestamp", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
            { name: "other", type: "Float64", semantic: "FIELD" },
          ],
          rows: [[T, 1]],
        }]),
      /only stores greptime_timestamp, greptime_value and String tags/,
    );
    // createType "logical" creates a logical table on the hinted physical table
    s.write("public", [{
      table: "otel_m",
      createType: "logical",
      columns: [
        { name: "greptime_timestamp", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
        { name: "greptime_value", type: "Float64", semantic: "FIELD" },
      ],
      rows: [[T, 7]],
    }], { hints: { physical_table: "otel_phys" } });
    assert.equal(s.getTable("public", "otel_m")!.options.on_physical_table, "otel_phys");
  });
});

Deno.test("metric engine: a ttl set on the physical table later applies to logical tables without their own", () => {
  withMemoryStorage((s) => {
    const now = Date.now();
    s.writeMetrics("public", [{
      metric: "lt",
      series: [series({ h: "a" }, [now - 3_600_000, 1], [now, 2])],
    }]);
    assert.equal(s.getTable("public", "lt")!.options.ttl, undefined);
    assert.deepEqual(rows(s, "SELECT count(*) FROM lt"), [[2]]);
    executeSql(s, "ALTER TABLE greptime_physical_table SET 'ttl' = '10m'", { db: "public" });
    assert.deepEqual(rows(s, "SELECT greptime_value FROM lt"), [[2]]);
    assert.deepEqual(s.selectSeries("public", "lt", [], 0, now + 1)![0].samples.map((x) => x.value), [2]);
  });
});

const badLabels: Array<{ name: string; labels: Record<string, string>; error: RegExp }> = [
  { name: "label name holding a NUL", labels: { "a\u0000b": "x" }, error: /Invalid label name/ },
  { name: "label named like the value column", labels: { greptime_value: "x" }, error: /collides/ },
  { name: "label named like the time index", labels: { greptime_timestamp: "x" }, error: /collides/ },
  { name: "label differing only in case", labels: { Host: "x" }, error: /differs only in case/ },
  { name: "reserved prefix", labels: { __petrel_x: "x" }, error: /Invalid column name/ },
];
for (const c of badLabels) {
  Deno.test(`metric engine: ${c.name} → 400, nothing written`, () => {
    withMemoryStorage((s) => {
      s.writeMetrics("public", [{ metric: "bl", series: [series({ host: "a" }, [T, 1])] }]);
      assert.throws(
        () => s.writeMetrics("public", [{ metric: "bl", series: [series(c.labels, [T, 2])] }]),
        (e: unknown) =>
          e instanceof Error && c.error.test(e.message) && e instanceof PetrelError &&
          httpStatusOf(e) === 400,
      );
      assert.deepEqual(rows(s, "SELECT host, greptime_value FROM bl"), [["a", 1]]);
    });
  });
}

Deno.test("metric engine listSeries: label sets of matching series from the index, sorted", () => {
  withMemoryStorage((s) => {
    s.writeMetrics("public", [
      { metric: "ls", series: MATCHER_DATA },
      { metric: "other", series: [series({ job: "api" }, [T, 9])] },
    ]);
    assert.deepEqual(s.listSeries("public", "ls", [{ type: "EQ", name: "job", value: "api" }]), [
      { __name__: "ls", instance: "i1", job: "api" },
      { __name__: "ls", instance: "i2", job: "api" },
    ]);
    assert.equal(s.listSeries("public", "missing", []), undefined);
    // a metric alone on its physical table reads without the series filter
    s.writeMetrics("public", [{ metric: "solo", physicalTable: "solo_phys", series: MATCHER_DATA }]);
    assert.equal(s.selectSeries("public", "solo", [], 0, T + 1)!.length, 4);
    assert.equal(s.selectSeries("public", "ls", [], 0, T + 1)!.length, 4);
  });
});
