/**
 * The trace map over a trace table's life (`src/storage/trace_map.ts`): a trace whose spans arrive
 * in several writes hours apart, the ttl sweep and size retention forgetting expired traces,
 * DELETE, TRUNCATE and DROP TABLE, and a table from before the map (built on open, the old
 * `trace_id` index dropped). Each is checked through the Jaeger API and in the map itself.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { post, sqlExec, withServer } from "../protocols_http/util.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { jaegerGet } from "./jaeger_checks.ts";
import { traceMapName } from "../../src/storage/trace_map.ts";

const TABLE = "opentelemetry_traces";
const MAP = `__petrel_tracemap_${TABLE}`;
const LOG = `__petrel_tracelog_${TABLE}`;
const MS = 1_000_000n, HOUR = 3_600_000n * MS;

/** A span to send: its trace (one hex digit, repeated), span number and start. */
interface Span {
  trace: string;
  n: number;
  startNs: bigint;
  /** An attribute `size` (OTLP AnyValue JSON). */
  size?: Record<string, unknown>;
}

const traceId = (t: string) => t.repeat(32);

async function send(base: string, spans: Span[], headers: Record<string, string> = {}): Promise<void> {
  const body = JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "shop" } }] },
      scopeSpans: [{
        spans: spans.map((s) => ({
          traceId: traceId(s.trace),
          spanId: s.n.toString(16).padStart(16, "0"),
          name: "GET /cart",
          kind: 2,
          startTimeUnixNano: String(s.startNs),
          endTimeUnixNano: String(s.startNs + 5n * MS),
          attributes: s.size ? [{ key: "size", value: s.size }] : [],
        })),
      }],
    }],
  });
  const r = await post(`${base}/v1/otlp/v1/traces`, body, {
    "content-type": "application/json",
    "x-greptime-pipeline-name": "greptime_trace_v1",
    ...headers,
  });
  assert.equal(r.status, 200, r.text);
}

/** The span ids Jaeger returns for a trace by id, or null on its 404. */
async function spanIds(base: string, t: string, query = ""): Promise<string[] | null> {
  const r = await jaegerGet(base, `traces/${traceId(t)}${query}`);
  if (r.status === 404) return null;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.data[0].spans as { spanID: string }[]).map((s) => s.spanID);
}

const sid = (n: number) => n.toString(16).padStart(16, "0");

/** The ranges the map and its log hold: trace id → [first, last] span time. */
function mapRows(s: TestServer, table = TABLE, schema = "main"): Map<string, [bigint, bigint]> {
  const stmt = s.server.app.storage.database("public").conn.prepare(
    `SELECT trace_id, min(lo) AS lo, max(hi) AS hi FROM (SELECT * FROM "${schema}"."__petrel_tracemap_${table}" ` +
      `UNION ALL SELECT * FROM "${schema}"."__petrel_tracelog_${table}") GROUP BY trace_id ORDER BY trace_id`,
  );
  stmt.setReadBigInts(true);
  const rows = stmt.all() as { trace_id: string; lo: bigint; hi: bigint }[];
  return new Map(rows.map((r) => [r.trace_id, [r.lo, r.hi]]));
}

const nowNs = () => BigInt(Date.now()) * MS;

Deno.test("trace map: spans of one trace in several writes hours apart, read whole and by range", async () => {
  const cases: [string, Record<string, string>][] = [
    ["main", {}],
    ["nowal", { "x-greptime-hints": "skip_wal=true" }],
    ["main", { "x-greptime-pipeline-name": "greptime_trace_v0" }],
  ];
  for (const [schema, h] of cases) {
    await withServer(async (s) => {
      const base = 1_700_000_000_000n * MS;
      // trace a: a span now, one 2 h later, one 3 h earlier; other traces' spans in between
      await send(s.url, [{ trace: "a", n: 1, startNs: base }, { trace: "b", n: 2, startNs: base + MS }], h);
      const filler = Array.from({ length: 50 }, (_, i) => ({ trace: "c", n: 100 + i, startNs: base + HOUR }));
      await send(s.url, [...filler, { trace: "a", n: 3, startNs: base + 2n * HOUR }], h);
      await send(s.url, [{ trace: "a", n: 4, startNs: base - 3n * HOUR }, {
        trace: "d",
        n: 5,
        startNs: base,
      }], h);
      assert.deepEqual(await spanIds(s.url, "a"), [sid(4), sid(1), sid(3)]);
      assert.deepEqual(mapRows(s, TABLE, schema).get(traceId("a")), [
        base - 3n * HOUR,
        base + 2n * HOUR,
      ]);
      // a span inside the known range leaves the range as it was
      await send(s.url, [{ trace: "a", n: 6, startNs: base + HOUR }], h);
      assert.deepEqual(await spanIds(s.url, "a"), [sid(4), sid(1), sid(6), sid(3)]);
      // start/end (µs) narrow the trace to its spans in that range
      const us = (ns: bigint) => String(ns / 1000n);
      assert.deepEqual(await spanIds(s.url, "a", `?start=${us(base)}&end=${us(base + HOUR)}`), [
        sid(1),
        sid(6),
      ]);
      assert.equal(await spanIds(s.url, "a", `?start=${us(base + 3n * HOUR)}`), null);
      // a search finds the trace by its latest span and returns it whole
      const found = await jaegerGet(s.url, `traces?service=shop&start=${us(base + 2n * HOUR)}&limit=1`);
      assert.deepEqual(found.body.data[0].spans.map((x: { spanID: string }) => x.spanID), [
        sid(4),
        sid(1),
        sid(6),
        sid(3),
      ]);
      assert.equal(await spanIds(s.url, "e"), null);
      assert.equal(mapRows(s, TABLE, schema).size, 4);
    });
  }
});

Deno.test("trace map: the ttl sweep forgets traces whose every span expired", async () => {
  await withServer(async (s) => {
    const now = nowNs();
    await send(s.url, [
      { trace: "1", n: 1, startNs: now - 5n * HOUR },
      { trace: "1", n: 2, startNs: now - 4n * HOUR },
      { trace: "2", n: 3, startNs: now - 5n * HOUR },
      { trace: "2", n: 4, startNs: now - 10n * 60_000n * MS },
      { trace: "3", n: 5, startNs: now - 60_000n * MS },
    ]);
    await sqlExec(s.url, `ALTER TABLE ${TABLE} SET 'ttl'='1h'`);
    assert.ok(s.server.app.storage.sweepExpired() >= 3);
    assert.deepEqual([...mapRows(s).keys()], [traceId("2"), traceId("3")]);
    assert.equal(await spanIds(s.url, "1"), null);
    assert.deepEqual(await spanIds(s.url, "2"), [sid(4)]);
    assert.deepEqual(await spanIds(s.url, "3"), [sid(5)]);
  });
});

Deno.test("trace map: size retention forgets the traces of the windows it drops", async () => {
  await withServer(async (s) => {
    const now = nowNs();
    await send(s.url, [
      { trace: "1", n: 1, startNs: now - 5n * HOUR },
      { trace: "2", n: 2, startNs: now - 5n * HOUR },
      { trace: "2", n: 3, startNs: now },
      { trace: "3", n: 4, startNs: now },
    ]);
    await sqlExec(s.url, `ALTER TABLE ${TABLE} SET 'max_disk_size'='1KiB'`);
    const drops = s.server.app.storage.enforceDiskSize().filter((d) => d.table === TABLE);
    assert.equal(drops[0]?.rows, 2, JSON.stringify(drops));
    assert.deepEqual([...mapRows(s).keys()], [traceId("2"), traceId("3")]);
    assert.equal(await spanIds(s.url, "1"), null);
    assert.deepEqual(await spanIds(s.url, "2"), [sid(3)]);
  });
});

Deno.test("trace map: DELETE leaves a harmless range or forgets emptied old traces, TRUNCATE empties the map, DROP drops it", async () => {
  await withServer(async (s) => {
    const base = 1_700_000_000_000n * MS;
    await send(s.url, [{ trace: "a", n: 1, startNs: base }, { trace: "b", n: 2, startNs: base + MS }]);
    await sqlExec(s.url, `DELETE FROM ${TABLE} WHERE trace_id = '${traceId("a")}'`);
    assert.equal(await spanIds(s.url, "a"), null);
    assert.deepEqual(await spanIds(s.url, "b"), [sid(2)]);
    // the trace comes back later: its range widens over the stale one and holds the new span
    await send(s.url, [{ trace: "a", n: 3, startNs: base + HOUR }]);
    assert.deepEqual(await spanIds(s.url, "a"), [sid(3)]);

    // deleting the oldest spans by hand (a retention job) forgets the traces left without spans
    await send(s.url, [{ trace: "e", n: 6, startNs: base - 5n * HOUR }, {
      trace: "f",
      n: 7,
      startNs: base - 5n * HOUR,
    }]);
    await send(s.url, [{ trace: "f", n: 8, startNs: base - MS }]);
    assert.equal(mapRows(s).size, 4);
    await sqlExec(s.url, `DELETE FROM ${TABLE} WHERE "timestamp" < ${base - 4n * HOUR}`);
    assert.deepEqual([...mapRows(s).keys()], [traceId("a"), traceId("b"), traceId("f")]);
    assert.deepEqual(await spanIds(s.url, "f"), [sid(8)]);

    await sqlExec(s.url, `TRUNCATE TABLE ${TABLE}`);
    assert.equal(mapRows(s).size, 0);
    assert.equal(await spanIds(s.url, "b"), null);
    await send(s.url, [{ trace: "b", n: 4, startNs: base }]);
    assert.deepEqual(await spanIds(s.url, "b"), [sid(4)]);

    await sqlExec(s.url, `DROP TABLE ${TABLE}`);
    const conn = s.server.app.storage.database("public").conn;
    const maps = () =>
      conn.prepare("SELECT name FROM sqlite_master WHERE name LIKE '__petrel_trace%' ORDER BY name").all()
        .map((r) => String((r as { name: string }).name));
    assert.deepEqual(maps(), []);
    await send(s.url, [{ trace: "c", n: 5, startNs: base }]);
    assert.deepEqual(maps(), [LOG, MAP]);
    assert.deepEqual(await spanIds(s.url, "c"), [sid(5)]);
    assert.equal(await spanIds(s.url, "b"), null);
  });
});

Deno.test("trace map: a trace table rebuilt to widen an attribute column keeps its map", async () => {
  await withServer(async (s) => {
    const base = 1_700_000_000_000n * MS;
    await send(s.url, [{ trace: "a", n: 1, startNs: base, size: { intValue: 3 } }]);
    // a double for the BIGINT column widens it to DOUBLE: the table is copied into a new one
    await send(s.url, [{ trace: "a", n: 2, startNs: base + HOUR, size: { doubleValue: 1.5 } }]);
    const table = s.server.app.storage.getTable("public", TABLE)!;
    assert.equal(table.columns.find((c) => c.name === "span_attributes.size")?.type, "Float64");
    assert.deepEqual(mapRows(s).get(traceId("a")), [base, base + HOUR]);
    assert.deepEqual(await spanIds(s.url, "a"), [sid(1), sid(2)]);
  });
});

Deno.test("trace map: a table from before the map gets it built on open, and loses its trace_id index", async () => {
  const first = await startTestServer();
  const base = 1_700_000_000_000n * MS;
  try {
    await send(first.url, [
      { trace: "a", n: 1, startNs: base },
      { trace: "b", n: 2, startNs: base + MS },
      { trace: "a", n: 3, startNs: base + HOUR },
    ]);
    await send(first.url, [{ trace: "a", n: 4, startNs: base - HOUR }]);
    assert.equal(traceMapName(first.server.app.storage.getTable("public", TABLE)!), MAP);
  } finally {
    await first.stop();
  }
  // what the version before the map left: no map, an index on trace_id
  const file = new DatabaseSync(`${first.dataHome}/data/public.sqlite`);
  file.exec(`DROP TABLE "${MAP}"`);
  file.exec(`DROP TABLE "${LOG}"`);
  file.exec(`CREATE INDEX "__petrel_trace_${TABLE}" ON "${TABLE}" ("trace_id")`);
  file.close();

  const s = await startTestServer({ storage: { data_home: first.dataHome } });
  try {
    assert.deepEqual(
      mapRows(s),
      new Map([[traceId("a"), [base - HOUR, base + HOUR]], [traceId("b"), [base + MS, base + MS]]]),
    );
    const indexes = s.server.app.storage.database("public").conn
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").all(TABLE)
      .map((r) => String((r as { name: string }).name));
    assert.deepEqual(indexes, [`__petrel_idx_${TABLE}`]);
    assert.deepEqual(await spanIds(s.url, "a"), [sid(4), sid(1), sid(3)]);
    // and the writer keeps it from then on
    await send(s.url, [{ trace: "a", n: 5, startNs: base + 2n * HOUR }]);
    assert.deepEqual(await spanIds(s.url, "a"), [sid(4), sid(1), sid(3), sid(5)]);
  } finally {
    await s.stop();
  }
});
