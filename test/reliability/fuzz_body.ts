/**
 * The structure-aware body fuzzer of the ingest endpoints: every ingest seed of `fuzz_cases.ts` (and
 * the spec's `/v1/telemetry/…` paths, `/{index}/_bulk`, richer OTLP metrics) spoiled by what its body
 * is (`fuzz_protobuf.ts`, `fuzz_text.ts`) and by the generic spoilers, sometimes under a valid or
 * corrupt gzip/deflate/zstd/br/snappy Content-Encoding, each answer held to `probe`'s contract.
 * Shared by `fuzz_body_test.ts` (bounded) and `scripts/fuzz.ts --body` (long).
 */
import zlib from "node:zlib";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { encodeRemoteWriteV2 } from "../../src/protocols/remote_write/encoder.ts";
import type { Series } from "../../src/common/series.ts";
import type { RemoteMetadata } from "../../src/protocols/remote_write/parser.ts";
import { type FuzzReport, type FuzzTarget, probe, ServerGone } from "./fuzz.ts";
import { type FuzzRequest, HEADER_MUTATIONS, MUTATIONS, seeds } from "./fuzz_cases.ts";
import { pb } from "./fuzz_telemetry.ts";
import { type Mutation, pick, PROTOBUF_MUTATIONS } from "./fuzz_protobuf.ts";
import {
  BLANK_MUTATIONS,
  type BodyKind,
  JSON_MUTATIONS,
  LINEPROTO_MUTATIONS,
  NDJSON_MUTATIONS,
} from "./fuzz_text.ts";
import { seededRandom } from "../helpers/random.ts";

/** An ingest seed and what its (unwrapped) body is. */
export interface BodySeed extends FuzzRequest {
  kind: BodyKind | "opaque";
}

const KIND_OF_FAMILY: Record<string, BodyKind | "opaque"> = {
  lineproto: "lineproto",
  lineproto_v2: "lineproto",
  remote_write_pb: "protobuf",
  otlp_metrics_pb: "protobuf",
  otlp_logs_pb: "protobuf",
  otlp_traces_pb: "protobuf",
  loki_pb: "protobuf",
  otlp_metrics_json: "json",
  otlp_logs_json: "json",
  otlp_traces_json: "json",
  loki_json: "json",
  tsjson: "json",
  ingest: "json",
  ingest_identity: "ndjson",
  es_bulk: "ndjson",
  splunk_raw: "opaque",
};

const enc = new TextEncoder();
const NS = "1700000000000000000";

/** The ingest seeds: the hostile-input fuzzer's, under both OTLP path names, and a few more. */
export function bodySeeds(): BodySeed[] {
  const out: BodySeed[] = [];
  for (const s of seeds()) {
    const kind = KIND_OF_FAMILY[s.family];
    if (!kind) continue;
    // an Elasticsearch bulk answering 4xx failed every item: it wrote nothing
    out.push({ ...s, kind, atomic: true });
    if (s.family.startsWith("otlp_")) {
      out.push({
        ...s,
        kind,
        family: `${s.family}_spec`,
        path: s.path.replace("/v1/otlp/", "/v1/telemetry/"),
      });
    }
  }
  const es = out.find((s) => s.family === "es_bulk")!;
  out.push({ ...es, family: "es_index_bulk", path: "/v1/elasticsearch/fz_es_path/_bulk", body: indexBulk() });
  out.push({
    family: "splunk_hec_lines",
    method: "POST",
    path: "/v1/splunk/services/collector",
    headers: { "content-type": "application/json" },
    body: enc.encode('{"time":1700000000.5,"host":"h","event":"hi","fields":{"k":"v"}}\n{"event":{"n":1}}\n'),
    atomic: true,
    kind: "ndjson",
  });
  out.push({
    family: "remote_write_v2_pb",
    method: "POST",
    path: "/v1/prometheus/write",
    headers: {
      "content-type": "application/x-protobuf;proto=io.prometheus.write.v2.Request",
      "content-encoding": "snappy",
    },
    body: decodeSnappy(encodeRemoteWriteV2(v2Series(), v2Metadata()), 1 << 20),
    atomic: true,
    wrap: encodeSnappy,
    kind: "protobuf",
  });
  out.push({
    family: "otlp_metrics_rich_pb",
    method: "POST",
    path: "/v1/telemetry/v1/metrics",
    headers: { "content-type": "application/x-protobuf" },
    body: pb("ExportMetricsServiceRequest", richMetrics()),
    atomic: true,
    kind: "protobuf",
  });
  return out;
}

/** Remote write 2.0: labels and metadata by symbol references, which a spoiled varint points astray. */
function v2Series(): Series[] {
  const ms = Number(NS.slice(0, 13));
  return [
    {
      labels: { __name__: "fz_rw2", job: "a" },
      samples: [{ value: 1.5, timestampMs: ms }, { value: 2, timestampMs: ms + 1 }],
    },
    { labels: { __name__: "fz_rw2", job: "b", le: "+Inf" }, samples: [{ value: NaN, timestampMs: ms }] },
  ];
}

function v2Metadata(): RemoteMetadata[] {
  return [{ metric: "fz_rw2", type: "gauge", help: "a fuzz gauge", unit: "seconds" }];
}

function indexBulk(): Uint8Array {
  return enc.encode(
    '{"create":{}}\n{"@timestamp":"2024-01-01T00:00:00Z","message":"a","n":1.5}\n' +
      '{"index":{"_id":"x"}}\n{"@timestamp":1704067201000,"message":"b","tags":["p","q"]}\n',
  );
}

/** Summaries and exponential histograms, which the plain seed lacks. */
function richMetrics(): Record<string, unknown> {
  const attrs = [{ key: "k", value: { stringValue: "v" } }];
  return {
    resourceMetrics: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "fz" } }] },
      scopeMetrics: [{
        scope: { name: "fz" },
        metrics: [
          {
            name: "fz.summary",
            summary: {
              dataPoints: [{
                timeUnixNano: NS,
                count: 4,
                sum: 10,
                attributes: attrs,
                quantileValues: [{ quantile: 0.5, value: 2 }, { quantile: 0.99, value: 4 }],
              }],
            },
          },
          {
            name: "fz.exp",
            exponentialHistogram: {
              aggregationTemporality: 1,
              dataPoints: [{
                timeUnixNano: NS,
                count: 5,
                sum: 12,
                scale: 2,
                zeroCount: 1,
                positive: { offset: -1, bucketCounts: [1, 2] },
                negative: { offset: 0, bucketCounts: [1] },
                attributes: attrs,
              }],
            },
          },
        ],
      }],
    }],
  };
}

const STRUCTURED: Record<BodyKind | "opaque", Record<string, Mutation>> = {
  protobuf: PROTOBUF_MUTATIONS,
  json: JSON_MUTATIONS,
  ndjson: NDJSON_MUTATIONS,
  lineproto: LINEPROTO_MUTATIONS,
  opaque: {},
};
const GENERIC: Record<string, Mutation> = { ...MUTATIONS, ...BLANK_MUTATIONS };

/** A Content-Encoding layer: the body compressed, maybe corrupted, maybe under another codec's name. */
function encodingLayer(
  body: Uint8Array,
  r: () => number,
): { name: string; body: Uint8Array; encoding: string } {
  const codecs: Record<string, (b: Uint8Array) => Uint8Array> = {
    gzip: (b) => zlib.gzipSync(b),
    deflate: (b) => zlib.deflateSync(b),
    zstd: (b) => zlib.zstdCompressSync(b),
    br: (b) => zlib.brotliCompressSync(b),
    snappy: encodeSnappy,
  };
  const codec = pick(Object.keys(codecs), r);
  let out = codecs[codec](body);
  let name = codec;
  const spoil = r();
  if (spoil < 0.25 && out.length > 2) {
    out = out.slice();
    out[Math.floor(out.length / 2 + r() * (out.length / 2))] ^= 0xff; // the payload or the checksum
    name += " flipped";
  } else if (spoil < 0.5) {
    out = out.subarray(0, Math.floor(r() * out.length));
    name += " truncated";
  }
  const encoding = r() < 0.15 ? pick(Object.keys(codecs).filter((c) => c !== codec), r) : codec;
  if (encoding !== codec) name += ` as ${encoding}`;
  return { name, body: out, encoding };
}

/** Runs `iterations` spoiled requests per ingest seed; the report counts per `family status`. */
export async function bodyFuzzRound(
  target: FuzzTarget,
  seed: number,
  iterations: number,
  only?: RegExp,
): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, statuses: new Map(), failures: [] };
  const r = seededRandom(seed);
  try {
    for (const base of bodySeeds().filter((s) => !only || only.test(s.family))) {
      await probe(target, base.wrap ? { ...base, body: base.wrap(base.body) } : base, "seed", report);
      const structured = STRUCTURED[base.kind];
      for (let i = 0; i < iterations; i++) {
        let body = base.body;
        let headers = base.headers;
        const steps: string[] = [];
        for (let k = 1 + Math.floor(r() * 2); k > 0; k--) {
          const set = Object.keys(structured).length > 0 && r() < 0.75 ? structured : GENERIC;
          const m = pick(Object.keys(set), r);
          body = set[m](body, r);
          steps.push(m);
        }
        if (base.wrap) body = base.wrap(body);
        if (r() < 0.1) {
          const h = pick(Object.keys(HEADER_MUTATIONS), r);
          headers = HEADER_MUTATIONS[h](headers, r);
          steps.push(h);
        }
        if (r() < 0.15) {
          const layer = encodingLayer(body, r);
          body = layer.body;
          headers = { ...headers, "content-encoding": layer.encoding };
          steps.push(layer.name);
        }
        await probe(target, { ...base, body, headers }, steps.join("+"), report);
      }
    }
  } catch (e) {
    if (!(e instanceof ServerGone)) throw e;
    report.failures.push(`the server stopped answering; its log ends with:\n${e.message}`);
  }
  return report;
}
