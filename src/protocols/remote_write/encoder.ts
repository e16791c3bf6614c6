/** Remote-write request bodies (1.0 and 2.0), as Prometheus and vmagent send them: for tests and benches. */
import protobuf from "protobufjs";
import { encodeSnappy } from "../../codec/snappy.ts";
import type { Series } from "../../common/series.ts";
import { METRIC_TYPES } from "../prompb/schema.ts";
import { writeSample } from "../prompb/wire.ts";
import type { RemoteMetadata } from "./parser.ts";

/** Encodes series (and metadata) as a snappy-compressed 1.0 `WriteRequest` body. */
export function encodeRemoteWriteV1(
  series: Series[],
  metadata: RemoteMetadata[] = [],
): Uint8Array<ArrayBuffer> {
  const w = protobuf.Writer.create();
  for (const s of series) {
    w.uint32(10).fork();
    for (const [name, value] of Object.entries(s.labels)) {
      w.uint32(10).fork().uint32(10).string(name).uint32(18).string(value).ldelim();
    }
    for (const sample of s.samples) writeSample(w, sample);
    w.ldelim();
  }
  for (const m of metadata) {
    w.uint32(26).fork().uint32(8).uint32(Math.max(0, METRIC_TYPES.indexOf(m.type)));
    w.uint32(18).string(m.metric).uint32(34).string(m.help).uint32(42).string(m.unit).ldelim();
  }
  return encodeSnappy(w.finish());
}

/** Encodes series as a snappy-compressed 2.0 `Request` (symbol table; metadata per series by metric name). */
export function encodeRemoteWriteV2(
  series: Series[],
  metadata: RemoteMetadata[] = [],
): Uint8Array<ArrayBuffer> {
  const symbols: string[] = [""];
  const index = new Map<string, number>([["", 0]]);
  const ref = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = symbols.length;
      symbols.push(s);
      index.set(s, i);
    }
    return i;
  };
  const metaByName = new Map(metadata.map((m) => [m.metric, m]));
  const w = protobuf.Writer.create();
  const body = protobuf.Writer.create();
  for (const s of series) {
    body.uint32(42).fork();
    body.uint32(10).fork();
    for (const [name, value] of Object.entries(s.labels)) body.uint32(ref(name)).uint32(ref(value));
    body.ldelim();
    for (const sample of s.samples) writeSample(body, sample);
    const m = metaByName.get(s.labels.__name__);
    if (m !== undefined) {
      body.uint32(42).fork().uint32(8).uint32(Math.max(0, METRIC_TYPES.indexOf(m.type)));
      body.uint32(24).uint32(ref(m.help)).uint32(32).uint32(ref(m.unit)).ldelim();
    }
    body.ldelim();
  }
  for (const s of symbols) w.uint32(34).string(s);
  const head = w.finish(), tail = body.finish();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return encodeSnappy(out);
}
