/**
 * GreptimeDB's range query over `/v1/sql` beyond one table's select list: range aggregates written in
 * ORDER BY, a CTE, view or derived table as the source, and range queries nested in a CTE or a
 * derived table; on a real server, rows exact.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { assertSqlErrors, HOST_TABLE, post, query, type SqlErrorCase } from "./fixtures_range.ts";

const SETUP = [
  ...HOST_TABLE,
  "CREATE VIEW host2_view AS SELECT ts, host, val FROM host WHERE host = 'host2'",
];

const TMS = "TimestampMillisecond";

Deno.test("range query: ORDER BY range aggregates, and CTE / subquery sources", async (t) => {
  const s = await startTestServer();
  try {
    for (const sql of SETUP) assert.equal((await post(s, sql)).status, 200, sql);

    await t.step("ORDER BY repeats a select list aggregate (any case), DESC, with LIMIT", async () => {
      const r = await query(
        s,
        "SELECT ts, host, min(val) RANGE '10s' FROM host ALIGN '5s' ORDER BY MIN(val) range '10s' DESC, host, ts LIMIT 4",
      );
      assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], ["min(host.val) RANGE 10s", "Int64"]]);
      assert.deepEqual(r.rows, [[15000, "host2", 5], [20000, "host2", 5], [5000, "host2", 4], [
        10000,
        "host2",
        4,
      ]]);
    });

    await t.step("ORDER BY an expression over a range aggregate", async () => {
      const r = await query(
        s,
        "SELECT ts, host, min(val) RANGE '10s' FROM host ALIGN '5s' ORDER BY (min(val) RANGE '10s') % 2, host, ts LIMIT 7",
      );
      assert.deepEqual(r.rows, [
        [-5000, "host1", 0],
        [0, "host1", 0],
        [15000, "host1", 2],
        [20000, "host1", 2],
        [5000, "host2", 4],
        [10000, "host2", 4],
        [5000, "host1", 1],
      ]);
    });

    await t.step("ORDER BY a range aggregate the select list does not have computes it", async () => {
      // count over 5s: the slots at 5s and 15s hold only nulls, the slot at -5s (from the 10s RANGE) no row
      const r = await query(
        s,
        "SELECT ts, host, min(val) RANGE '10s' FROM host ALIGN '5s' ORDER BY count(val) RANGE '5s', host, ts LIMIT 6",
      );
      assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], ["min(host.val) RANGE 10s", "Int64"]]);
      assert.deepEqual(r.rows, [
        [-5000, "host1", 0],
        [5000, "host1", 1],
        [15000, "host1", 2],
        [-5000, "host2", 3],
        [5000, "host2", 4],
        [15000, "host2", 5],
      ]);
    });

    await t.step("a CTE as the source: renamed tags still group, and BY (…) over it", async () => {
      const renamed = await query(
        s,
        `WITH x AS (SELECT ts, host AS h, val AS v FROM host WHERE host = 'host2')
         SELECT ts, h, max(v) RANGE '10s' FROM x ALIGN '10s' ORDER BY ts`,
      );
      assert.deepEqual(renamed.columns, [["ts", TMS], ["h", "String"], ["max(x.v) RANGE 10s", "Int64"]]);
      assert.deepEqual(renamed.rows, [[0, "host2", 3], [10000, "host2", 4], [20000, "host2", 5]]);
      // the CTE keeps no tag: one group
      const untagged = await query(
        s,
        "WITH x AS (SELECT ts, val FROM host) SELECT ts, sum(val) RANGE '10s' FROM x ALIGN '10s' ORDER BY ts",
      );
      assert.deepEqual(untagged.rows, [[0, 3], [10000, 5], [20000, 7]]);
      const by = await query(
        s,
        `WITH x AS (SELECT ts, host AS b, val AS c FROM host)
         SELECT ts, b, min(c) RANGE '10s' FROM x ALIGN '10s' BY (b) ORDER BY b DESC, ts LIMIT 4`,
      );
      assert.deepEqual(by.rows, [[0, "host2", 3], [10000, "host2", 4], [20000, "host2", 5], [0, "host1", 0]]);
    });

    await t.step("a derived table or a view as the source", async () => {
      const derived = await query(
        s,
        `SELECT ts, b, min(c) RANGE '10s' FROM (SELECT ts, host AS b, val AS c FROM host WHERE host = 'host1')
         ALIGN '10s' BY (b) ORDER BY ts`,
      );
      assert.deepEqual(derived.rows, [[0, "host1", 0], [10000, "host1", 1], [20000, "host1", 2]]);
      const view = await query(
        s,
        "SELECT ts, host, max(val) RANGE '20s' FROM host2_view ALIGN '10s' ORDER BY ts",
      );
      assert.deepEqual(view.columns, [["ts", TMS], ["host", "String"], [
        "max(host2_view.val) RANGE 20s",
        "Int64",
      ]]);
      assert.deepEqual(view.rows, [[-10000, "host2", 3], [0, "host2", 4], [10000, "host2", 5], [
        20000,
        "host2",
        5,
      ]]);
    });

    await t.step("range queries nested in a CTE and in derived tables", async () => {
      const inCte = await query(
        s,
        `WITH r AS (SELECT ts, host, max(val) RANGE '10s' AS m FROM host ALIGN '10s')
         SELECT host, ts, m FROM r WHERE m >= 2 ORDER BY m DESC, ts LIMIT 3`,
      );
      assert.deepEqual(inCte.columns, [["host", "String"], ["ts", TMS], ["m", "Int64"]]);
      assert.deepEqual(inCte.rows, [["host2", 20000, 5], ["host2", 10000, 4], ["host2", 0, 3]]);
      const overCte = await query(
        s,
        `WITH x AS (SELECT * FROM host WHERE host = 'host1')
         SELECT * FROM (SELECT ts, max(val) RANGE '10s' FROM x ALIGN '10s') ORDER BY ts DESC`,
      );
      assert.deepEqual(overCte.columns, [["ts", TMS], ["max(x.val) RANGE 10s", "Int64"]]);
      assert.deepEqual(overCte.rows, [[20000, 2], [10000, 1], [0, 0]]);
      const derived = await query(
        s,
        `SELECT ts, m FROM (SELECT ts, host, min(val) RANGE '5s' AS m FROM host ALIGN '5s')
         WHERE host = 'host1' ORDER BY ts`,
      );
      assert.deepEqual(derived.rows, [[0, 0], [5000, null], [10000, 1], [15000, null], [20000, 2]]);
    });

    await t.step("EXPLAIN of a range query over a CTE ordered by its aggregate", async () => {
      const r = await query(
        s,
        `EXPLAIN WITH x AS (SELECT * FROM host) SELECT ts, host, min(val) RANGE '10s' FROM x ALIGN '5s'
         ORDER BY min(val) RANGE '10s' DESC LIMIT 2`,
      );
      assert.deepEqual(r.rows.map((row) => row[0]), ["logical_plan", "physical_plan"]);
      assert.match(String(r.rows[0][1]), /DESC NULLS FIRST LIMIT 2$/);
    });

    await t.step("errors name what is wrong", async () => {
      const cases: SqlErrorCase[] = [
        [
          "SELECT ts, host, min(val) RANGE '10s' FROM host ALIGN '5s' ORDER BY max(val)",
          1004,
          /the aggregate max\(val\) needs a RANGE/,
        ],
        [
          "WITH x AS (SELECT 1 AS a) SELECT min(a) RANGE '10s' FROM x ALIGN '5s'",
          1004,
          /Range Query: x has no time index column/,
        ],
        [
          "SELECT min(v) RANGE '10s' FROM (SELECT val AS v FROM host) ALIGN '5s'",
          1004,
          /the subquery in FROM has no time index column/,
        ],
        [
          "SELECT min(host.val) RANGE '10s' FROM host JOIN host2_view v ON host.ts = v.ts ALIGN '5s'",
          1004,
          /reads exactly one table, view, CTE or subquery/,
        ],
      ];
      await assertSqlErrors(s, cases);
    });
  } finally {
    await s.stop();
  }
});
