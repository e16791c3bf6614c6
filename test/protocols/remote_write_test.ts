import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { encodeZstd } from "../../src/codec/zstd.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { remoteWriteToBatches } from "../../src/ingest/metric_tables.ts";
import { prometheusProtoRoot } from "../../src/protocols/prompb/schema.ts";
import {
  decodeRemoteWrite,
  type RemoteMetadata,
  remoteWriteVersion,
} from "../../src/protocols/remote_write/parser.ts";
import { isStaleNaN, type Series, STALE_NAN } from "../../src/common/series.ts";
import { splitSpecialLabels } from "../../src/common/labels.ts";
import { encodeRemoteWriteV1, encodeRemoteWriteV2 } from "../../src/protocols/remote_write/encoder.ts";

const V1 = { contentType: "application/x-protobuf", contentEncoding: "snappy" };
const V2 = {
  contentType: "application/x-protobuf;proto=io.prometheus.write.v2.Request",
  contentEncoding: "snappy",
};
const OPTS = { limit: 64 << 20, strict: true };

const series: Series[] = [
  {
    labels: { __name__: "http_requests_total", job: "api", instance: "a:9090" },
    samples: [{ value: 1.5, timestampMs: 1700000000000 }, { value: -2, timestampMs: 1700000015000 }],
  },
  {
    labels: { __name__: "temp", room: "küche ☃ with a value longer than thirty-two bytes" },
    samples: [{ value: 0, timestampMs: -1000 }, { value: 1e300, timestampMs: 2 ** 53 - 1 }],
  },
  { labels: { __name__: "empty_series" }, samples: [] },
];
const metadata: RemoteMetadata[] = [{
  metric: "http_requests_total",
  type: "counter",
  help: "Requests.",
  unit: "",
}];

Deno.test("remote write 1.0 round trip, with metadata", () => {
  const req = decodeRemoteWrite(encodeRemoteWriteV1(series, metadata), V1, OPTS);
  assert.equal(req.version, 1);
  assert.deepEqual(req.series, series);
  assert.deepEqual(req.metadata, metadata);
  assert.equal(req.sampleCount, 4);
});

Deno.test("remote write 2.0 round trip, with per-series metadata", () => {
  const req = decodeRemoteWrite(encodeRemoteWriteV2(series, metadata), V2, OPTS);
  assert.equal(req.version, 2);
  assert.deepEqual(req.series, series);
  assert.deepEqual(req.metadata, metadata);
});

Deno.test("isStaleNaN: the marker bits with or without the quiet bit", () => {
  const f = new Float64Array(1), u = new Uint32Array(f.buffer);
  u[1] = 0x7ff00000, u[0] = 2;
  assert.ok(isStaleNaN(f[0]));
  u[1] = 0x7ff80000;
  assert.ok(isStaleNaN(f[0]));
  assert.ok(isStaleNaN(STALE_NAN));
  assert.equal(isStaleNaN(NaN), false);
  assert.equal(isStaleNaN(1), false);
});

Deno.test("remote write: stale markers are flagged and written back exactly", () => {
  const s: Series[] = [{
    labels: { __name__: "up" },
    samples: [{ value: NaN, timestampMs: 1, stale: true }, { value: NaN, timestampMs: 2 }, {
      value: Infinity,
      timestampMs: 3,
    }],
  }];
  for (const [enc, h] of [[encodeRemoteWriteV1, V1], [encodeRemoteWriteV2, V2]] as const) {
    const body = enc(s);
    const got = decodeRemoteWrite(body, h, OPTS).series[0].samples;
    assert.equal(got[0].stale, true);
    assert.ok(Number.isNaN(got[0].value));
    assert.equal(got[1].stale, undefined);
    assert.equal(isStaleNaN(got[1].value), false);
    assert.ok(Number.isNaN(got[1].value));
    assert.equal(got[2].value, Infinity);
    // The exact Prometheus bit pattern is on the wire.
    const raw = decodeSnappy(body, 1 << 20);
    const hex = Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join("");
    assert.ok(hex.includes("09020000000000f07f"), hex);
  }
});

Deno.test("remote write 1.0 decodes exactly what protobufjs (an independent encoder) writes", () => {
  const WR = prometheusProtoRoot().lookupType("prometheus.WriteRequest");
  const msg = WR.fromObject({
    timeseries: [{
      labels: [{ name: "__name__", value: "m" }, { name: "a", value: "b" }],
      samples: [{ value: 3.25, timestamp: 1700000000123 }, { value: 1, timestamp: -5 }],
      exemplars: [{ labels: [{ name: "trace_id", value: "x" }], value: 1, timestamp: 1 }],
    }],
    metadata: [{ type: 2, metricFamilyName: "m", help: "h", unit: "seconds" }],
  });
  const body = encodeSnappy(WR.encode(msg).finish());
  const req = decodeRemoteWrite(body, { contentType: null, contentEncoding: null }, OPTS);
  assert.deepEqual(req.series, [{
    labels: { __name__: "m", a: "b" },
    samples: [{ value: 3.25, timestampMs: 1700000000123 }, { value: 1, timestampMs: -5 }],
  }]);
  assert.equal(req.exemplarCount, 1);
  assert.deepEqual(req.metadata, [{ metric: "m", type: "gauge", help: "h", unit: "seconds" }]);
  // And our encoder's bytes decode with protobufjs to the same content.
  const back = WR.toObject(WR.decode(decodeSnappy(encodeRemoteWriteV1(req.series), 1 << 20)), {
    longs: Number,
  });
  assert.deepEqual(back.timeseries[0].samples, [{ value: 3.25, timestamp: 1700000000123 }, {
    value: 1,
    timestamp: -5,
  }]);
});

Deno.test("remote write 2.0 decodes protobufjs bytes, unpacked refs and symbols after series", () => {
  const R = prometheusProtoRoot().lookupType("io.prometheus.write.v2.Request");
  const msg = R.fromObject({
    symbols: ["", "__name__", "m2", "job", "j", "help text", "By"],
    timeseries: [{
      labelsRefs: [1, 2, 3, 4],
      samples: [{ value: 7, timestamp: 1000 }],
      metadata: { type: 2, helpRef: 5, unitRef: 6 },
    }],
  });
  const raw = R.encode(msg).finish();
  const req = decodeRemoteWrite(encodeSnappy(raw), V2, OPTS);
  assert.deepEqual(req.series, [{
    labels: { __name__: "m2", job: "j" },
    samples: [{ value: 7, timestampMs: 1000 }],
  }]);
  assert.deepEqual(req.metadata, [{ metric: "m2", type: "gauge", help: "help text", unit: "By" }]);
  // Hand-built: one series (field 5) first, then symbols (field 4), refs unpacked (field 1 varints).
  const ts = [0x08, 1, 0x08, 2, 0x12, 9, 0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
  const bytes = [
    0x2a,
    ts.length,
    ...ts,
    0x22,
    0,
    0x22,
    8,
    ...new TextEncoder().encode("__name__"),
    0x22,
    1,
    0x78,
  ];
  const req2 = decodeRemoteWrite(encodeSnappy(new Uint8Array(bytes)), V2, OPTS);
  assert.deepEqual(req2.series, [{ labels: { __name__: "x" }, samples: [{ value: 1, timestampMs: 0 }] }]);
});

Deno.test("remote write: zstd bodies, and 1.0 falls back when the label lies", () => {
  const raw = decodeSnappy(encodeRemoteWriteV1(series), 1 << 20);
  const z = encodeZstd(raw);
  assert.deepEqual(decodeRemoteWrite(z, { ...V1, contentEncoding: "zstd" }, OPTS).series, series);
  assert.deepEqual(decodeRemoteWrite(z, V1, OPTS).series, series, "snappy label, zstd body");
  assert.deepEqual(
    decodeRemoteWrite(encodeRemoteWriteV1(series), { ...V1, contentEncoding: "zstd" }, OPTS).series,
    series,
  );
  const z2 = encodeZstd(decodeSnappy(encodeRemoteWriteV2(series), 1 << 20));
  assert.deepEqual(decodeRemoteWrite(z2, { ...V2, contentEncoding: "ZSTD" }, OPTS).series, series);
});

const versions: [string | null | undefined, 1 | 2 | 415][] = [
  [undefined, 1],
  [null, 1],
  ["", 1],
  ["application/x-protobuf", 1],
  ["Application/X-Protobuf", 1],
  ["application/x-protobuf; proto=prometheus.WriteRequest", 1],
  ['application/x-protobuf;proto="prometheus.WriteRequest"', 1],
  ["application/x-protobuf;proto=io.prometheus.write.v2.Request", 2],
  ['APPLICATION/X-PROTOBUF; PROTO="io.prometheus.write.v2.Request"', 2],
  ["application/x-protobuf;proto=io.prometheus.write.v3.Request", 415],
  ["application/json", 415],
  ["text/plain", 415],
];
for (const [ct, want] of versions) {
  Deno.test(`remote write content type ${JSON.stringify(ct)} → ${want}`, () => {
    if (want === 415) {
      assert.throws(() => remoteWriteVersion(ct), (e: unknown) => {
        assert.ok(e instanceof PetrelError);
        assert.equal(httpStatusOf(e), 415);
        assert.equal(e.message, `unsupported prometheus remote write content type: ${ct}`);
        return true;
      });
    } else {
      assert.equal(remoteWriteVersion(ct), want);
    }
  });
}

function failure(fn: () => unknown): PetrelError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PetrelError, String(e));
    return e;
  }
  assert.fail("expected a PetrelError");
}

const v1Body = encodeRemoteWriteV1(series);
const v1Raw = decodeSnappy(v1Body, 1 << 20);
const bomb = new Uint8Array(1024);
bomb.set([0xff, 0xff, 0xff, 0xff, 0x0f]);
const badName = encodeRemoteWriteV1([{ labels: { __name__: "m", "x-y": "1" }, samples: [] }]);
const badUtf8 = (() => {
  // One label whose value is the lone byte 0xff.
  const label = [0x0a, 1, 0x61, 0x12, 1, 0xff];
  const name = [0x0a, 8, ...new TextEncoder().encode("__name__"), 0x12, 1, 0x6d];
  const ts = [0x0a, name.length, ...name, 0x0a, label.length, ...label];
  return encodeSnappy(new Uint8Array([0x0a, ts.length, ...ts]));
})();

const failures: [string, () => unknown, number, string][] = [
  [
    "v2 without content encoding",
    () => decodeRemoteWrite(encodeRemoteWriteV2(series), { ...V2, contentEncoding: null }, OPTS),
    415,
    "unsupported prometheus remote write content encoding: only snappy and zstd are supported",
  ],
  [
    "v2 with gzip",
    () => decodeRemoteWrite(encodeRemoteWriteV2(series), { ...V2, contentEncoding: "gzip" }, OPTS),
    415,
    "only snappy and zstd",
  ],
  [
    "unknown content type",
    () => decodeRemoteWrite(v1Body, { contentType: "text/plain" }, OPTS),
    415,
    "content type: text/plain",
  ],
  ["snappy bomb", () => decodeRemoteWrite(bomb, V1, OPTS), 413, "Request body too large"],
  [
    "decompressed past the limit",
    () => decodeRemoteWrite(v1Body, V1, { limit: 10, strict: true }),
    413,
    "too large",
  ],
  ["uncompressed protobuf", () => decodeRemoteWrite(v1Raw, V1, OPTS), 400, "Failed to decompress"],
  [
    "truncated snappy",
    () => decodeRemoteWrite(v1Body.subarray(0, v1Body.length - 3), V1, OPTS),
    400,
    "Failed to decompress",
  ],
  [
    "truncated protobuf",
    () => decodeRemoteWrite(encodeSnappy(v1Raw.subarray(0, v1Raw.length - 3)), V1, OPTS),
    400,
    "Failed to decode prometheus remote request: truncated",
  ],
  [
    "garbage protobuf",
    () => decodeRemoteWrite(encodeSnappy(new Uint8Array([0x0f, 1, 2, 3])), V1, OPTS),
    400,
    "Failed to decode prometheus remote request: invalid wire type",
  ],
  ["invalid label name", () => decodeRemoteWrite(badName, V1, OPTS), 400, "Invalid label name: `x-y`"],
  [
    "invalid UTF-8 value when strict",
    () => decodeRemoteWrite(badUtf8, V1, OPTS),
    400,
    "Failed to decode prometheus remote request: invalid utf-8",
  ],
  [
    "v1 native histogram",
    () => decodeRemoteWrite(encodeSnappy(new Uint8Array([0x0a, 2, 0x22, 0])), V1, OPTS),
    400,
    "remote write v1 native histogram ingestion is unsupported; use remote write v2",
  ],
  [
    "v2 series without __name__",
    () => decodeRemoteWrite(encodeRemoteWriteV2([{ labels: { job: "x" }, samples: [] }]), V2, OPTS),
    400,
    "missing '__name__'",
  ],
  [
    "v2 native histogram",
    () => decodeRemoteWrite(encodeSnappy(new Uint8Array([0x22, 0, 0x2a, 2, 0x1a, 0])), V2, OPTS),
    400,
    "prom_store.experimental_enable_prometheus_native_histogram",
  ],
  [
    "v2 symbol ref out of range",
    () => decodeRemoteWrite(encodeSnappy(new Uint8Array([0x22, 0, 0x2a, 4, 0x0a, 2, 0, 9])), V2, OPTS),
    400,
    "symbol reference 9 out of range",
  ],
  [
    "v2 odd label refs",
    () => decodeRemoteWrite(encodeSnappy(new Uint8Array([0x22, 0, 0x2a, 3, 0x0a, 1, 0])), V2, OPTS),
    400,
    "odd number of label references",
  ],
];
for (const [name, fn, status, msg] of failures) {
  Deno.test(`remote write rejects: ${name} → ${status}`, () => {
    const e = failure(fn);
    assert.equal(httpStatusOf(e), status);
    assert.ok(e.message.includes(msg), e.message);
  });
}

Deno.test("remote write: invalid UTF-8 passes (replaced) when not strict", () => {
  const req = decodeRemoteWrite(badUtf8, V1, { limit: 1 << 20, strict: false });
  assert.equal(req.series[0].labels.a, "\ufffd");
});

Deno.test("remote write: __proto__ is an ordinary label", () => {
  const req = decodeRemoteWrite(
    encodeRemoteWriteV1([{ labels: JSON.parse('{"__name__":"m","__proto__":"v"}'), samples: [] }]),
    V1,
    OPTS,
  );
  assert.equal(Object.getPrototypeOf(req.series[0].labels), Object.prototype);
  assert.deepEqual(Object.entries(req.series[0].labels), [["__name__", "m"], ["__proto__", "v"]]);
});

const targets: [Record<string, string>, ReturnType<typeof splitSpecialLabels> | string][] = [
  [{ __name__: "m", a: "1" }, { metric: "m", tags: { a: "1" } }],
  [{ __name__: "m", x_greptime_database: "db1", a: "1" }, { metric: "m", database: "db1", tags: { a: "1" } }],
  [{ __name__: "m", __database__: "db2" }, { metric: "m", database: "db2", tags: {} }],
  [{ __name__: "m", __database__: "db2", __schema__: "old" }, { metric: "m", database: "old", tags: {} }],
  [{ __name__: "m", x_greptime_physical_table: "p1", b: "2" }, {
    metric: "m",
    physicalTable: "p1",
    tags: { b: "2" },
  }],
  [{ __name__: "m", __physical_table__: "p2" }, { metric: "m", physicalTable: "p2", tags: {} }],
  [{ job: "x" }, "missing '__name__' label in timeseries"],
  [{ __name__: "" }, "missing '__name__' label in timeseries"],
];
for (const [labels, want] of targets) {
  Deno.test(`remote write special labels: ${JSON.stringify(labels)}`, () => {
    if (typeof want === "string") {
      assert.throws(() => splitSpecialLabels(labels), (e: Error) => e.message.includes(want));
    } else assert.deepEqual(splitSpecialLabels(labels), want);
  });
}

Deno.test("remoteWriteToBatches: one batch per database/physical table/metric, columns sorted by name", () => {
  const out = remoteWriteToBatches([
    {
      labels: { __name__: "metric2", instance: "i1", idc: "z" },
      samples: [{ value: 1, timestampMs: 10 }, { value: 2, timestampMs: 20 }],
    },
    { labels: { __name__: "metric2", instance: "i2" }, samples: [{ value: 3, timestampMs: 10 }] },
    {
      labels: { __name__: "metric2", instance: "i3", x_greptime_database: "db1" },
      samples: [{ value: 4, timestampMs: 30 }],
    },
    {
      labels: { __name__: "up", __physical_table__: "phy" },
      samples: [{ value: NaN, timestampMs: 5, stale: true }],
    },
    { labels: { __name__: "nothing" }, samples: [] },
  ]);
  assert.deepEqual(
    out.map((t) => [
      t.database,
      t.physicalTable,
      t.batch.table,
      t.batch.columns.map((c) => `${c.name}:${c.type}:${c.semantic}`),
      t.batch.rows,
    ]),
    [
      [undefined, undefined, "metric2", [
        "greptime_timestamp:TimestampMillisecond:TIMESTAMP",
        "greptime_value:Float64:FIELD",
        "idc:String:TAG",
        "instance:String:TAG",
      ], [[10, 1, "z", "i1"], [20, 2, "z", "i1"], [10, 3, null, "i2"]]],
      ["db1", undefined, "metric2", [
        "greptime_timestamp:TimestampMillisecond:TIMESTAMP",
        "greptime_value:Float64:FIELD",
        "instance:String:TAG",
      ], [[30, 4, "i3"]]],
      [undefined, "phy", "up", [
        "greptime_timestamp:TimestampMillisecond:TIMESTAMP",
        "greptime_value:Float64:FIELD",
      ], [[5, NaN]]],
    ],
  );
  assert.throws(
    () => remoteWriteToBatches([{ labels: { job: "x" }, samples: [{ value: 1, timestampMs: 1 }] }]),
    /missing '__name__'/,
  );
});
