/**
 * `TQL EXPLAIN`/`TQL ANALYZE` in our EXPLAIN shapes, TQL's errors (PromQL syntax as SQL syntax
 * errors, bad parameters, missing tables), TQL as a read for a read-only user, and `/v1/sql/format`
 * keeping the PromQL as written.
 */
import assert from "node:assert/strict";
import { formatSql } from "../../src/sql/format.ts";
import { basicAuth, startTestServer, type TestServer } from "../helpers/server.ts";
import { startLoadedServer } from "../promql_http/fixture.ts";

type Records = { schema: { column_schemas: { name: string; data_type: string }[] }; rows: unknown[][] };
type Reply = { status: number; body: Record<string, unknown> };

const MID = 1_700_000_300;
const QUERY = "sum by (job) (rate(http_requests_total[1m]))";
const FRAME = `(${MID}, ${MID + 60}, '15s')`;

async function sql(s: TestServer, text: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${s.url}/v1/sql`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ sql: text }),
  });
  return { status: res.status, body: await res.json() };
}

async function records(s: TestServer, text: string): Promise<Records> {
  const { status, body } = await sql(s, text);
  assert.equal(status, 200, JSON.stringify(body));
  return (body.output as { records: Records }[])[0].records;
}

const columns = (r: Records) => r.schema.column_schemas.map((c) => `${c.name}:${c.data_type}`);

async function explain(s: TestServer): Promise<void> {
  const r = await records(s, `TQL EXPLAIN ${FRAME} ${QUERY}`);
  assert.deepEqual(columns(r), ["plan_type:String", "plan:String"]);
  assert.deepEqual(r.rows.map((row) => row[0]), ["logical_plan", "physical_plan"]);
  const frame = `range=[${MID}000..${MID + 60}000], step=[15000], lookback=[300000]`;
  assert.equal(r.rows[0][1], `PromQLEval: ${frame}\n  ${QUERY}`);
  assert.equal(
    r.rows[1][1],
    `PromQLEvalExec: ${frame}\n  SeriesSelectExec: selector=[http_requests_total], ` +
      `tables=[public.http_requests_total], time=[${MID - 60}000..${MID + 60}000]`,
  );
  const verbose = await records(s, `TQL EXPLAIN VERBOSE (${MID}, ${MID}, '1s', '2m') {__name__=~"up|cpu"}`);
  assert.deepEqual(verbose.rows.map((row) => row[0]), [
    "initial_logical_plan",
    "logical_plan",
    "physical_plan",
  ]);
  assert.equal(verbose.rows[0][1], '{__name__=~"up|cpu"}');
  assert.match(
    String(verbose.rows[2][1]),
    /tables=\[public\.cpu, public\.up\], time=\[1700000180000\.\.1700000300000\]/,
  );
}

async function analyze(s: TestServer): Promise<void> {
  const evaluated = await records(s, `TQL EVAL ${FRAME} ${QUERY}`);
  const r = await records(s, `TQL ANALYZE ${FRAME} ${QUERY}`);
  assert.deepEqual(columns(r), ["stage:UInt32", "node:UInt32", "plan:String"]);
  const plan = String(r.rows[0][2]);
  assert.deepEqual(r.rows[0].slice(0, 2), [0, 0]);
  assert.match(
    plan,
    new RegExp(`^PromQLEvalExec: range=.*, metrics=\\[output_rows=${evaluated.rows.length}, `),
  );
  // three series, each with samples at T + 240 s … T + 360 s every 15 s: 9 apiece
  assert.match(
    plan,
    /\n {2}SeriesSelectExec: selector=\[http_requests_total\], .*output_series=3, output_samples=27, elapsed_compute=[\d.]+(ns|µs|ms|s)\]\n$/,
  );
  assert.deepEqual(r.rows[1], [null, null, `Total rows: ${evaluated.rows.length}`]);
  const verbose = String((await records(s, `TQL ANALYZE VERBOSE ${FRAME} ${QUERY}`)).rows[0][2]);
  for (const m of ["plan_time=", "elapsed=", `query=${QUERY}`]) {
    assert.ok(verbose.includes(m), `${m} in ${verbose}`);
  }
  const json = JSON.parse(String((await records(s, `TQL ANALYZE FORMAT JSON ${FRAME} ${QUERY}`)).rows[0][2]));
  assert.equal(json.name, "PromQLEvalExec");
  assert.equal(json.output_rows, evaluated.rows.length);
  assert.deepEqual([json.children[0].name, json.children[0].metrics.output_series], ["SeriesSelectExec", 3]);
}

/** Statement, status code, and a part of the message. */
const ERRORS: Array<[string, number, string]> = [
  ["TQL EVAL (0, 10, '5s') sum(", 2000, "unclosed left parenthesis"],
  [
    "TQL EVAL (0, 10, '5s') {__name__!=\"up\"}",
    2000,
    "vector selector must contain at least one non-empty matcher",
  ],
  ["TQL EVAL (0, 10) up", 2000, "Expected: (start, end, step[, lookback]) before the query, found: )"],
  ["TQL EVAL (0, , '5s') up", 2000, "Expected at least one token"],
  ["TQL EVAL (0, 10, '5s')", 2000, "empty TQL query"],
  ["TQL EVAL (0, 10, '5s' up", 2000, "found: EOF"],
  ["TQL EVAL ('yesterday', 10, '5s') up", 1004, "Cannot parse TQL time `yesterday`"],
  ["TQL EVAL (0, 10, '5 seconds') up", 1004, "Cannot parse TQL step `5 seconds`"],
  ["TQL EVAL (0, 10, '0s') up", 1004, "zero or negative query resolution step"],
  ["TQL EVAL (0, 10, '5s', 'long') up", 1004, "Cannot parse TQL lookback `long`"],
  ["TQL EVAL (10, 0, '5s') up", 1004, "end timestamp must not be before start time"],
  ["TQL EVAL (0, 100000, '1s') up", 1004, "exceeded maximum resolution of 11,000 points"],
  ["TQL EVAL (1 + 2, 10, '5s') up", 1004, "Failed to convert TQL expression to timestamp: 1 + 2"],
  ["TQL EVAL (0, 10, '5s') up[5m]", 1004, 'invalid expression type "range vector" for range query'],
  ["TQL EVAL (0, 10, '5s') nope", 4001, "Table not found: greptime.public.nope"],
  ["TQL EVAL (0, 10, '5s') rate(nope[1m]) + up", 4001, "Table not found: greptime.public.nope"],
  ["TQL FOO (0, 10, '5s') up", 1001, "SQL statement is not supported, keyword: FOO"],
  ["TQL EXPLAIN FORMAT JSON (0, 10, '5s') up", 1001, "FORMAT JSON is not supported"],
  ["SELECT 1; TQL EVAL (0, 10, '5s') sum(", 2000, "unclosed left parenthesis"],
];

async function errors(s: TestServer): Promise<void> {
  for (const [text, code, message] of ERRORS) {
    const r = await sql(s, text);
    assert.equal(r.status, 400, `${text}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.code, code, `${text}: ${JSON.stringify(r.body)}`);
    assert.ok(String(r.body.error).includes(message), `${text}: ${r.body.error}`);
  }
}

Deno.test("TQL EXPLAIN, TQL ANALYZE and TQL's errors over /v1/sql", async (t) => {
  const s = await startLoadedServer();
  try {
    await t.step("EXPLAIN: the parsed PromQL and the reads it will make", () => explain(s));
    await t.step("ANALYZE: the run with its rows, series and samples", () => analyze(s));
    await t.step("errors", () => errors(s));
  } finally {
    await s.stop();
  }
});

Deno.test("TQL is a read: a read-only user runs it, a write-only user may not", async () => {
  const s = await startTestServer({ user_provider: "static_user_provider:cmd:ro:ro=pw,wo:wo=pw,rw=pw" });
  try {
    const as = (user: string) => ({ authorization: basicAuth(user, "pw") });
    await sql(s, "CREATE TABLE up (ts TIMESTAMP TIME INDEX, v DOUBLE)", as("rw"));
    await sql(s, `INSERT INTO up VALUES (${MID}000, 1)`, as("rw"));
    const frame = `(${MID}, ${MID}, '1s')`;
    for (const text of [`TQL EVAL ${frame} up`, `TQL EXPLAIN ${frame} up`, `TQL ANALYZE ${frame} up`]) {
      const ro = await sql(s, text, as("ro"));
      assert.equal(ro.status, 200, `${text}: ${JSON.stringify(ro.body)}`);
      assert.equal((await sql(s, text, as("wo"))).status, 403, text);
    }
    const rows = (await sql(s, `TQL EVAL ${frame} up`, as("ro"))).body.output as { records: Records }[];
    assert.deepEqual(rows[0].records.rows, [[MID * 1000, 1]]);
    assert.deepEqual(rows[0].records.schema.column_schemas.map((c) => c.name), ["ts", "v"]);
  } finally {
    await s.stop();
  }
});

const FORMAT_CASES: Array<[string, string]> = [
  [
    `tql evaluate (0, 10, '5s') rate(http_requests_total{job=~"a|b",instance!="x"}[5m])`,
    `TQL EVAL (0, 10, '5s') rate(http_requests_total{job=~"a|b",instance!="x"}[5m]);`,
  ],
  ["tql eval up", "TQL EVAL (0, 0, '5m') up;"],
  [
    "tql explain verbose (now() - interval '5' minute, now(), 15, '1m') sum by (job) (up) as u",
    "TQL EXPLAIN VERBOSE (now() - interval '5' minute, now(), 15, '1m') sum by (job) (up) AS u;",
  ],
  [
    "tql analyze format json ('2023-11-14T22:18:20Z', 1, '1s') up",
    "TQL ANALYZE FORMAT JSON ('2023-11-14T22:18:20Z', 1, '1s') up;",
  ],
  ["select 1; tql eval (0,10,'5s') up", "SELECT 1;\nTQL EVAL (0, 10, '5s') up;"],
];

Deno.test("/v1/sql/format keeps a TQL statement's PromQL as written", async () => {
  for (const [input, want] of FORMAT_CASES) assert.equal(formatSql(input), want, input);
  const s = await startLoadedServer();
  try {
    const res = await fetch(`${s.url}/v1/sql/format?${new URLSearchParams({ sql: FORMAT_CASES[0][0] })}`);
    assert.deepEqual(await res.json(), { formatted: FORMAT_CASES[0][1] });
  } finally {
    await s.stop();
  }
});
