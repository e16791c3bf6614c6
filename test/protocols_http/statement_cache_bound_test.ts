/**
 * The writer's cached INSERTs are bounded by their estimated SQLite memory, not only by table: a
 * table written with many different column subsets (sparse fields) keeps the statements of the
 * latest ones, and each write still stores its rows. A Jaeger-style search iterating a table reuses
 * one statement across requests. Counted through `/metrics` (`petrel_statements_cached`,
 * `petrel_statement_prepares_total`) of a real server.
 */
import assert from "node:assert/strict";
import { post, sqlRows, withServer } from "./util.ts";
import { KIND_LIMITS, statementBytes } from "../../src/storage/statement_cache.ts";
import { insertSql } from "../../src/storage/writer_insert.ts";
import type { TableMeta } from "../../src/storage/table.ts";

const T = 1_700_000_000_000;
const FIELDS = Array.from({ length: 12 }, (_, i) => `f${i}`);
const ROWS = 512;

async function metric(url: string, name: string, kind: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = new RegExp(`^${name}\\{kind="${kind}"\\} (\\S+)`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

/** `ROWS` lines of 4 of FIELDS picked by `shape`'s bits; every column varies, so no constant binding. */
function batch(shape: number, t0: number): string {
  const picked = FIELDS.filter((_, i) => (shape >> i) & 1);
  let body = "";
  for (let r = 0; r < ROWS; r++) {
    body += `sparse,host=h${r} ${picked.map((f, j) => `${f}=${r + j}i`).join(",")} ${t0 + r}\n`;
  }
  return body;
}

/** Shapes with exactly 4 of the 12 fields (495 of them). */
const SHAPES = Array.from({ length: 1 << FIELDS.length }, (_, s) => s).filter((s) =>
  s.toString(2).split("").filter((b) => b === "1").length === 4
);

Deno.test("writer INSERTs: many column subsets of one table keep the cache within its byte limit", async () => {
  // what one shape's 512-row statement is estimated to hold (the table's own name, quoting and key)
  const table = { name: "sparse", schema: "main" } as unknown as TableMeta;
  const one = statementBytes(
    insertSql(table, ["host", "f0", "f1", "f2", "f3", "greptime_timestamp"], ROWS, "append"),
  );
  const limit = KIND_LIMITS.insert!.most;
  const shapes = Math.ceil((1.5 * limit) / one);
  assert.ok(shapes <= SHAPES.length, `${shapes} shapes needed`);
  await withServer(async (s) => {
    // every column exists first: the subsets below change no schema (which would drop statements)
    const all = await post(
      `${s.url}/v1/influxdb/write?precision=ms`,
      `sparse,host=h0 ${FIELDS.map((f) => `${f}=0i`).join(",")} ${T - 1}`,
    );
    assert.equal(all.status, 204, all.text);
    for (let k = 0; k < shapes; k++) {
      const r = await post(`${s.url}/v1/influxdb/write?precision=ms`, batch(SHAPES[k], T + k * ROWS));
      assert.equal(r.status, 204, r.text);
    }
    const cached = await metric(s.url, "petrel_statements_cached", "insert");
    // each shape prepared its statement once; at most ~limit / one of them stay
    assert.ok(await metric(s.url, "petrel_statement_prepares_total", "insert") >= shapes);
    assert.ok(cached <= Math.ceil(limit / one) + 2, `${cached} INSERTs cached (${shapes} shapes written)`);
    assert.ok(cached >= Math.floor(limit / one) - 2, `${cached} INSERTs cached: fewer than the limit holds`);
    assert.deepEqual(await sqlRows(s.url, "SELECT count(*) FROM sparse"), [[1 + shapes * ROWS]]);
    // the latest shape is still cached: writing it again prepares nothing
    const before = await metric(s.url, "petrel_statement_prepares_total", "insert");
    const again = await post(
      `${s.url}/v1/influxdb/write?precision=ms`,
      batch(SHAPES[shapes - 1], T + shapes * ROWS),
    );
    assert.equal(again.status, 204, again.text);
    assert.equal(await metric(s.url, "petrel_statement_prepares_total", "insert"), before);
  });
});

Deno.test("writer INSERTs: more shapes than fit a count bound stay cached while under the byte limit", async () => {
  // 16 rows of one client and host (bound once: the constant-column form), 4 of 12 fields each
  const write = async (s: { url: string }, shape: number, t0: number) => {
    const picked = FIELDS.filter((_, i) => (shape >> i) & 1);
    let body = "";
    for (let r = 0; r < 16; r++) {
      body += `grouped,client=c1,host=h1 ${picked.map((f) => `${f}=${r}i`).join(",")} ${t0 + r}\n`;
    }
    const res = await post(`${s.url}/v1/influxdb/write?precision=ms`, body);
    assert.equal(res.status, 204, res.text);
  };
  await withServer(async (s) => {
    await write(s, (1 << FIELDS.length) - 1, T - 100);
    const shapes = SHAPES.slice(0, 150);
    for (const [k, shape] of shapes.entries()) await write(s, shape, T + k * 16);
    const before = await metric(s.url, "petrel_statement_prepares_total", "insert");
    for (const [k, shape] of shapes.entries()) await write(s, shape, T + (shapes.length + k) * 16);
    // a second round of the same shapes (LRU order: a bound below 150 would drop each before its turn)
    assert.equal(await metric(s.url, "petrel_statement_prepares_total", "insert"), before);
    assert.deepEqual(await sqlRows(s.url, "SELECT count(*) FROM grouped"), [[16 + 2 * 150 * 16]]);
  });
});
