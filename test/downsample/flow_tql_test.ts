/**
 * TQL flows (GreptimeDB ≥ 0.15's "Using TQL in flows") over HTTP: Prometheus data by remote write,
 * `CREATE FLOW … EVAL INTERVAL '1m' AS TQL EVAL (…) <promql>`, `ADMIN FLUSH_FLOW`, and the sink read
 * by SQL holding exactly what `TQL EVAL` of the same statement answers (its columns, its rows); the
 * documentation's `now()` form as written; SHOW CREATE FLOW and information_schema.flows as written;
 * bad TQL refused at CREATE FLOW; a sink made beforehand; EVAL INTERVAL on an SQL flow; tumble().
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { remoteWrite, sql, sqlError } from "../retention/http_helpers.ts";
import type { Series } from "../../src/common/series.ts";

/** Three series of a gauge and two of a counter, a sample every 5 s over `[fromMs, fromMs + 300 s)`. */
function series(fromMs: number): Series[] {
  const samples = (f: (i: number) => number) =>
    Array.from({ length: 60 }, (_, i) => ({ timestampMs: fromMs + i * 5000, value: f(i) }));
  return [
    { labels: { __name__: "http_requests", status_code: "200", instance: "a" }, samples: samples(() => 1) },
    { labels: { __name__: "http_requests", status_code: "500", instance: "b" }, samples: samples(() => 2) },
    { labels: { __name__: "http_requests", status_code: "200", instance: "c" }, samples: samples(() => 1) },
    { labels: { __name__: "http_requests_total", job: "x", instance: "a" }, samples: samples((i) => i * 3) },
    { labels: { __name__: "http_requests_total", job: "y", instance: "b" }, samples: samples((i) => i) },
  ];
}

const T0 = Date.UTC(2025, 0, 1);
const S = T0 / 1000;
const COUNT = `TQL EVAL (${S + 60}, ${S + 120}, '5s') count_values("status_code", http_requests)`;
const RATE = `TQL EVAL (${S + 60}, ${S + 240}, '30s', '3m') rate(http_requests_total{job="x"}[5m])`;

const columnsOf = async (url: string, query: string) => {
  const r = await fetch(`${url}/v1/sql?db=public`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
  });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  const out = body.output[0].records;
  return {
    names: out.schema.column_schemas.map((c: { name: string }) => c.name) as string[],
    rows: out.rows,
  };
};

/** Rows as sortable text, so the sink and TQL EVAL compare whatever order each answers in. */
const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();

const flush = async (url: string, flow: string) =>
  Number((await sql(url, `ADMIN FLUSH_FLOW('${flow}')`))[0][0]);

Deno.test("TQL flow: the sink holds what TQL EVAL of the same statement answers", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await remoteWrite(url, series(T0));
    await sql(url, `CREATE FLOW calc_reqs SINK TO cnt_reqs EVAL INTERVAL '1m' AS ${COUNT}`);
    await sql(url, `CREATE FLOW rate_reqs SINK TO rate_reqs EVAL INTERVAL '1m' AS ${RATE}`);
    for (const [flow, sink, query] of [["calc_reqs", "cnt_reqs", COUNT], ["rate_reqs", "rate_reqs", RATE]]) {
      const expected = await columnsOf(url, query);
      assert.ok(expected.rows.length > 0, `${query} answers rows`);
      assert.equal(await flush(url, flow), expected.rows.length, "FLUSH_FLOW returns the rows written");
      const got = await columnsOf(
        url,
        `SELECT ${expected.names.map((n) => `"${n}"`).join(", ")} FROM ${sink}`,
      );
      assert.deepEqual(sorted(got.rows), sorted(expected.rows), `${sink} equals ${query}`);
      // the sink's columns are TQL EVAL's: its time index, its value, its labels as the primary key
      const desc = await sql(url, `DESC TABLE ${sink}`);
      assert.deepEqual(desc.map((r) => r[0]).sort(), [...expected.names].sort());
      // DESC marks the time index PRI too (as GreptimeDB does); the labels are the other PRI columns
      const keys = desc.filter((r) => r[2] === "PRI" && r[5] !== "TIMESTAMP").map((r) => r[0]).sort();
      assert.deepEqual(keys, expected.names.slice(2).sort(), `${sink}'s primary key is the labels`);
      assert.equal(desc.find((r) => r[5] === "TIMESTAMP")?.[0], expected.names[0]);
    }
    const cnt = await columnsOf(url, "SELECT * FROM cnt_reqs ORDER BY status_code, greptime_timestamp");
    // remote-written metrics have the time index greptime_timestamp, their value greptime_value
    // count_values: two series of value 1, one of value 2, at each of the 13 steps
    assert.deepEqual([...new Set(cnt.rows.map((r: unknown[]) => `${r[1]}@${r[2]}`))].sort(), ["1@2", "2@1"]);

    // a second flush writes the same points again: rows of the same labels and time replace each other
    const before = (await sql(url, "SELECT count(*) FROM cnt_reqs"))[0][0];
    await flush(url, "calc_reqs");
    assert.equal((await sql(url, "SELECT count(*) FROM cnt_reqs"))[0][0], before);

    // shown as written
    const [[, create]] = await sql(url, "SHOW CREATE FLOW calc_reqs");
    assert.equal(
      create,
      `CREATE FLOW IF NOT EXISTS calc_reqs\nSINK TO cnt_reqs\nEVAL INTERVAL '1m'\nAS ${COUNT}`,
    );
    const [[definition, sources]] = await sql(
      url,
      "SELECT flow_definition, source_table_names FROM information_schema.flows WHERE flow_name = 'rate_reqs'",
    );
    assert.equal(definition, RATE);
    assert.equal(sources, "[]");
  } finally {
    await server.stop();
  }
});

Deno.test("TQL flow: GreptimeDB's now() example as written evaluates the last minute at each run", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await remoteWrite(url, series(Date.now() - 240_000));
    const query = `TQL EVAL (now() - '1m'::interval, now(), '5s') count_values("status_code", http_requests)`;
    await sql(url, `CREATE FLOW calc_reqs SINK TO cnt_reqs EVAL INTERVAL '1m' AS ${query};`);
    const start = Date.now();
    const n = await flush(url, "calc_reqs");
    const expected = await columnsOf(url, query);
    assert.equal(n, expected.rows.length);
    const got = await columnsOf(url, `SELECT * FROM cnt_reqs`);
    assert.deepEqual(got.names, expected.names);
    // the values are constant: the sink's rows are TQL EVAL's, whenever now() was read
    const withoutTime = (rows: unknown[][]) => sorted(rows.map((r) => r.slice(1)));
    assert.deepEqual(withoutTime(got.rows), withoutTime(expected.rows));
    for (const r of got.rows) {
      const ts = Number(r[0]);
      assert.ok(ts >= start - 62_000 && ts <= Date.now(), `a step of the last minute: ${ts}`);
    }
  } finally {
    await server.stop();
  }
});

Deno.test("TQL flow: a bad statement is refused at CREATE FLOW, naming the problem", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await remoteWrite(url, series(T0));
    const syntax = await sqlError(
      url,
      `CREATE FLOW f SINK TO s AS TQL EVAL (0, 10, '5s') rate(http_requests_total[5m]`,
    );
    assert.equal(syntax.status, 400, syntax.error);
    assert.match(syntax.error, /invalid TQL/);
    const explain = await sqlError(url, `CREATE FLOW f SINK TO s AS TQL EXPLAIN (0, 10, '5s') up`);
    assert.equal(explain.status, 400);
    assert.match(explain.error, /TQL EXPLAIN/);
    const step = await sqlError(url, `CREATE FLOW f SINK TO s AS TQL EVAL (0, 10, 'soon') http_requests`);
    assert.equal(step.status, 400, step.error);
    const missing = await sqlError(url, `CREATE FLOW f SINK TO s AS TQL EVAL (0, 10, '5s') no_such_metric`);
    assert.match(missing.error, /invalid TQL: Table not found: .*no_such_metric/);
    assert.ok(missing.status >= 400 && missing.status < 500, `${missing.status}`);
    assert.deepEqual(await sql(url, "SHOW FLOWS"), [], "no flow was made");
    assert.deepEqual(await sql(url, "SHOW TABLES LIKE 's'"), [], "nor its sink");
  } finally {
    await server.stop();
  }
});

Deno.test("TQL flow: a sink made beforehand takes TQL EVAL's columns, else CREATE FLOW names the misfit", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await remoteWrite(url, series(T0));
    const { names } = await columnsOf(url, COUNT);
    const [ts, value] = names;
    await sql(url, `CREATE TABLE wrong_ts (t TIMESTAMP TIME INDEX, "${value}" DOUBLE, status_code STRING)`);
    const bad = await sqlError(url, `CREATE FLOW f SINK TO wrong_ts AS ${COUNT}`);
    assert.equal(bad.status, 400);
    assert.match(
      bad.error,
      /wrong_ts has time index t, but TQL EVAL names its time index greptime_timestamp/,
    );
    await sql(url, `CREATE TABLE no_value (${ts} TIMESTAMP TIME INDEX, v DOUBLE, status_code STRING)`);
    assert.match((await sqlError(url, `CREATE FLOW f SINK TO no_value AS ${COUNT}`)).error, /no column/);

    await sql(
      url,
      `CREATE TABLE made (status_code STRING, "${value}" DOUBLE, ${ts} TIMESTAMP TIME INDEX, note STRING,
        PRIMARY KEY (status_code))`,
    );
    await sql(url, `CREATE FLOW f SINK TO made AS ${COUNT}`);
    const expected = await columnsOf(url, COUNT);
    assert.equal(await flush(url, "f"), expected.rows.length);
    const got = await columnsOf(url, `SELECT ${names.map((n) => `"${n}"`).join(", ")} FROM made`);
    assert.deepEqual(sorted(got.rows), sorted(expected.rows));
    assert.equal((await sql(url, "SELECT count(note) FROM made"))[0][0], 0, "its other columns stay null");
  } finally {
    await server.stop();
  }
});

Deno.test("EVAL INTERVAL on an SQL flow is taken and shown; tumble() windows are refused naming date_bin", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, "CREATE TABLE cpu (host STRING PRIMARY KEY, usage DOUBLE, ts TIMESTAMP TIME INDEX)");
    await sql(
      url,
      `CREATE FLOW hosts SINK TO host_max EXPIRE AFTER '1h' EVAL INTERVAL '30s' AS
       SELECT host, max(usage) AS m FROM cpu GROUP BY host`,
    );
    const now = Date.now(); // within EXPIRE AFTER
    await sql(url, `INSERT INTO cpu VALUES ('a', 1, ${now - 2000}), ('a', 3, ${now - 1000})`);
    assert.equal(await flush(url, "hosts"), 1);
    const [[, create]] = await sql(url, "SHOW CREATE FLOW hosts");
    assert.match(String(create), /\nEXPIRE AFTER '1h'\nEVAL INTERVAL '30s'\nAS SELECT host/);
    const [[options]] = await sql(url, "SELECT options FROM information_schema.flows");
    assert.equal(
      JSON.parse(String(options)).delay,
      "30s",
      "a flow without a window runs every EVAL INTERVAL",
    );

    const tumble = await sqlError(
      url,
      `CREATE FLOW t SINK TO t5 AS SELECT host, max(usage) AS m FROM cpu GROUP BY host, tumble(ts, '5 minutes')`,
    );
    assert.equal(tumble.status, 400);
    assert.match(tumble.error, /tumble\(…\) windows \(use date_bin/);
  } finally {
    await server.stop();
  }
});

Deno.test("TQL flow: runs by itself every EVAL INTERVAL, survives a restart, keeps its sink's name; DROP FLOW stops it", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  try {
    await remoteWrite(server.url, series(T0));
    await sql(server.url, `CREATE FLOW calc_reqs SINK TO cnt_reqs EVAL INTERVAL '1s' AS ${COUNT}`);
    const expected = (await columnsOf(server.url, COUNT)).rows.length;
    const count = async () => Number((await sql(server.url, "SELECT count(*) FROM cnt_reqs"))[0][0]);
    const deadline = Date.now() + 8000;
    while (await count() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(await count(), expected, "the periodic run wrote TQL EVAL's rows without a flush");

    const rename = async () => await sqlError(server.url, "ALTER TABLE cnt_reqs RENAME cnt_reqs2");
    assert.deepEqual(
      await rename(),
      { status: 400, error: "Cannot rename cnt_reqs: flow calc_reqs#1024 writes it" },
      "the sink is not renamed from under its flow",
    );

    await server.stop();
    server = await startTestServer({ storage: { data_home: dataHome } });
    assert.match((await rename()).error, /flow calc_reqs#\d+ writes it/, "nor after a restart");
    await sql(server.url, "DELETE FROM cnt_reqs WHERE greptime_value > 0");
    assert.equal(await count(), 0);
    assert.equal(await flush(server.url, "calc_reqs"), expected, "the stored flow runs after a restart");
    assert.equal(await count(), expected);
    await sql(server.url, "DROP FLOW calc_reqs");
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), []);
    assert.equal(await count(), expected, "the sink stays");
    await sql(server.url, "ALTER TABLE cnt_reqs RENAME cnt_reqs2");
    assert.equal(Number((await sql(server.url, "SELECT count(*) FROM cnt_reqs2"))[0][0]), expected);
  } finally {
    await server.stop();
    await Deno.remove(dataHome, { recursive: true }).catch(() => {});
  }
});
