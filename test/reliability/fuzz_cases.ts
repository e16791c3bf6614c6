/**
 * What the hostile-input fuzzer sends: one valid seed request per endpoint family, and the ways a
 * body is spoiled (truncation, byte flips, huge numbers, invalid UTF-8, deep nesting, a wrong or
 * lying Content-Encoding, decompression bombs, oversized bodies).
 */
import zlib from "node:zlib";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../../src/protocols/prompb/schema.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import { telemetrySeeds } from "./fuzz_telemetry.ts";

/** One request to send. */
export interface FuzzRequest {
  family: string;
  method: "POST" | "GET";
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Whether a rejection must leave every table as it was (SQL runs statements one by one). */
  atomic: boolean;
  /** Applied after spoiling, so the spoiled bytes reach the parser under a valid outer codec. */
  wrap?: (body: Uint8Array) => Uint8Array;
}

const enc = new TextEncoder();

/** The pipeline the ingest seeds name; the fuzzer uploads it first. */
export const FUZZ_PIPELINE = "version: 2\nprocessors: []\ntransform:\n" +
  "  - field: ts\n    type: epoch, ms\n    index: timestamp\n";

const TS = 1_700_000_000_000;

function readRequestProto(): Uint8Array {
  const ReadRequest = prometheusProtoRoot().lookupType("prometheus.ReadRequest");
  const msg = ReadRequest.fromObject({
    queries: [{
      startTimestampMs: TS - 60_000,
      endTimestampMs: TS + 60_000,
      matchers: [{ type: 0, name: "__name__", value: "fz_rw" }],
    }],
  });
  return ReadRequest.encode(msg).finish();
}

/** The valid seed of every endpoint family. */
export function seeds(): FuzzRequest[] {
  return [...protocolSeeds(), ...documentSeeds(), ...sqlSeeds(), ...telemetrySeeds()];
}

const text = (s: string) => enc.encode(s);

/** Seeds of the wire protocols: line protocol, remote write and read. */
function protocolSeeds(): FuzzRequest[] {
  const rwSeries = [
    { labels: { __name__: "fz_rw", job: "a", instance: "x:1" }, samples: [{ value: 1.5, timestampMs: TS }] },
    {
      labels: { __name__: "fz_rw", job: "b", instance: "y:2" },
      samples: [{ value: -2, timestampMs: TS + 1 }],
    },
  ];
  const snappyProto = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
  return [
    {
      family: "lineproto",
      method: "POST",
      path: "/v1/influxdb/write?precision=ms",
      headers: {},
      body: text(
        `fz_lp,host=a,region=eu usage=1.5,count=3i,ok=true,msg="hi there" ${TS}\n` +
          `fz_lp,host=b usage=2,count=-4i,big=18446744073709551615u ${TS + 1}\n`,
      ),
      atomic: true,
    },
    {
      family: "lineproto_v2",
      method: "POST",
      path: "/v1/influxdb/api/v2/write?bucket=public&precision=s",
      headers: {},
      body: text(`fz_lp2,t=1 f=1i 1700000000\nfz_lp2,t=2 f=2i 1700000001\n`),
      atomic: true,
    },
    {
      family: "remote_write",
      method: "POST",
      path: "/v1/prometheus/write",
      headers: snappyProto,
      body: encodeRemoteWriteV1(rwSeries),
      atomic: true,
    },
    {
      family: "remote_write_pb",
      method: "POST",
      path: "/v1/prometheus/write",
      headers: snappyProto,
      body: decodeSnappy(encodeRemoteWriteV1(rwSeries), 1 << 20),
      atomic: true,
      wrap: encodeSnappy,
    },
    {
      family: "remote_read",
      method: "POST",
      path: "/v1/prometheus/read",
      headers: snappyProto,
      body: encodeSnappy(readRequestProto()),
      atomic: true,
    },
    {
      family: "remote_read_pb",
      method: "POST",
      path: "/v1/prometheus/read",
      headers: snappyProto,
      body: readRequestProto(),
      atomic: true,
      wrap: encodeSnappy,
    },
  ];
}

/** Seeds of the JSON and YAML endpoints: ingest, pipelines, OpenTSDB put, dashboards. */
function documentSeeds(): FuzzRequest[] {
  return [
    {
      family: "ingest",
      method: "POST",
      path: "/v1/ingest?table=fz_logs&pipeline_name=fz_pipe",
      headers: { "content-type": "application/json" },
      body: text(JSON.stringify([{ ts: TS, level: "info", msg: "héllo", n: 12, nested: { a: [1, 2] } }, {
        ts: TS + 1,
        level: "warn",
        msg: "x",
        n: 1e3,
      }])),
      atomic: true,
    },
    {
      family: "ingest_identity",
      method: "POST",
      path: "/v1/ingest?table=fz_ident&pipeline_name=greptime_identity",
      headers: { "content-type": "application/x-ndjson" },
      body: text(`{"a":1,"b":"x","c":true}\n{"a":2,"d":[1,{"e":null}]}\n`),
      atomic: true,
    },
    {
      family: "pipeline_upload",
      method: "POST",
      path: "/v1/pipelines/fz_upload",
      headers: { "content-type": "application/x-yaml" },
      body: text(
        "processors:\n  - dissect:\n      fields: [message]\n      patterns: ['%{a} %{b}']\n" +
          "transform:\n  - fields: [a, b]\n    type: string\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
      ),
      atomic: true,
    },
    {
      family: "pipeline_dryrun",
      method: "POST",
      path: "/v1/pipelines/_dryrun",
      headers: { "content-type": "application/json" },
      body: text(JSON.stringify({ pipeline: FUZZ_PIPELINE, data: JSON.stringify({ ts: TS, s: "q" }) })),
      atomic: true,
    },
    {
      family: "tsjson",
      method: "POST",
      path: "/v1/opentsdb/api/put",
      headers: { "content-type": "application/json" },
      body: text(
        JSON.stringify([{ metric: "fz_ts", timestamp: 1700000000, value: 1.25, tags: { host: "a" } }]),
      ),
      atomic: true,
    },
    {
      family: "dashboard_save",
      method: "POST",
      path: "/v1/dashboards/fz",
      headers: { "content-type": "application/json" },
      body: text(JSON.stringify({ panels: [{ query: "rate(x[5m])", span: 12 }] })),
      atomic: false,
    },
  ];
}

type Mutation = (body: Uint8Array, r: () => number) => Uint8Array;

const pick = <T>(xs: T[], r: () => number): T => xs[Math.floor(r() * xs.length)];

function splice(body: Uint8Array, at: number, cut: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length - cut + insert.length);
  out.set(body.subarray(0, at), 0);
  out.set(insert, at);
  out.set(body.subarray(at + cut), at + insert.length);
  return out;
}

const HUGE = [
  "1" + "9".repeat(400),
  "-9223372036854775809",
  "18446744073709551616",
  "1e999",
  "-1e-999",
  "NaN",
  "Infinity",
  "0x7fffffffffffffff",
  "340282366920938463463374607431768211456i",
];
const BAD_UTF8 = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x00]];

/** The ways a body is spoiled, by name. */
export const MUTATIONS: Record<string, Mutation> = {
  truncate: (b, r) => b.subarray(0, Math.floor(r() * b.length)),
  flip: (b, r) => {
    const out = b.slice();
    const n = 1 + Math.floor(r() * 8);
    for (let i = 0; i < n && out.length > 0; i++) {
      out[Math.floor(r() * out.length)] ^= 1 << Math.floor(r() * 8);
    }
    return out;
  },
  huge_number: (b, r) => {
    const s = new TextDecoder("latin1").decode(b);
    const digits = [...s.matchAll(/\d+/g)];
    if (digits.length === 0) return b;
    const m = pick(digits, r);
    return splice(b, m.index!, m[0].length, enc.encode(pick(HUGE, r)));
  },
  bad_utf8: (b, r) => splice(b, Math.floor(r() * (b.length + 1)), 0, new Uint8Array(pick(BAD_UTF8, r))),
  deep_nesting: (b, r) => {
    const depth = 1000 + Math.floor(r() * 100_000);
    const open = pick(["[", '{"a":', "- ", "  a:\n", "("], r);
    return splice(b, Math.floor(r() * (b.length + 1)), 0, enc.encode(open.repeat(depth)));
  },
  garbage: (b, r) => {
    const out = new Uint8Array(Math.min(Math.floor(r() * 2 * b.length) + 1, 1 << 16));
    for (let i = 0; i < out.length; i++) out[i] = Math.floor(r() * 256);
    return out;
  },
  empty: () => new Uint8Array(0),
  repeat: (b, r) => {
    // at most 4 MiB: far over any body limit the fuzzer sets, without allocating what repeats of repeats would
    const times = Math.max(
      1,
      Math.min(2 + Math.floor(r() * 50), Math.floor((4 << 20) / Math.max(1, b.length))),
    );
    const out = new Uint8Array(b.length * times);
    for (let i = 0; i < times; i++) out.set(b, i * b.length);
    return out;
  },
};

/** Header spoilers: a wrong or lying Content-Encoding or Content-Type. */
export const HEADER_MUTATIONS: Record<
  string,
  (h: Record<string, string>, r: () => number) => Record<string, string>
> = {
  wrong_encoding: (h, r) => ({
    ...h,
    "content-encoding": pick(["gzip", "deflate", "br", "zstd", "snappy", "lz4", "gzip, br"], r),
  }),
  wrong_type: (h, r) => ({
    ...h,
    "content-type": pick([
      "application/json",
      "text/plain",
      "application/x-protobuf",
      "application/x-ndjson",
      "multipart/form-data",
      "",
      "\u00ff",
    ], r),
  }),
  no_encoding: (h) => {
    const { "content-encoding": _, ...rest } = h;
    return rest;
  },
};

/** Decompression bombs and oversized bodies for a body limit of `limit` bytes. */
export function bombs(
  limit: number,
): Array<{ name: string; headers: Record<string, string>; body: Uint8Array }> {
  const zeros = new Uint8Array(limit * 4);
  // A 1 KB snappy block whose header claims 4 GiB (VictoriaMetrics allocated 8.6 GB on this one).
  const snappy4g = new Uint8Array(1024);
  snappy4g.set([0x80, 0x80, 0x80, 0x80, 0x10], 0);
  const snappyMax = new Uint8Array(1024);
  snappyMax.set([0xff, 0xff, 0xff, 0xff, 0x0f], 0);
  return [
    { name: "snappy claiming 4 GiB", headers: { "content-encoding": "snappy" }, body: snappy4g },
    { name: "snappy claiming 4 GiB - 1", headers: { "content-encoding": "snappy" }, body: snappyMax },
    { name: "gzip bomb", headers: { "content-encoding": "gzip" }, body: zlib.gzipSync(zeros, { level: 9 }) },
    {
      name: "deflate bomb",
      headers: { "content-encoding": "deflate" },
      body: zlib.deflateSync(zeros, { level: 9 }),
    },
    { name: "zstd bomb", headers: { "content-encoding": "zstd" }, body: zlib.zstdCompressSync(zeros) },
    { name: "br bomb", headers: { "content-encoding": "br" }, body: zlib.brotliCompressSync(zeros) },
    {
      name: "gzip in gzip bomb",
      headers: { "content-encoding": "gzip" },
      body: zlib.gzipSync(zlib.gzipSync(new Uint8Array(limit * 64), { level: 9 })),
    },
    { name: "oversized", headers: {}, body: new Uint8Array(limit + 1).fill(0x61) },
  ];
}

/** Seeds of the SQL endpoints: queries, inserts, formatting, the analyze stream. */
function sqlSeeds(): FuzzRequest[] {
  return [
    {
      family: "sql",
      method: "POST",
      path: "/v1/sql",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: text(
        "sql=" +
          encodeURIComponent("SELECT host, avg(usage) FROM fz_lp WHERE greptime_timestamp > 0 GROUP BY host"),
      ),
      atomic: false,
    },
    {
      family: "sql_insert",
      method: "POST",
      path: "/v1/sql",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: text(
        "sql=" +
          encodeURIComponent(
            "INSERT INTO fz_lp (host, usage, greptime_timestamp) VALUES ('z', 1.0, 1700000000000)",
          ),
      ),
      atomic: false,
    },
    {
      family: "sql_format",
      method: "POST",
      path: "/v1/sql/format",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: text(
        "sql=" + encodeURIComponent("select host,count(*) from fz_lp where usage!=-1 group by host"),
      ),
      atomic: true,
    },
    {
      family: "sql_analyze_stream",
      method: "POST",
      path: "/v1/sql/analyze/stream",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: text(
        "sql=" + encodeURIComponent("EXPLAIN ANALYZE VERBOSE SELECT host, count(*) FROM fz_lp GROUP BY host"),
      ),
      atomic: true,
    },
  ];
}
