/** `POST /v1/sql/analyze/stream`: EXPLAIN ANALYZE VERBOSE as Server-Sent Events (reference §6.2). */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const PATH = "/v1/sql/analyze/stream";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
/** Runs until it is stopped: a counter SQLite would need hours to finish. */
const ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000) " +
  "SELECT count(*) FROM c";

interface Event {
  event: string;
  data: Record<string, unknown>;
}

/** Reads events off an SSE body until `stop` says so or the stream ends; comments are skipped. */
async function readEvents(res: Response, stop: (e: Event) => boolean = () => false): Promise<Event[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Event[] = [];
  let buffer = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = frame.split("\n").filter((l) => !l.startsWith(":"));
      if (lines.length === 0) continue;
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      events.push({ event, data: JSON.parse(data) });
      if (stop(events[events.length - 1])) {
        await reader.cancel();
        return events;
      }
    }
  }
}

function stream(
  s: TestServer,
  params: Record<string, string>,
  headers: HeadersInit = FORM,
): Promise<Response> {
  return fetch(s.url + PATH, { method: "POST", headers, body: new URLSearchParams(params) });
}

async function withTable(fn: (s: TestServer) => Promise<void>, overrides = {}): Promise<void> {
  const s = await startTestServer(overrides);
  const sql = (text: string) =>
    fetch(`${s.url}/v1/sql`, { method: "POST", headers: FORM, body: new URLSearchParams({ sql: text }) })
      .then((r) => r.text());
  try {
    await sql("CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v DOUBLE, PRIMARY KEY(host))");
    await sql("INSERT INTO cpu VALUES ('a', 1000, 1), ('b', 2000, 2), ('a', 3000, 3)");
    await fn(s);
  } finally {
    await s.stop();
  }
}

const TERMINAL = new Set(["final", "error", "canceled"]);

Deno.test("analyze stream: a query ends with exactly one final event carrying the analyze output", async () => {
  await withTable(async (s) => {
    const res = await stream(s, {
      sql: "EXPLAIN ANALYZE VERBOSE SELECT host, count(*) FROM cpu GROUP BY host",
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const events = await readEvents(res);
    const last = events[events.length - 1];
    assert.equal(last.event, "final");
    assert.equal(events.filter((e) => TERMINAL.has(e.event)).length, 1);
    // a query that outlives the (minimum 1 s) interval may send snapshots first, never after
    events.slice(0, -1).forEach((e) => assert.equal(e.event, "metrics"));
    events.forEach((e, i) => assert.equal(e.data.seq, i));
    assert.equal(last.data.state, "final");
    assert.equal(last.data.partial, false);
    assert.ok(Number.isInteger(last.data.elapsed_ms));
    const [records] = (last.data.output as { records: { rows: unknown[][] } }[]).map((o) => o.records);
    assert.match(String(records.rows[0][2]), /^SqliteQueryExec: thread=\w+, sql=.*metrics=\[output_rows=2, /);
    assert.deepEqual(records.rows[1], [null, null, "Total rows: 2"]);
    const metrics = last.data.metrics as { stage: number | null; plan: string }[];
    assert.equal(metrics[0].stage, 0);
    assert.equal(metrics[0].plan, records.rows[0][2]);
  });
});

Deno.test("analyze stream: FORMAT JSON, query-string params without a form body, and an error event", async () => {
  await withTable(async (s) => {
    const sql = encodeURIComponent("EXPLAIN ANALYZE VERBOSE FORMAT JSON SELECT * FROM cpu");
    const res = await fetch(`${s.url}${PATH}?sql=${sql}`, { method: "POST" });
    assert.equal(res.status, 200);
    const events = await readEvents(res);
    const last = events[events.length - 1];
    assert.equal(last.event, "final");
    const plan = (last.data.metrics as { plan: { name: string; output_rows: number } }[])[0].plan;
    assert.equal(plan.name, "SqliteQueryExec");
    assert.equal(plan.output_rows, 3);

    const failing = await stream(s, { sql: "EXPLAIN ANALYZE VERBOSE SELECT json_extract('{', '$')" });
    assert.equal(failing.status, 200);
    const [error] = await readEvents(failing);
    assert.equal(error.event, "error");
    assert.equal(error.data.state, "error");
    assert.equal(error.data.code, 3000);
    assert.match(String(error.data.reason), /malformed JSON/);
  });
});

Deno.test("analyze stream: anything but one EXPLAIN ANALYZE VERBOSE query is refused with a JSON error", async () => {
  await withTable(async (s) => {
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 400],
      [{ sql: "SELECT 1" }, 400],
      [{ sql: "EXPLAIN ANALYZE SELECT 1" }, 400],
      [{ sql: "EXPLAIN VERBOSE SELECT 1" }, 400],
      [{ sql: "EXPLAIN ANALYZE VERBOSE SELECT 1; EXPLAIN ANALYZE VERBOSE SELECT 2" }, 400],
      [{ sql: "EXPLAIN ANALYZE VERBOSE SELECT * FROM nope" }, 400],
      [{ sql: "EXPLAIN ANALYZE VERBOSE SELECT 1", snapshot_interval_ms: "soon" }, 400],
      [{ sql: "EXPLAIN ANALYZE VERBOSE SELECT 1", db: "nope" }, 400],
    ];
    for (const [params, status] of cases) {
      const res = await stream(s, params);
      assert.equal(res.status, status, JSON.stringify(params));
      const body = await res.json();
      assert.equal(typeof body.error, "string", JSON.stringify(body));
    }
    assert.equal((await fetch(s.url + PATH)).status, 405);
  });
});

Deno.test("analyze stream: TQL ANALYZE streams its plan metrics, ending with what /v1/sql answers", async () => {
  await withTable(async (s) => {
    const sql = "TQL ANALYZE (0, 10, '5s') cpu";
    const events = await readEvents(await stream(s, { sql }));
    assert.deepEqual(events.map((e) => [e.event, e.data.seq, e.data.partial]), [["final", 0, false]]);
    const [records] = (events[0].data.output as { records: { rows: unknown[][] } }[]).map((o) => o.records);
    const plan = String(records.rows[0][2]);
    assert.match(plan, /^PromQLEvalExec: range=\[0\.\.10000\], step=\[5000\], .*metrics=\[output_rows=4, /);
    assert.match(
      plan,
      /\n {2}SeriesSelectExec: selector=\[cpu\], tables=\[public\.cpu\], .*output_samples=3, /,
    );
    assert.deepEqual(records.rows[1], [null, null, "Total rows: 4"]);
    assert.deepEqual(
      events[0].data.metrics,
      records.rows.map(([stage, node, plan]) => ({ stage, node, plan })),
    );
    const timeless = (text: string) => text.replace(/elapsed_compute=[^,\]]+/g, "");
    const res = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ sql }),
    });
    const sqlRows = (await res.json()).output[0].records.rows;
    assert.equal(timeless(sqlRows[0][2]), timeless(plan));
    assert.deepEqual(sqlRows[1], records.rows[1]);

    // VERBOSE FORMAT JSON, a ; in its comment; the plan parsed in the events as for EXPLAIN ANALYZE
    const json = await readEvents(
      await stream(s, { sql: "TQL ANALYZE VERBOSE FORMAT JSON (0, 10, '5s') sum(cpu{host!~'x;y'}) # a;b" }),
    );
    const root = (json.at(-1)!.data.metrics as { plan: Record<string, unknown> }[])[0].plan;
    assert.equal(root.name, "PromQLEvalExec");
    assert.equal(root.output_rows, 2);
    assert.match(String(root.param), /query=sum\(cpu\{host!~'x;y'\}\)$/);
    assert.deepEqual(Object.keys(root.metrics as object), ["plan_time", "elapsed"]);
    const [read] = root.children as { name: string; metrics: unknown }[];
    assert.deepEqual([read.name, read.metrics], ["SeriesSelectExec", {
      output_series: 2,
      output_samples: 3,
    }]);

    // a failure while it runs is the stream's error event
    const [error] = await readEvents(await stream(s, { sql: "TQL ANALYZE (0, 10, '5s') cpu[1m]" }));
    assert.deepEqual([error.event, error.data.code], ["error", 1004]);
    assert.match(String(error.data.reason), /range vector/);

    // what /v1/sql would refuse, and TQL other than ANALYZE, is refused before the stream starts
    const refused: Array<[string, number]> = [
      ["TQL EVAL (0, 10, '5s') cpu", 1004],
      ["TQL EXPLAIN (0, 10, '5s') cpu", 1004],
      ["TQL ANALYZE (0, 10, '5s') nope", 4001],
      ["TQL ANALYZE (0, 10, '5s') cpu; SELECT 1", 1004],
      ["TQL ANALYZE (0, 10, '0s') cpu", 1004],
    ];
    for (const [sql, code] of refused) {
      const res = await stream(s, { sql });
      assert.equal(res.status, 400, sql);
      assert.equal((await res.json()).code, code, sql);
    }
  });
});

Deno.test("analyze stream: partial snapshots while a query runs; a client that leaves stops its query", async () => {
  await withTable(async (s) => {
    // Both query threads run an endless query, each stream read until its first snapshot.
    const snapshots = await Promise.all([0, 1].map(async () => {
      const res = await stream(s, { sql: `EXPLAIN ANALYZE VERBOSE ${ENDLESS}`, snapshot_interval_ms: "10" });
      const events = await readEvents(res, (e) => e.event === "metrics");
      return events[events.length - 1];
    }));
    for (const e of snapshots) {
      assert.equal(e.event, "metrics");
      assert.deepEqual([e.data.seq, e.data.state, e.data.partial], [0, "metrics", true]);
      // the interval is clamped to at least 1 s
      assert.ok((e.data.elapsed_ms as number) >= 1000, `elapsed ${e.data.elapsed_ms}`);
      const plan = (e.data.metrics as { plan: string }[])[0].plan;
      assert.match(plan, /^SqliteQueryExec: thread=worker, sql=WITH RECURSIVE/);
      assert.doesNotMatch(plan, /output_rows/, "no rows are known before the query ends");
    }
    // Both readers left: were the queries still running, this query would wait for a thread forever.
    const res = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ sql: "SELECT count(*) FROM cpu" }),
      signal: AbortSignal.timeout(120_000),
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).output[0].records.rows, [[3]]);
  });
});

Deno.test("analyze stream: [http] experimental_enable_explain_analyze_stream switches the route; /config shows it", async () => {
  const on = await startTestServer();
  try {
    const toml = await (await fetch(on.url + "/config")).text();
    const http = toml.split("\n\n").find((block) => block.startsWith("[http]\n"));
    assert.match(http ?? "", /\nexperimental_enable_explain_analyze_stream = true$/m);
  } finally {
    await on.stop();
  }
  const off = await startTestServer({ http: { experimental_enable_explain_analyze_stream: false } });
  try {
    const res = await stream(off, { sql: "EXPLAIN ANALYZE VERBOSE SELECT 1" });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const toml = await (await fetch(off.url + "/config")).text();
    assert.match(toml, /\nexperimental_enable_explain_analyze_stream = false\n/);
  } finally {
    await off.stop();
  }
});

Deno.test("analyze stream: needs read permission, as SQL reads do", async () => {
  const users = "static_user_provider:cmd:reader:ro=r3ad,writer:wo=wr1te";
  await withTable(async (s) => {
    const auth = (user: string) => ({ ...FORM, authorization: `Basic ${btoa(user)}` });
    const params = { sql: "EXPLAIN ANALYZE VERBOSE SELECT 1" };
    const reader = await stream(s, params, auth("reader:r3ad"));
    assert.equal(reader.status, 200);
    assert.equal((await readEvents(reader)).at(-1)?.event, "final");
    const writer = await stream(s, params, auth("writer:wr1te"));
    assert.equal(writer.status, 403);
    await writer.body?.cancel();
    const anonymous = await stream(s, params);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  }, { user_provider: users });
});

Deno.test("analyze stream: a query on the serving thread (in-memory data) answers the final event alone", async () => {
  const s = await startTestServer({ storage: { data_home: ":memory:" } });
  try {
    // runs past the 1 s interval on most machines, yet blocks the thread that would send snapshots
    const sql = "EXPLAIN ANALYZE VERBOSE WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c " +
      "WHERE x < 6000000) SELECT count(*) FROM c";
    const events = await readEvents(await stream(s, { sql, snapshot_interval_ms: "1000" }));
    assert.deepEqual(events.map((e) => e.event), ["final"]);
    const plan = (events[0].data.metrics as { plan: string }[])[0].plan;
    assert.match(plan, /^SqliteQueryExec: thread=main, .*output_rows=1, /);
  } finally {
    await s.stop();
  }
});
