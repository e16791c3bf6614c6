/**
 * The STREAMED_XOR_CHUNKS remote-read response: `ChunkedReadResponse` frames, each
 * `uvarint(len) + CRC32C (big endian) + message`, one series per frame (split past ~1 MiB of chunks),
 * with XOR chunks of up to 120 samples, as Prometheus' server writes them; plus the client-side
 * decoder the tests use.
 */

import protobuf from "protobufjs";
import { crc32c } from "../../codec/crc32c.ts";
import { ProtoDecodeError, ProtoReader } from "../../codec/protobuf.ts";
import { decodeXorChunk, encodeXorChunk, SAMPLES_PER_CHUNK } from "../../codec/xor_chunk.ts";
import { compareLabelSets, type Sample, type Series, sortedLabels } from "../../common/series.ts";
import { writeLabels } from "../prompb/wire.ts";

/** Content type of a STREAMED_XOR_CHUNKS response (no content encoding). */
export const CHUNKED_READ_RESPONSE_CONTENT_TYPE =
  "application/x-streamed-protobuf; proto=prometheus.ChunkedReadResponse";

/** The series answering one query, in request order. */
export interface ReadQueryResult {
  series: Series[];
}

/** Prometheus' default `--storage.remote.read-max-bytes-in-frame`. */
const MAX_BYTES_IN_FRAME = 1 << 20;

function frame(message: Uint8Array): Uint8Array<ArrayBuffer> {
  const head: number[] = [];
  let n = message.length;
  while (n >= 0x80) {
    head.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  head.push(n);
  const out = new Uint8Array(head.length + 4 + message.length);
  out.set(head);
  new DataView(out.buffer).setUint32(head.length, crc32c(message), false);
  out.set(message, head.length + 4);
  return out;
}

function sortedSamples(samples: Sample[]): Sample[] {
  for (let i = 1; i < samples.length; i++) {
    if (samples[i].timestampMs < samples[i - 1].timestampMs) {
      return [...samples].sort((a, b) => a.timestampMs - b.timestampMs);
    }
  }
  return samples;
}

/**
 * The frames of a STREAMED_XOR_CHUNKS response: series sorted by labels, one series per frame, a
 * series split over several frames when its chunks pass `maxBytesInFrame`, as Prometheus' server does.
 */
function* chunkedReadFrames(
  results: ReadQueryResult[],
  maxBytesInFrame = MAX_BYTES_IN_FRAME,
): Generator<Uint8Array> {
  for (let queryIndex = 0; queryIndex < results.length; queryIndex++) {
    const series = results[queryIndex].series
      .map((s) => ({ labels: sortedLabels(s.labels), samples: sortedSamples(s.samples) }))
      .sort((a, b) => compareLabelSets(a.labels, b.labels));
    for (const s of series) {
      let labelBytes = 0;
      for (const [k, v] of s.labels) labelBytes += k.length + v.length + 6;
      const budget = maxBytesInFrame - labelBytes;
      let chunks: { min: number; max: number; data: Uint8Array }[] = [];
      let left = budget;
      for (let i = 0; i < s.samples.length; i += SAMPLES_PER_CHUNK) {
        const part = s.samples.slice(i, i + SAMPLES_PER_CHUNK);
        const data = encodeXorChunk(part);
        chunks.push({ min: part[0].timestampMs, max: part[part.length - 1].timestampMs, data });
        left -= data.length + 24;
        const more = i + SAMPLES_PER_CHUNK < s.samples.length;
        if (left > 0 && more) continue;
        yield frame(chunkedMessage(s.labels, chunks, queryIndex));
        chunks = [];
        left = budget;
      }
    }
  }
}

function chunkedMessage(
  labels: [string, string][],
  chunks: { min: number; max: number; data: Uint8Array }[],
  queryIndex: number,
): Uint8Array {
  const w = protobuf.Writer.create();
  w.uint32(10).fork();
  writeLabels(w, labels);
  for (const c of chunks) {
    w.uint32(18).fork();
    if (c.min !== 0) w.uint32(8).int64(c.min);
    if (c.max !== 0) w.uint32(16).int64(c.max);
    w.uint32(24).uint32(1); // Chunk.Encoding XOR
    w.uint32(34).bytes(c.data);
    w.ldelim();
  }
  w.ldelim();
  if (queryIndex !== 0) w.uint32(16).int64(queryIndex);
  return w.finish();
}

/** The whole STREAMED_XOR_CHUNKS response body (all frames of `chunkedReadFrames`, concatenated). */
export function encodeChunkedReadResponse(
  results: ReadQueryResult[],
  maxBytesInFrame = MAX_BYTES_IN_FRAME,
): Uint8Array<ArrayBuffer> {
  const frames = [...chunkedReadFrames(results, maxBytesInFrame)];
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) out.set(f, at), at += f.length;
  return out;
}

/** One chunk of a decoded streamed response: its time range, raw XOR bytes and samples. */
export interface DecodedChunk {
  minTimeMs: number;
  maxTimeMs: number;
  data: Uint8Array;
  samples: Sample[];
}

/** One decoded frame of a streamed response (what a remote-read client sees). */
export interface ChunkedReadFrame {
  queryIndex: number;
  series: {
    labels: Record<string, string>;
    chunks: DecodedChunk[];
  }[];
}

/** Decodes a STREAMED_XOR_CHUNKS body, checking every frame's CRC32C (the client side, for tests). */
export function decodeChunkedReadResponse(body: Uint8Array): ChunkedReadFrame[] {
  const frames: ChunkedReadFrame[] = [];
  let p = 0;
  while (p < body.length) {
    const head = new ProtoReader(body, p);
    const len = head.uint32();
    const start = head.pos + 4;
    if (start + len > body.length) throw new ProtoDecodeError("truncated frame");
    const message = body.subarray(start, start + len);
    const want = new DataView(body.buffer, body.byteOffset).getUint32(head.pos, false);
    if (crc32c(message) !== want) throw new ProtoDecodeError("frame checksum mismatch");
    const r = new ProtoReader(message);
    const f: ChunkedReadFrame = { queryIndex: 0, series: [] };
    while (r.more()) {
      const t = r.uint32();
      if (t === 16) f.queryIndex = r.int64();
      else if (t === 10) {
        const end = r.bytesEnd();
        const s: ChunkedReadFrame["series"][number] = { labels: {}, chunks: [] };
        while (r.pos < end) {
          const st = r.uint32();
          if (st === 10) {
            const lend = r.bytesEnd();
            let name = "", value = "";
            while (r.pos < lend) {
              const lt = r.uint32();
              if (lt === 10) name = r.string(true);
              else if (lt === 18) value = r.string(true);
              else r.skip(lt & 7);
            }
            s.labels[name] = value;
          } else if (st === 18) {
            const cend = r.bytesEnd();
            const c: DecodedChunk = { minTimeMs: 0, maxTimeMs: 0, data: new Uint8Array(0), samples: [] };
            while (r.pos < cend) {
              const ct = r.uint32();
              if (ct === 8) c.minTimeMs = r.int64();
              else if (ct === 16) c.maxTimeMs = r.int64();
              else if (ct === 24) {
                if (r.uint32() !== 1) throw new ProtoDecodeError("not an XOR chunk");
              } else if (ct === 34) {
                c.data = r.bytes();
                c.samples = decodeXorChunk(c.data);
              } else r.skip(ct & 7);
            }
            s.chunks.push(c);
          } else r.skip(st & 7);
        }
        f.series.push(s);
      } else r.skip(t & 7);
    }
    frames.push(f);
    p = start + len;
  }
  return frames;
}
