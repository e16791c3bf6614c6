/**
 * Prometheus' HTTP query API over a real Petrel: `/query` and `/query_range`, GET and form POST,
 * both path prefixes, time and duration forms, the database by parameter, header and matcher, and
 * Prometheus' exact error envelopes.
 */
import assert from "node:assert/strict";
import { type Case, MID, runCases, secs, startLoadedServer, STEP_MS, T } from "./fixture.ts";

const vec = (metric: string, value: string, t = MID) =>
  `{"metric":${metric},"value":[${t / 1000},"${value}"]}`;
const ok = (data: string) => `{"status":"success","data":${data}}`;
const bad = (error: string, type = "bad_data") =>
  `{"status":"error","errorType":"${type}","error":${JSON.stringify(error)}}`;
const I1 = '{"__name__":"http_requests_total","instance":"i-1","job":"api"}';
const I2 = '{"__name__":"http_requests_total","instance":"i-2","job":"api"}';
const I3 = '{"__name__":"http_requests_total","instance":"i-3","job":"web"}';
const ALL_HTTP = `{"resultType":"vector","result":[${vec(I1, "1300")},${vec(I2, "1600")},${
  vec(I3, "1900")
}]}`;
const RFC = new Date(MID).toISOString();

const CASES: Case[] = [
  {
    name: "instant query, unix seconds",
    path: "query",
    params: { query: "http_requests_total", time: secs(MID) },
    body: ok(ALL_HTTP),
  },
  {
    name: "instant query, RFC 3339",
    path: "query",
    params: { query: "http_requests_total", time: RFC },
    body: ok(ALL_HTTP),
  },
  {
    name: "instant query, RFC 3339 with offset and fraction",
    path: "query",
    params: { query: "http_requests_total", time: "2023-11-15T01:18:20.000+03:00" },
    body: ok(ALL_HTTP),
  },
  {
    name: "instant query, POST form",
    path: "query",
    method: "POST",
    params: { query: "http_requests_total", time: secs(MID) },
    body: ok(ALL_HTTP),
  },
  {
    name: "spec path prefix",
    path: "query",
    spec: true,
    params: { query: "http_requests_total", time: secs(MID) },
    body: ok(ALL_HTTP),
  },
  {
    name: "fractional time: a sample's with three decimals, as Prometheus prints it",
    path: "query",
    params: { query: "vector(1)", time: secs(MID + 500) },
    body: ok(`{"resultType":"vector","result":[{"metric":{},"value":[${MID / 1000}.500,"1"]}]}`),
  },
  {
    name: "fractional time: a scalar's as Go's encoding/json prints the float, as Prometheus does",
    path: "query",
    params: { query: "scalar(up)", time: secs(MID + 500) },
    body: ok(`{"resultType":"scalar","result":[${MID / 1000}.5,"1"]}`),
  },
  {
    name: "regex __name__ spans tables",
    path: "query",
    params: { query: '{__name__=~"http_requests_total|up",instance="i-1"}', time: secs(MID) },
    body: ok(
      `{"resultType":"vector","result":[${vec(I1, "1300")},${
        vec('{"__name__":"up","instance":"i-1","job":"api"}', "1")
      }]}`,
    ),
  },
  {
    name: "aggregation of rate",
    path: "query",
    params: { query: "sum by (job) (rate(http_requests_total[1m]))", time: secs(MID) },
    body: (b) => {
      const r = (b.data as { result: { metric: { job: string }; value: [number, string] }[] }).result;
      assert.deepEqual(r.map((x) => [x.metric.job, Math.round(Number(x.value[1]))]), [["api", 3], [
        "web",
        3,
      ]]);
    },
  },
  {
    name: "line-protocol table: first numeric field by default",
    path: "query",
    params: { query: 'cpu{host="a"}', time: secs(MID) },
    body: ok(`{"resultType":"vector","result":[${vec('{"__name__":"cpu","host":"a"}', "20")}]}`),
  },
  {
    name: "line-protocol table: __field__ picks the column",
    path: "query",
    params: { query: 'cpu{host="a",__field__="idle"}', time: secs(MID) },
    body: ok(`{"resultType":"vector","result":[${vec('{"__name__":"cpu","host":"a"}', "80")}]}`),
  },
  {
    name: "db parameter",
    path: "query",
    params: { query: "http_requests_total", time: secs(MID), db: "other" },
    body: ok(`{"resultType":"vector","result":[${vec(I1, "1300")}]}`),
  },
  {
    name: "x-greptime-db-name header",
    path: "query",
    headers: { "x-greptime-db-name": "other" },
    params: { query: "count(http_requests_total)", time: secs(MID) },
    body: ok(`{"resultType":"vector","result":[${vec("{}", "1")}]}`),
  },
  {
    name: "db parameter beats the header",
    path: "query",
    headers: { "x-greptime-db-name": "other" },
    params: { query: "count(http_requests_total)", time: secs(MID), db: "public" },
    body: ok(`{"resultType":"vector","result":[${vec("{}", "3")}]}`),
  },
  {
    name: "__schema__ matcher picks the database",
    path: "query",
    params: { query: 'count(http_requests_total{__schema__="other"})', time: secs(MID) },
    body: ok(`{"resultType":"vector","result":[${vec("{}", "1")}]}`),
  },
  {
    name: "unknown database",
    path: "query",
    params: { query: "up", db: "nope" },
    status: 400,
    body: bad("Database not found: nope"),
  },
  {
    name: "lookback_delta",
    path: "query",
    params: { query: "count(up)", time: secs(T + 40 * STEP_MS + 60_000), lookback_delta: "30s" },
    body: ok(`{"resultType":"vector","result":[]}`),
  },
  {
    name: "range query, step in seconds",
    path: "query_range",
    params: { query: 'up{instance="i-1"}', start: secs(T), end: secs(T + 60_000), step: "30" },
    body: ok(
      `{"resultType":"matrix","result":[{"metric":{"__name__":"up","instance":"i-1","job":"api"},"values":[[${
        T / 1000
      },"1"],[${(T + 30_000) / 1000},"1"],[${(T + 60_000) / 1000},"1"]]}]}`,
    ),
  },
  {
    name: "range query, step as duration, POST form (Grafana)",
    path: "query_range",
    method: "POST",
    params: { query: "sum(up)", start: secs(T), end: secs(T + 60_000), step: "1m" },
    body: ok(
      `{"resultType":"matrix","result":[{"metric":{},"values":[[${T / 1000},"1"],[${
        (T + 60_000) / 1000
      },"1"]]}]}`,
    ),
  },
  {
    name: "parse error",
    path: "query",
    params: { query: "sum(" },
    status: 400,
    body: bad('invalid parameter "query": 1:5: parse error: unclosed left parenthesis'),
  },
  {
    name: "empty query",
    path: "query",
    params: {},
    status: 400,
    body: bad('invalid parameter "query": 1:1: parse error: no expression found in input'),
  },
  {
    name: "bad time",
    path: "query",
    params: { query: "up", time: "yesterday" },
    status: 400,
    body: bad(
      `invalid parameter "time": Invalid time value for 'time': cannot parse "yesterday" to a valid timestamp`,
    ),
  },
  {
    name: "bad start",
    path: "query_range",
    params: { query: "up", start: "x", end: "1", step: "1" },
    status: 400,
    body: bad('invalid parameter "start": cannot parse "x" to a valid timestamp'),
  },
  {
    name: "end before start",
    path: "query_range",
    params: { query: "up", start: "10", end: "1", step: "1" },
    status: 400,
    body: bad("end timestamp must not be before start time"),
  },
  {
    name: "bad step",
    path: "query_range",
    params: { query: "up", start: "1", end: "10", step: "fast" },
    status: 400,
    body: bad('invalid parameter "step": cannot parse "fast" to a valid duration'),
  },
  {
    name: "zero step",
    path: "query_range",
    params: { query: "up", start: "1", end: "10", step: "0" },
    status: 400,
    body: bad("zero or negative query resolution step widths are not accepted. Try a positive integer"),
  },
  {
    name: "too many points",
    path: "query_range",
    params: { query: "up", start: "0", end: "100000", step: "1" },
    status: 400,
    body: bad(
      "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)",
    ),
  },
  {
    name: "range vector in a range query",
    path: "query_range",
    params: { query: "up[5m]", start: "1", end: "10", step: "1" },
    status: 400,
    body: bad(
      'invalid parameter "query": invalid expression type "range vector" for range query, must be Scalar or instant Vector',
    ),
  },
  {
    name: "bad timeout",
    path: "query",
    params: { query: "up", timeout: "soon" },
    status: 400,
    body: bad('invalid parameter "timeout": cannot parse "soon" to a valid duration'),
  },
  {
    name: "execution error is 422",
    path: "query",
    params: { query: "http_requests_total + on(job) up", time: secs(MID) },
    status: 422,
    body: (b) => {
      assert.equal(b.errorType, "execution");
      assert.match(b.error!, /many-to-one matching must be explicit/);
    },
  },
  {
    // V8 compiles a regex on first use: one too large to compile must still be the client's 400.
    name: "a matcher regex too large for the engine is 400, with the pattern shortened",
    path: "query_range",
    method: "POST",
    params: {
      query: `sum by (job) (rate(http_requests_total{job=~"a${"- ".repeat(86_000)}b"}[5m]))`,
      start: secs(MID - 600_000),
      end: secs(MID),
      step: "15",
    },
    status: 400,
    body: (b) => {
      assert.equal(b.errorType, "bad_data");
      assert.match(b.error!, /^Invalid regular expression in matcher: a- - .*…: .*too large/);
      assert.ok(b.error!.length < 600, `error is ${b.error!.length} characters`);
    },
  },
];

Deno.test("Prometheus HTTP API: queries, parameter forms and errors", async (t) => {
  const s = await startLoadedServer();
  try {
    await runCases(t, s.url, CASES);
  } finally {
    await s.stop();
  }
});
