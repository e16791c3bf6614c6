/** EXPLAIN [ANALYZE] [VERBOSE] [FORMAT JSON] over `/v1/sql`, in GreptimeDB's result shapes. */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";

type Records = { schema: { column_schemas: { name: string; data_type: string }[] }; rows: unknown[][] };

async function sql(s: TestServer, text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.url}/v1/sql`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
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
const QUERY = "SELECT host, avg(v) FROM cpu WHERE v > 0 GROUP BY host";

async function withTable(fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer();
  try {
    await records(s, "SELECT 1"); // warm up
    await sql(s, "CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v DOUBLE, PRIMARY KEY(host))");
    await sql(s, "INSERT INTO cpu VALUES ('a', 1000, 1), ('b', 2000, 2), ('c', 3000, 3), ('a', 4000, 4)");
    await fn(s);
  } finally {
    await s.stop();
  }
}

Deno.test("EXPLAIN answers plan_type/plan rows; VERBOSE adds the query as written", async () => {
  await withTable(async (s) => {
    const plain = await records(s, `EXPLAIN ${QUERY}`);
    assert.deepEqual(columns(plain), ["plan_type:String", "plan:String"]);
    assert.deepEqual(plain.rows.map((r) => r[0]), ["logical_plan", "physical_plan"]);
    assert.match(String(plain.rows[1][1]), /SCAN|SEARCH/);
    const verbose = await records(s, `EXPLAIN VERBOSE ${QUERY}`);
    assert.deepEqual(verbose.rows.map((r) => r[0]), [
      "initial_logical_plan",
      "logical_plan",
      "physical_plan",
    ]);
    assert.equal(verbose.rows[0][1], QUERY);
    // plain EXPLAIN never runs the query: a failure at run time does not show
    const bad = await sql(s, "EXPLAIN SELECT json_extract('{', '$')");
    assert.equal(bad.status, 200);
  });
});

Deno.test("EXPLAIN ANALYZE runs the query: stage/node/plan rows with measured metrics and a total", async () => {
  await withTable(async (s) => {
    const r = await records(s, `EXPLAIN ANALYZE ${QUERY}`);
    assert.deepEqual(columns(r), ["stage:UInt32", "node:UInt32", "plan:String"]);
    assert.equal(r.rows.length, 2);
    const [stage, node, plan] = r.rows[0] as [number, number, string];
    assert.deepEqual([stage, node], [0, 0]);
    assert.match(plan, /^SqliteQueryExec, metrics=\[output_rows=3, elapsed_compute=[\d.]+(ns|µs|ms|s)\]\n/);
    assert.match(plan, /\n {2}(SCAN|SEARCH) main\.cpu/);
    assert.deepEqual(r.rows[1], [null, null, "Total rows: 3"]);
    // it really runs: a failure at run time is the statement's error
    const bad = await sql(s, "EXPLAIN ANALYZE SELECT json_extract('{', '$')");
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.error), /malformed JSON/);
  });
});

Deno.test("EXPLAIN ANALYZE VERBOSE shows the SQLite query and every measured time", async () => {
  await withTable(async (s) => {
    const r = await records(s, `EXPLAIN ANALYZE VERBOSE ${QUERY}`);
    const plan = String(r.rows[0][2]);
    assert.match(plan, /^SqliteQueryExec: thread=(worker|main), sql=SELECT host, avg\(v\)/);
    for (const m of ["output_rows=3", "elapsed_compute=", "prepare_time=", "execute_time=", "plan_time="]) {
      assert.ok(plan.includes(m), `${m} in ${plan}`);
    }
    assert.match(plan, /program_ops=\d+/);
    assert.deepEqual(r.rows[1], [null, null, "Total rows: 3"]);
  });
});

Deno.test("EXPLAIN ANALYZE FORMAT JSON gives GreptimeDB's JSON plan; bad forms are refused", async () => {
  await withTable(async (s) => {
    const r = await records(s, `EXPLAIN ANALYZE VERBOSE FORMAT JSON ${QUERY}`);
    const root = JSON.parse(String(r.rows[0][2]));
    assert.equal(root.name, "SqliteQueryExec");
    assert.equal(root.output_rows, 3);
    assert.ok(Number.isInteger(root.elapsed_compute) && root.elapsed_compute > 0);
    assert.ok(Number.isInteger(root.metrics.prepare_time));
    assert.ok(root.children.some((c: { name: string }) => /SCAN|SEARCH/.test(c.name)));
    assert.deepEqual(r.rows[1], [null, null, "Total rows: 3"]);
    const cases: Array<[string, number]> = [
      ["EXPLAIN ANALYZE FORMAT XML SELECT 1", 1001],
      ["EXPLAIN FORMAT JSON SELECT 1", 1001],
      ["EXPLAIN ANALYZE INSERT INTO cpu VALUES ('z', 1, 1)", 1001],
      ["EXPLAIN ANALYZE", 2000],
      ["EXPLAIN ANALYZE SELECT * FROM nope", 4001],
    ];
    for (const [text, code] of cases) {
      const { status, body } = await sql(s, text);
      assert.equal(status, 400, text);
      assert.equal(body.code, code, `${text}: ${JSON.stringify(body)}`);
    }
    // EXPLAIN ANALYZE of an INSERT was refused: nothing was written
    assert.deepEqual((await records(s, "SELECT count(*) FROM cpu")).rows, [[4]]);
  });
});
