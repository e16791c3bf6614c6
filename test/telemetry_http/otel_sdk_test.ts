/**
 * The real OpenTelemetry JS SDK (JSON and protobuf exporters) against a real server: every data
 * point, span and log record the SDK exported is read back exactly by SQL, and the trace through
 * the Jaeger API. A request Petrel refuses (400) surfaces in the SDK as an error carrying Petrel's message.
 */
import assert from "node:assert/strict";
import type { DataPoint, Histogram, ResourceMetrics } from "@opentelemetry/sdk-metrics";
import { hrNanos, type OtelSent, sendOtel } from "./otel_send.ts";
import { sqlExec, sqlRows, withServer } from "../protocols_http/util.ts";
import { checkJaeger } from "./jaeger_checks.ts";

const MODES = ["json", "proto"] as const;

/** Every exported data point of a metric: [attributes, value, end time ms]. */
function points<T>(sent: ResourceMetrics[], name: string): [Record<string, unknown>, T, number][] {
  const out: [Record<string, unknown>, T, number][] = [];
  for (const rm of sent) {
    for (const sm of rm.scopeMetrics) {
      for (const m of sm.metrics) {
        if (m.descriptor.name !== name) continue;
        for (const p of m.dataPoints as DataPoint<T>[]) {
          out.push([p.attributes, p.value, Number(hrNanos(p.endTime) / 1_000_000n)]);
        }
      }
    }
  }
  assert.ok(out.length > 0, `the SDK exported no ${name}`);
  return out;
}

const byKey = (a: unknown[], b: unknown[]) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;

async function checkMetrics(base: string, db: string, mode: string, sent: OtelSent): Promise<void> {
  const job = `shop-${mode}`;
  const counter = points<number>(sent.metrics, "http.server.requests")
    .map(([a, v, t]) => [t, a["http.route"], v, job, "i-1"]).sort(byKey);
  const got = await sqlRows(
    base,
    "SELECT greptime_timestamp, http_route, greptime_value, job, instance FROM http_server_requests_total",
    db,
  );
  assert.deepEqual(got.sort(byKey), counter);

  const updown = points<number>(sent.metrics, "queue.depth").map(([, v, t]) => [t, v]).sort(byKey);
  assert.deepEqual(
    (await sqlRows(base, "SELECT greptime_timestamp, greptime_value FROM queue_depth", db)).sort(byKey),
    updown,
  );

  const hist = points<Histogram>(sent.metrics, "http.server.duration");
  const buckets: unknown[][] = [], sums: unknown[][] = [], counts: unknown[][] = [];
  for (const [a, h, t] of hist) {
    let cumulative = 0;
    h.buckets.counts.forEach((c, i) => {
      cumulative += c;
      const le = i < h.buckets.boundaries.length ? String(h.buckets.boundaries[i]) : "+Inf";
      buckets.push([t, a["http.route"], le, cumulative]);
    });
    sums.push([t, a["http.route"], h.sum]);
    counts.push([t, a["http.route"], h.count]);
  }
  const name = "http_server_duration_milliseconds";
  const cols = "greptime_timestamp, http_route";
  assert.deepEqual(
    (await sqlRows(base, `SELECT ${cols}, le, greptime_value FROM ${name}_bucket`, db)).sort(byKey),
    buckets.sort(byKey),
  );
  assert.deepEqual(
    (await sqlRows(base, `SELECT ${cols}, greptime_value FROM ${name}_sum`, db)).sort(byKey),
    sums.sort(byKey),
  );
  assert.deepEqual(
    (await sqlRows(base, `SELECT ${cols}, greptime_value FROM ${name}_count`, db)).sort(byKey),
    counts.sort(byKey),
  );
}

const KIND = [
  "SPAN_KIND_INTERNAL",
  "SPAN_KIND_SERVER",
  "SPAN_KIND_CLIENT",
  "SPAN_KIND_PRODUCER",
  "SPAN_KIND_CONSUMER",
];
const STATUS = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

async function checkTraces(base: string, db: string, mode: string, sent: OtelSent): Promise<void> {
  assert.equal(sent.spans.length, 2);
  const expected = sent.spans.map((s) => [
    String(hrNanos(s.startTime)),
    String(hrNanos(s.endTime)),
    String(hrNanos(s.endTime) - hrNanos(s.startTime)),
    s.parentSpanContext?.spanId ?? null,
    s.spanContext().traceId,
    s.spanContext().spanId,
    KIND[s.kind],
    s.name,
    STATUS[s.status.code],
    s.status.message ?? "",
    "shop-tracer",
    "0.9.0",
    `shop-${mode}`,
    s.attributes["http.method"] ?? null,
    s.attributes["http.status_code"] ?? null,
    s.attributes["retry"] ?? null,
    s.attributes["ratio"] ?? null,
    s.attributes["db.system"] ?? null,
    "edge-1",
  ]).sort(byKey);
  const got = await sqlRows(
    base,
    `SELECT CAST(CAST("timestamp" AS BIGINT) AS STRING), CAST(CAST(timestamp_end AS BIGINT) AS STRING),
       CAST(duration_nano AS STRING), parent_span_id, trace_id, span_id, span_kind, span_name,
       span_status_code, span_status_message, scope_name, scope_version, service_name,
       "span_attributes.http.method", "span_attributes.http.status_code", "span_attributes.retry",
       "span_attributes.ratio", "span_attributes.db.system", "resource_attributes.host.name"
     FROM opentelemetry_traces`,
    db,
  );
  assert.deepEqual(got.sort(byKey), expected);
  const events = await sqlRows(
    base,
    `SELECT span_events FROM opentelemetry_traces WHERE span_name = 'SELECT orders'`,
    db,
  );
  const child = sent.spans.find((s) => s.name === "SELECT orders")!;
  const [event] = events[0][0] as { name: string; time: string; attributes: unknown }[];
  assert.deepEqual({ ...event, time: undefined }, { name: "rows", time: undefined, attributes: { n: 3 } });
  const ns = hrNanos(child.events[0].time);
  assert.equal(event.time.slice(-11), `.${String(ns % 1_000_000_000n).padStart(9, "0")}Z`);
  assert.equal(Date.parse(event.time), Number(ns / 1_000_000n));
  assert.deepEqual(await sqlRows(base, "SELECT service_name FROM opentelemetry_traces_services", db), [[
    `shop-${mode}`,
  ]]);
}

async function checkLogs(base: string, db: string, mode: string, sent: OtelSent): Promise<void> {
  const body = (b: unknown) => typeof b === "string" ? b : JSON.stringify(b);
  const expected = sent.logs.map((l) => [
    String(hrNanos(l.hrTime)),
    l.severityText,
    l.severityNumber,
    body(l.body),
    l.attributes,
    "shop-logger",
    "2.0.0",
    { "host.name": "edge-1", "service.instance.id": "i-1", "service.name": `shop-${mode}` },
  ]).sort(byKey);
  const got = await sqlRows(
    base,
    `SELECT CAST(CAST("timestamp" AS BIGINT) AS STRING), severity_text, severity_number, body,
       log_attributes, scope_name, scope_version, resource_attributes FROM opentelemetry_logs`,
    db,
  );
  assert.equal(expected.length, 3);
  assert.deepEqual(got.sort(byKey), expected);
}

for (const mode of MODES) {
  Deno.test(`OTel SDK (${mode} exporters): metrics, traces and logs are stored exactly as sent; the trace reads back through Jaeger`, async () => {
    await withServer(async (s) => {
      const db = `otel_${mode}`;
      await sqlExec(s.url, `CREATE DATABASE ${db}`);
      const sent = await sendOtel(`${s.url}/v1/otlp`, mode, { "X-Greptime-DB-Name": db });
      assert.ok(
        sent.results.length >= 3 && sent.results.every((r) => r.endsWith(":ok")),
        sent.results.join(),
      );
      await checkMetrics(s.url, db, mode, sent);
      await checkTraces(s.url, db, mode, sent);
      await checkLogs(s.url, db, mode, sent);
      await checkJaeger(s.url, db, `shop-${mode}`, sent.spans);
    });
  });
}

for (const mode of MODES) {
  Deno.test(`OTel SDK (${mode} exporters): Petrel's 400 for a missing database is thrown by forceFlush with its message, not dropped silently`, async () => {
    await withServer(async (s) => {
      const err = await sendOtel(`${s.url}/v1/otlp`, mode, { "X-Greptime-DB-Name": "no_such_db" }).then(
        () => null,
        // MeterProvider.forceFlush rejects with its readers' errors as an array.
        (e: unknown) => (Array.isArray(e) ? e[0] : e) as { code?: number; data?: string },
      );
      assert.ok(err, "the SDK reported no failure");
      assert.match(String(err), /^OTLPExporterError: Bad Request/);
      assert.equal(err.code, 400);
      assert.match(String(err.data), /Database not found: no_such_db/);
    });
  });
}
