/**
 * GreptimeDB's sketch functions over `/v1/sql`: `hll`/`hll_merge`/`hll_count` and
 * `uddsketch_state`/`uddsketch_merge`/`uddsketch_calc`, typed as GreptimeDB types them, composing as
 * its docs show (per-window states INSERTed into a BINARY column, merged later, and a flow whose sink
 * keeps the states), and bad arguments as 400s naming what is wrong.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";

const MIN = 60_000;

/** 3 minutes of visits: user ids 0..(40·(m+1)) in minute m, so 120 distinct overall; latencies 1..N. */
function visits(): string {
  const rows: string[] = [];
  for (let m = 0; m < 3; m++) {
    for (let u = 0; u < 40 * (m + 1); u++) rows.push(`(${m * MIN + u}, ${u}, ${(u % 100) + 1})`);
  }
  return `INSERT INTO visits (ts, user_id, latency) VALUES ${rows.join(", ")}`;
}

const SETUP = [
  "CREATE TABLE visits (ts TIMESTAMP TIME INDEX, user_id BIGINT, latency DOUBLE)",
  visits(),
  "CREATE TABLE signed (ts TIMESTAMP TIME INDEX, v DOUBLE, s STRING)",
  "INSERT INTO signed VALUES (1, -100, 'a'), (2, -5, 'b'), (3, 0, 'c'), (4, 0, 'c'), (5, 2, NULL), " +
  "(6, 40, 'a'), (7, NULL, 'd')",
  "CREATE TABLE hll_states (w TIMESTAMP TIME INDEX, state BINARY)",
  "CREATE TABLE udd_states (w TIMESTAMP TIME INDEX, state BINARY)",
];

/** A value within the relative error of the wanted one. */
function near(got: unknown, want: number, alpha: number): void {
  assert.equal(typeof got, "number", `${got}`);
  assert.ok(Math.abs((got as number) - want) <= alpha * Math.abs(want) + 1e-9, `${got} vs ${want}`);
}

const CASES: SqlCase[] = [
  {
    name: "hll_count of hll: exact at small counts, typed UInt64; hll is Binary",
    sql: "SELECT hll_count(hll(user_id)) AS n, hll_count(hll(s)) AS strings FROM visits, " +
      "(SELECT 'x' AS s) AS one",
    schema: [["n", "UInt64"], ["strings", "UInt64"]],
    rows: [[120, 1]],
  },
  {
    name: "per-window counts",
    sql: "SELECT date_bin(INTERVAL '1 minute', ts) AS w, hll_count(hll(user_id)) AS n FROM visits " +
      "GROUP BY w ORDER BY w",
    schema: [["w", "TimestampMillisecond"], ["n", "UInt64"]],
    rows: [[0, 40], [MIN, 80], [2 * MIN, 120]],
  },
  {
    name: "hll_count around a range aggregate is UInt64, as the plain form",
    sql: "SELECT ts, hll_count(hll(user_id) RANGE '1m') AS n FROM visits ALIGN '1m' ORDER BY ts",
    schema: [["ts", "TimestampMillisecond"], ["n", "UInt64"]],
    rows: [[0, 40], [MIN, 80], [2 * MIN, 120]],
  },
  {
    name: "states are Binary",
    sql: "SELECT hll(user_id) AS h, uddsketch_state(8, 0.1, latency) AS u FROM visits WHERE ts = 0",
    schema: [["h", "Binary"], ["u", "Binary"]],
  },
  {
    name: "hll skips NULLs; a value hashes as its text, so 0 and 0.0 are one",
    sql: "SELECT hll_count(hll(v)) AS n, hll_count(hll(s)) AS s FROM signed",
    rows: [[5, 4]],
  },
  {
    name: "hll_count of NULL is NULL",
    sql: "SELECT hll_count(NULL) AS n",
    rows: [[null]],
  },
  {
    name: "uddsketch_calc over a state: within the error rate, typed Float64",
    sql:
      "SELECT uddsketch_calc(0.5, uddsketch_state(128, 0.01, latency)) AS p50 FROM visits WHERE ts < 60000",
    schema: [["p50", "Float64"]],
  },
  {
    name: "uddsketch_calc of NULL state is NULL",
    sql: "SELECT uddsketch_calc(0.5, NULL) AS p",
    rows: [[null]],
  },
  // errors
  { sql: "SELECT hll(user_id, 1) FROM visits", error: { message: "hll expects 1 argument, got 2" } },
  {
    sql: "SELECT hll_count(user_id) FROM visits",
    error: { message: "hll_count expects a binary sketch state" },
  },
  { sql: "SELECT hll_count(X'0102') AS n", error: { message: "hll_count: not an hll state" } },
  { sql: "SELECT hll_count(X'48010E0005000000') AS n", error: { message: "hll_count: corrupt hll state" } },
  {
    sql: "SELECT hll_merge('abc') FROM visits",
    error: { message: "hll_merge expects a binary sketch state" },
  },
  {
    sql: "SELECT uddsketch_calc(1.5, uddsketch_state(128, 0.01, latency)) FROM visits",
    error: { message: "uddsketch_calc expects a percentile between 0 and 1, got 1.5" },
  },
  {
    sql: "SELECT uddsketch_calc(0.5, hll(user_id)) FROM visits",
    error: { message: "uddsketch_calc: not a uddsketch state" },
  },
  {
    sql: "SELECT uddsketch_state(0, 0.01, latency) FROM visits",
    error: { message: "uddsketch_state: bucket_num must be an integer from 1" },
  },
  {
    sql: "SELECT uddsketch_state(128, 1.5, latency) FROM visits",
    error: { message: "uddsketch_state: error_rate must be above 1e-9 and below 1, got 1.5" },
  },
  {
    sql: "SELECT uddsketch_state(user_id + 1, 0.01, latency) FROM visits",
    error: { message: "uddsketch_state: bucket_num and error_rate must be constants" },
  },
  {
    sql: "SELECT uddsketch_state('a', 0.01, latency) FROM visits",
    error: { message: "uddsketch_state: bucket_num must be a constant integer" },
  },
  {
    sql: "SELECT uddsketch_state(128, 0.01) FROM visits",
    error: { message: "uddsketch_state expects 3 arguments, got 2" },
  },
  {
    sql: "SELECT uddsketch_state(128, 0.01, s) FROM signed",
    error: { message: "uddsketch_state expects a numeric value, got 'a'" },
  },
  {
    sql: "SELECT uddsketch_merge(64, 0.01, st) FROM (SELECT uddsketch_state(128, 0.01, latency) AS st " +
      "FROM visits) AS q",
    error: { message: "uddsketch_merge: uddsketch states differ" },
  },
];

Deno.test("sketch functions over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    const { url } = server;
    for (const s of SETUP) await sqlOk(url, s);
    await runCases(t, url, CASES);

    // 100k distinct values within 2 %; their p99 within the error after collapsing to 128 buckets (three
    // collapses: α 0.01 → ~0.08)
    const [[many, p99]] = await sqlRows(
      url,
      "SELECT hll_count(hll(value)) AS n, uddsketch_calc(0.99, uddsketch_state(128, 0.01, value)) AS p99 " +
        "FROM generate_series(1, 100000)",
    );
    near(many, 100000, 0.02);
    near(p99, 99001, 0.08);

    // quantiles of negatives, zeros and positives, within 1 %
    const [[lo, mid, hi]] = await sqlRows(
      url,
      "SELECT uddsketch_calc(0, st) AS lo, uddsketch_calc(0.5, st) AS mid, uddsketch_calc(1, st) AS hi " +
        "FROM (SELECT uddsketch_state(128, 0.01, v) AS st FROM signed) AS q",
    );
    near(lo, -100, 0.01);
    assert.equal(mid, 0);
    near(hi, 40, 0.01);

    // GreptimeDB's docs: states per window stored in a BINARY column, merged later
    await sqlOk(
      url,
      "INSERT INTO hll_states SELECT date_bin(INTERVAL '1 minute', ts) AS w, hll(user_id) AS state " +
        "FROM visits GROUP BY w",
    );
    assert.deepEqual(await sqlRows(url, "SELECT hll_count(hll_merge(state)) AS n FROM hll_states"), [[120]]);
    assert.deepEqual(
      await sqlRows(url, "SELECT w, hll_count(state) FROM hll_states ORDER BY w"),
      [[0, 40], [MIN, 80], [2 * MIN, 120]],
    );
    await sqlOk(
      url,
      "INSERT INTO udd_states SELECT date_bin(INTERVAL '1 minute', ts) AS w, " +
        "uddsketch_state(128, 0.01, latency) AS state FROM visits GROUP BY w",
    );
    // latencies: 1..40, 1..80, 1..100 then 1..20: the (⌊240·0.9⌋+1)-th smallest of all is 87
    const [[p90, p50]] = await sqlRows(
      url,
      "SELECT uddsketch_calc(0.9, uddsketch_merge(128, 0.01, state)) AS p90, " +
        "uddsketch_calc(0.5, uddsketch_merge(128, 0.01, state)) AS p50 FROM udd_states",
    );
    const all = [
      ...Array.from({ length: 40 }, (_, i) => i + 1),
      ...Array.from({ length: 80 }, (_, i) => i + 1),
      ...Array.from({ length: 120 }, (_, i) => (i % 100) + 1),
    ].sort((a, b) => a - b);
    near(p90, all[Math.floor(240 * 0.9)], 0.01);
    near(p50, all[Math.floor(240 * 0.5)], 0.01);
    // NULL states are skipped by the merges
    await sqlOk(url, "INSERT INTO hll_states VALUES (600000, NULL)");
    assert.deepEqual(await sqlRows(url, "SELECT hll_count(hll_merge(state)) AS n FROM hll_states"), [[120]]);
  } finally {
    await server.stop();
  }
});

Deno.test("a flow keeps per-window sketch states in a Binary sink column, as GreptimeDB's docs show", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    const base = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
    await sqlOk(url, "CREATE TABLE t (ts TIMESTAMP TIME INDEX, user_id BIGINT, latency DOUBLE)");
    await sqlOk(
      url,
      "CREATE FLOW users SINK TO user_states AS SELECT date_bin(INTERVAL '1 minute', ts) AS time_window, " +
        "hll(user_id) AS state, uddsketch_state(64, 0.01, latency) AS lat FROM t GROUP BY time_window",
    );
    const rows = [];
    for (let u = 0; u < 50; u++) {
      rows.push(`(${base + u}, ${u % 30}, ${u + 1})`, `(${base + MIN + u}, ${u}, 1)`);
    }
    await sqlOk(url, `INSERT INTO t VALUES ${rows.join(", ")}`);
    await sqlOk(url, "ADMIN FLUSH_FLOW('users')");
    const desc = await sqlRows(url, "DESC TABLE user_states");
    assert.deepEqual(desc.map((r) => [r[0], r[1]]).slice(0, 3), [
      ["time_window", "TimestampMillisecond"],
      ["state", "Binary"],
      ["lat", "Binary"],
    ]);
    assert.deepEqual(
      await sqlRows(url, "SELECT time_window, hll_count(state) FROM user_states ORDER BY time_window"),
      [[base, 30], [base + MIN, 50]],
    );
    assert.deepEqual(await sqlRows(url, "SELECT hll_count(hll_merge(state)) FROM user_states"), [[50]]);
    const [[p]] = await sqlRows(
      url,
      "SELECT uddsketch_calc(0.99, uddsketch_merge(64, 0.01, lat)) FROM user_states",
    );
    near(p, 50, 0.01);
    // a late write recomputes its window's state
    await sqlOk(url, `INSERT INTO t VALUES (${base + 59_000}, 1000, 5)`);
    await sqlOk(url, "ADMIN FLUSH_FLOW('users')");
    assert.deepEqual(
      await sqlRows(url, "SELECT time_window, hll_count(state) FROM user_states ORDER BY time_window"),
      [[base, 31], [base + MIN, 50]],
    );
  } finally {
    await server.stop();
  }
});

Deno.test("GreptimeDB's documentation examples: flows into sinks created beforehand", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    const base = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
    const iso = (ms: number) => `'${new Date(ms).toISOString()}'`;
    await sqlOk(
      url,
      "CREATE TABLE access_log (`url` STRING, user_id BIGINT, ts TIMESTAMP TIME INDEX, " +
        "PRIMARY KEY(`url`, `user_id`))",
    );
    await sqlOk(
      url,
      "CREATE TABLE access_log_10s (`url` STRING, time_window timestamp time index, state BINARY, " +
        "PRIMARY KEY(`url`))",
    );
    await sqlOk(
      url,
      "CREATE FLOW calc_access_log_10s SINK TO access_log_10s AS SELECT `url`, " +
        "date_bin('10s'::INTERVAL, ts) AS time_window, hll(`user_id`) AS state FROM access_log " +
        "GROUP BY `url`, time_window",
    );
    await sqlOk(
      url,
      "INSERT INTO access_log VALUES " + [
        ["/dashboard", 1, 0],
        ["/dashboard", 1, 1000],
        ["/dashboard", 2, 2000],
        ["/dashboard", 3, 15000],
        ["/not_found", 1, 3000],
        ["/not_found", 3, 4000],
        ["/not_found", 4, 25000],
      ].map(([u, id, t]) => `('${u}', ${id}, ${iso(base + Number(t))})`).join(", "),
    );
    await sqlOk(url, "ADMIN FLUSH_FLOW('calc_access_log_10s')");
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT `url`, time_window, hll_count(state) FROM access_log_10s ORDER BY `url`, time_window",
      ),
      [
        ["/dashboard", base, 2],
        ["/dashboard", base + 10000, 1],
        ["/not_found", base, 2],
        ["/not_found", base + 20000, 1],
      ],
    );
    assert.deepEqual(
      await sqlRows(
        url,
        "SELECT url, date_bin('1 minute'::INTERVAL, time_window) AS time_window_1m, " +
          "hll_count(hll_merge(state)) as uv_per_min FROM access_log_10s " +
          "GROUP BY url, date_bin('1 minute'::INTERVAL, time_window) ORDER BY url",
      ),
      [["/dashboard", base, 3], ["/not_found", base, 3]],
    );

    await sqlOk(
      url,
      "CREATE TABLE percentile_base (`id` INT PRIMARY KEY, `value` DOUBLE, `ts` timestamp(0) time index)",
    );
    await sqlOk(
      url,
      "CREATE TABLE percentile_5s (`percentile_state` BINARY, `time_window` timestamp(0) time index)",
    );
    await sqlOk(
      url,
      "CREATE FLOW calc_percentile_5s SINK TO percentile_5s AS SELECT uddsketch_state(128, 0.01, `value`) " +
        "AS percentile_state, date_bin(INTERVAL '5 seconds', `ts`) AS time_window FROM percentile_base " +
        "GROUP BY time_window",
    );
    const values = [[1, 10.0, 0], [2, 20.0, 1], [3, 30.0, 2], [4, 40.0, 3], [5, 50.0, 6], [6, 60.0, 7]];
    await sqlOk(
      url,
      "INSERT INTO percentile_base VALUES " +
        values.map(([id, v, t]) => `(${id}, ${v}, ${iso(base + t * 1000)})`).join(", "),
    );
    await sqlOk(url, "ADMIN FLUSH_FLOW('calc_percentile_5s')");
    const p99 = await sqlRows(
      url,
      "SELECT time_window, uddsketch_calc(0.99, `percentile_state`) AS p99 FROM percentile_5s ORDER BY time_window",
    );
    assert.deepEqual(p99.map((r) => r[0]), [base / 1000, base / 1000 + 5]);
    near(p99[0][1], 40, 0.01);
    near(p99[1][1], 60, 0.01);
  } finally {
    await server.stop();
  }
});
