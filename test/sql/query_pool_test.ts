/**
 * The query pool through the real server: two long queries hold the pool, yet a statement that ran
 * quickly before is answered while they still run (it may take the reserved thread); a third long
 * query waits for one of theirs rather than taking it, and still runs once they are cancelled.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { waitFor } from "../helpers/debian.ts";

const RUNAWAY = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
const BOUNDED =
  "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000) SELECT sum(n) FROM r";

/** A /v1/sql answer: its outputs, or an error's code. */
type Answer = { status: number; body: { code?: number; output: { records: { rows: unknown[][] } }[] } };

Deno.test("a quick statement is answered while long queries hold the pool; a third long one waits, then runs", async () => {
  const server = await startTestServer();
  const sql = async (text: string, timeout?: string): Promise<Answer> => {
    const r = await fetch(`${server.url}/v1/sql`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(timeout ? { "x-greptime-timeout": timeout } : {}),
      },
      body: new URLSearchParams({ sql: text }),
    });
    return { status: r.status, body: await r.json() };
  };
  try {
    const setup = await sql(
      "CREATE TABLE small (host STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX, v DOUBLE); " +
        "INSERT INTO small VALUES ('a', 1, 1), ('b', 2, 2)",
    );
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    // seen once: the pool now knows this statement as quick (literals do not matter)
    assert.equal((await sql("SELECT count(*) FROM small WHERE v > 0")).status, 200);

    const settled: string[] = [];
    const track = (name: string, p: Promise<Answer>) => p.then((r) => (settled.push(name), r));
    const long = [1, 2].map((i) => track(`runaway ${i}`, sql(RUNAWAY, "8s")));
    const running = () =>
      sql("SELECT count(*) AS n FROM information_schema.process_list WHERE query LIKE 'WITH RECURSIVE%'");
    assert.ok(
      await waitFor(async () => (await running()).body.output[0].records.rows[0][0] === 2 || null, 10_000),
    );
    const third = track("bounded", sql(BOUNDED, "60s"));
    assert.ok(
      await waitFor(async () => (await running()).body.output[0].records.rows[0][0] === 3 || null, 10_000),
    );

    const cheap = await track("cheap", sql("SELECT count(*) FROM small WHERE v > 1"));
    assert.equal(cheap.status, 200, JSON.stringify(cheap.body));
    assert.deepEqual(cheap.body.output[0].records.rows, [[1]]);
    assert.deepEqual(settled, ["cheap"], "the quick statement waited for the long ones");

    // the long ones end by their timeout, as before; the waiting one then runs in full
    for (const r of await Promise.all(long)) assert.equal(r.body.code, 1008, JSON.stringify(r.body));
    const bounded = await third;
    assert.equal(bounded.status, 200, JSON.stringify(bounded.body));
    assert.deepEqual(bounded.body.output[0].records.rows, [[500500]]);
    assert.equal(settled.at(-1), "bounded", `the third long query took the reserved thread: ${settled}`);
  } finally {
    await server.stop();
    await Deno.remove(server.dataHome, { recursive: true });
  }
});
