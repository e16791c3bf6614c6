/** Loki protobuf `PushRequest` (already snappy-decoded) → the typed model (proto/push.proto). */
import { ProtoDecodeError, ProtoReader } from "../../codec/protobuf.ts";
import type { LokiEntry, LokiPushRequest, LokiStream } from "./model.ts";
import { parseLokiLabels } from "./labels.ts";

function close(r: ProtoReader, end: number): void {
  if (r.pos !== end) throw new ProtoDecodeError("field overruns its enclosing message");
}

/** Decodes a `PushRequest` (throws ProtoDecodeError, or LabelSyntaxError for a bad label string). */
export function decodeLokiProto(buf: Uint8Array): LokiPushRequest {
  const r = new ProtoReader(buf);
  const streams: LokiStream[] = [];
  while (r.more()) {
    const t = r.uint32();
    if (t === 10) streams.push(readStream(r));
    else r.skip(t & 7);
  }
  return { streams, skippedStreams: 0, skippedEntries: 0 };
}

function readStream(r: ProtoReader): LokiStream {
  const end = r.bytesEnd();
  let labels = "";
  const entries: LokiEntry[] = [];
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 10) labels = r.string(true);
    else if (t === 18) entries.push(readEntry(r));
    else r.skip(t & 7);
  }
  close(r, end);
  return { labels: parseLokiLabels(labels), entries };
}

/** The structured metadata of entries without any: one array, never changed (readers only iterate it). */
const NO_METADATA: [string, string][] = [];

function readEntry(r: ProtoReader): LokiEntry {
  const end = r.bytesEnd();
  let ts = 0n;
  let line = "";
  let meta: [string, string][] | null = null;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 10) ts = readTimestamp(r);
    // a line rarely repeats: kept out of the short-string cache
    else if (t === 18) line = r.uniqueString(true);
    else if (t === 26) (meta ??= []).push(readPair(r));
    else r.skip(t & 7);
  }
  close(r, end);
  return { timestampNs: ts, line, structuredMetadata: meta ?? NO_METADATA };
}

/** The last timestamp's seconds, and them in nanoseconds (the entries of a push share their seconds). */
let lastSeconds = 0, lastSecondsNs = 0n;

function readTimestamp(r: ProtoReader): bigint {
  const end = r.bytesEnd();
  let seconds = 0, nanos = 0;
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 8) seconds = r.int64();
    else if (t === 16) nanos = r.int64();
    else r.skip(t & 7);
  }
  close(r, end);
  if (seconds !== lastSeconds) {
    lastSecondsNs = BigInt(seconds) * 1_000_000_000n;
    lastSeconds = seconds;
  }
  return lastSecondsNs + BigInt(nanos);
}

function readPair(r: ProtoReader): [string, string] {
  const end = r.bytesEnd();
  let name = "", value = "";
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 10) name = r.string(true);
    else if (t === 18) value = r.string(true);
    else r.skip(t & 7);
  }
  close(r, end);
  return [name, value];
}
