/**
 * Prometheus' metadata endpoints over a real Petrel (`/labels`, `/label/{name}/values`, `/series`,
 * `/format_query`, `/parse_query`, `/status/buildinfo`, `/metadata`) and the request shapes of
 * Grafana's Prometheus data source.
 */
import assert from "node:assert/strict";
import { type Case, MID, runCases, secs, startLoadedServer, T } from "./fixture.ts";

const vec = (metric: string, value: string, t = MID) =>
  `{"metric":${metric},"value":[${t / 1000},"${value}"]}`;
const ok = (data: string) => `{"status":"success","data":${data}}`;
const bad = (error: string, type = "bad_data") =>
  `{"status":"error","errorType":"${type}","error":${JSON.stringify(error)}}`;
const I1 = '{"__name__":"http_requests_total","instance":"i-1","job":"api"}';
const I2 = '{"__name__":"http_requests_total","instance":"i-2","job":"api"}';
const I3 = '{"__name__":"http_requests_total","instance":"i-3","job":"web"}';

const CASES: Case[] = [
  { name: "labels", path: "labels", body: ok('["__name__","host","instance","job"]') },
  {
    name: "labels, POST form with match[]",
    path: "labels",
    method: "POST",
    params: { "match[]": "up" },
    body: ok('["__name__","instance","job"]'),
  },
  {
    name: "labels with limit",
    path: "labels",
    params: { limit: "2" },
    body: ok('["__name__","host"],"warnings":["results truncated due to limit"]'),
  },
  { name: "label values", path: "label/job/values", body: ok('["api","web"]') },
  {
    name: "label values, match[]",
    path: "label/instance/values",
    params: { "match[]": 'http_requests_total{job="api"}' },
    body: ok('["i-1","i-2"]'),
  },
  {
    name: "label values, two match[]",
    path: "label/instance/values",
    params: { "match[]": ["up", '{__name__="http_requests_total",job="web"}'] },
    body: ok('["i-1","i-3"]'),
  },
  { name: "metric names", path: "label/__name__/values", body: ok('["cpu","http_requests_total","up"]') },
  {
    name: "field names",
    path: "label/__field__/values",
    params: { "match[]": "cpu" },
    body: ok('["idle","usage"]'),
  },
  {
    name: "database names",
    path: "label/__schema__/values",
    body: ok('["greptime_private","information_schema","other","public"]'),
  },
  { name: "line-protocol tags", path: "label/host/values", body: ok('["a","b"]') },
  { name: "unknown label", path: "label/nope/values", body: ok("[]") },
  { name: "invalid label name", path: "label/1x/values", status: 400, body: bad('invalid label name: "1x"') },
  {
    name: "series",
    path: "series",
    params: { "match[]": "http_requests_total", start: secs(T), end: secs(MID) },
    body: ok(`[${I1},${I2},${I3}]`),
  },
  {
    name: "series, POST form, two match[] (Grafana)",
    path: "series",
    method: "POST",
    params: { "match[]": ['up{job="api"}', 'cpu{host="b"}'], start: secs(T), end: secs(MID) },
    body: ok('[{"__name__":"cpu","host":"b"},{"__name__":"up","instance":"i-1","job":"api"}]'),
  },
  {
    name: "series of a table outside the time range",
    path: "series",
    params: { "match[]": "cpu", start: secs(T + 3_600_000), end: secs(T + 7_200_000) },
    body: ok("[]"),
  },
  {
    name: "series of a metric outside the time range",
    path: "series",
    params: {
      "match[]": ["up", "http_requests_total"],
      start: secs(T + 3_600_000),
      end: secs(T + 7_200_000),
    },
    body: ok("[]"),
  },
  {
    name: "series of a metric: the range holds the last sample",
    path: "series",
    params: { "match[]": "up", start: secs(T + 39 * 15_000), end: secs(T + 3_600_000) },
    body: ok('[{"__name__":"up","instance":"i-1","job":"api"}]'),
  },
  {
    name: "label values of metric series outside the time range",
    path: "label/instance/values",
    params: { "match[]": "http_requests_total", start: secs(T - 3_600_000), end: secs(T - 1000) },
    body: ok("[]"),
  },
  { name: "series without match[]", path: "series", status: 400, body: bad("no match[] parameter provided") },
  { name: "series with an empty matcher", path: "series", params: { "match[]": '{job=""}' }, status: 400 },
  {
    name: "format_query",
    path: "format_query",
    params: { query: "sum(rate(x[5m]))by(job)" },
    body: ok('"sum by (job) (rate(x[5m]))"'),
  },
  {
    name: "format_query escapes <, > and & as Go's JSON encoder does",
    path: "format_query",
    params: { query: "a>b" },
    body: ok('"a \\u003e b"'),
  },
  {
    name: "format_query, POST",
    path: "format_query",
    method: "POST",
    params: { query: "foo/bar" },
    body: ok('"foo / bar"'),
  },
  {
    name: "parse_query",
    path: "parse_query",
    params: { query: "http_requests" },
    body: (b) =>
      assert.deepEqual(b.data, {
        type: "vectorSelector",
        name: "http_requests",
        matchers: [{ name: "__name__", type: "=", value: "http_requests" }],
        offset: 0,
        startOrEnd: null,
        timestamp: null,
      }),
  },
  {
    name: "parse_query error",
    path: "parse_query",
    params: { query: "a +" },
    status: 400,
    body: bad('invalid parameter "query": 1:4: parse error: unexpected end of input'),
  },
  {
    name: "buildinfo",
    path: "status/buildinfo",
    body: (b) => assert.equal((b.data as { version: string }).version, "0.1.0"),
  },
  { name: "metadata", path: "metadata", params: { metric: "up" }, body: ok("{}") },
  // Grafana's Prometheus data source: POST forms with unix-second times and a step in seconds.
  {
    name: "Grafana: query_range POST form, step in seconds",
    path: "query_range",
    method: "POST",
    params: { query: "sum by (job) (up)", start: secs(T), end: secs(T + 30_000), step: "15" },
    body: ok(
      `{"resultType":"matrix","result":[{"metric":{"job":"api"},"values":[[${T / 1000},"1"],[${
        (T + 15_000) / 1000
      },"1"],[${(T + 30_000) / 1000},"1"]]}]}`,
    ),
  },
  {
    name: "Grafana: labels POST form with match[], start and end",
    path: "labels",
    method: "POST",
    params: { "match[]": 'http_requests_total{job="web"}', start: secs(T), end: secs(MID) },
    body: ok('["__name__","instance","job"]'),
  },
  {
    name: "Grafana: series POST form with match[], start and end",
    path: "series",
    method: "POST",
    params: { "match[]": "up", start: secs(T), end: secs(MID) },
    body: ok('[{"__name__":"up","instance":"i-1","job":"api"}]'),
  },
  {
    name: "Grafana: label values with match[], start and end",
    path: "label/instance/values",
    params: { "match[]": '{__name__="http_requests_total"}', start: secs(T), end: secs(MID) },
    body: ok('["i-1","i-2","i-3"]'),
  },
  {
    name: "Grafana: instant query POST form",
    path: "query",
    method: "POST",
    params: { query: "count(up)", time: secs(MID) },
    body: ok(`{"resultType":"vector","result":[${vec("{}", "1")}]}`),
  },
  // The spec lists GET and POST for every query API endpoint (Prometheus and GreptimeDB: GET only).
  {
    name: "spec: label values by POST form, under the spec's path",
    path: "label/instance/values",
    method: "POST",
    spec: true,
    params: { "match[]": '{__name__="http_requests_total"}', start: secs(T), end: secs(MID) },
    body: ok('["i-1","i-2","i-3"]'),
  },
  {
    name: "spec: buildinfo by POST",
    path: "status/buildinfo",
    method: "POST",
    body: (b) => assert.equal((b.data as { version: string }).version, "0.1.0"),
  },
  { name: "metadata is GET only", path: "metadata", method: "POST", status: 405 },
];

Deno.test("Prometheus HTTP API: labels, series, formatting, build info and Grafana's requests", async (t) => {
  const s = await startLoadedServer();
  try {
    await runCases(t, s.url, CASES);
  } finally {
    await s.stop();
  }
});
