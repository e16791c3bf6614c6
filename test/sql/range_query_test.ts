/**
 * GreptimeDB's range query over `/v1/sql`: `AGGR(…) RANGE … [FILL …]` with
 * `ALIGN … [TO …] [BY (…)] [FILL …]`, on a real server; rows, column names and types are exact.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { assertSqlErrors, HOST_TABLE, post, query, type SqlErrorCase } from "./fixtures_range.ts";

const SETUP = [
  ...HOST_TABLE,
  // two tags; gaps in the 10s slots (a misses 20s, b misses 10s)
  "CREATE TABLE gap (ts TIMESTAMP TIME INDEX, dc STRING, host STRING, val DOUBLE, PRIMARY KEY(dc, host))",
  `INSERT INTO gap VALUES (0, 'x', 'a', 1), (10000, 'x', 'a', 2), (30000, 'x', 'a', 6),
    (0, 'x', 'b', 10), (20000, 'x', 'b', 30), (5000, 'y', 'a', 100)`,
  // two points 10^8 s apart: a fill at 1 ms slots would be 10^11 rows
  "CREATE TABLE far (ts TIMESTAMP TIME INDEX, val DOUBLE)",
  "INSERT INTO far VALUES (0, 1), (100000000000, 2)",
];

const TMS = "TimestampMillisecond";

Deno.test("range query", async (t) => {
  const s = await startTestServer();
  try {
    for (const sql of SETUP) assert.equal((await post(s, sql)).status, 200, sql);

    await t.step("RANGE larger than ALIGN puts each row into overlapping slots", async () => {
      const r = await query(
        s,
        "SELECT ts, host, avg(val) RANGE '10s' FROM host ALIGN '5s' BY (host) ORDER BY host, ts",
      );
      assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], ["avg(host.val) RANGE 10s", "Float64"]]);
      assert.deepEqual(r.rows, [
        [-5000, "host1", 0],
        [0, "host1", 0],
        [5000, "host1", 1],
        [10000, "host1", 1],
        [15000, "host1", 2],
        [20000, "host1", 2],
        [-5000, "host2", 3],
        [0, "host2", 3],
        [5000, "host2", 4],
        [10000, "host2", 4],
        [15000, "host2", 5],
        [20000, "host2", 5],
      ]);
    });

    await t.step("RANGE equal to ALIGN, BY defaults to the primary key", async () => {
      const r = await query(s, "SELECT ts, host, min(val) RANGE '5s' FROM host ALIGN '5s' ORDER BY host, ts");
      assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], ["min(host.val) RANGE 5s", "Int64"]]);
      assert.deepEqual(r.rows, [
        [0, "host1", 0],
        [5000, "host1", null],
        [10000, "host1", 1],
        [15000, "host1", null],
        [20000, "host1", 2],
        [0, "host2", 3],
        [5000, "host2", null],
        [10000, "host2", 4],
        [15000, "host2", null],
        [20000, "host2", 5],
      ]);
      // two tags: one group per (dc, host), though only host is selected
      const two = await query(
        s,
        "SELECT ts, host, count(*) RANGE '1m' FROM gap ALIGN '1m' ORDER BY host, 3 DESC",
      );
      assert.deepEqual(two.rows, [[0, "a", 3], [0, "a", 1], [0, "b", 2]]);
    });

    await t.step("BY an expression, BY one tag, BY ()", async () => {
      const dc = await query(s, "SELECT ts, dc, sum(val) RANGE '1m' FROM gap ALIGN '1m' BY (dc) ORDER BY dc");
      assert.deepEqual(dc.columns, [["ts", TMS], ["dc", "String"], ["sum(gap.val) RANGE 1m", "Float64"]]);
      assert.deepEqual(dc.rows, [[0, "x", 49], [0, "y", 100]]);
      const all = await query(
        s,
        "SELECT ts, sum(val) RANGE '20s' AS total FROM gap ALIGN '20s' BY () ORDER BY ts",
      );
      assert.deepEqual(all.columns, [["ts", TMS], ["total", "Float64"]]);
      assert.deepEqual(all.rows, [[0, 113], [20000, 36]]);
      const expr = await query(
        s,
        "SELECT ts, dc || host, max(val) RANGE '1m' FROM gap ALIGN '1m' BY (dc || host) ORDER BY dc || host",
      );
      assert.deepEqual(expr.columns, [["ts", TMS], ["dc || host", "String"], [
        "max(gap.val) RANGE 1m",
        "Float64",
      ]]);
      assert.deepEqual(expr.rows, [[0, "xa", 6], [0, "xb", 30], [0, "ya", 100]]);
    });

    await t.step("ALIGN TO an origin, and an INTERVAL", async () => {
      const r = await query(
        s,
        "SELECT ts, host, max(val) RANGE '20s' FROM host ALIGN '20s' TO '1970-01-01T00:00:05Z' ORDER BY host, ts",
      );
      assert.deepEqual(r.rows, [[-15000, "host1", 0], [5000, "host1", 2], [-15000, "host2", 3], [
        5000,
        "host2",
        5,
      ]]);
      const tz = await query(
        s,
        "SELECT ts, max(val) RANGE '1d' FROM host ALIGN '1d' TO '2023-01-01T00:00:00+08:00' BY () ORDER BY ts",
      );
      assert.deepEqual(tz.rows, [[-28800000, 5]]);
      const iv = await query(
        s,
        "SELECT ts, count(val) RANGE (INTERVAL '10 seconds') FROM host ALIGN (INTERVAL '10 seconds') BY () ORDER BY ts",
      );
      assert.deepEqual(iv.columns, [["ts", TMS], ["count(host.val) RANGE 10s", "Int64"]]);
      assert.deepEqual(iv.rows, [[0, 2], [10000, 2], [20000, 2]]);
    });

    await t.step("without FILL, slots without data are not output", async () => {
      const r = await query(
        s,
        "SELECT ts, host, max(val) RANGE '10s' FROM gap ALIGN '10s' BY (host) ORDER BY host, ts",
      );
      assert.deepEqual(r.rows, [[0, "a", 100], [10000, "a", 2], [30000, "a", 6], [0, "b", 10], [
        20000,
        "b",
        30,
      ]]);
    });

    const fillSql = (fill: string) =>
      `SELECT ts, host, max(val) RANGE '10s' FROM gap WHERE dc = 'x' ALIGN '10s' BY (host) FILL ${fill} ORDER BY host, ts`;
    for (
      const [fill, a20, b10] of [["NULL", null, null], ["PREV", 2, 10], ["LINEAR", 4, 20], [
        "6",
        6,
        6,
      ]] as const
    ) {
      await t.step(`FILL ${fill} generates each group's missing slots`, async () => {
        const r = await query(s, fillSql(fill));
        assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], [
          `max(gap.val) RANGE 10s FILL ${fill}`,
          "Float64",
        ]]);
        assert.deepEqual(r.rows, [
          [0, "a", 1],
          [10000, "a", 2],
          [20000, "a", a20],
          [30000, "a", 6],
          [0, "b", 10],
          [10000, "b", b10],
          [20000, "b", 30],
        ]);
      });
    }

    await t.step("an aggregate's own FILL beside ALIGN's FILL, and an aggregate without one", async () => {
      const r = await query(
        s,
        `SELECT ts, host, min(val) RANGE '10s' FILL PREV, max(val) RANGE '10s', count(val) RANGE '10s' FILL NULL
         FROM gap WHERE dc = 'x' ALIGN '10s' BY (host) FILL 0 ORDER BY host, ts`,
      );
      assert.deepEqual(r.columns, [
        ["ts", TMS],
        ["host", "String"],
        ["min(gap.val) RANGE 10s FILL PREV", "Float64"],
        ["max(gap.val) RANGE 10s FILL 0", "Float64"],
        ["count(gap.val) RANGE 10s FILL NULL", "Int64"],
      ]);
      assert.deepEqual(r.rows, [
        [0, "a", 1, 1, 1],
        [10000, "a", 2, 2, 1],
        [20000, "a", 2, 0, 0],
        [30000, "a", 6, 6, 1],
        [0, "b", 10, 10, 1],
        [10000, "b", 10, 0, 0],
        [20000, "b", 30, 30, 1],
      ]);
      // no ALIGN FILL: the slot a LINEAR aggregate generates is NULL for one without FILL
      const mixed = await query(
        s,
        `SELECT ts, min(val) RANGE '10s' FILL LINEAR, max(val) RANGE '10s' FROM gap
         WHERE host = 'a' AND dc = 'x' ALIGN '10s' BY (host) ORDER BY ts`,
      );
      assert.deepEqual(mixed.columns, [
        ["ts", TMS],
        ["min(gap.val) RANGE 10s FILL LINEAR", "Float64"],
        ["max(gap.val) RANGE 10s", "Float64"],
      ]);
      assert.deepEqual(mixed.rows, [[0, 1, 1], [10000, 2, 2], [20000, 4, null], [30000, 6, 6]]);
    });

    await t.step("LINEAR on integers interpolates into floats; two RANGEs in one query", async () => {
      const r = await query(
        s,
        `SELECT ts, host, min(val) RANGE '5s' FILL LINEAR, max(val) RANGE '10s' FROM host
         WHERE host = 'host1' ALIGN '5s' ORDER BY ts`,
      );
      assert.deepEqual(r.columns, [
        ["ts", TMS],
        ["host", "String"],
        ["min(host.val) RANGE 5s FILL LINEAR", "Float64"],
        ["max(host.val) RANGE 10s", "Int64"],
      ]);
      // before the first value and after the last, the line through the two nearest goes on
      assert.deepEqual(r.rows, [
        [-5000, "host1", -0.5, 0],
        [0, "host1", 0, 0],
        [5000, "host1", 0.5, 1],
        [10000, "host1", 1, 1],
        [15000, "host1", 1.5, 2],
        [20000, "host1", 2, 2],
      ]);
    });

    await t.step("expressions over range aggregates", async () => {
      const r = await query(
        s,
        `SELECT ts, host, max(val) RANGE '20s' - min(val) RANGE '20s', round(avg(val) RANGE '20s', 2) AS a
         FROM host ALIGN '20s' ORDER BY host, ts`,
      );
      assert.deepEqual(r.columns, [
        ["ts", TMS],
        ["host", "String"],
        ["max(host.val) RANGE 20s - min(host.val) RANGE 20s", "Int64"],
        ["a", "Float64"],
      ]);
      assert.deepEqual(r.rows, [[0, "host1", 1, 0.5], [20000, "host1", 0, 2], [0, "host2", 1, 3.5], [
        20000,
        "host2",
        0,
        5,
      ]]);
    });

    await t.step("WHERE, ORDER BY and LIMIT apply", async () => {
      const r = await query(
        s,
        `SELECT ts, host, sum(val) RANGE '10s' AS s FROM host WHERE ts >= '1970-01-01 00:00:10' AND val IS NOT NULL
         ALIGN '10s' ORDER BY s DESC, ts LIMIT 3`,
      );
      assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], ["s", "Int64"]]);
      assert.deepEqual(r.rows, [[20000, "host2", 5], [10000, "host2", 4], [20000, "host1", 2]]);
    });

    await t.step("ALIGN as an alias and a window frame's RANGE stay plain SQL", async () => {
      const r = await query(s, "SELECT val AS align FROM host WHERE host = 'host2' AND ts = 0");
      assert.deepEqual(r.rows, [[3]]);
      const w = await query(
        s,
        `SELECT ts, sum(val) OVER (ORDER BY abs(ts) RANGE 5000 PRECEDING) AS w FROM host
         WHERE host = 'host1' ORDER BY ts`,
      );
      assert.deepEqual(w.rows, [[0, 0], [5000, 0], [10000, 1], [15000, 1], [20000, 2]]);
    });

    const ERRORS: SqlErrorCase[] = [
      ["SELECT ts, min(val) RANGE 5 FROM host ALIGN '5s'", 2000, /an interval for range .* Column: 27$/],
      ["SELECT ts, min(val) RANGE '5s', max(val) FROM host ALIGN '5s'", 1004, /max\(val\) needs a RANGE/],
      ["SELECT ts, min(val) FROM host ALIGN '5s'", 2000, /no RANGE keyword found/],
      ["SELECT ts, min(val) RANGE '5s' FROM host", 2000, /ALIGN argument cannot be omitted/],
      ["SELECT min(val) RANGE '0s' FROM host ALIGN '5s'", 1004, /range must be greater than 0/],
      [
        "SELECT min(val) RANGE '5s' FROM host ALIGN (INTERVAL '0 seconds')",
        1004,
        /align must be greater than 0/,
      ],
      ["SELECT min(val) RANGE '-5s' FROM host ALIGN '5s'", 2000, /not a valid duration string: -5s/],
      ["SELECT min(val) RANGE '5s' FROM host ALIGN 'soon'", 2000, /not a valid duration string: soon/],
      [
        "SELECT min(val) RANGE '5s' FILL SOMETIMES FROM host ALIGN '5s'",
        1004,
        /SOMETIMES is not a valid fill/,
      ],
      ["SELECT min(val) RANGE '5s' FROM host ALIGN '5s' FILL 'x'", 1004, /'x' is not a valid fill/],
      ["SELECT ts, val, min(val) RANGE '5s' FROM host ALIGN '5s'", 3000, /No field named val/],
      ["SELECT ts, dc, min(val) RANGE '5s' FROM gap ALIGN '5s' BY (host)", 3000, /No field named dc/],
      [
        "SELECT min(val) RANGE '5s' FROM host ALIGN '5s' TO 'yesterday'",
        3000,
        /Illegal `align to` argument `yesterday`/,
      ],
      // a fill over 3 years at 1 ms slots is refused before it generates a row
      [
        "SELECT ts, min(val) RANGE '1s' FROM far ALIGN '1ms' BY () FILL NULL",
        3000,
        /FILL would generate 100000001000 rows \(more than 10000000\); use a larger ALIGN/,
      ],
    ];
    await t.step("errors are 400 with GreptimeDB's codes", async () => {
      await assertSqlErrors(s, ERRORS);
    });
  } finally {
    await s.stop();
  }
});
