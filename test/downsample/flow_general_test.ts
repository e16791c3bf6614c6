/**
 * Flows the per-field aggregates cannot compute run their own SELECT per window (GreptimeDB's
 * documentation examples): GROUP BY a field, `count(*)`, `count(<string>)`, aggregates of
 * expressions, any WHERE. Over HTTP: the sink GreptimeDB makes (its GROUP BY columns the primary
 * key in their types, the window the time index, the outputs typed as the query types them, then
 * `update_at`), the exact rows after ADMIN FLUSH_FLOW, a late write recomputing its window, SHOW
 * CREATE FLOW, information_schema.flows and DROP FLOW; what a window's rows cannot answer is refused.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { lineWrite, sql } from "../retention/http_helpers.ts";

async function sqlError(url: string, query: string) {
  const r = await fetch(`${url}/v1/sql?db=public`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
  });
  const body = await r.json();
  return { status: r.status, code: body.code as number, error: String(body.error ?? "") };
}

const HOUR = 3_600_000;
const MIN = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const NGX_TABLE =
  `CREATE TABLE ngx_access_log (client STRING, ua_platform STRING, referer STRING, method STRING,
  endpoint STRING, trace_id STRING FULLTEXT INDEX, protocol STRING, status SMALLINT UNSIGNED, size DOUBLE,
  agent STRING, access_time TIMESTAMP TIME INDEX)`;

const NGX_FLOW = `CREATE FLOW ngx_aggregation SINK TO ngx_statistics AS
SELECT status, count(client) AS total_logs, min(size) as min_size, max(size) as max_size, avg(size) as avg_size,
  sum(case when \`size\` > 550 then 1 else 0 end) as high_size_count,
  date_bin(INTERVAL '1 minutes', access_time) as time_window
FROM ngx_access_log GROUP BY status, time_window`;

const access = (client: string, status: number, size: number, at: number) =>
  `('${client}', 'linux', '', 'GET', '/', 't', 'HTTP/1.1', ${status}, ${size}, 'curl', '${iso(at)}')`;

const insert = (rows: string[]) => `INSERT INTO ngx_access_log VALUES ${rows.join(", ")}`;

Deno.test("flow general: GreptimeDB's documentation example computes its sink, recomputes a late window", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, NGX_TABLE);
    await sql(url, NGX_FLOW);
    assert.deepEqual((await sql(url, "DESC TABLE ngx_statistics")).map((r) => [r[0], r[1], r[2], r[5]]), [
      ["status", "UInt16", "PRI", "TAG"],
      ["total_logs", "Int64", "", "FIELD"],
      ["min_size", "Float64", "", "FIELD"],
      ["max_size", "Float64", "", "FIELD"],
      ["avg_size", "Float64", "", "FIELD"],
      ["high_size_count", "Int64", "", "FIELD"],
      ["time_window", "TimestampMillisecond", "PRI", "TIMESTAMP"],
      ["update_at", "TimestampMillisecond", "", "FIELD"],
    ]);
    await sql(
      url,
      insert([
        access("a", 200, 1000, BASE + 1000),
        access("b", 200, 1000, BASE + 2000),
        access("c", 404, 30, BASE + 3000),
        access("d", 200, 500, BASE + MIN + 1000),
        access("e", 404, 600, BASE + MIN + 2000),
      ]),
    );
    assert.equal(Number((await sql(url, "ADMIN FLUSH_FLOW('ngx_aggregation')"))[0][0]), 2);
    const SINK = "SELECT status, total_logs, min_size, max_size, avg_size, high_size_count, time_window " +
      "FROM ngx_statistics ORDER BY time_window, status";
    assert.deepEqual(await sql(url, SINK), [
      [200, 2, 1000, 1000, 1000, 2, BASE],
      [404, 1, 30, 30, 30, 0, BASE],
      [200, 1, 500, 500, 500, 0, BASE + MIN],
      [404, 1, 600, 600, 600, 1, BASE + MIN],
    ]);
    const updated = await sql(url, "SELECT count(*) FROM ngx_statistics WHERE update_at IS NOT NULL");
    assert.deepEqual(updated, [[4]]);

    // a late write into the first window: the window is computed again from all its rows
    await sql(url, insert([access("f", 200, 2000, BASE + 4000), access("g", 500, 10, BASE + 5000)]));
    assert.ok(Number((await sql(url, "ADMIN FLUSH_FLOW('ngx_aggregation')"))[0][0]) >= 1);
    assert.deepEqual(await sql(url, SINK), [
      [200, 3, 1000, 2000, 4000 / 3, 3, BASE],
      [404, 1, 30, 30, 30, 0, BASE],
      [500, 1, 10, 10, 10, 0, BASE],
      [200, 1, 500, 500, 500, 0, BASE + MIN],
      [404, 1, 600, 600, 600, 1, BASE + MIN],
    ]);
    // a deleted row leaves the recomputed window
    await sql(url, `DELETE FROM ngx_access_log WHERE status = 500`);
    await sql(url, "ADMIN FLUSH_FLOW('ngx_aggregation')");
    assert.equal((await sql(url, SINK)).length, 4);

    const [[, create]] = await sql(url, "SHOW CREATE FLOW ngx_aggregation");
    assert.equal(
      create,
      `CREATE FLOW IF NOT EXISTS ngx_aggregation\nSINK TO ngx_statistics\nAS ${
        NGX_FLOW.slice(NGX_FLOW.indexOf("SELECT"))
      }`,
    );
    const info = await sql(
      url,
      "SELECT flow_name, sink_table_name, source_table_names FROM information_schema.flows",
    );
    assert.deepEqual(info, [[
      "ngx_aggregation",
      "greptime.public.ngx_statistics",
      '["greptime.public.ngx_access_log"]',
    ]]);
    await sql(url, "DROP FLOW ngx_aggregation");
    assert.deepEqual(await sql(url, "SHOW FLOWS"), []);
    await sql(url, insert([access("h", 200, 1, BASE + 6000)]));
    assert.equal((await sql(url, SINK))[0][1], 3, "a dropped flow computes nothing more");
  } finally {
    await server.stop();
  }
});

Deno.test("flow general: count(*), GROUP BY a field, an aggregate of an expression, a WHERE with a function", async () => {
  let server = await startTestServer();
  try {
    const { url } = server;
    const lines: string[] = [];
    for (let k = 0; k < 12; k++) {
      const host = k % 3 === 0 ? "a" : "b";
      lines.push(`http,host=${host} status=${k % 2 === 0 ? 200 : 500}i,latency=${k}.5 ${BASE + k * 10_000}`);
    }
    await lineWrite(url, lines);
    await sql(
      url,
      "CREATE FLOW per_min SINK TO http_per_min AS SELECT count(*) AS n, " +
        "date_bin(INTERVAL '1 minute', greptime_timestamp) AS w FROM http GROUP BY w",
    );
    await sql(
      url,
      "CREATE FLOW by_status SINK TO http_by_status AS SELECT status, count(host) AS hosts, " +
        "sum(latency * 2) AS doubled, max(latency) - min(latency) AS spread, " +
        "date_bin(INTERVAL '1 minute', greptime_timestamp) AS w FROM http WHERE upper(host) = 'B' GROUP BY status, w",
    );
    assert.deepEqual((await sql(url, "DESC TABLE http_by_status")).map((r) => [r[0], r[1], r[5]]), [
      ["status", "Int64", "TAG"],
      ["hosts", "Int64", "FIELD"],
      ["doubled", "Float64", "FIELD"],
      ["spread", "Float64", "FIELD"],
      ["w", "TimestampNanosecond", "TIMESTAMP"], // the line protocol's time index is in ns, as date_bin's result
      ["update_at", "TimestampMillisecond", "FIELD"],
    ]);
    await sql(url, "ADMIN FLUSH_FLOW('per_min')");
    await sql(url, "ADMIN FLUSH_FLOW('by_status')");
    assert.deepEqual(await sql(url, "SELECT n FROM http_per_min ORDER BY w"), [[6], [6]]);
    assert.deepEqual(await sql(url, `SELECT n FROM http_per_min WHERE w = '${iso(BASE + MIN)}'`), [[6]]);
    // the same query by plain SQL
    const plain = await sql(
      url,
      "SELECT status, count(host), sum(latency * 2), max(latency) - min(latency), " +
        "date_bin(INTERVAL '1 minute', greptime_timestamp) AS w FROM http WHERE upper(host) = 'B' " +
        "GROUP BY status, w ORDER BY w, status",
    );
    assert.equal(plain.length, 4);
    assert.deepEqual(
      await sql(url, "SELECT status, hosts, doubled, spread, w FROM http_by_status ORDER BY w, status"),
      plain,
    );

    // kept across a restart: a new window is computed by the same SELECT
    await server.stop();
    server = await startTestServer({ storage: { data_home: server.dataHome } });
    await lineWrite(server.url, [`http,host=b status=200i,latency=1 ${BASE + 2 * MIN}`]);
    await sql(server.url, "ADMIN FLUSH_FLOW('per_min')");
    assert.deepEqual(await sql(server.url, "SELECT n FROM http_per_min ORDER BY w"), [[6], [6], [1]]);
  } finally {
    await server.stop();
  }
});

Deno.test("flow general: what a window's rows cannot answer is refused (1001), bad columns 400", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await lineWrite(url, [`http,host=a status=200i,latency=1 ${BASE}`, `mem,host=a used=1 ${BASE}`]);
    const W = "date_bin(INTERVAL '1 minute', greptime_timestamp) AS w";
    const refused: Array<[string, RegExp]> = [
      [`SELECT count(*) AS n, ${W} FROM http h JOIN mem m ON h.host = m.host GROUP BY w`, /join/],
      [`SELECT count(*) AS n, ${W} FROM http, mem GROUP BY w`, /join/],
      [`SELECT count(*) AS n FROM http GROUP BY host`, /GROUP BY host not in the SELECT list/],
      [`SELECT count(*) AS n, ${W} FROM http`, /GROUP BY/],
      [`SELECT count(*) AS n, ${W} FROM (SELECT * FROM http) GROUP BY w`, /subquery/],
      [`SELECT count(*) AS n, ${W} FROM http WHERE host IN (SELECT host FROM mem) GROUP BY w`, /subquery/],
      [`SELECT count(*) AS n, ${W} FROM http GROUP BY w ORDER BY n`, /ORDER/],
      [`SELECT count(*) AS n, ${W} FROM http GROUP BY w LIMIT 1`, /LIMIT/],
      [
        `SELECT count(*) AS n, ${W} FROM http GROUP BY w UNION ALL SELECT count(*) AS n, ${W} FROM mem GROUP BY w`,
        /UNION/,
      ],
      [`SELECT count(*) AS n, ${W} FROM http GROUP BY host, w`, /GROUP BY host not in the SELECT list/],
    ];
    for (const [query, message] of refused) {
      const r = await sqlError(url, `CREATE FLOW f SINK TO s AS ${query}`);
      assert.deepEqual([r.status, r.code], [400, 1001], `${query}: ${r.error}`);
      assert.match(r.error, message, query);
    }
    for (
      const query of [
        `SELECT count(nope) AS n, ${W} FROM http GROUP BY w`,
        `SELECT count(*) AS n, date_bin(INTERVAL '1 minute', latency) AS w FROM http GROUP BY w`,
      ]
    ) {
      const r = await sqlError(url, `CREATE FLOW f SINK TO s AS ${query}`);
      assert.equal(r.status, 400, `${query}: ${r.error}`);
    }
    assert.deepEqual(await sql(url, "SHOW FLOWS"), [], "nothing refused was stored");
    assert.ok(!(await sql(url, "SHOW TABLES")).some((r) => r[0] === "s"), "no sink made");
  } finally {
    await server.stop();
  }
});

Deno.test("flow general: a sink made before the flow (as GreptimeDB's docs do) is written in its own types", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, NGX_TABLE);
    await sql(
      url,
      `CREATE TABLE ngx_statistics (status SMALLINT UNSIGNED NULL, total_logs BIGINT NULL, min_size DOUBLE NULL,
        max_size DOUBLE NULL, avg_size DOUBLE NULL, high_size_count DOUBLE NULL, time_window TIMESTAMP(9) NOT NULL,
        update_at TIMESTAMP NULL, TIME INDEX (time_window), PRIMARY KEY (status))`,
    );
    await sql(url, NGX_FLOW);
    await sql(url, insert([access("a", 200, 1000, BASE + 1000), access("b", 404, 10, BASE + 2000)]));
    assert.equal(Number((await sql(url, "ADMIN FLUSH_FLOW('ngx_aggregation')"))[0][0]), 1);
    assert.deepEqual(
      await sql(
        url,
        `SELECT status, total_logs, high_size_count FROM ngx_statistics WHERE time_window = '${
          iso(BASE)
        }' ORDER BY status`,
      ),
      [[200, 1, 1], [404, 1, 0]],
    );
  } finally {
    await server.stop();
  }
});

Deno.test("flow general: the docs' SELECT DISTINCT … GROUP BY country, time_window computes one row per country and window", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, "CREATE TABLE visits (client STRING, country STRING, access_time TIMESTAMP TIME INDEX)");
    // GreptimeDB's continuous-aggregation example, trailing comma included
    await sql(
      url,
      `CREATE FLOW ngx_country SINK TO ngx_country AS SELECT DISTINCT country,
        date_bin(INTERVAL '1 hour', access_time) as time_window, FROM visits GROUP BY country, time_window`,
    );
    const rows = [["a", "CN", 0], ["b", "CN", 5 * MIN], ["c", "US", 10 * MIN], ["d", "CN", HOUR]];
    await sql(
      url,
      `INSERT INTO visits VALUES ${
        rows.map(([c, k, at]) => `('${c}', '${k}', '${iso(BASE + Number(at))}')`)
      }`,
    );
    await sql(url, "ADMIN FLUSH_FLOW('ngx_country')");
    assert.deepEqual(
      await sql(url, "SELECT country, time_window FROM ngx_country ORDER BY time_window, country"),
      [
        ["CN", BASE],
        ["US", BASE],
        ["CN", BASE + HOUR],
      ],
    );
  } finally {
    await server.stop();
  }
});
