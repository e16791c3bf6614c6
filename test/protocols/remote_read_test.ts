import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import { crc32c } from "../../src/codec/crc32c.ts";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { prometheusProtoRoot } from "../../src/protocols/prompb/schema.ts";
import { decodeReadRequest, pickReadResponseType } from "../../src/protocols/remote_read/request.ts";
import { decodeXorChunk, encodeXorChunk } from "../../src/codec/xor_chunk.ts";
import { type Sample } from "../../src/common/series.ts";
import { type LabelMatcher, matchLabel, matchLabels } from "../../src/common/label_matcher.ts";
import {
  decodeChunkedReadResponse,
  encodeChunkedReadResponse,
  type ReadQueryResult,
} from "../../src/protocols/remote_read/chunked.ts";
import { encodeReadResponse } from "../../src/protocols/remote_read/response.ts";
import { readQueryTarget } from "../../src/query/remote_read.ts";

const root = prometheusProtoRoot();
const ReadRequest = root.lookupType("prometheus.ReadRequest");
const ReadResponse = root.lookupType("prometheus.ReadResponse");
const ChunkedReadResponse = root.lookupType("prometheus.ChunkedReadResponse");

Deno.test("crc32c known values", () => {
  assert.equal(crc32c(new TextEncoder().encode("123456789")), 0xe3069283);
  assert.equal(crc32c(new Uint8Array(0)), 0);
  assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
});

Deno.test("XOR chunk matches a vector worked out by hand from Prometheus' xor.go", () => {
  const chunk = encodeXorChunk([
    { timestampMs: 1000, value: 1 },
    { timestampMs: 2000, value: 1 },
    { timestampMs: 3000, value: 2 },
  ]);
  const want = [0x00, 0x03, 0xd0, 0x0f, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xe8, 0x07, 0x30, 0x97, 0xff, 0xc0];
  assert.deepEqual(Array.from(chunk), want);
});

function samplesOf(values: number[], times: number[]): Sample[] {
  return values.map((value, i) => ({ value, timestampMs: times[i] }));
}

const regular = Array.from({ length: 120 }, (_, i) => 1700000000000 + i * 15000);
// Increasing times whose delta-of-deltas land in every bucket (0, 14, 17, 20 and 64 bits, both signs).
const jittered: number[] = [];
for (let i = 0, t = 1700000000000; i < 120; i++) {
  t += 15000 + (i % 3) * 37 + (i % 17 === 0 ? 70_000 : 0) + (i % 29 === 0 ? 600_000 : 0) +
    (i === 100 ? 9e9 : 0);
  jittered.push(t);
}
const chunkCases: [string, Sample[]][] = [
  ["empty", []],
  ["one sample", samplesOf([42.5], [1700000000000])],
  ["negative first timestamp", samplesOf([1, 2], [-5000, 1000])],
  ["constant value, regular interval", samplesOf(regular.map(() => 7), regular)],
  ["counter", samplesOf(regular.map((_, i) => i * 3.5), regular)],
  [
    "random floats, jittered times (every dod bucket)",
    samplesOf(
      regular.map((_, i) => Math.sin(i) * 1e6 + i / 7),
      jittered,
    ),
  ],
  [
    "special values",
    samplesOf([NaN, Infinity, -Infinity, 0, -0, Number.MIN_VALUE, Number.MAX_VALUE, 1], [
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
    ]),
  ],
  [
    "integers that switch sign",
    samplesOf([1, -1, 2 ** 52, -(2 ** 52), 3, 3, 0.1], [0, 10, 20, 30, 40, 50, 60]),
  ],
];
for (const [name, samples] of chunkCases) {
  Deno.test(`XOR chunk round trip: ${name}`, () => {
    const back = decodeXorChunk(encodeXorChunk(samples));
    assert.equal(back.length, samples.length);
    for (let i = 0; i < samples.length; i++) {
      assert.equal(back[i].timestampMs, samples[i].timestampMs, `t[${i}]`);
      assert.ok(
        Object.is(back[i].value, samples[i].value),
        `v[${i}] ${back[i].value} != ${samples[i].value}`,
      );
    }
  });
}

Deno.test("XOR chunk carries Go bstream's spare byte when it ends byte-aligned after a byte write", () => {
  // Header (2) + varint 0 + 64-bit value = 11 bytes of bits; Go's writeByte leaves a 12th, empty byte.
  assert.deepEqual(Array.from(encodeXorChunk([{ timestampMs: 0, value: 1 }])), [
    0,
    1,
    0,
    0x3f,
    0xf0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
  assert.deepEqual(Array.from(encodeXorChunk([])), [0, 0]);
});

Deno.test("XOR chunk keeps the exact staleness marker bits", () => {
  // The flag decides, whatever NaN payload the value still carries.
  const chunk = encodeXorChunk([{ value: NaN, timestampMs: 0, stale: true }]);
  assert.deepEqual(Array.from(chunk.subarray(3, 11)), [0x7f, 0xf0, 0, 0, 0, 0, 0, 0x02]);
  assert.deepEqual(decodeXorChunk(chunk).map((x) => x.stale), [true]);
  assert.deepEqual(decodeXorChunk(encodeXorChunk([{ value: NaN, timestampMs: 0 }])).map((x) => x.stale), [
    undefined,
  ]);
});

function requestBody(obj: Record<string, unknown>): Uint8Array {
  return encodeSnappy(ReadRequest.encode(ReadRequest.fromObject(obj)).finish());
}

Deno.test("decodeReadRequest: what Prometheus 2.42 sends (no accepted types, hints, external label)", () => {
  const body = requestBody({
    queries: [{
      startTimestampMs: 1700000000000,
      endTimestampMs: 1700000300000,
      matchers: [{ type: 0, name: "__name__", value: "up" }, { type: 0, name: "replica", value: "promA" }],
      hints: {
        func: "count",
        startMs: 1700000000000,
        endMs: 1700000300000,
        by: true,
        grouping: ["job"],
        stepMs: 0,
      },
    }],
  });
  const req = decodeReadRequest(body, 1 << 20);
  assert.deepEqual(req, {
    queries: [{
      startMs: 1700000000000,
      endMs: 1700000300000,
      matchers: [{ type: "EQ", name: "__name__", value: "up" }, {
        type: "EQ",
        name: "replica",
        value: "promA",
      }],
      hints: {
        stepMs: 0,
        func: "count",
        startMs: 1700000000000,
        endMs: 1700000300000,
        grouping: ["job"],
        by: true,
        rangeMs: 0,
      },
    }],
    acceptedResponseTypes: [],
  });
  assert.equal(pickReadResponseType(req), "SAMPLES");
});

Deno.test("decodeReadRequest: all matcher types, several queries, accepted types packed and unpacked", () => {
  const body = requestBody({
    queries: [
      {
        startTimestampMs: 1,
        endTimestampMs: 2,
        matchers: [{ type: 1, name: "a", value: "b" }, { type: 2, name: "c", value: "d.*" }],
      },
      { startTimestampMs: -10, endTimestampMs: 0, matchers: [{ type: 3, name: "e", value: "f|g" }] },
    ],
    acceptedResponseTypes: [1, 0],
  });
  const req = decodeReadRequest(body, 1 << 20);
  assert.deepEqual(req.queries.map((q) => q.matchers.map((m) => m.type)), [["NEQ", "RE"], ["NRE"]]);
  assert.equal(req.queries[1].startMs, -10);
  assert.deepEqual(req.acceptedResponseTypes, ["STREAMED_XOR_CHUNKS", "SAMPLES"]);
  assert.equal(pickReadResponseType(req), "STREAMED_XOR_CHUNKS");
  assert.equal(pickReadResponseType(req, ["SAMPLES"]), "SAMPLES");
  // Unpacked encoding of field 2: tag 0x10 then the varint.
  const unpacked = decodeReadRequest(encodeSnappy(new Uint8Array([0x10, 1, 0x10, 0])), 100);
  assert.deepEqual(unpacked.acceptedResponseTypes, ["STREAMED_XOR_CHUNKS", "SAMPLES"]);
  assert.throws(
    () => pickReadResponseType({ queries: [], acceptedResponseTypes: ["STREAMED_XOR_CHUNKS"] }, ["SAMPLES"]),
    PetrelError,
  );
});

Deno.test("decodeReadRequest: bad bodies", () => {
  const status = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof PetrelError, String(e));
      return httpStatusOf(e);
    }
    return 0;
  };
  const bomb = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0]);
  assert.equal(status(() => decodeReadRequest(bomb, 1 << 20)), 413);
  assert.equal(status(() => decodeReadRequest(new Uint8Array([10, 0, 1]), 1 << 20)), 400);
  assert.equal(status(() => decodeReadRequest(encodeSnappy(new Uint8Array([0x0a, 5, 0x08])), 1 << 20)), 400);
  assert.equal(
    status(() => decodeReadRequest(encodeSnappy(new Uint8Array([0x0a, 2, 0x1a, 9])), 1 << 20)),
    400,
  );
  assert.equal(
    status(() => decodeReadRequest(encodeSnappy(new Uint8Array([0x0a, 4, 0x1a, 2, 0x08, 9])), 1 << 20)),
    400,
  );
});

const targetCases: [string, LabelMatcher[], ReturnType<typeof readQueryTarget> | string][] = [
  ["metric and a filter", [{ type: "EQ", name: "__name__", value: "up" }, {
    type: "RE",
    name: "job",
    value: "a.*",
  }], {
    metric: "up",
    matchers: [{ type: "RE", name: "job", value: "a.*" }],
  }],
  ["database matchers", [
    { type: "EQ", name: "x_greptime_database", value: "d1" },
    { type: "EQ", name: "__name__", value: "up" },
    { type: "EQ", name: "__schema__", value: "d0" },
  ], { metric: "up", database: "d0", matchers: [] }],
  ["no __name__", [{ type: "EQ", name: "job", value: "a" }], "missing '__name__' label in timeseries"],
  [
    "regex __name__",
    [{ type: "RE", name: "__name__", value: "up|down" }],
    "expected exactly one non-empty equality matcher",
  ],
  [
    "empty __name__",
    [{ type: "EQ", name: "__name__", value: "" }],
    "expected exactly one non-empty equality matcher",
  ],
  ["two __name__", [{ type: "EQ", name: "__name__", value: "a" }, {
    type: "NEQ",
    name: "__name__",
    value: "b",
  }], "expected exactly one"],
];
for (const [name, matchers, want] of targetCases) {
  Deno.test(`readQueryTarget: ${name}`, () => {
    const q = { startMs: 0, endMs: 1, matchers };
    if (typeof want === "string") {
      assert.throws(
        () => readQueryTarget(q),
        (e: unknown) => e instanceof PetrelError && httpStatusOf(e) === 400 && e.message.includes(want),
      );
    } else assert.deepEqual(readQueryTarget(q), want);
  });
}

const matchCases: [LabelMatcher, string | undefined, boolean][] = [
  [{ type: "EQ", name: "a", value: "x" }, "x", true],
  [{ type: "EQ", name: "a", value: "x" }, "xy", false],
  [{ type: "EQ", name: "a", value: "" }, undefined, true],
  [{ type: "NEQ", name: "a", value: "x" }, undefined, true],
  [{ type: "NEQ", name: "a", value: "" }, undefined, false],
  [{ type: "RE", name: "a", value: "x" }, "xx", false],
  [{ type: "RE", name: "a", value: "x|y" }, "y", true],
  [{ type: "RE", name: "a", value: "a|b" }, "ab", false],
  [{ type: "RE", name: "a", value: "foo.*" }, "foo\nbar", true],
  [{ type: "RE", name: "a", value: ".*" }, undefined, true],
  [{ type: "RE", name: "a", value: ".+" }, undefined, false],
  [{ type: "RE", name: "a", value: "(?i)abc" }, "ABC", true],
  [{ type: "NRE", name: "a", value: "x.*" }, "xyz", false],
  [{ type: "NRE", name: "a", value: "x.*" }, "yx", true],
];
for (const [m, v, want] of matchCases) {
  Deno.test(`matchLabel ${m.type} ${JSON.stringify(m.value)} on ${JSON.stringify(v)} → ${want}`, () => {
    assert.equal(matchLabel(m, v), want);
  });
}

Deno.test("matchLabels and a bad regex", () => {
  const ms: LabelMatcher[] = [{ type: "EQ", name: "job", value: "api" }, {
    type: "NRE",
    name: "env",
    value: "dev|test",
  }];
  assert.equal(matchLabels(ms, { job: "api", env: "prod" }), true);
  assert.equal(matchLabels(ms, { job: "api", env: "dev" }), false);
  assert.equal(matchLabels(ms, { job: "api" }), true);
  assert.throws(
    () => matchLabel({ type: "RE", name: "a", value: "(" }, "x"),
    (e: unknown) => e instanceof PetrelError && httpStatusOf(e) === 400,
  );
});

const results: ReadQueryResult[] = [
  {
    series: [
      {
        labels: { job: "b", __name__: "up" },
        samples: [...samplesOf([1, 0], [1000, 2000]), { value: NaN, timestampMs: 3000, stale: true }],
      },
      { labels: { __name__: "up", job: "a" }, samples: samplesOf([1], [1000]) },
    ],
  },
  { series: [] },
  {
    series: [{
      labels: { __name__: "long" },
      samples: samplesOf(
        Array.from({ length: 1000 }, (_, i) => i / 3),
        Array.from({ length: 1000 }, (_, i) => i * 15000),
      ),
    }],
  },
];

Deno.test("encodeReadResponse: snappy ReadResponse that protobufjs decodes, labels sorted, results in order", () => {
  const raw = decodeSnappy(encodeReadResponse(results), 1 << 24);
  const msg = ReadResponse.toObject(ReadResponse.decode(raw), { longs: Number, defaults: true }) as {
    results: {
      timeseries: {
        labels: { name: string; value: string }[];
        samples: { value: number; timestamp: number }[];
      }[];
    }[];
  };
  assert.equal(msg.results.length, 3);
  assert.deepEqual(msg.results[0].timeseries[0].labels, [{ name: "__name__", value: "up" }, {
    name: "job",
    value: "b",
  }]);
  assert.deepEqual(msg.results[0].timeseries[0].samples.slice(0, 2), [{ value: 1, timestamp: 1000 }, {
    value: 0,
    timestamp: 2000,
  }]);
  assert.ok(Number.isNaN(msg.results[0].timeseries[0].samples[2].value));
  assert.deepEqual(msg.results[1].timeseries, []);
  assert.equal(msg.results[2].timeseries[0].samples.length, 1000);
  assert.ok(
    Array.from(raw.subarray(0)).join(",").includes([2, 0, 0, 0, 0, 0, 0xf0, 0x7f].join(",")),
    "exact stale bits",
  );
});

Deno.test("encodeChunkedReadResponse: frames decode back (CRC, XOR), series sorted, 120-sample chunks", () => {
  const body = encodeChunkedReadResponse(results);
  const frames = decodeChunkedReadResponse(body);
  assert.deepEqual(frames.map((f) => [f.queryIndex, f.series.length]), [[0, 1], [0, 1], [2, 1]]);
  assert.deepEqual(frames[0].series[0].labels, { __name__: "up", job: "a" });
  assert.deepEqual(frames[1].series[0].labels, { __name__: "up", job: "b" });
  const b = frames[1].series[0].chunks;
  assert.equal(b.length, 1);
  assert.deepEqual([b[0].minTimeMs, b[0].maxTimeMs], [1000, 3000]);
  assert.equal(b[0].samples[2].stale, true);
  assert.equal(b[0].samples[1].stale, undefined);
  const long = frames[2].series[0].chunks;
  assert.deepEqual(long.map((c) => c.samples.length), [120, 120, 120, 120, 120, 120, 120, 120, 40]);
  assert.deepEqual(long.flatMap((c) => c.samples), results[2].series[0].samples);
  assert.equal(long[8].minTimeMs, 960 * 15000);
  // Each frame's message is also a valid ChunkedReadResponse for protobufjs.
  const first = ChunkedReadResponse.toObject(ChunkedReadResponse.decode(body.subarray(5, 5 + body[0])), {
    longs: Number,
  });
  assert.equal(first.chunkedSeries[0].chunks[0].type, 1);
});

Deno.test("encodeChunkedReadResponse splits a long series over frames by size", () => {
  const frames = decodeChunkedReadResponse(encodeChunkedReadResponse([results[2]], 2000));
  assert.ok(frames.length > 1);
  for (const f of frames) assert.deepEqual(f.series[0].labels, { __name__: "long" });
  assert.deepEqual(
    frames.flatMap((f) => f.series[0].chunks.flatMap((c) => c.samples)),
    results[2].series[0].samples,
  );
});

Deno.test("decodeChunkedReadResponse rejects a corrupted frame", () => {
  const body = encodeChunkedReadResponse(results);
  body[body.length - 1] ^= 1;
  assert.throws(() => decodeChunkedReadResponse(body), /checksum/);
});
