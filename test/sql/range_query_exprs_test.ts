/**
 * GreptimeDB's range query over `/v1/sql`: RANGE after a bracketed expression (given to each aggregate
 * inside), `'1h'::INTERVAL` intervals, and RANGE after what is not an aggregate; on a real server,
 * rows and column names exact.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { HOST_TABLE, post, query } from "./fixtures_range.ts";

const TMS = "TimestampMillisecond";

Deno.test("range query: RANGE over expressions and interval casts", async (t) => {
  const s = await startTestServer();
  try {
    for (const sql of HOST_TABLE) assert.equal((await post(s, sql)).status, 200, sql);

    await t.step("(min(val) + max(val)) RANGE gives each aggregate the RANGE", async () => {
      const r = await query(
        s,
        "SELECT ts, host, (min(val) + max(val)) RANGE '10s' FROM host ALIGN '5s' ORDER BY host, ts LIMIT 4",
      );
      assert.deepEqual(r.columns, [["ts", TMS], ["host", "String"], [
        "(min(host.val) RANGE 10s + max(host.val) RANGE 10s)",
        "Int64",
      ]]);
      assert.deepEqual(r.rows, [[-5000, "host1", 0], [0, "host1", 0], [5000, "host1", 2], [
        10000,
        "host1",
        2,
      ]]);
      // the same as writing each RANGE, also inside more arithmetic and with FILL
      const each = await query(
        s,
        "SELECT ts, host, min(val) RANGE '20s' + max(val) RANGE '20s' + 1.0 FROM host ALIGN '10s' ORDER BY host, ts",
      );
      const dist = await query(
        s,
        "SELECT ts, host, (min(val) + max(val)) RANGE '20s' + 1.0 FROM host ALIGN '10s' ORDER BY host, ts",
      );
      assert.deepEqual(dist.rows, each.rows);
      assert.deepEqual(dist.rows.slice(0, 2), [[-10000, "host1", 1], [0, "host1", 2]]);
      assert.deepEqual(dist.columns[2], [
        "(min(host.val) RANGE 20s + max(host.val) RANGE 20s) + 1.0",
        "Float64",
      ]);
      const fill = await query(
        s,
        `SELECT ts, (count(val) * 2) RANGE '5s' FILL 7 AS c, -(max(val)) RANGE '5s' FROM host
         WHERE host = 'host1' ALIGN '5s' BY () ORDER BY (count(val) * 2) RANGE '5s' FILL 7 DESC, ts`,
      );
      assert.deepEqual(fill.columns, [["ts", TMS], ["c", "Int64"], ["-(max(host.val) RANGE 5s)", "Int64"]]);
      assert.deepEqual(fill.rows, [[0, 2, 0], [10000, 2, -1], [20000, 2, -2], [5000, 0, null], [
        15000,
        0,
        null,
      ]]);
    });

    await t.step("RANGE and ALIGN take '1h'::INTERVAL", async () => {
      const r = await query(
        s,
        `SELECT ts, host, min(val) RANGE '10s'::INTERVAL FILL PREV, (min(val) + max(val)) RANGE '10s'::INTERVAL
         FROM host ALIGN '10s'::INTERVAL ORDER BY host, ts LIMIT 2`,
      );
      assert.deepEqual(r.columns, [
        ["ts", TMS],
        ["host", "String"],
        ["min(host.val) RANGE 10s FILL PREV", "Int64"],
        ["(min(host.val) RANGE 10s + max(host.val) RANGE 10s)", "Int64"],
      ]);
      assert.deepEqual(r.rows, [[0, "host1", 0, 0], [10000, "host1", 1, 2]]);
    });

    await t.step("literals around range aggregates are named as DataFusion names them", async () => {
      const r = await query(
        s,
        `SELECT ts, host, 2 * min(val) RANGE '20s', round(avg(val) RANGE '20s', 2), floor(max(val) RANGE '20s')
         FROM host ALIGN '20s' ORDER BY host, ts LIMIT 1`,
      );
      assert.deepEqual(r.columns, [
        ["ts", TMS],
        ["host", "String"],
        ["Int64(2) * min(host.val) RANGE 20s", "Int64"],
        ["round(avg(host.val) RANGE 20s,Int64(2))", "Float64"],
        ["floor(max(host.val) RANGE 20s)", "Float64"],
      ]);
      assert.deepEqual(r.rows, [[0, "host1", 0, 0.5, 1]]);
    });

    await t.step("Petrel's own aggregates take a RANGE, and calls over them read it", async () => {
      const r = await query(
        s,
        "SELECT ts, host, hll_count(hll(val) RANGE '10s') FROM host ALIGN '10s' ORDER BY host, ts LIMIT 2",
      );
      assert.equal(r.columns[2][0], "hll_count(hll(host.val) RANGE 10s)");
      assert.deepEqual(r.rows, [[0, "host1", 1], [10000, "host1", 1]]);
    });

    // GreptimeDB's range rewriter reads a RANGE's argument as an aggregate of its plan: a scalar call
    // around one is not (the RANGE goes inside, as above)
    await t.step("RANGE after a call holding an aggregate is a 400 naming it", async () => {
      for (
        const [sql, name] of [
          [
            "SELECT ts, host, round(max(val), 2) RANGE '10s' FROM host ALIGN '5s'",
            "round(max(host.val),Int64(2))",
          ],
          ["SELECT ts, hll_count(hll(val)) RANGE '10s' FROM host ALIGN '5s'", "hll_count(hll(host.val))"],
        ]
      ) {
        const { status, body } = await post(s, sql);
        assert.equal(status, 400, sql);
        assert.equal(body.code, 3000, `${sql}: ${JSON.stringify(body)}`);
        assert.equal(body.error, `Error during planning: Illegal argument \`${name}\` in range select query`);
      }
    });

    const ERRORS: Array<[string, RegExp]> = [
      // a scalar call's value per slot would be any row's
      [
        "SELECT ts, host, abs(val) RANGE '5s' FROM host ALIGN '5s'",
        /RANGE must follow an aggregate call, found: abs\(val\)/,
      ],
      [
        "SELECT ts, (1 + 2) RANGE '5s' FROM host ALIGN '5s'",
        /RANGE must follow an aggregate call, found: \(1 \+ 2\)/,
      ],
      [
        "SELECT ts, host, val RANGE '5s' FROM host ALIGN '5s'",
        /Can't use the RANGE keyword in Expr val without function/,
      ],
      [
        "SELECT ts, (min(val) RANGE '5s' + max(val)) RANGE '10s' FROM host ALIGN '5s'",
        /Nest Range Query is not allowed/,
      ],
    ];
    await t.step("RANGE after what is not an aggregate is a 400", async () => {
      for (const [sql, message] of ERRORS) {
        const { status, body } = await post(s, sql);
        assert.equal(status, 400, sql);
        assert.equal(body.code, 2000, `${sql}: ${JSON.stringify(body)}`);
        assert.match(String(body.error), message, sql);
      }
    });
  } finally {
    await s.stop();
  }
});
