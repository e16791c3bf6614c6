/**
 * SQL on metric-engine logical tables filtered by tag (`WHERE host = '…'`, `host IN (…)`): the
 * reference reads the samples of the matching series ids, listed first from the series table (also
 * for `!=`, `~` and `!~` against a literal), and
 * answers exactly as the unfiltered view does (rows, order, NULL tags, NaN and stale values, other
 * tables on the same physical table). Each case runs as written and with `OR false` added, which
 * keeps the WHERE's meaning but not a conjunct the rewrite can rely on.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest } from "../http/fixtures/sql_client.ts";
import { remoteWrite } from "../promql/prom_compare.ts";
import { type Series, STALE_NAN } from "../../src/common/series.ts";

const T = Date.now() - 3_600_000;

/** SQLite's plan of a query, as EXPLAIN answers it. */
async function physicalPlan(s: TestServer, sql: string): Promise<string> {
  const out = await sqlOk(s.url, `EXPLAIN ${sql}`);
  const rows = (out[0] as { records: { rows: string[][] } }).records.rows;
  return rows.find((r) => r[0] === "physical_plan")![1];
}

function metric(name: string, hosts: number, samples: number): Series[] {
  const out: Series[] = [];
  for (let h = 0; h < hosts; h++) {
    // h0 has no `dc`: its tag reads as NULL
    const labels: Record<string, string> = { __name__: name, host: `h${h}` };
    if (h > 0) labels.dc = `d${h % 3}`;
    const s = [];
    for (let i = 0; i < samples; i++) {
      const value = i === 3 ? NaN : i === 4 ? STALE_NAN : h * 100 + i / 4;
      s.push({ timestampMs: T + i * 15_000, value });
    }
    out.push({ labels, samples: s });
  }
  return out;
}

/** Queries whose WHERE picks series by tag; `{w}` is where `OR false` goes. */
const CASES = [
  "SELECT * FROM cpu WHERE host = 'h3'{w}",
  "SELECT * FROM cpu WHERE 'h0' = host{w}",
  "SELECT count(*), sum(greptime_value) FROM cpu WHERE host IN ('h1', 'h2') AND dc = 'd1'{w}",
  "SELECT * FROM cpu c WHERE c.host = 'h2' AND c.greptime_timestamp > " + (T + 60_000) + "{w}",
  "SELECT * FROM cpu WHERE host = 'h4'{w} ORDER BY greptime_timestamp DESC LIMIT 5",
  "SELECT * FROM cpu WHERE host = 'nope'{w}",
  "SELECT host, count(*) FROM cpu WHERE dc IN ('d0', 'd2'){w} GROUP BY host ORDER BY host",
  "SELECT host, count(*) FROM cpu WHERE host ~ '^h[12]$'{w} GROUP BY host ORDER BY host",
  "SELECT host, dc, count(*) FROM cpu WHERE host !~ '1' AND dc != 'd1'{w} GROUP BY host, dc ORDER BY host",
  "SELECT * FROM cpu WHERE host <> 'h2' AND dc = 'd2'{w}",
  "SELECT * FROM cpu WHERE host LIKE 'h1%'{w}",
  "SELECT a.host, a.greptime_value, b.greptime_value FROM cpu a JOIN mem b ON a.host = b.host " +
  "AND a.greptime_timestamp = b.greptime_timestamp WHERE a.host = 'h1'{w}",
];

Deno.test("tag-filtered SQL on a metric table reads the picked series only, with the same answer", async () => {
  const s = await startTestServer();
  try {
    await remoteWrite(s.url, [...metric("cpu", 8, 20), ...metric("mem", 4, 10)], "/v1/prometheus/write");
    for (const c of CASES) {
      const filtered = await sqlOk(s.url, c.replace("{w}", ""));
      const whole = await sqlOk(s.url, c.replace("{w}", " OR false"));
      assert.deepEqual(filtered, whole, c);
    }
    const rows = await sqlOk(s.url, "SELECT * FROM cpu WHERE host = 'h3'");
    assert.equal((rows[0] as { records: { rows: unknown[] } }).records.rows.length, 20);
    // the plan: series ids listed first, samples tested against them (not joined row by row only)
    const plan = (sql: string) => physicalPlan(s, sql);
    assert.match(await plan("SELECT * FROM cpu WHERE host = 'h3'"), /LIST SUBQUERY/);
    assert.match(await plan("SELECT count(*) FROM cpu WHERE host IN ('h1', 'h2')"), /LIST SUBQUERY/);
    // a regex picking several series: the samples stay the outer loop (SQLite put the series outer,
    // then scanned every sample once per matching series: 6 s for 111 of 500 series × 1000 samples)
    // (with a time condition: without one, the series are read by their chunks, see
    // metric_series_chunks_test.ts)
    const regex = await plan(`SELECT count(*) FROM cpu WHERE host ~ 'h[12]' AND greptime_timestamp >= ${T}`);
    assert.match(regex, /LIST SUBQUERY/);
    assert.match(regex, /^(SCAN|SEARCH) s /);
    assert.doesNotMatch(await plan("SELECT * FROM cpu WHERE host = 'h3' OR false"), /LIST SUBQUERY/);
    // without a filter the view keeps the samples outer too (LIKE: 8 s on 500 series × 1000 samples)
    assert.match(await plan("SELECT count(*) FROM cpu WHERE host LIKE 'h1%'"), /^SCAN s\n/);
    // a bad pattern fails as it does without the filter
    const bad = await sqlRequest(s.url, "SELECT * FROM cpu WHERE host ~ '('");
    const badWhole = await sqlRequest(s.url, "SELECT * FROM cpu WHERE host ~ '(' OR false");
    assert.notEqual(bad.status, 200);
    assert.equal(bad.status, badWhole.status);
    assert.equal(JSON.parse(bad.text).error, JSON.parse(badWhole.text).error);
  } finally {
    await s.stop();
  }
});

Deno.test("metric views an older Petrel joined series-outer are made again when the database opens", async () => {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_test_" });
  let s: TestServer | null = await startTestServer({ storage: { data_home: dataHome } });
  try {
    await remoteWrite(s.url, metric("cpu", 4, 5), "/v1/prometheus/write");
    const before = await sqlOk(
      s.url,
      "SELECT * FROM cpu WHERE host LIKE 'h1%' ORDER BY host, greptime_timestamp",
    );
    await s.stop();
    // the view as an older Petrel made it: a plain JOIN, which SQLite runs series-outer here
    const db = new DatabaseSync(join(dataHome, "data", "public.sqlite"));
    const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'cpu'")
      .get() as {
        sql: string;
      };
    db.exec(`DROP VIEW cpu; ${sql.replace(" CROSS JOIN ", " JOIN ")}`);
    db.close();
    s = await startTestServer({ storage: { data_home: dataHome } });
    assert.match(await physicalPlan(s, "SELECT count(*) FROM cpu WHERE host LIKE 'h1%'"), /^SCAN s\n/);
    assert.deepEqual(
      await sqlOk(s.url, "SELECT * FROM cpu WHERE host LIKE 'h1%' ORDER BY host, greptime_timestamp"),
      before,
    );
  } finally {
    await s?.stop();
    await Deno.remove(dataHome, { recursive: true });
  }
});
