/**
 * `otlp` forwarding of logs: records the edge took over OTLP/HTTP go to a second Petrel's OTLP logs
 * endpoint, rebuilt with their resource, scope, attributes, severity and trace ids, across an
 * upstream kill. A table without the OpenTelemetry logs shape is passed over.
 */
import assert from "node:assert/strict";
import { waitFor } from "../helpers/debian.ts";
import { petrelUpstream, sqlRows, startEdge, waitDrained } from "./upstreams.ts";

function logsRequest(from: number, n: number, t0: number): unknown {
  return {
    resourceLogs: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
      scopeLogs: [{
        scope: { name: "app.logger", version: "1.2" },
        logRecords: Array.from({ length: n }, (_, i) => ({
          timeUnixNano: String(BigInt(t0 + (from + i) * 1000) * 1_000_000n),
          severityNumber: 9,
          severityText: "INFO",
          body: { stringValue: `order ${from + i} placed` },
          attributes: [
            { key: "order.id", value: { intValue: String(from + i) } },
            { key: "ok", value: { boolValue: true } },
          ],
          traceId: "5b8efff798038103d269b633813fc60c",
          spanId: "eee19b7ec3c1b174",
        })),
      }],
    }],
  };
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(`${url}/v1/otlp/v1/logs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

const COLUMNS =
  "timestamp, trace_id, span_id, severity_text, severity_number, body, log_attributes, scope_name, " +
  "scope_version, resource_attributes";

Deno.test("forward otlp: log records reach an OTLP upstream as they were stored, across an upstream kill", async () => {
  const up = petrelUpstream();
  await up.start();
  const edge = await startEdge({
    name: "otlp",
    url: `${up.base}/v1/otlp/v1/logs`,
    protocol: "otlp",
    batch_size: 8,
  });
  try {
    const t0 = Date.now() - 600_000;
    assert.equal(await post(edge.url, logsRequest(0, 10, t0)), 200);
    await waitDrained(edge.url);
    await up.kill();
    assert.equal(await post(edge.url, logsRequest(10, 10, t0)), 200);
    // a SQL table the glob takes in but OTLP cannot carry
    const sql = await fetch(`${edge.url}/v1/sql?db=public`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ sql: "CREATE TABLE other (v DOUBLE, ts TIMESTAMP TIME INDEX)" }),
    });
    assert.equal(sql.status, 200);
    await up.start();
    assert.equal(await post(edge.url, logsRequest(20, 5, t0)), 200);
    const read = (base: string) =>
      sqlRows(base, `SELECT DISTINCT ${COLUMNS} FROM opentelemetry_logs ORDER BY timestamp`);
    const want = await read(edge.url);
    assert.equal(want.length, 25);
    await waitFor(async () => (await read(up.base)).length === 25 || null, 30_000, 200);
    assert.deepEqual(await read(up.base), want);
    await waitDrained(edge.url);
  } finally {
    await edge.stop();
    await up.kill();
  }
});

function tracesRequest(t0: number): unknown {
  const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
  return {
    resourceSpans: [{
      resource: {
        attributes: [
          { key: "service.name", value: { stringValue: "checkout" } },
          { key: "host.name", value: { stringValue: "edge-1" } },
        ],
      },
      scopeSpans: [{
        scope: {
          name: "tracer",
          version: "0.9",
          attributes: [{ key: "lib", value: { stringValue: "otel" } }],
        },
        spans: [0, 1, 2].map((i) => ({
          traceId: "5b8efff798038103d269b633813fc60c",
          spanId: `eee19b7ec3c1b17${i}`,
          parentSpanId: i === 0 ? "" : "eee19b7ec3c1b170",
          name: i === 0 ? "GET /cart" : `db query ${i}`,
          kind: i === 0 ? 2 : 3,
          startTimeUnixNano: ns(t0 + i * 10),
          endTimeUnixNano: ns(t0 + i * 10 + 5),
          attributes: [
            { key: "http.status", value: { intValue: "200" } },
            { key: "ratio", value: { doubleValue: 0.25 } },
            { key: "cached", value: { boolValue: i === 1 } },
            { key: "tags", value: { arrayValue: { values: [{ stringValue: "a" }, { stringValue: "b" }] } } },
          ],
          events: [{
            name: "retry",
            timeUnixNano: ns(t0 + i * 10 + 1),
            attributes: [{ key: "n", value: { intValue: "2" } }],
          }],
          links: i === 2 ? [{ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331" }] : [],
          status: { code: i === 2 ? 2 : 1, message: i === 2 ? "timeout" : "" },
        })),
      }],
    }],
  };
}

Deno.test("forward otlp: spans reach an OTLP upstream with their attributes, events, links and status", async () => {
  const up = petrelUpstream();
  await up.start();
  // the base URL: the forwarder picks /v1/logs or /v1/traces by table
  const edge = await startEdge({ name: "otlp", url: `${up.base}/v1/otlp`, protocol: "otlp" });
  try {
    const res = await fetch(`${edge.url}/v1/otlp/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-greptime-pipeline-name": "greptime_trace_v1" },
      body: JSON.stringify(tracesRequest(Date.now() - 600_000)),
    });
    assert.equal(res.status, 200, await res.text());
    const read = (base: string) => sqlRows(base, "SELECT * FROM opentelemetry_traces ORDER BY span_id");
    const want = await read(edge.url);
    assert.equal(want.length, 3);
    await waitFor(async () => (await read(up.base).catch(() => [])).length === 3 || null, 20_000, 200);
    assert.deepEqual(await read(up.base), want);
  } finally {
    await edge.stop();
    await up.kill();
  }
});
