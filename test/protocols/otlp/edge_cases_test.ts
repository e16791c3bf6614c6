/**
 * OTLP decoding of the JSON mapping's variants and of malformed bodies: every malformed body is a
 * PetrelError 1004 naming the problem, never another exception, a hang or a huge allocation.
 */
import assert from "node:assert/strict";
import { PetrelError, StatusCode } from "../../../src/common/errors.ts";
import { decodeOtlpLogs, decodeOtlpMetrics, decodeOtlpTraces } from "../../../src/protocols/otlp/mod.ts";
import { captureOtlp } from "./capture.ts";
import { encode, types } from "./proto_oracle.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const JSON_CT = "application/json";

function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  assert.deepStrictEqual(actual, expected, message);
}

function assertBadRequest(f: () => unknown, pattern: RegExp, label: string): void {
  try {
    f();
  } catch (e) {
    assert(e instanceof PetrelError, `${label}: not a PetrelError: ${e}`);
    assertEquals(e.code, StatusCode.InvalidArguments, label);
    assert(
      pattern.test(e.message),
      `${label}: message ${JSON.stringify(e.message)} does not match ${pattern}`,
    );
    return;
  }
  assert.fail(`${label}: decoded without error`);
}

Deno.test("otlp JSON: the mapping's variants (int64 as number or string, enum names, snake_case, base64 bytes)", () => {
  const body = {
    resource_spans: [{
      resource: { attributes: [{ key: "service.name", value: { string_value: "svc" } }] },
      scopeSpans: [{
        scope: { name: "s" },
        spans: [{
          traceId: "5B8EFFF798038103D269B633813FC60C",
          spanId: "EEE19B7EC3C1B174",
          name: "op",
          kind: "SPAN_KIND_CONSUMER",
          startTimeUnixNano: 1700000000123456789,
          end_time_unix_nano: "1700000000987654321",
          status: { code: "STATUS_CODE_ERROR" },
          attributes: [
            { key: "big", value: { intValue: "9007199254740993" } },
            { key: "small", value: { intValue: 7 } },
            { key: "nan", value: { doubleValue: "NaN" } },
            { key: "raw", value: { bytesValue: "AQID" } },
            { key: "none", value: {} },
            { key: "kv", value: { kvlistValue: { values: [{ key: "a", value: { boolValue: true } }] } } },
          ],
        }],
      }],
    }],
  };
  const req = decodeOtlpTraces(enc(JSON.stringify(body)), JSON_CT);
  const span = req.resourceSpans[0].scopeSpans[0].spans[0];
  assertEquals(req.resourceSpans[0].resource.attributes[0].value, { type: "string", value: "svc" });
  assertEquals([span.traceId, span.spanId, span.kind, span.status.code], [
    "5b8efff798038103d269b633813fc60c",
    "eee19b7ec3c1b174",
    5,
    2,
  ]);
  assertEquals(span.endTimeUnixNano, 1700000000987654321n);
  assertEquals(span.attributes.map((kv) => kv.value), [
    { type: "int", value: 9007199254740993n },
    { type: "int", value: 7 },
    { type: "double", value: NaN },
    { type: "bytes", value: new Uint8Array([1, 2, 3]) },
    { type: "empty" },
    { type: "kvlist", value: [{ key: "a", value: { type: "bool", value: true } }] },
  ]);
});

Deno.test("otlp protobuf: summaries, exponential histograms and int gauges round-trip through protobufjs", () => {
  const kv = (key: string, v: string) => ({ key, value: { stringValue: v } });
  const body = encode(types.metrics, {
    resourceMetrics: [{
      scopeMetrics: [{
        metrics: [
          {
            name: "rpc.latency",
            summary: {
              dataPoints: [{
                attributes: [kv("m", "get")],
                timeUnixNano: "1700000000123000000",
                count: 10,
                sum: 2.5,
                quantileValues: [{ quantile: 0.5, value: 0.2 }, { quantile: 0.99, value: 0.9 }],
              }],
            },
          },
          {
            name: "exp",
            exponentialHistogram: {
              aggregationTemporality: 1,
              dataPoints: [{
                scale: -3,
                zeroCount: 2,
                positive: { offset: -2, bucketCounts: [1, 2] },
                count: 5,
              }],
            },
          },
          { name: "g", gauge: { dataPoints: [{ asInt: "-42", timeUnixNano: "1" }, { timeUnixNano: "2" }] } },
        ],
      }],
    }],
  });
  const [summary, exp, gauge] = decodeOtlpMetrics(body).resourceMetrics[0].scopeMetrics[0].metrics;
  assert(summary.data?.type === "summary");
  assertEquals(summary.data.dataPoints[0].quantileValues, [{ quantile: 0.5, value: 0.2 }, {
    quantile: 0.99,
    value: 0.9,
  }]);
  assertEquals([summary.data.dataPoints[0].count, summary.data.dataPoints[0].sum], [10, 2.5]);
  assertEquals(summary.data.dataPoints[0].timeUnixNano, 1700000000123000000n);
  assert(exp.data?.type === "exponentialHistogram");
  assertEquals(exp.data.aggregationTemporality, 1);
  const p = exp.data.dataPoints[0];
  assertEquals([p.scale, p.zeroCount, p.positive, p.count], [-3, 2, { offset: -2, bucketCounts: [1, 2] }, 5]);
  assert(gauge.data?.type === "gauge");
  assertEquals(gauge.data.dataPoints.map((d) => [d.value, d.isInt]), [[-42, true], [null, false]]);
});

const MALFORMED: {
  name: string;
  decode: (b: Uint8Array, ct?: string) => unknown;
  body: Uint8Array;
  ct?: string;
  why: RegExp;
}[] = [
  { name: "not JSON", decode: decodeOtlpMetrics, body: enc("{"), ct: JSON_CT, why: /invalid JSON/ },
  {
    name: "JSON array at top",
    decode: decodeOtlpMetrics,
    body: enc("[]"),
    ct: JSON_CT,
    why: /request: expected an object/,
  },
  {
    name: "resourceMetrics not an array",
    decode: decodeOtlpMetrics,
    body: enc('{"resourceMetrics":5}'),
    ct: JSON_CT,
    why: /resourceMetrics: expected an array/,
  },
  {
    name: "time as a float",
    decode: decodeOtlpLogs,
    body: enc('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":1.5}]}]}]}'),
    ct: JSON_CT,
    why: /LogRecord.timeUnixNano: expected an integer/,
  },
  {
    name: "negative fixed64",
    decode: decodeOtlpLogs,
    body: enc('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"-1"}]}]}]}'),
    ct: JSON_CT,
    why: /expected a uint64/,
  },
  {
    name: "trace id not hex",
    decode: decodeOtlpTraces,
    body: enc('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz"}]}]}]}'),
    ct: JSON_CT,
    why: /Span.traceId: expected a hex string/,
  },
  {
    name: "unknown enum name",
    decode: decodeOtlpTraces,
    body: enc('{"resourceSpans":[{"scopeSpans":[{"spans":[{"kind":"SPAN_KIND_NOPE"}]}]}]}'),
    ct: JSON_CT,
    why: /Span.kind: expected an enum/,
  },
  {
    name: "attribute key not a string",
    decode: decodeOtlpLogs,
    body: enc('{"resourceLogs":[{"resource":{"attributes":[{"key":1}]}}]}'),
    ct: JSON_CT,
    why: /KeyValue.key: expected a string/,
  },
  {
    name: "invalid UTF-8 in JSON",
    decode: decodeOtlpLogs,
    body: new Uint8Array([0x7b, 0xff, 0x7d]),
    ct: JSON_CT,
    why: /not valid UTF-8/,
  },
  {
    // 39 AnyValues are 117 JSON levels: within serde_json's limit, past the AnyValue one
    name: "deeply nested JSON AnyValue",
    decode: decodeOtlpLogs,
    body: enc(
      `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":${'{"arrayValue":{"values":['.repeat(39)}{}${
        "]}}".repeat(39)
      }}]}]}]}`,
    ),
    ct: JSON_CT,
    why: /AnyValue nested deeper than 32/,
  },
  {
    name: "JSON nested past serde_json's recursion limit",
    decode: decodeOtlpLogs,
    body: enc(
      `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":${'{"arrayValue":{"values":['.repeat(100)}{}${
        "]}}".repeat(100)
      }}]}]}]}`,
    ),
    ct: JSON_CT,
    why: /invalid JSON: recursion limit exceeded at line 1 column 1/,
  },
  {
    name: "protobuf truncated varint",
    decode: decodeOtlpMetrics,
    body: new Uint8Array([0x0a, 0x80]),
    why: /truncated/,
  },
  {
    name: "protobuf length past the body",
    decode: decodeOtlpTraces,
    body: new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]),
    why: /truncated length-delimited/,
  },
  {
    name: "protobuf nested length past its message",
    decode: decodeOtlpLogs,
    body: new Uint8Array([0x0a, 0x03, 0x12, 0x03, 0x1a, 0x01, 0x41]),
    why: /overruns its enclosing message/,
  },
  {
    name: "protobuf field number 0",
    decode: decodeOtlpLogs,
    body: new Uint8Array([0x00, 0x00]),
    why: /field number 0/,
  },
  {
    name: "protobuf group wire type",
    decode: decodeOtlpLogs,
    body: new Uint8Array([0x0b]),
    why: /invalid wire type/,
  },
  {
    name: "protobuf invalid UTF-8 string",
    decode: decodeOtlpTraces,
    // resource_spans { scope_spans { spans { name: 0xff 0xfe } } }
    body: new Uint8Array([0x0a, 0x08, 0x12, 0x06, 0x12, 0x04, 0x2a, 0x02, 0xff, 0xfe]),
    why: /invalid utf-8/,
  },
  {
    name: "protobuf deeply nested AnyValue",
    decode: decodeOtlpLogs,
    body: nestedArrays(200),
    why: /nested deeper/,
  },
];

/** resource_logs { scope_logs { log_records { body: AnyValue(array(array(…))) } } }, `depth` deep. */
function nestedArrays(depth: number): Uint8Array {
  const wrap = (tag: number, inner: number[]): number[] => {
    const len: number[] = [];
    let n = inner.length;
    while (n >= 0x80) {
      len.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    len.push(n);
    return [tag, ...len, ...inner];
  };
  let v: number[] = [];
  for (let i = 0; i < depth; i++) v = wrap(0x2a, wrap(0x0a, v)); // AnyValue.array_value{values: v}
  return new Uint8Array(wrap(0x0a, wrap(0x12, wrap(0x12, wrap(0x2a, v)))));
}

for (const c of MALFORMED) {
  Deno.test(`otlp malformed: ${c.name} → 400`, () => {
    assertBadRequest(() => c.decode(c.body, c.ct), /^Failed to decode OTLP request/, c.name);
    assertBadRequest(() => c.decode(c.body, c.ct), c.why, c.name);
  });
}

Deno.test("otlp malformed: every truncation and random byte flips of real bodies decode or give a 400", async () => {
  const c = await captureOtlp("proto");
  let seed = 12345;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let failures = 0, total = 0;
  const attempt = (decode: (b: Uint8Array) => unknown, body: Uint8Array) => {
    total++;
    try {
      decode(body);
    } catch (e) {
      assert(e instanceof PetrelError && e.code === StatusCode.InvalidArguments, `unexpected ${e}`);
      failures++;
    }
  };
  for (
    const [body, decode] of [[c.metrics.body, decodeOtlpMetrics], [c.traces.body, decodeOtlpTraces], [
      c.logs.body,
      decodeOtlpLogs,
    ]] as const
  ) {
    for (let n = 0; n < body.length; n++) attempt(decode, body.subarray(0, n));
    for (let k = 0; k < 300; k++) {
      const b = body.slice();
      for (let f = 0; f < 3; f++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      attempt(decode, b);
    }
  }
  // Most truncations cut a message short; the assertion above is what matters, this shows it ran.
  assert(failures > total / 4, `${failures} of ${total} failed`);
});
