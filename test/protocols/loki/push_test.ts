/** Loki push decoding: real clients (winston-loki protobuf+snappy and JSON, pino-loki), labels, malformed bodies. */
import assert from "node:assert/strict";
import protobuf from "protobufjs";
import { encodeSnappy } from "../../../src/codec/snappy.ts";
import { PetrelError, StatusCode } from "../../../src/common/errors.ts";
import { decodeLokiPush, lokiFormat, parseLokiLabels } from "../../../src/protocols/loki/mod.ts";
import { captureLoki } from "./capture.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const root = protobuf.loadSync(
  new URL("../../../src/protocols/loki/proto/push.proto", import.meta.url).pathname,
);
const PushRequest = root.lookupType("logproto.PushRequest");

function assertBadRequest(f: () => unknown, pattern: RegExp, label: string): void {
  try {
    f();
  } catch (e) {
    assert(e instanceof PetrelError, `${label}: ${e}`);
    assert.equal(e.code, StatusCode.InvalidArguments, label);
    assert(pattern.test(e.message), `${label}: ${e.message}`);
    return;
  }
  assert.fail(`${label}: decoded without error`);
}

Deno.test("loki push: real winston-loki and pino-loki pushes decode", async () => {
  const got = await captureLoki();
  const by = (c: string) => got.filter((g) => g.client === c);
  const [proto] = by("winston-proto");
  assert.equal(proto.contentType, "application/x-protobuf");
  assert.equal(proto.contentEncoding, null);
  const p = decodeLokiPush(proto.body, proto.contentType, 1 << 20);
  assert.deepStrictEqual(p.streams.map((s) => s.labels), [
    [["level", "info"], ["app", "winston-demo"], ["transport", "protobuf"], ["job", "w"]],
    [["level", "warn"], ["app", "winston-demo"], ["transport", "protobuf"]],
  ]);
  assert.deepStrictEqual(p.streams[1].entries[0].line, 'winston second line ✓ {"level":"warn"}');
  assert(p.streams[0].entries[0].timestampNs > 1_600_000_000_000_000_000n);
  const [json] = by("winston-json");
  const j = decodeLokiPush(json.body, json.contentType, 1 << 20);
  assert.deepStrictEqual(j.streams[0].entries[0].structuredMetadata, [["user", "u1"], ["level", "info"]]);
  assert.equal(j.skippedEntries + j.skippedStreams, 0);
  const pino = by("pino").map((g) => decodeLokiPush(g.body, g.contentType, 1 << 20));
  assert.equal(pino.length, 2);
  assert.deepStrictEqual(pino[0].streams[0].entries[0].structuredMetadata, [["trace_id", "abc123"]]);
  assert.deepStrictEqual(Object.fromEntries(pino[0].streams[0].labels).component, "api");
  assert.equal(JSON.parse(pino[1].streams[0].entries[0].line).msg, "pino error line");
});

Deno.test("loki push: protobuf from protobufjs with structured metadata and nanos", () => {
  const msg = PushRequest.fromObject({
    streams: [{
      labels: '{svc="a\\"b", env="prod"}',
      entries: [{
        timestamp: { seconds: 1700000000, nanos: 123456789 },
        line: "hello",
        structuredMetadata: [{ name: "trace_id", value: "t1" }],
      }],
    }],
  });
  const body = encodeSnappy(PushRequest.encode(msg).finish());
  const req = decodeLokiPush(body, "application/x-protobuf", 1 << 20);
  assert.deepStrictEqual(req.streams, [{
    labels: [["svc", 'a"b'], ["env", "prod"]],
    entries: [{ timestampNs: 1700000000123456789n, line: "hello", structuredMetadata: [["trace_id", "t1"]] }],
  }]);
});

Deno.test("loki push: protobuf times as their seconds change and come back, lines of every size", () => {
  const times: [number, number][] = [[1700000000, 1], [1700000000, 2], [1700000001, 3], [1700000000, 4], [
    0,
    5,
  ], [0, 0]];
  const lines = [
    "",
    "a",
    "é ☕ a line past sixty-four bytes, which is decoded another way entirely",
    "x".repeat(64),
  ];
  const msg = PushRequest.fromObject({
    streams: [{
      labels: '{a="1"}',
      entries: times.map(([seconds, nanos], i) => ({
        timestamp: { seconds, nanos },
        line: lines[i % lines.length],
      })),
    }],
  });
  const body = encodeSnappy(PushRequest.encode(msg).finish());
  const entries = decodeLokiPush(body, "application/x-protobuf", 1 << 20).streams[0].entries;
  assert.deepStrictEqual(
    entries.map((e) => [e.timestampNs, e.line, e.structuredMetadata]),
    times.map(([s, n], i) => [BigInt(s) * 1_000_000_000n + BigInt(n), lines[i % lines.length], []]),
  );
});

Deno.test("loki labels: the text form", () => {
  const ok: [string, [string, string][]][] = [
    ["{}", []],
    [" { } ", []],
    ['{a="b"}', [["a", "b"]]],
    ['{a="b",c="d"}', [["a", "b"], ["c", "d"]]],
    ['{ a = "x y" , b="" }', [["a", "x y"], ["b", ""]]],
    ['{a="q\\"\\\\\\n\\t"}', [["a", 'q"\\\n\t']]],
    ['{a="\\u00e9\\x41\\101"}', [["a", "éAA"]]],
    ['{service_name="ü", k8s.pod="p"}', [["service_name", "ü"], ["k8s.pod", "p"]]],
  ];
  for (const [s, want] of ok) assert.deepStrictEqual(parseLokiLabels(s), want, s);
  const bad = [
    'a="b"',
    "{a}",
    '{a="b"',
    '{a="b}',
    '{="b"}',
    '{a="b" c="d"}',
    '{a="\\q"}',
    '{a="b"} x',
    "{a=b}",
  ];
  for (const s of bad) assert.throws(() => parseLokiLabels(s), Error, s);
});

Deno.test("loki JSON: malformed streams and entries are skipped and counted", () => {
  const body = {
    streams: [
      {
        stream: { a: "1" },
        values: [["1", "ok"], ["x", "bad ts"], ["2"], ["3", 5], ["4", "m", { k: "v", n: 2 }], ["5", "m", []]],
      },
      { stream: { a: 1 }, values: [["1", "label not a string"]] },
      { values: [["6", "no stream labels"]] },
      "not an object",
    ],
  };
  const req = decodeLokiPush(enc(JSON.stringify(body)), "application/json", 1 << 20);
  assert.deepStrictEqual(req.streams.map((s) => s.entries.map((e) => [String(e.timestampNs), e.line])), [
    [["1", "ok"], ["4", "m"]],
    [["6", "no stream labels"]],
  ]);
  assert.deepStrictEqual(req.streams[0].entries[1].structuredMetadata, [["k", "v"], ["n", "2"]]);
  assert.deepStrictEqual([req.skippedStreams, req.skippedEntries], [2, 4]);
});

const protoBody = (labels: string, line: Uint8Array | string) => {
  const bytes = PushRequest.encode(
    PushRequest.fromObject({ streams: [{ labels, entries: [{ line: "x" }] }] }),
  ).finish();
  if (typeof line === "string") return bytes;
  // Replace the one-byte line "x" with raw bytes of the same length.
  const out = bytes.slice();
  out[out.lastIndexOf(0x78)] = line[0];
  return out;
};

Deno.test("loki push: malformed bodies are 400s", () => {
  const good = encodeSnappy(protoBody('{a="b"}', "x"));
  const cases: [string, Uint8Array, string, RegExp][] = [
    ["unsupported content type", enc("{}"), "text/plain", /Unsupported content type: text\/plain/],
    ["invalid JSON", enc("{"), "application/json", /Invalid Loki JSON request/],
    ["JSON without streams", enc('{"stream":[]}'), "application/json", /missing `streams`/],
    ["JSON array", enc("[]"), "application/json", /not a JSON object/],
    ["JSON invalid UTF-8", new Uint8Array([0x22, 0xc3, 0x22]), "application/json", /not valid UTF-8/],
    [
      "not snappy",
      enc("hello world, not snappy at all"),
      "application/x-protobuf",
      /Failed to decompress snappy Loki request/,
    ],
    ["truncated snappy", good.subarray(0, good.length - 2), "application/x-protobuf", /snappy/],
    [
      "snappy of garbage",
      encodeSnappy(new Uint8Array([0x0a, 0xff, 0x01])),
      "application/x-protobuf",
      /Failed to decode Loki protobuf/,
    ],
    [
      "bad label string",
      encodeSnappy(protoBody("a=b", "x")),
      "application/x-protobuf",
      /Invalid Loki labels/,
    ],
    [
      "invalid UTF-8 line",
      encodeSnappy(protoBody("{}", new Uint8Array([0xff]))),
      "application/x-protobuf",
      /utf-8/,
    ],
  ];
  for (const [name, body, ct, why] of cases) {
    assertBadRequest(() => decodeLokiPush(body, ct, 1 << 20), why, name);
  }
  const big = encodeSnappy(new Uint8Array(4096));
  assert.throws(
    () => decodeLokiPush(big, "application/x-protobuf", 1024),
    (e) => e instanceof PetrelError && e.reason === "too_large",
  );
  assert.equal(lokiFormat("application/json; charset=utf-8"), "json");
});
