/**
 * `/v1/promql` in `/v1/sql`'s result formats, and the bounds every PromQL endpoint shares: the
 * `[query] max_samples` limit and the request timeout.
 */
import assert from "node:assert/strict";
import { MID, secs, startLoadedServer, T } from "./fixture.ts";

Deno.test("/v1/promql answers in /v1/sql's formats", async (t) => {
  const s = await startLoadedServer();
  const promql = (params: Record<string, string>, init?: RequestInit) =>
    fetch(`${s.url}/v1/promql?${new URLSearchParams(params)}`, init);
  try {
    await t.step("csv: timestamp ms, value (reference §6.3)", async () => {
      const res = await promql({ query: "1", start: "0", end: "20", step: "5s", format: "csv" });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "0,1.0\r\n5000,1.0\r\n10000,1.0\r\n15000,1.0\r\n20000,1.0\r\n");
    });
    await t.step("greptimedb_v1: value and label columns, one row per point", async () => {
      const res = await promql({ query: 'up{job="api"}', start: secs(T), end: secs(T + 30_000), step: "15" });
      const body = await res.json();
      assert.deepEqual(body.output[0].records.schema.column_schemas, [
        { name: "greptime_timestamp", data_type: "TimestampMillisecond" },
        { name: "greptime_value", data_type: "Float64" },
        { name: "instance", data_type: "String" },
        { name: "job", data_type: "String" },
      ]);
      assert.deepEqual(body.output[0].records.rows, [
        [T, 1, "i-1", "api"],
        [T + 15_000, 1, "i-1", "api"],
        [T + 30_000, 1, "i-1", "api"],
      ]);
    });
    await t.step("json format, POST, line-protocol field, db parameter", async () => {
      const res = await promql(
        {
          query: 'cpu{host="b",__field__="idle"}',
          start: secs(MID),
          end: secs(MID),
          step: "1m",
          format: "json",
        },
        { method: "POST" },
      );
      // the line-protocol table's own columns: its time index and the field read
      assert.deepEqual((await res.json()).data, [{ greptime_timestamp: MID, idle: 60, host: "b" }]);
      const other = await promql({
        query: "count(http_requests_total)",
        start: secs(MID),
        end: secs(MID),
        step: "1",
        db: "other",
        format: "csv",
      });
      assert.equal(await other.text(), `${MID},1.0\r\n`);
    });
    await t.step(
      "POST: the query in a text/plain or form body (the spec: 'sent in the request body')",
      async () => {
        const range = { start: secs(MID), end: secs(MID), step: "1m", format: "csv" };
        const query = "count(http_requests_total)";
        // A string body is sent as text/plain; bytes go without a content type.
        for (const body of [query, new TextEncoder().encode(query)]) {
          const res = await promql(range, { method: "POST", body });
          assert.equal(res.status, 200);
          assert.equal(await res.text(), `${MID},3.0\r\n`);
        }
        const form = await fetch(`${s.url}/v1/promql`, {
          method: "POST",
          body: new URLSearchParams({ query: "count(http_requests_total)", ...range }),
        });
        assert.equal(await form.text(), `${MID},3.0\r\n`);
        // A query string wins over the body, as a form's values would.
        const both = await promql({ query: "1", ...range }, { method: "POST", body: "2" });
        assert.equal(await both.text(), `${MID},1.0\r\n`);
      },
    );
    await t.step("planned as TQL EVAL: the table's own columns, `time`/`value` without one", async () => {
      const sql = (q: string) =>
        fetch(`${s.url}/v1/sql?${new URLSearchParams({ sql: q })}`, { method: "POST" });
      assert.equal(
        (await sql("CREATE TABLE sensor (ts TIMESTAMP TIME INDEX, room STRING PRIMARY KEY, temp DOUBLE)"))
          .status,
        200,
      );
      assert.equal((await sql(`INSERT INTO sensor VALUES (${MID}, 'hall', 21.5)`)).status, 200);
      const range = { start: secs(MID), end: secs(MID + 60_000), step: "60", format: "json" };
      const res = await promql({ query: "sensor", ...range });
      assert.deepEqual((await res.json()).data, [
        { ts: MID, temp: 21.5, room: "hall" },
        { ts: MID + 60_000, temp: 21.5, room: "hall" },
      ]);
      const avg = await promql({ query: "avg(sensor)", ...range, format: "greptimedb_v1" });
      assert.deepEqual((await avg.json()).output[0].records.schema.column_schemas, [
        { name: "ts", data_type: "TimestampMillisecond" },
        { name: "temp", data_type: "Float64" },
      ]);
      const literal = await promql({ query: "vector(1)", ...range, format: "csvWithNames" });
      assert.equal(await literal.text(), `time,value\r\n${MID},1.0\r\n${MID + 60_000},1.0\r\n`);
      // the same answer as TQL EVAL over /v1/sql
      const tql = await sql(`TQL EVAL (${secs(MID)}, ${secs(MID + 60_000)}, '60') sensor`);
      const viaSql = (await tql.json()).output[0].records;
      const direct = (await (await promql({ query: "sensor", ...range, format: "greptimedb_v1" })).json())
        .output[0].records;
      assert.deepEqual(direct, viaSql);
    });
    await t.step("a metric that is no table: 4001 Table not found, as TQL EVAL", async () => {
      const res = await promql({ query: "sum(nosuch_metric)", start: "0", end: "10", step: "5s" });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.code, 4001);
      assert.equal(body.error, "Table not found: greptime.public.nosuch_metric");
    });
    await t.step("missing step, bad query, unknown database: GreptimeDB errors", async () => {
      let res = await promql({ query: "up", start: "0", end: "1" });
      assert.equal(res.status, 400);
      let body = await res.json();
      assert.equal(body.code, 1004);
      assert.equal(body.error, "Failed to deserialize query string: missing field `step`");
      // a zero step is refused as TQL and the Prometheus API refuse it (it was read as 1 ms)
      for (const step of ["0", "0s", "-5"]) {
        res = await promql({ query: "1", start: "0", end: "1", step });
        assert.equal(res.status, 400, step);
        assert.deepEqual((({ code, error }) => ({ code, error }))(await res.json()), {
          code: 1004,
          error: "zero or negative query resolution step widths are not accepted. Try a positive integer",
        });
      }
      res = await promql({ query: "sum(", start: "0", end: "1", step: "1" });
      assert.equal(res.status, 400);
      body = await res.json();
      assert.equal(body.code, 1004);
      assert.match(body.error, /unclosed left parenthesis/);
      res = await promql({ query: "up", start: "0", end: "1", step: "1", db: "nope" });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).code, 4004);
    });
  } finally {
    await s.stop();
  }
});

Deno.test("PromQL bounds: the sample limit", async (t) => {
  // The fixture holds 40 samples per series; three series of http_requests_total = 120.
  const s = await startLoadedServer({ query: { max_samples: 100 } });
  const api = (path: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/v1/prometheus/api/v1/${path}?${new URLSearchParams(params)}`, { headers });
  const whole = { start: secs(T), end: secs(T + 600_000), step: "60" };
  try {
    await t.step("a query within the limit runs", async () => {
      const res = await api("query_range", { query: 'http_requests_total{instance="i-1"}', ...whole });
      assert.equal(res.status, 200, await res.text());
    });
    await t.step("a query loading more samples fails with Prometheus' error", async () => {
      const res = await api("query_range", { query: "sum(http_requests_total)", ...whole });
      assert.equal(res.status, 422);
      assert.equal(
        await res.text(),
        '{"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"}',
      );
      const sql = await fetch(
        `${s.url}/v1/promql?${new URLSearchParams({ query: "http_requests_total", ...whole })}`,
      );
      assert.equal(sql.status, 500);
      assert.match((await sql.json()).error, /too many samples/);
    });
  } finally {
    await s.stop();
  }
});

Deno.test("PromQL bounds: the timeout parameter and the request timeout", async (t) => {
  const s = await startLoadedServer();
  const api = (path: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/v1/prometheus/api/v1/${path}?${new URLSearchParams(params)}`, { headers });
  try {
    // Evaluating 600 steps of a 1 s subquery over 10 minutes takes far longer than a microsecond.
    const heavy = {
      query: 'count_over_time(up{instance="i-1"}[10m:1s])',
      start: secs(T),
      end: secs(T + 600_000),
      step: "1",
    };
    await t.step("the timeout parameter: 503 timeout", async () => {
      const res = await api("query_range", { ...heavy, timeout: "0.000001" });
      assert.equal(res.status, 503);
      const body = await res.json();
      assert.equal(body.errorType, "timeout");
      assert.match(body.error, /^query timed out in (query preparation|expression evaluation)$/);
    });
    await t.step("the request timeout applies to evaluation too: 408", async () => {
      const res = await api("query_range", heavy, { "x-greptime-timeout": "1ns" });
      assert.equal(res.status, 408);
      const body = await res.json();
      assert.equal(body.errorType, "timeout");
      assert.match(body.error, /Request timed out/);
    });
  } finally {
    await s.stop();
  }
});
