/**
 * The protobuf logs path that writes columns directly (src/ingest/otlp/logs_pb.ts) against the
 * typed-model path (decodeLogsProto + otlpLogsToBatch, still used with extracted keys, pipelines
 * and JSON): the same batch for tricky bodies, the same error for malformed ones, and the same
 * rows stored over HTTP.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlRows } from "../protocols_http/util.ts";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { decodeLogsProto } from "../../src/protocols/otlp/pb_logs.ts";
import { otlpLogsToBatch } from "../../src/ingest/otlp/logs.ts";
import { logsProtoToBatch } from "../../src/ingest/otlp/logs_pb.ts";
import type { Value } from "../../src/common/rows.ts";

const s = (v: string) => ({ stringValue: v });
const kv = (key: string, value: Record<string, unknown>) => ({ key, value });
const EVERY_KIND = [
  kv("s", s('quo"te\\ \u0001 café 😀')),
  kv("b", { boolValue: true }),
  kv("i", { intValue: "-9223372036854775808" }),
  kv("big", { intValue: "9007199254740993" }),
  kv("d", { doubleValue: 1.5 }),
  kv("nan", { doubleValue: NaN }),
  kv("bytes", { bytesValue: new Uint8Array([0, 1, 254, 255]) }),
  kv("arr", { arrayValue: { values: [s("x"), { intValue: 3 }, { arrayValue: { values: [] } }, {}] } }),
  kv("kv", { kvlistValue: { values: [kv("a", s("1")), kv("a", s("2")), kv("n", { kvlistValue: {} })] } }),
  kv("empty", {}),
  { key: "novalue" },
  kv("", s("empty key")),
  kv("s", s("duplicate: the last wins")),
];
const BODIES = [
  s("plain"),
  s("café ☕ 😀 and a line longer than sixty-four bytes, which is decoded another way"),
  s("x".repeat(64)),
  { intValue: 42 },
  { doubleValue: 0.1 },
  { boolValue: false },
  { bytesValue: new Uint8Array([171, 205]) },
  { arrayValue: { values: [s("a"), { boolValue: true }] } },
  { kvlistValue: { values: EVERY_KIND } },
  {},
  undefined,
];
const T = 1_700_000_000_000_000_000n;

function record(i: number): Record<string, unknown> {
  return {
    timeUnixNano: i % 4 === 3 ? "0" : String(T + BigInt(i)),
    observedTimeUnixNano: String(T + 1000n + BigInt(i)),
    severityNumber: i % 25,
    severityText: i % 2 ? "INFO" : "",
    body: BODIES[i % BODIES.length],
    attributes: i % 3 === 0 ? [] : EVERY_KIND.slice(i % 5),
    flags: i,
    traceId: i % 2 ? new Uint8Array(16).fill(i) : undefined,
    spanId: i % 2 ? new Uint8Array(8).fill(i + 1) : undefined,
    eventName: i % 2 ? "ev" : "",
    droppedAttributesCount: i,
  };
}

/** A request with several resources and scopes, some of them empty or missing. */
function trickyRequest(): Record<string, unknown> {
  let i = 0;
  const records = (n: number) => Array.from({ length: n }, () => record(i++));
  return {
    resourceLogs: [
      {
        resource: { attributes: EVERY_KIND },
        schemaUrl: "res-url",
        scopeLogs: [
          {
            scope: { name: "sc", version: "1", attributes: [kv("x", s("y"))] },
            schemaUrl: "sc-url",
            logRecords: records(7),
          },
          { logRecords: records(5) },
          { scope: { name: "no records" } },
        ],
      },
      { scopeLogs: [{ scope: {}, logRecords: records(9) }] },
      {},
      { resource: {}, scopeLogs: [{ logRecords: records(3) }] },
    ],
  };
}

/** A batch's columns (its row count checked against them). */
function columnsOf(f: () => { columns: unknown; cols: ArrayLike<Value>[]; rowCount: number }) {
  const b = f();
  const cols = b.cols.map((c) => Array.from(c));
  for (const c of cols) assert.equal(c.length, b.rowCount);
  return { columns: b.columns, cols, n: b.rowCount };
}

function outcome(f: () => { columns: unknown; cols: ArrayLike<Value>[]; rowCount: number }) {
  try {
    return columnsOf(f);
  } catch (e) {
    return { error: String(e) };
  }
}

function assertSamePaths(body: Uint8Array, label: string): void {
  const direct = outcome(() => logsProtoToBatch(body, "t"));
  const model = outcome(() => otlpLogsToBatch(decodeLogsProto(body), { table: "t", extractKeys: [] }));
  assert.deepStrictEqual(direct, model, label);
}

/** Hand-made protobuf: a tag, then a length-prefixed payload. */
function field(tag: number, payload: number[]): number[] {
  return [tag, payload.length, ...payload];
}

Deno.test("OTLP logs: the direct protobuf path builds the batch the typed model does", () => {
  const body = encode(types.logs, trickyRequest());
  const direct = columnsOf(() => logsProtoToBatch(body, "t"));
  assert.equal(direct.n, 24);
  assertSamePaths(body, "tricky request");
  assertSamePaths(new Uint8Array(0), "empty request");
  // fields out of the usual order: the resource and schema URLs after the records
  const rec = field(0x12, field(0x12, [0x2a, 3, 0x0a, 1, 0x41])); // scope_logs { log_records { body "A" } }
  const late = [...rec, ...field(0x0a, field(0x0a, [0x0a, 1, 0x6b, 0x12, 3, 0x0a, 1, 0x76])), 0x1a, 1, 0x75];
  assertSamePaths(new Uint8Array(field(0x0a, late)), "resource after its records");
  // an AnyValue with two fields (the last wins) and a string field with trailing unknown fields
  const twoFields = [0x0a, 1, 0x61, 0x18, 7];
  const attr = field(0x32, [0x0a, 1, 0x6b, ...field(0x12, twoFields)]);
  const bodyTwo = field(0x2a, [...twoFields, 0x50, 1]);
  assertSamePaths(
    new Uint8Array(field(0x0a, field(0x12, field(0x12, [...attr, ...bodyTwo])))),
    "two-field values",
  );
});

Deno.test("OTLP logs: the direct protobuf path rejects what the typed model rejects, with the same message", () => {
  const good = encode(types.logs, {
    resourceLogs: [{ scopeLogs: [{ logRecords: [record(1), record(2)] }] }],
  });
  for (let cut = 1; cut < good.length; cut += 3) assertSamePaths(good.subarray(0, cut), `cut at ${cut}`);
  const badUtf8 = [0x0a, 2, 0xc3, 0x28];
  for (
    const rec of [field(0x2a, badUtf8), field(0x32, [0x0a, 1, 0x6b, ...field(0x12, badUtf8)]), [
      0x1a,
      2,
      0xff,
      0xfe,
    ]]
  ) {
    assertSamePaths(new Uint8Array(field(0x0a, field(0x12, field(0x12, rec)))), `non-UTF-8 ${rec}`);
  }
  let deep: number[] = [0x0a, 1, 0x61];
  for (let d = 0; d < 40; d++) deep = field(0x2a, field(0x0a, deep));
  assertSamePaths(new Uint8Array(field(0x0a, field(0x12, field(0x12, field(0x2a, deep))))), "deep nesting");
  const overrun = field(0x0a, field(0x12, field(0x12, [0x32, 5, 0x0a, 9, 0x61, 0x62, 0x63])));
  assertSamePaths(new Uint8Array(overrun), "key overrunning its attribute");
});

Deno.test("OTLP logs over HTTP: direct and typed-model paths store the same rows", async () => {
  const server = await startTestServer();
  try {
    const body = encode(types.logs, trickyRequest());
    const ct = { "content-type": "application/x-protobuf" };
    const a = await post(`${server.url}/v1/otlp/v1/logs`, body, {
      ...ct,
      "x-greptime-log-table-name": "direct",
    });
    // an extracted key no record has sends the same body through the typed model
    const b = await post(`${server.url}/v1/otlp/v1/logs`, body, {
      ...ct,
      "x-greptime-log-table-name": "model",
      "x-greptime-log-extract-keys": "absent.key",
    });
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    const cols = "timestamp, trace_id, span_id, severity_text, severity_number, body, log_attributes, " +
      "trace_flags, scope_name, scope_version, scope_attributes, scope_schema_url, resource_attributes, " +
      "resource_schema_url";
    const q = (t: string) => sqlRows(server.url, `SELECT ${cols} FROM ${t} ORDER BY trace_flags`);
    const direct = await q("direct");
    assert.equal(direct.length, 24);
    assert.deepStrictEqual(direct, await q("model"));
    // and again into the table that now exists (aligned to it)
    await post(`${server.url}/v1/otlp/v1/logs`, body, { ...ct, "x-greptime-log-table-name": "direct" });
    assert.equal((await q("direct")).length, 48);
  } finally {
    await server.stop();
  }
});
