/**
 * Jaeger trace search over many overlapping multi-service traces, against an oracle computed from
 * the spans sent: which traces (latest matching span first, at most `limit`) and that each comes
 * back whole. Pins what the latest-first, stop-early search must keep. Also holds that Jaeger's
 * trace reads by id look the trace's time range up in the trace map and read only that stretch of
 * the time index, not a scan of every span.
 */
import assert from "node:assert/strict";
import { post, withServer } from "../protocols_http/util.ts";
import { jaegerGet } from "./jaeger_checks.ts";
import { scanStatement } from "../../src/storage/scan.ts";
import { traceMapName, traceTimeRange } from "../../src/storage/trace_map.ts";

const S = 1_700_000_000_000_000_000n, MS = 1_000_000n;
const SERVICES = ["web", "api", "db"];
const OPS = ["GET /a", "GET /b", "query"];

interface Sent {
  trace: string;
  span: string;
  service: string;
  op: string;
  startNs: bigint;
  durMs: number;
  status: number;
}

/** 40 traces of 5 spans, trace k spanning [k·7, k·7 + 60) ms: neighbours overlap in time. */
function spans(): Sent[] {
  const out: Sent[] = [];
  for (let k = 0; k < 40; k++) {
    for (let i = 0; i < 5; i++) {
      out.push({
        trace: (k + 1).toString(16).padStart(32, "0"),
        span: (k * 16 + i + 1).toString(16).padStart(16, "0"),
        service: SERVICES[(k + i) % 3],
        op: OPS[(k * 3 + i) % 3],
        // distinct start times: no two traces tie on their latest span
        startNs: S + BigInt(k * 7 + ((i * 13) % 60)) * MS + BigInt(k * 5 + i),
        durMs: 10 + ((k * 31 + i * 17) % 200),
        status: (k + i) % 9 === 0 ? 500 : 200,
      });
    }
  }
  return out;
}

function body(sent: Sent[]): string {
  const attr = (key: string, v: string | number) => ({
    key,
    value: typeof v === "number" ? { intValue: v } : { stringValue: v },
  });
  return JSON.stringify({
    resourceSpans: SERVICES.map((service) => ({
      resource: { attributes: [attr("service.name", service)] },
      scopeSpans: [{
        spans: sent.filter((s) => s.service === service).map((s) => ({
          traceId: s.trace,
          spanId: s.span,
          name: s.op,
          kind: 2,
          startTimeUnixNano: String(s.startNs),
          endTimeUnixNano: String(s.startNs + BigInt(s.durMs) * MS),
          attributes: [attr("http.status_code", s.status)],
        })),
      }],
    })),
  });
}

interface Query {
  service: string;
  op?: string;
  status?: number;
  minMs?: number;
  range?: [number, number];
  limit?: number;
}

/** The traces a search must answer, latest matching span first. */
function oracle(sent: Sent[], q: Query): string[] {
  const latest = new Map<string, bigint>();
  for (const s of sent) {
    if (s.service !== q.service || (q.op !== undefined && s.op !== q.op)) continue;
    if (q.status !== undefined && s.status !== q.status) continue;
    if (q.minMs !== undefined && s.durMs < q.minMs) continue;
    const us = s.startNs / 1000n;
    if (q.range && (us < BigInt(q.range[0]) || us > BigInt(q.range[1]))) continue;
    if ((latest.get(s.trace) ?? -1n) < s.startNs) latest.set(s.trace, s.startNs);
  }
  const ids = [...latest.entries()].sort((a, b) => a[1] > b[1] ? -1 : 1).map(([id]) => id);
  return q.limit ? ids.slice(0, q.limit) : ids;
}

function params(q: Query): string {
  let p = `service=${q.service}`;
  if (q.op) p += `&operation=${encodeURIComponent(q.op)}`;
  if (q.status) p += `&tags=${encodeURIComponent(JSON.stringify({ "http.status_code": String(q.status) }))}`;
  if (q.minMs) p += `&minDuration=${q.minMs}ms`;
  if (q.range) p += `&start=${q.range[0]}&end=${q.range[1]}`;
  if (q.limit) p += `&limit=${q.limit}`;
  return p;
}

const mid = Number(S / 1000n) + 100_000, late = Number(S / 1000n) + 200_000;
const QUERIES: Query[] = [
  { service: "web" },
  { service: "web", limit: 1 },
  { service: "api", limit: 5 },
  { service: "db", limit: 20 },
  { service: "api", op: "GET /b", limit: 3 },
  { service: "web", status: 500, limit: 4 },
  { service: "db", status: 500 },
  { service: "api", minMs: 150, limit: 6 },
  { service: "web", range: [mid, late], limit: 5 },
  { service: "db", range: [mid, late] },
  { service: "nobody", limit: 5 },
];

Deno.test("Jaeger search: latest traces first, whole, as the oracle says", async () => {
  await withServer(async (s) => {
    const sent = spans();
    const headers = { "content-type": "application/json", "x-greptime-pipeline-name": "greptime_trace_v1" };
    const w = await post(`${s.url}/v1/otlp/v1/traces`, body(sent), headers);
    assert.equal(w.status, 200, w.text);
    for (const q of QUERIES) {
      const r = await jaegerGet(s.url, `traces?${params(q)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const got = r.body.data as { traceID: string; spans: { spanID: string }[] }[];
      assert.deepEqual(got.map((t) => t.traceID), oracle(sent, q), params(q));
      for (const t of got) {
        const want = sent.filter((x) => x.trace === t.traceID).sort((a, b) => a.startNs < b.startNs ? -1 : 1);
        assert.deepEqual(t.spans.map((x) => x.spanID), want.map((x) => x.span), `${params(q)} ${t.traceID}`);
      }
    }
    const one = sent[77].trace;
    const byId = await jaegerGet(s.url, `traces/${one}`);
    assert.equal(byId.body.data[0].spans.length, 5);

    // a trace read by id looks its time range up in the trace map (a primary-key search), then
    // reads that stretch of the time index; the table has no index on trace_id
    const storage = s.server.app.storage;
    const table = storage.getTable("public", "opentelemetry_traces")!;
    const h = storage.database("public");
    const plan = (sql: string, ...params: (string | bigint)[]) =>
      h.conn.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params)
        .map((r) => String((r as { detail: string }).detail)).join("\n");
    const lookup = plan(`SELECT lo, hi FROM "main"."${traceMapName(table)}" WHERE trace_id = ?`, one);
    assert.match(
      lookup,
      /SEARCH .*__petrel_tracemap_opentelemetry_traces USING PRIMARY KEY \(trace_id=\?\)/,
      lookup,
    );
    const range = traceTimeRange(h, table, one)!;
    const mine = sent.filter((x) => x.trace === one).map((x) => x.startNs);
    assert.deepEqual(range, [mine.reduce((a, b) => a < b ? a : b), mine.reduce((a, b) => a > b ? a : b)]);
    const stmt = scanStatement(table, {
      columns: table.columns.map((c) => c.name),
      timeRange: range,
      equal: { trace_id: one },
      orderBy: [table.timeIndex],
    })!;
    const scan = plan(stmt.sql, ...stmt.params as (string | bigint)[]);
    assert.match(
      scan,
      /USING INDEX "?__petrel_idx_opentelemetry_traces"? \(timestamp>\? AND timestamp<\?\)/,
      scan,
    );
    const indexes = h.conn.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?")
      .all("opentelemetry_traces").map((r) => String((r as { name: string }).name));
    assert.deepEqual(indexes, ["__petrel_idx_opentelemetry_traces"]);
  });
});
