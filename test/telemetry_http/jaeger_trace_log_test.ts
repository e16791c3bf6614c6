/**
 * The trace map's log (`src/storage/trace_map.ts`): a write's trace ranges go to the log and only
 * a write that fills it folds them into the map, so a trace just written is found by Jaeger and by
 * SQL's `WHERE trace_id = '…'` from the log, after a restart (the log is on disk), and after the
 * fold from the map.
 */
import assert from "node:assert/strict";
import { post, sqlRows } from "../protocols_http/util.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { jaegerGet } from "./jaeger_checks.ts";

const TABLE = "opentelemetry_traces";
const MS = 1_000_000n;
const BASE = 1_700_000_000_000n * MS;
/** More distinct traces than the log takes before a fold (`FOLD_AT`). */
const MANY = 5_000;

const traceId = (n: number) => `7ace${n.toString(16).padStart(28, "0")}`;
const sid = (n: number) => n.toString(16).padStart(16, "0");

/** Sends one span per `[trace, span, ms after BASE]`. */
async function send(base: string, spans: [number, number, number][]): Promise<void> {
  const body = JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "shop" } }] },
      scopeSpans: [{
        spans: spans.map(([trace, n, ms]) => ({
          traceId: traceId(trace),
          spanId: sid(n),
          name: "GET /cart",
          kind: 2,
          startTimeUnixNano: String(BASE + BigInt(ms) * MS),
          endTimeUnixNano: String(BASE + BigInt(ms + 5) * MS),
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

/** Rows of the map and of the log holding a trace. */
function where(s: TestServer, trace: number): { map: number; log: number } {
  const conn = s.server.app.storage.database("public").conn;
  const count = (name: string) =>
    Number(
      (conn.prepare(`SELECT count(*) AS n FROM "${name}_${TABLE}" WHERE trace_id = ?`).get(
        traceId(trace),
      ) as {
        n: number;
      }).n,
    );
  return { map: count("__petrel_tracemap"), log: count("__petrel_tracelog") };
}

/** The trace's span ids by Jaeger and by SQL, which must agree. */
async function found(s: TestServer, trace: number): Promise<string[]> {
  const r = await jaegerGet(s.url, `traces/${traceId(trace)}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const jaeger = (r.body.data[0].spans as { spanID: string }[]).map((x) => x.spanID).sort();
  const rows = await sqlRows(
    s.url,
    `SELECT span_id FROM ${TABLE} WHERE trace_id = '${traceId(trace)}' ORDER BY span_id`,
  );
  assert.deepEqual(rows.map((row) => row[0]), jaeger);
  return jaeger;
}

Deno.test("trace log: a trace just written is found before the fold, after a restart and after the fold", async () => {
  const first = await startTestServer();
  try {
    await send(first.url, [[1, 1, 0], [2, 2, 1]]);
    await send(first.url, [[1, 3, 3_600_000]]);
    assert.deepEqual(where(first, 1), { map: 0, log: 2 });
    assert.deepEqual(await found(first, 1), [sid(1), sid(3)]);
    assert.deepEqual(await found(first, 2), [sid(2)]);
  } finally {
    await first.stop();
  }

  const s = await startTestServer({ storage: { data_home: first.dataHome } });
  try {
    assert.deepEqual(where(s, 1), { map: 0, log: 2 });
    assert.deepEqual(await found(s, 1), [sid(1), sid(3)]);
    // one write of more traces than the log takes: it folds the log, its own traces too
    const many = Array.from({ length: MANY }, (_, i): [number, number, number] => [100 + i, 100 + i, 10 + i]);
    await send(s.url, [[1, 4, -3_600_000], ...many]);
    assert.deepEqual(where(s, 1), { map: 1, log: 0 });
    assert.deepEqual(where(s, 100 + MANY - 1), { map: 1, log: 0 });
    assert.deepEqual(await found(s, 1), [sid(1), sid(3), sid(4)]);
    assert.deepEqual(await found(s, 2), [sid(2)]);
    assert.deepEqual(await found(s, 100 + MANY - 1), [sid(100 + MANY - 1)]);
    const unknown = await jaegerGet(s.url, `traces/${traceId(99)}`);
    assert.equal(unknown.status, 404);
    // the next write goes to the emptied log again
    await send(s.url, [[2, 5, 7_200_000]]);
    assert.deepEqual(where(s, 2), { map: 1, log: 1 });
    assert.deepEqual(await found(s, 2), [sid(2), sid(5)]);
  } finally {
    await s.stop();
  }
});
