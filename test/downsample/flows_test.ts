/**
 * `CREATE FLOW` over HTTP: a flow over a line-protocol table computes what the same plain SQL
 * aggregate gives, survives a restart, is listed and shown, dropped (its sink stays), and refused
 * (400, 1001, naming the part) for shapes neither the downsampling engine nor the flow's own SELECT
 * per window computes.
 */
import assert from "node:assert/strict";
import { basicAuth, startTestServer } from "../helpers/server.ts";
import { lineWrite, remoteWrite, sql } from "../retention/http_helpers.ts";

const HOUR = 3_600_000;
const MIN = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

const FLOW = `CREATE FLOW IF NOT EXISTS cpu_5m
SINK TO cpu_usage_5m
EXPIRE AFTER '1d'
COMMENT 'five-minute cpu'
AS SELECT host, avg(usage) AS avg_usage, max(usage) AS max_usage, min(usage) AS min_usage,
  sum(usage) AS sum_usage, count(usage) AS n, last_value(usage ORDER BY greptime_timestamp) AS last_usage,
  date_bin(INTERVAL '5 minutes', greptime_timestamp) AS time_window
FROM cpu GROUP BY host, time_window`;

/** The same aggregates by plain SQL, per host and window. */
const PLAIN =
  `SELECT host, date_bin(INTERVAL '5 minutes', greptime_timestamp) AS w, avg(usage), max(usage), min(usage), sum(usage),
  count(usage) FROM cpu GROUP BY host, w ORDER BY host, w`;
const SINK =
  `SELECT host, CAST(time_window AS BIGINT), avg_usage, max_usage, min_usage, sum_usage, n, last_usage
  FROM cpu_usage_5m ORDER BY host, time_window`;

/** Three hosts × two regions, a row every 20 s for 30 minutes; usage varies by host, region and time. */
function cpuLines(): string[] {
  const lines: string[] = [];
  for (let k = 0; k < 90; k++) {
    for (const [h, host] of ["a", "b", "c"].entries()) {
      for (const [r, region] of ["east", "west"].entries()) {
        lines.push(
          `cpu,host=${host},region=${region} usage=${(k * 7 + h * 13 + r * 5) % 97}.5 ${BASE + k * 20_000}`,
        );
      }
    }
  }
  return lines;
}

async function sqlFailure(url: string, query: string, auth?: string) {
  const r = await fetch(`${url}/v1/sql?db=public`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
    headers: auth ? { authorization: auth } : {},
  });
  const body = await r.json();
  return { status: r.status, code: body.code as number, error: String(body.error ?? "") };
}

Deno.test("flows: a flow over a line-protocol table equals the plain SQL aggregate, across a restart", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  try {
    await lineWrite(server.url, cpuLines());
    // GreptimeDB answers CREATE FLOW as it answers CREATE TABLE: `Affected Rows: 0`
    const created = await fetch(`${server.url}/v1/sql`, {
      method: "POST",
      body: new URLSearchParams({ sql: FLOW }),
    });
    assert.deepEqual((await created.json()).output, [{ affectedrows: 0 }]);
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), [["cpu_5m"]]);
    assert.deepEqual(await sql(server.url, "SHOW FLOWS LIKE 'mem%'"), []);
    const flushed = await sql(server.url, "ADMIN FLUSH_FLOW('cpu_5m')");
    assert.equal(Number(flushed[0][0]), 6, "six closed windows");
    const plain = await sql(server.url, PLAIN);
    const sink = await sql(server.url, SINK);
    assert.equal(sink.length, 18, "3 hosts × 6 windows: grouped by host only, not region");
    sink.forEach((row, i) => {
      const [host, w, avg, max, min, sum, n] = plain[i];
      const wMs = Math.round(Number(w) / 1e6); // the source's time index is in ns, the sink's in ms
      assert.deepEqual(row.slice(0, 7).map(String), [host, wMs, avg, max, min, sum, n].map(String));
    });
    // last_value: the newest row of the window (two rows share that time: either region's value)
    const last = await sql(
      server.url,
      `SELECT usage FROM cpu WHERE host = 'a' AND greptime_timestamp = '${
        new Date(BASE + 5 * MIN - 20_000).toISOString()
      }'`,
    );
    assert.equal(last.length, 2);
    assert.ok(last.map(Number).includes(Number(sink[0][7])));
    const desc = await sql(server.url, "DESC TABLE cpu_usage_5m");
    const cols = Object.fromEntries(desc.map((r) => [r[0], [r[1], r[5]]]));
    assert.deepEqual(cols.host, ["String", "TAG"]);
    assert.deepEqual(cols.time_window, ["TimestampMillisecond", "TIMESTAMP"]);
    assert.deepEqual(cols.n, ["Int64", "FIELD"]);
    assert.deepEqual(cols.update_at, ["TimestampMillisecond", "FIELD"]);
    assert.equal(cols.region, undefined);
    await server.stop();

    server = await startTestServer({ storage: { data_home: dataHome } });
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), [["cpu_5m"]]);
    // The flush computed every window up to now: a row written now for an old window is late, and
    // within EXPIRE AFTER the restarted server's rule recomputes its window.
    await lineWrite(server.url, [`cpu,host=a,region=east usage=10 ${BASE + 40 * MIN}`]);
    assert.equal(await server.server.downsampler.runOnce(BASE + 2 * HOUR), 1);
    const added = await sql(
      server.url,
      `SELECT avg_usage FROM cpu_usage_5m WHERE time_window = ${BASE + 40 * MIN}`,
    );
    assert.deepEqual(added, [[10]]);
    const create = await sql(server.url, "SHOW CREATE FLOW cpu_5m");
    assert.match(
      String(create[0][1]),
      /^CREATE FLOW IF NOT EXISTS cpu_5m\nSINK TO cpu_usage_5m\nEXPIRE AFTER '1d'\n/,
    );
    assert.match(String(create[0][1]), /COMMENT 'five-minute cpu'\nAS SELECT host, avg\(usage\)/);
    const info = await sql(
      server.url,
      "SELECT flow_name, table_catalog, comment, expire_after, sink_table_name, source_table_names " +
        "FROM information_schema.flows",
    );
    assert.deepEqual(info, [[
      "cpu_5m",
      "greptime",
      "five-minute cpu",
      86400,
      "greptime.public.cpu_usage_5m",
      '["greptime.public.cpu"]',
    ]]);

    await sql(server.url, "DROP FLOW cpu_5m");
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), []);
    assert.equal((await sqlFailure(server.url, "DROP FLOW cpu_5m")).code, 8001);
    await sql(server.url, "DROP FLOW IF EXISTS cpu_5m");
    await lineWrite(server.url, [`cpu,host=a,region=east usage=10 ${BASE + 50 * MIN}`]);
    assert.equal(
      await server.server.downsampler.runOnce(BASE + 3 * HOUR),
      0,
      "a dropped flow computes nothing",
    );
    assert.equal((await sql(server.url, "SELECT count(*) FROM cpu_usage_5m"))[0][0], 19, "the sink stays");
  } finally {
    await server.stop();
  }
});

const REFUSED: Array<[string, RegExp]> = [
  [
    "SELECT c.host, avg(c.usage) AS a, date_bin(INTERVAL '5m', c.greptime_timestamp) AS w FROM cpu c JOIN mem m ON 1 GROUP BY host, w",
    /join|FROM|JOIN/i,
  ],
  [
    "SELECT host, avg(usage) AS a FROM cpu GROUP BY host LIMIT 1",
    /LIMIT/,
  ],
  [
    "SELECT host, avg(usage) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY upper(host), w",
    /GROUP BY upper/,
  ],
  [
    "SELECT host, avg(usage) AS a, date_trunc('month', greptime_timestamp) AS w FROM cpu GROUP BY host, w",
    /calendar/,
  ],
  [
    "SELECT host, avg(usage) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, region, w",
    /GROUP BY region/,
  ],
];

/** Shapes the per-field aggregates refuse that run as the flow's own SELECT (flow_general_test.ts). */
const GENERAL = [
  "SELECT host, avg(usage) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu WHERE upper(host) = 'A' GROUP BY host, w",
  "SELECT host, avg(usage) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, w HAVING a > 1",
  "SELECT host, stddev(usage) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, w",
  "SELECT host, avg(usage) * 2 AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, w",
  "SELECT host, count(*) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, w",
  "SELECT host, avg(usage), date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, w",
  "SELECT usage, avg(usage) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY usage, w",
  // no window key: the whole query at each run (flow_whole_test.ts)
  "SELECT host, avg(usage) AS a FROM cpu GROUP BY host",
];

Deno.test("flows: shapes the engine cannot compute are refused with 400 and 1001; bad columns with 400", async () => {
  const server = await startTestServer();
  try {
    await lineWrite(server.url, [`cpu,host=a,region=east usage=1,note="x" ${BASE}`]);
    for (const [query, message] of REFUSED) {
      const r = await sqlFailure(server.url, `CREATE FLOW f SINK TO s AS ${query}`);
      assert.deepEqual([r.status, r.code], [400, 1001], `${query}: ${r.error}`);
      assert.match(r.error, message, query);
    }
    for (
      const [query, code] of [
        [
          "SELECT host, avg(note) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM cpu GROUP BY host, w",
          3000,
        ],
        ["SELECT host, avg(usage) AS a, date_bin(INTERVAL '5m', usage) AS w FROM cpu GROUP BY host, w", 1004],
      ] as const
    ) {
      const r = await sqlFailure(server.url, `CREATE FLOW f SINK TO s AS ${query}`);
      assert.deepEqual([r.status, r.code], [400, code], `${query}: ${r.error}`);
    }
    for (const query of GENERAL) {
      const r = await sqlFailure(server.url, `CREATE FLOW g SINK TO sg AS ${query}`);
      assert.equal(r.status, 200, `${query}: ${r.error}`);
      await sql(server.url, "DROP FLOW g");
      await sql(server.url, "DROP TABLE sg");
    }
    const missing = await sqlFailure(
      server.url,
      "CREATE FLOW f SINK TO s AS SELECT avg(x) AS a, date_bin(INTERVAL '5m', greptime_timestamp) AS w FROM nope GROUP BY w",
    );
    assert.deepEqual([missing.status, missing.code], [400, 4001]);
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), [], "nothing refused was stored");
    const ok =
      "CREATE FLOW f SINK TO s AS SELECT avg(usage) AS a, date_trunc('minute', greptime_timestamp) AS w FROM cpu GROUP BY w";
    await sql(server.url, ok);
    assert.equal((await sqlFailure(server.url, ok)).code, 8000);
    const other = await sqlFailure(server.url, ok.replace("FLOW f", "FLOW g"));
    assert.match(other.error, /already written by flow f/);
  } finally {
    await server.stop();
  }
});

Deno.test("flows: CREATE, DROP and ADMIN FLUSH_FLOW are writes; SHOW FLOWS is a read", async () => {
  const server = await startTestServer({ user_provider: "static_user_provider:cmd:ro:ro=pw,rw=pw" });
  try {
    const ro = basicAuth("ro", "pw");
    const rw = basicAuth("rw", "pw");
    const r = await fetch(`${server.url}/v1/influxdb/write?db=public&precision=ms`, {
      method: "POST",
      body: `cpu,host=a usage=1 ${BASE}`,
      headers: { authorization: rw },
    });
    assert.equal(r.status, 204);
    const create =
      "CREATE FLOW f SINK TO s AS SELECT max(usage) AS m, date_bin(INTERVAL '1 minute', greptime_timestamp) AS w " +
      "FROM cpu GROUP BY w";
    for (const stmt of [create, "DROP FLOW IF EXISTS f", "ADMIN FLUSH_FLOW('f')"]) {
      const denied = await sqlFailure(server.url, stmt, ro);
      assert.equal(denied.status, 403, stmt);
    }
    assert.equal((await sqlFailure(server.url, create, rw)).status, 200);
    assert.equal((await sqlFailure(server.url, "SHOW FLOWS", ro)).status, 200);
    assert.equal((await sqlFailure(server.url, "ADMIN FLUSH_FLOW('f')", rw)).status, 200);
    assert.equal((await sqlFailure(server.url, "DROP FLOW f", rw)).status, 200);
  } finally {
    await server.stop();
  }
});

Deno.test("flows: a flow over a metric (metric engine) writes an ordinary sink by its aliases", async () => {
  const server = await startTestServer();
  try {
    await remoteWrite(
      server.url,
      ["a", "b"].map((instance, i) => ({
        labels: { __name__: "up_time", instance, job: "node" },
        samples: Array.from(
          { length: 40 },
          (_, k) => ({ timestampMs: BASE + k * 15_000, value: k + 100 * i }),
        ),
      })),
    );
    await sql(
      server.url,
      "CREATE FLOW up_5m SINK TO up_time_5m AS SELECT instance, avg(greptime_value) AS v, " +
        "count(greptime_value) AS n, date_bin(INTERVAL '5 minutes', greptime_timestamp) AS w " +
        "FROM up_time GROUP BY instance, w",
    );
    assert.equal(Number((await sql(server.url, "ADMIN FLUSH_FLOW('up_5m')"))[0][0]), 2);
    const plain = await sql(
      server.url,
      "SELECT instance, avg(greptime_value), count(greptime_value) FROM up_time " +
        "GROUP BY instance, date_bin(INTERVAL '5 minutes', greptime_timestamp) " +
        "ORDER BY instance, date_bin(INTERVAL '5 minutes', greptime_timestamp)",
    );
    const sink = await sql(server.url, "SELECT instance, v, n FROM up_time_5m ORDER BY instance, w");
    assert.deepEqual(sink.map((r) => r.map(String)), plain.map((r) => r.map(String)));
    assert.equal(sink.length, 4, "two series × two windows");
  } finally {
    await server.stop();
  }
});
