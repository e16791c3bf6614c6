/** The trace the OTel SDK sent, read back through the Jaeger query API and compared span by span. */
import assert from "node:assert/strict";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { hrNanos } from "./otel_send.ts";

const KIND = ["internal", "server", "client", "producer", "consumer"];

/** GETs a Jaeger API path and returns the envelope. */
export async function jaegerGet(base: string, path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${base}/v1/jaeger/api/${path}`, { headers });
  return { status: r.status, body: await r.json() };
}

/** Services, operations, the trace by id and by search all show exactly the spans that were sent. */
export async function checkJaeger(base: string, db: string, service: string, spans: ReadableSpan[]) {
  const h = { "x-greptime-db-name": db };
  assert.deepEqual((await jaegerGet(base, "services", h)).body, {
    data: [service],
    total: 1,
    limit: 0,
    offset: 0,
    errors: [],
  });
  const ops = (await jaegerGet(base, `operations?service=${service}`, h)).body;
  assert.deepEqual(ops.data, [{ name: "GET /checkout", spanKind: "server" }, {
    name: "SELECT orders",
    spanKind: "client",
  }]);
  assert.deepEqual((await jaegerGet(base, `services/${service}/operations`, h)).body.data, [
    "GET /checkout",
    "SELECT orders",
  ]);

  const traceId = spans[0].spanContext().traceId;
  const byId = await jaegerGet(base, `traces/${traceId}`, h);
  assert.equal(byId.status, 200);
  const [trace] = byId.body.data;
  assert.equal(trace.traceID, traceId);
  assert.deepEqual(trace.processes, {
    p1: {
      serviceName: service,
      tags: [
        { key: "host.name", type: "string", value: "edge-1" },
        { key: "service.instance.id", type: "string", value: "i-1" },
      ],
    },
  });
  const sorted = [...spans].sort((a, b) => Number(hrNanos(a.startTime) - hrNanos(b.startTime)));
  assert.deepEqual(
    trace.spans.map((s: { spanID: string }) => s.spanID),
    sorted.map((s) => s.spanContext().spanId),
  );
  for (const [i, sent] of sorted.entries()) {
    const got = trace.spans[i];
    assert.equal(got.operationName, sent.name);
    assert.equal(got.startTime, Number(hrNanos(sent.startTime) / 1000n));
    assert.equal(got.duration, Number((hrNanos(sent.endTime) - hrNanos(sent.startTime)) / 1000n));
    assert.equal(got.processID, "p1");
    const parent = sent.parentSpanContext?.spanId;
    assert.deepEqual(
      got.references,
      parent ? [{ refType: "CHILD_OF", traceID: traceId, spanID: parent }] : [],
    );
    const tag = (k: string) => got.tags.find((t: { key: string }) => t.key === k);
    assert.deepEqual(tag("span.kind"), { key: "span.kind", type: "string", value: KIND[sent.kind] });
    for (const [k, v] of Object.entries(sent.attributes)) {
      const type = typeof v === "string"
        ? "string"
        : typeof v === "boolean"
        ? "bool"
        : Number.isInteger(v)
        ? "int64"
        : "float64";
      assert.deepEqual(tag(k), { key: k, type, value: v }, k);
    }
    assert.equal(got.logs.length, sent.events.length);
  }
  const child = trace.spans.find((s: { operationName: string }) => s.operationName === "SELECT orders");
  assert.deepEqual(child.tags.find((t: { key: string }) => t.key === "error"), {
    key: "error",
    type: "bool",
    value: true,
  });
  assert.deepEqual(child.logs[0].fields, [{ key: "event", type: "string", value: "rows" }, {
    key: "n",
    type: "int64",
    value: 3,
  }]);

  const search = await jaegerGet(base, `traces?service=${service}&operation=SELECT%20orders&limit=20`, h);
  assert.equal(search.status, 200);
  assert.deepEqual(search.body.data, [trace], "a search returns the whole trace");
}
