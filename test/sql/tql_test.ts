/**
 * `TQL EVAL|EVALUATE` over `/v1/sql`, data-driven: every case runs the statement and the same
 * query over `/v1/promql` (same range, step and lookback) and wants the same rows, with the time
 * index and value columns named after the table read. The data: `http_requests_total` and `up` by
 * remote write (metric engine) and `cpu` by line protocol (fields `usage`, `idle`), 15 s apart from T.
 */
import assert from "node:assert/strict";
import { startLoadedServer } from "../promql_http/fixture.ts";
import type { TestServer } from "../helpers/server.ts";

type Records = { schema: { column_schemas: { name: string; data_type: string }[] }; rows: unknown[][] };
type Reply = { status: number; body: string };

/** T + 300 s (the fixture's MID) in seconds, and as RFC3339. */
const MID = 1_700_000_300, MID_ISO = "2023-11-14T22:18:20Z";

async function post(s: TestServer, path: string, params: Record<string, string>): Promise<Reply> {
  const res = await fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: await res.text() };
}

/** `/v1/promql` takes its parameters from the query string. */
async function promql(s: TestServer, params: Record<string, string>): Promise<Reply> {
  const res = await fetch(`${s.url}/v1/promql?${new URLSearchParams(params)}`);
  return { status: res.status, body: await res.text() };
}

function records(r: Reply, i = 0): Records {
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body).output[i].records;
}

interface Case {
  name: string;
  sql: string;
  /** The same query for `/v1/promql` (start, end, step, lookback, query). */
  promql: Record<string, string>;
  /** The time index and value column names. */
  time: string;
  value: string;
  /** At least this many rows (each case must really return data unless it says 0). */
  minRows: number;
}

const range = { start: String(MID), end: String(MID + 60), step: "15s" };
const CASES: Case[] = [
  {
    name: "metric-engine selector over a range",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') http_requests_total`,
    promql: { ...range, query: "http_requests_total" },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 15,
  },
  {
    name: "instant style (start = end), EVALUATE",
    sql: `TQL EVALUATE (${MID}, ${MID}, '1s') http_requests_total{job="api"}`,
    promql: { start: String(MID), end: String(MID), step: "1s", query: 'http_requests_total{job="api"}' },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 2,
  },
  {
    name: "rate over a range selector",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') rate(http_requests_total{instance=~"i-[12]"}[1m])`,
    promql: { ...range, query: 'rate(http_requests_total{instance=~"i-[12]"}[1m])' },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 10,
  },
  {
    name: "sum by over rate",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') sum by (job) (rate(http_requests_total[1m]))`,
    promql: { ...range, query: "sum by (job) (rate(http_requests_total[1m]))" },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 10,
  },
  {
    name: "lookback parameter keeps a sample 115 s old",
    sql: `TQL EVAL (${MID + 400}, ${MID + 400}, '1s', '2m') up`,
    promql: { start: String(MID + 400), end: String(MID + 400), step: "1s", lookback: "2m", query: "up" },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 1,
  },
  {
    name: "a shorter lookback drops it",
    sql: `TQL EVAL (${MID + 400}, ${MID + 400}, '1s', '1m') up`,
    promql: { start: String(MID + 400), end: String(MID + 400), step: "1s", lookback: "1m", query: "up" },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 0,
  },
  {
    name: "line-protocol table: the first field, named as the column",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') cpu`,
    promql: { ...range, query: "cpu" },
    time: "greptime_timestamp",
    value: "usage",
    minRows: 10,
  },
  {
    name: "line-protocol table: __field__ picks the value column",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') avg by (host) (cpu{__field__="idle"})`,
    promql: { ...range, query: 'avg by (host) (cpu{__field__="idle"})' },
    time: "greptime_timestamp",
    value: "idle",
    minRows: 10,
  },
  {
    name: "line-protocol table: several fields read: a value column and a __field__ label",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') cpu{__field__=~"usage|idle"}`,
    promql: { ...range, query: 'cpu{__field__=~"usage|idle"}' },
    time: "greptime_timestamp",
    value: "value",
    minRows: 20,
  },
  {
    name: "times as RFC3339 strings, step as a number of seconds",
    sql: `TQL EVAL ('${MID_ISO}', "2023-11-14T22:19:20Z", 15) up`,
    promql: { ...range, query: "up" },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 5,
  },
  {
    name: "times as SQL expressions",
    sql:
      `TQL EVAL ('2023-11-14 22:18:20'::timestamp, '2023-11-14 22:18:20'::timestamp + interval '1' minute, '15s') up`,
    promql: { ...range, query: "up" },
    time: "greptime_timestamp",
    value: "greptime_value",
    minRows: 5,
  },
  {
    name: "AS names the value column",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') sum(rate(http_requests_total[1m])) AS rps`,
    promql: { ...range, query: "sum(rate(http_requests_total[1m]))" },
    time: "greptime_timestamp",
    value: "rps",
    minRows: 5,
  },
  {
    name: "no table read: GreptimeDB's time and value columns",
    sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') vector(1) + 1`,
    promql: { ...range, query: "vector(1) + 1" },
    time: "time",
    value: "value",
    minRows: 5,
  },
];

Deno.test("TQL EVAL over /v1/sql", async (t) => {
  const s = await startLoadedServer();
  try {
    for (const c of CASES) await t.step(c.name, () => sameAsPromql(s, c));
    await t.step(
      "now() expressions count in whole seconds; no parameters: at 0, 5m step",
      () => nowAndBare(s),
    );
    await t.step("several statements in one body, each its own output", () => multiStatement(s));
    await t.step("a ; in a PromQL string or # comment stays in the statement", () => semicolons(s));
    await t.step("every /v1/sql format answers what /v1/promql answers", () => everyFormat(s));
  } finally {
    await s.stop();
  }
});

async function sameAsPromql(s: TestServer, c: Case): Promise<void> {
  const tql = records(await post(s, "/v1/sql", { sql: c.sql }));
  const prom = records(await promql(s, c.promql));
  const names = tql.schema.column_schemas.map((col) => col.name);
  assert.deepEqual(names.slice(0, 2), [c.time, c.value]);
  assert.deepEqual(names.slice(2), prom.schema.column_schemas.slice(2).map((col) => col.name), "labels");
  assert.deepEqual(
    tql.schema.column_schemas.map((col) => col.data_type),
    prom.schema.column_schemas.map((col) => col.data_type),
  );
  assert.deepEqual(tql.rows, prom.rows);
  if (c.minRows === 0) assert.equal(tql.rows.length, 0);
  else assert.ok(tql.rows.length >= c.minRows, `${tql.rows.length} rows`);
}

async function nowAndBare(s: TestServer): Promise<void> {
  const before = Math.floor(Date.now() / 1000) * 1000;
  const r = records(
    await post(s, "/v1/sql", { sql: "TQL EVAL (now() - interval '5' minute, now(), '1m') vector(1)" }),
  );
  assert.ok(r.rows.length === 6 || r.rows.length === 5, JSON.stringify(r.rows));
  const first = Number(r.rows[0][0]);
  assert.equal(first % 1000, 0);
  assert.ok(first >= before - 301_000 && first <= Date.now(), String(first));
  const bare = records(await post(s, "/v1/sql", { sql: "TQL EVAL vector(2)" }));
  assert.deepEqual(bare.rows, [[0, 2]]);
}

async function multiStatement(s: TestServer): Promise<void> {
  const sql = `SELECT 1; TQL EVAL (${MID}, ${MID}, '1s') up; TQL EVALUATE (${MID}, ${MID}, '1s') cpu;`;
  const r = await post(s, "/v1/sql", { sql });
  assert.equal(JSON.parse(r.body).output.length, 3);
  assert.deepEqual(records(r, 1).rows, [[MID * 1000, 1, "i-1", "api"]]);
  assert.deepEqual(records(r, 2).rows, [[MID * 1000, 20, "a"], [MID * 1000, 40, "b"]]);
  // TQL reads the session's database: USE switches it, as for SQL
  const other = await post(s, "/v1/sql", {
    sql: `USE other; TQL EVAL (${MID}, ${MID}, '1s') http_requests_total`,
  });
  assert.deepEqual(records(other, 1).rows, [[MID * 1000, 1300, "i-1", "api"]]);
  const missing = await post(s, "/v1/sql", { sql: `USE other; TQL EVAL (${MID}, ${MID}, '1s') up` });
  assert.equal(JSON.parse(missing.body).code, 4001, missing.body);
}

/** Each statement's rows. */
function outputs(r: Reply): unknown[][][] {
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body).output.map((o: { records: Records }) => o.records.rows);
}

async function semicolons(s: TestServer): Promise<void> {
  const frame = `(${MID}, ${MID}, '1s')`, up = [[MID * 1000, 1, "i-1", "api"]];
  const sql = async (text: string) => outputs(await post(s, "/v1/sql", { sql: text }));
  // the statement, and /v1/promql (one expression) reads the same PromQL alike
  const comment = "1+1 # a;b";
  const tql = records(await post(s, "/v1/sql", { sql: `TQL EVAL (0, 10, '5s') ${comment}` }));
  assert.deepEqual(tql.rows, [[0, 2], [5000, 2], [10000, 2]]);
  assert.deepEqual(
    records(await promql(s, { start: "0", end: "10", step: "5s", query: comment })).rows,
    tql.rows,
  );
  // every PromQL quote: "…" and '…' with backslash escapes, `…` raw; SQL after the TQL statement
  assert.deepEqual(await sql(`TQL EVAL ${frame} up{job!="a;b"}; SELECT 'c;d'`), [up, [["c;d"]]]);
  assert.deepEqual(await sql(`TQL EVAL ${frame} up{job=~'api|it\\'s;'}`), [up]);
  assert.deepEqual(await sql(`TQL EVAL ${frame} up{job!="a\\";"};`), [up]);
  assert.deepEqual(await sql(`TQL EVAL ${frame} up{job=~\`api|\\d;\`} AS v; SELECT 1`), [up, [[1]]]);
  // a comment runs to the end of its line, whatever quotes it holds
  assert.deepEqual(await sql(`TQL EVAL ${frame} up # don't\n * 2`), [[[MID * 1000, 2, "i-1", "api"]]]);
  assert.deepEqual(await sql(`TQL EVAL ${frame} up # x; SELECT 1`), [up], "one line: SELECT is commented");
  assert.deepEqual(await sql(`TQL EVAL ${frame} up # x\n; SELECT 1`), [up, [[1]]]);
  // a ; ending the comment's line ends the statement, as GreptimeDB splits it
  assert.deepEqual(await sql(`TQL EVAL ${frame} up # x;\nSELECT 1`), [up, [[1]]]);
  // -- is PromQL's minus twice, not an SQL comment
  assert.deepEqual(await sql("TQL EVAL (0, 0, '1s') 1--1"), [[[0, 2]]]);
  const alias = records(await post(s, "/v1/sql", { sql: `TQL EVAL ${frame} up{job=~"api|;"} AS v # c;d` }));
  assert.deepEqual(alias.schema.column_schemas.map((c) => c.name).slice(0, 2), ["greptime_timestamp", "v"]);
  // a quote left open runs to the end and the PromQL parser says so
  const open = await post(s, "/v1/sql", { sql: `TQL EVAL ${frame} up{job="a; SELECT 1` });
  assert.equal(open.status, 400, open.body);
  assert.equal(JSON.parse(open.body).code, 2000, open.body);
  const formatted = await post(s, "/v1/sql/format", { sql: `TQL EVAL ${frame} up{job="a;b"} # c;d` });
  assert.deepEqual(JSON.parse(formatted.body), {
    formatted: `TQL EVAL (${MID}, ${MID}, '1s') up{job="a;b"};`,
  });
}

const FORMATS = [
  "greptimedb_v1",
  "influxdb_v1",
  "csv",
  "csvWithNames",
  "csvWithNamesAndTypes",
  "table",
  "json",
  "arrow",
  "null",
];

async function everyFormat(s: TestServer): Promise<void> {
  const query = "sum by (job) (rate(http_requests_total[1m]))";
  const timing = /"execution_time_ms":\d+|execution_time_ms.{0,8}|Elapsed.*/g;
  for (const format of FORMATS) {
    const tql = await post(s, "/v1/sql", { sql: `TQL EVAL (${MID}, ${MID + 60}, '15s') ${query}`, format });
    const prom = await promql(s, { ...range, query, format });
    assert.equal(tql.status, 200, `${format}: ${tql.body}`);
    assert.equal(tql.body.replace(timing, ""), prom.body.replace(timing, ""), format);
    assert.ok(format === "null" || tql.body.length > 40, `${format}: ${tql.body}`);
  }
}
