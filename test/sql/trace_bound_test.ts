/**
 * SQL picking traces by id reads only their time range (`src/sql/rewrite/trace_bound.ts`): each
 * query runs on a trace table and on a plain copy of it (same rows, no trace map, so no bound), and
 * the answers must be equal; EXPLAIN shows where the bound was added and that SQLite then searches
 * the time index.
 */
import assert from "node:assert/strict";
import { post, sqlExec, sqlRows, withServer } from "../protocols_http/util.ts";

const TRACES = "opentelemetry_traces";
const PLAIN = "plain_spans";
const MS = 1_000_000n, HOUR = 3_600_000n * MS;
const BASE = 1_700_000_000_000n * MS;

const id = (t: string) => t.repeat(32);
const sid = (n: number) => n.toString(16).padStart(16, "0");

/** Spans of traces a–e spread over hours and interleaved, b's children under its root. */
function spans(): { trace: string; n: number; at: bigint; parent?: number; kind: number }[] {
  const out = [];
  let n = 1;
  for (
    const [trace, hours] of [["a", [0, 3, 1, 7]], ["b", [2, 2, 4]], ["c", [5]], ["d", [1, 6]], ["e", [3, 4]]]
  ) {
    const root = n;
    for (const h of hours as number[]) {
      out.push({
        trace: trace as string,
        n,
        at: BASE + BigInt(h) * HOUR + BigInt(n) * MS,
        kind: 2 + (n % 2),
      });
      if (n !== root) out[out.length - 1] = { ...out[out.length - 1], parent: root };
      n++;
    }
  }
  // filler spans of other traces between them all
  for (let k = 0; k < 40; k++) out.push({ trace: "f", n: n++, at: BASE + BigInt(k) * (HOUR / 5n), kind: 1 });
  return out;
}

async function send(base: string): Promise<void> {
  const body = JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "shop" } }] },
      scopeSpans: [{
        spans: spans().map((s) => ({
          traceId: id(s.trace),
          spanId: sid(s.n),
          parentSpanId: s.parent ? sid(s.parent) : "",
          name: s.parent ? "SELECT orders" : "GET /cart",
          kind: s.kind,
          startTimeUnixNano: String(s.at),
          endTimeUnixNano: String(s.at + 5n * MS),
        })),
      }],
    }],
  });
  const r = await post(`${base}/v1/otlp/v1/traces`, body, {
    "content-type": "application/json",
    "x-greptime-pipeline-name": "greptime_trace_v1",
  });
  assert.equal(r.status, 200, r.text);
}

/** A query (`{t}` is the table) and how many trace ranges bound it on the trace table (one per id). */
interface Case {
  name: string;
  sql: string;
  bounds: number;
}

const A = `'${id("a")}'`, B = `'${id("b")}'`, C = `'${id("c")}'`, E = `'${id("e")}'`;
const T1 = String(BASE + HOUR), T4 = String(BASE + 4n * HOUR);

const CASES: Case[] = [
  {
    name: "the dashboard's trace view",
    sql: `SELECT * FROM {t} WHERE trace_id = ${A} ORDER BY "timestamp"`,
    bounds: 1,
  },
  { name: "literal first", sql: `SELECT span_id FROM {t} WHERE ${B} = trace_id ORDER BY span_id`, bounds: 1 },
  {
    name: "IN list, one id unknown",
    sql: `SELECT span_id FROM {t} WHERE trace_id IN (${A}, ${C}, 'nope') ORDER BY "timestamp", span_id`,
    bounds: 3,
  },
  {
    name: "unknown trace",
    sql: `SELECT count(*), max(span_id) FROM {t} WHERE trace_id = '${id("9")}'`,
    bounds: 1,
  },
  {
    name: "trace deleted, still in the map",
    sql: `SELECT count(*) FROM {t} WHERE trace_id = ${E}`,
    bounds: 1,
  },
  { name: "empty id", sql: `SELECT * FROM {t} WHERE trace_id = ''`, bounds: 1 },
  {
    name: "two different ids",
    sql: `SELECT * FROM {t} WHERE trace_id = ${A} AND trace_id = ${B}`,
    bounds: 1,
  },
  {
    name: "aggregate, other conjuncts",
    sql:
      `SELECT trace_id, span_kind, count(*), min("timestamp") FROM {t} WHERE span_kind <> 'x' AND trace_id = ${A} GROUP BY trace_id, span_kind ORDER BY 2`,
    bounds: 1,
  },
  {
    name: "already bounded in time",
    sql: `SELECT span_id FROM {t} WHERE "timestamp" >= ${T1} AND trace_id = ${A} ORDER BY 1`,
    bounds: 1,
  },
  {
    name: "a BETWEEN before it",
    sql: `SELECT span_id FROM {t} WHERE "timestamp" BETWEEN ${T1} AND ${T4} AND trace_id = ${B} ORDER BY 1`,
    bounds: 1,
  },
  {
    name: "latest spans first",
    sql: `SELECT span_id FROM {t} WHERE trace_id = ${A} ORDER BY "timestamp" DESC LIMIT 2`,
    bounds: 1,
  },
  { name: "alias", sql: `SELECT s.span_id FROM {t} AS s WHERE s.trace_id = ${A} ORDER BY 1`, bounds: 1 },
  { name: "table-qualified", sql: `SELECT span_id FROM {t} WHERE {t}.trace_id = ${A} ORDER BY 1`, bounds: 1 },
  {
    name: "subquery in FROM",
    sql: `SELECT count(*) FROM (SELECT * FROM {t} WHERE trace_id = ${A}) AS x WHERE x.span_kind IS NOT NULL`,
    bounds: 1,
  },
  {
    name: "CTE",
    sql: `WITH x AS (SELECT span_id FROM {t} WHERE trace_id = ${B}) SELECT * FROM x ORDER BY 1`,
    bounds: 1,
  },
  {
    name: "IN subquery",
    sql:
      `SELECT span_id FROM {t} WHERE span_id IN (SELECT parent_span_id FROM {t} WHERE trace_id = ${B}) ORDER BY 1`,
    bounds: 1,
  },
  {
    name: "UNION",
    sql:
      `SELECT span_id FROM {t} WHERE trace_id = ${A} UNION SELECT span_id FROM {t} WHERE trace_id = ${B} ORDER BY 1`,
    bounds: 2,
  },
  // joins: the column qualified by the trace table's alias (or name) bounds that reference
  {
    name: "join",
    sql:
      `SELECT p.span_id, c.span_id FROM {t} AS p JOIN {t} AS c ON c.parent_span_id = p.span_id WHERE p.trace_id = ${B} ORDER BY 1, 2`,
    bounds: 1,
  },
  {
    name: "comma join",
    sql: `SELECT count(*) FROM {t} AS p, {t} AS c WHERE c.parent_span_id = p.span_id AND c.trace_id = ${B}`,
    bounds: 1,
  },
  {
    name: "join, both sides",
    sql:
      `SELECT p.span_id, c.span_id FROM {t} AS p JOIN {t} AS c ON c.parent_span_id = p.span_id WHERE p.trace_id = ${B} AND c.trace_id IN (${B}, ${A}) ORDER BY 1, 2`,
    bounds: 3,
  },
  {
    name: "left join, the id in ON",
    sql:
      `SELECT p.span_id, c.span_id FROM {t} AS p LEFT JOIN {t} AS c ON c.parent_span_id = p.span_id AND c.trace_id = ${B} WHERE p.trace_id = ${B} ORDER BY 1, 2`,
    bounds: 1,
  },
  {
    name: "left join, the right side's id in WHERE",
    sql:
      `SELECT p.span_id, c.span_id FROM {t} AS p LEFT JOIN {t} AS c ON c.parent_span_id = p.span_id WHERE c.trace_id = ${B} ORDER BY 1, 2`,
    bounds: 1,
  },
  {
    name: "join, qualified by the table's name",
    sql:
      `SELECT count(*) FROM {t} JOIN (SELECT span_id AS sid FROM {t}) AS x ON x.sid = {t}.parent_span_id WHERE {t}.trace_id = ${B}`,
    bounds: 1,
  },
  // not bounded: more ids than ranges worth reading one by one
  {
    name: "IN list of 17",
    sql: `SELECT count(*) FROM {t} WHERE trace_id IN (${
      Array.from({ length: 17 }, (_, k) => `'${id(k.toString(16))}'`).join(", ")
    })`,
    bounds: 0,
  },
  // not bounded: the id does not restrict every row, or the column is not surely the trace table's
  { name: "OR", sql: `SELECT count(*) FROM {t} WHERE trace_id = ${A} OR span_kind = 'x'`, bounds: 0 },
  {
    name: "OR after the conjunct",
    sql: `SELECT count(*) FROM {t} WHERE trace_id = ${A} AND span_kind <> 'x' OR span_name = 'GET /cart'`,
    bounds: 0,
  },
  { name: "NOT", sql: `SELECT count(*) FROM {t} WHERE NOT trace_id = ${A}`, bounds: 0 },
  { name: "NOT IN", sql: `SELECT count(*) FROM {t} WHERE trace_id NOT IN (${A}, ${B})`, bounds: 0 },
  { name: "IN with NULL", sql: `SELECT count(*) FROM {t} WHERE trace_id IN (${A}, NULL)`, bounds: 0 },
  { name: "= NULL", sql: `SELECT count(*) FROM {t} WHERE trace_id = NULL`, bounds: 0 },
  { name: "IS NULL", sql: `SELECT count(*) FROM {t} WHERE trace_id IS NULL`, bounds: 0 },
  { name: "parenthesized", sql: `SELECT count(*) FROM {t} WHERE (trace_id = ${A})`, bounds: 0 },
  { name: "concatenation", sql: `SELECT count(*) FROM {t} WHERE trace_id = 'a' || ${A}`, bounds: 0 },
  {
    name: "CASE at the top",
    sql: `SELECT count(*) FROM {t} WHERE CASE WHEN span_kind = 'x' THEN 1 ELSE 0 END = 0 AND trace_id = ${A}`,
    bounds: 0,
  },
  {
    name: "bare column beside another relation",
    sql:
      `SELECT count(*) FROM {t} AS p JOIN (SELECT span_id AS sid FROM {t}) AS c ON c.sid = p.parent_span_id WHERE trace_id = ${B}`,
    bounds: 0,
  },
  {
    name: "another relation's column",
    sql:
      `SELECT count(*) FROM {t} AS p WHERE EXISTS (SELECT 1 FROM {t} AS c WHERE p.trace_id = ${A} AND c.span_id = p.span_id)`,
    bounds: 0,
  },
];

/** The EXPLAIN rows of a query: plan type → plan. */
async function explain(base: string, sql: string): Promise<Map<string, string>> {
  return new Map((await sqlRows(base, `EXPLAIN ${sql}`)).map((r) => [String(r[0]), String(r[1])]));
}

const count = (s: string, part: string) => s.split(part).length - 1;

Deno.test("a trace id in WHERE bounds the trace table's time; answers stay those of a plain copy", async () => {
  await withServer(async (s) => {
    await send(s.url);
    // a's first span and all of e go: a's range in the map is now wider than its spans, e's names none
    await sqlExec(s.url, `DELETE FROM ${TRACES} WHERE span_id = '${sid(1)}' OR trace_id = ${E}`);
    const create = String((await sqlRows(s.url, `SHOW CREATE TABLE ${TRACES}`))[0][1]);
    const plain = create.replace(`"${TRACES}"`, `"${PLAIN}"`).replace(/,\s*table_data_model = '[^']*'/, "");
    assert.notEqual(plain, create);
    await sqlExec(s.url, plain);
    await sqlExec(s.url, `INSERT INTO ${PLAIN} SELECT * FROM ${TRACES}`);
    assert.deepEqual(await sqlRows(s.url, `SELECT count(*) FROM ${PLAIN}`), [[49]]);
    for (const c of CASES) {
      const [onTraces, onPlain] = [TRACES, PLAIN].map((t) => c.sql.replaceAll("{t}", t));
      const got = await sqlRows(s.url, onTraces);
      assert.deepEqual(got, await sqlRows(s.url, onPlain), c.name);
      const plan = (await explain(s.url, onTraces)).get("logical_plan") ?? "";
      assert.equal(count(plan, "__petrel_tracemap_"), 2 * c.bounds, `${c.name}: ${plan}`);
      assert.equal(count((await explain(s.url, onPlain)).get("logical_plan") ?? "", "__petrel_tracemap_"), 0);
    }
    // the cases see spans: a has 3 left, b 3, and a's range lost its first span
    assert.equal((await sqlRows(s.url, CASES[0].sql.replace("{t}", TRACES))).length, 3);
  });
});

Deno.test("EXPLAIN of a trace read by id: a search of the time index, not a scan", async () => {
  await withServer(async (s) => {
    await send(s.url);
    const sql = `SELECT * FROM ${TRACES} WHERE trace_id = ${A} ORDER BY "timestamp"`;
    const plan = (await explain(s.url, sql)).get("physical_plan") ?? "";
    assert.match(
      plan,
      /^SEARCH main\.opentelemetry_traces USING INDEX \S+ \(timestamp>\? AND timestamp<\?\)/,
    );
    assert.match(
      plan,
      /SEARCH main\.__petrel_tracemap_opentelemetry_traces USING PRIMARY KEY \(trace_id=\?\)/,
    );
    assert.doesNotMatch(plan, /SCAN main\.opentelemetry_traces/);
    // ids of an IN list: a range each, read through the index one after the other
    const inList = (await explain(s.url, sql.replace(`= ${A}`, `IN (${A}, ${B})`))).get("physical_plan") ??
      "";
    assert.match(inList, /^MULTI-INDEX OR\n/);
    const search = /SEARCH main\.opentelemetry_traces USING INDEX \S+ \(timestamp>\? AND timestamp<\?\)/g;
    assert.equal(inList.match(search)?.length, 2, inList);
    assert.doesNotMatch(inList, /SCAN main\.opentelemetry_traces/);
    // a self-join: the reference the id is qualified by is searched by time
    const join = (await explain(
      s.url,
      `SELECT c.span_id FROM ${TRACES} AS p JOIN ${TRACES} AS c ON c.parent_span_id = p.span_id WHERE p.trace_id = ${B}`,
    )).get("physical_plan") ?? "";
    assert.match(join, /^SEARCH p USING INDEX \S+ \(timestamp>\? AND timestamp<\?\)/);
    // without the id conjunct at the top it is the scan it was
    const or = (await explain(s.url, sql.replace("WHERE", "WHERE span_kind = 'x' OR"))).get("physical_plan");
    assert.match(or ?? "", /^SCAN main\.opentelemetry_traces/);
    // a ttl reads the table through a subquery: still one search, flattened into the query
    await sqlExec(s.url, `ALTER TABLE ${TRACES} SET 'ttl' = '36500d'`);
    const ttl = (await explain(s.url, sql)).get("physical_plan") ?? "";
    assert.match(ttl, /^SEARCH main\.opentelemetry_traces USING INDEX \S+ \(timestamp>\? AND timestamp<\?\)/);
    assert.equal((await sqlRows(s.url, sql)).length, 4);
  });
});

Deno.test("spans written by SQL INSERT are found by id (the writer records them in the map)", async () => {
  await withServer(async (s) => {
    await send(s.url);
    const far = String(BASE + 100n * HOUR), early = String(BASE - 100n * HOUR);
    await sqlExec(
      s.url,
      `INSERT INTO ${TRACES} ("timestamp", trace_id, span_id) VALUES (${far}, ${C}, 'x1')`,
    );
    await sqlExec(
      s.url,
      `INSERT INTO ${TRACES} ("timestamp", trace_id, span_id) SELECT "timestamp" - ${
        String(200n * HOUR)
      }, trace_id, 'x2' FROM ${TRACES} WHERE span_id = 'x1'`,
    );
    await sqlExec(
      s.url,
      `INSERT INTO ${TRACES} ("timestamp", trace_id, span_id) VALUES (${early}, 'sql-only', 'x3')`,
    );
    const read = (trace: string) =>
      sqlRows(s.url, `SELECT span_id FROM ${TRACES} WHERE trace_id = ${trace} ORDER BY "timestamp"`);
    assert.deepEqual(await read(C), [["x2"], [sid(8)], ["x1"]]);
    assert.deepEqual(await read("'sql-only'"), [["x3"]]);
  });
});
