/**
 * Prometheus remote read: decode a snappy `ReadRequest` (queries with matchers, time range, hints and
 * accepted response types), and encode either a snappy `ReadResponse` (SAMPLES) or the
 * STREAMED_XOR_CHUNKS response: `ChunkedReadResponse` frames, each `uvarint(len) + CRC32C (big
 * endian) + message`, one series per frame (split at ~1 MiB), chunks XOR-encoded as Prometheus does.
 */

import protobuf from "protobufjs";
import { crc32c } from "../codec/crc32c.ts";
import { ProtoDecodeError, ProtoReader } from "../codec/protobuf.ts";
import { decodeSnappy, encodeSnappy } from "../codec/snappy.ts";
import { invalidArguments } from "../http/errors.ts";
import { type RemoteSample, type RemoteSeries, writeSample } from "./remote_write.ts";
import { decodeXorChunk, encodeXorChunk, SAMPLES_PER_CHUNK } from "./xor_chunk.ts";

/** Content type of a SAMPLES response (body: snappy `ReadResponse`, `Content-Encoding: snappy`). */
export const READ_RESPONSE_CONTENT_TYPE = "application/x-protobuf";
/** Content type of a STREAMED_XOR_CHUNKS response (no content encoding). */
export const CHUNKED_READ_RESPONSE_CONTENT_TYPE =
  "application/x-streamed-protobuf; proto=prometheus.ChunkedReadResponse";

/** Prometheus' label matcher kinds. */
export type MatcherType = "EQ" | "NEQ" | "RE" | "NRE";

/** A label matcher of a remote-read query. */
export interface LabelMatcher {
  type: MatcherType;
  name: string;
  value: string;
}

/** Query hints Prometheus sends along (informational). */
export interface ReadHints {
  stepMs: number;
  func: string;
  startMs: number;
  endMs: number;
  grouping: string[];
  by: boolean;
  rangeMs: number;
}

/** One query of a `ReadRequest`. */
export interface ReadQuery {
  startMs: number;
  endMs: number;
  matchers: LabelMatcher[];
  hints?: ReadHints;
}

/** Response types a client accepts. */
export type ReadResponseType = "SAMPLES" | "STREAMED_XOR_CHUNKS";

/** A decoded `ReadRequest`. An empty `acceptedResponseTypes` means SAMPLES. */
export interface ReadRequest {
  queries: ReadQuery[];
  acceptedResponseTypes: ReadResponseType[];
}

/** The series answering one query, in request order. */
export interface ReadQueryResult {
  series: RemoteSeries[];
}

const MATCHER_TYPES: MatcherType[] = ["EQ", "NEQ", "RE", "NRE"];
const RESPONSE_TYPES: ReadResponseType[] = ["SAMPLES", "STREAMED_XOR_CHUNKS"];

function readMatcher(r: ProtoReader, end: number): LabelMatcher {
  const m: LabelMatcher = { type: "EQ", name: "", value: "" };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 8) {
      const type = MATCHER_TYPES[r.uint32()];
      if (type === undefined) throw new ProtoDecodeError("unknown label matcher type");
      m.type = type;
    } else if (t === 18) m.name = r.string(false);
    else if (t === 26) m.value = r.string(false);
    else r.skip(t & 7);
  }
  return m;
}

function readHints(r: ProtoReader, end: number): ReadHints {
  const h: ReadHints = { stepMs: 0, func: "", startMs: 0, endMs: 0, grouping: [], by: false, rangeMs: 0 };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 8) h.stepMs = r.int64();
    else if (t === 18) h.func = r.string(false);
    else if (t === 24) h.startMs = r.int64();
    else if (t === 32) h.endMs = r.int64();
    else if (t === 42) h.grouping.push(r.string(false));
    else if (t === 48) h.by = r.uint32() !== 0;
    else if (t === 56) h.rangeMs = r.int64();
    else r.skip(t & 7);
  }
  return h;
}

function readQuery(r: ProtoReader, end: number): ReadQuery {
  const q: ReadQuery = { startMs: 0, endMs: 0, matchers: [] };
  while (r.pos < end) {
    const t = r.uint32();
    if (t === 8) q.startMs = r.int64();
    else if (t === 16) q.endMs = r.int64();
    else if (t === 26) q.matchers.push(readMatcher(r, r.bytesEnd()));
    else if (t === 34) q.hints = readHints(r, r.bytesEnd());
    else r.skip(t & 7);
  }
  return q;
}

/** Decodes a snappy-compressed `ReadRequest`; past `limit` → 413, malformed → 400. */
export function decodeReadRequest(body: Uint8Array, limit: number): ReadRequest {
  const raw = decodeSnappy(body, limit);
  const r = new ProtoReader(raw);
  const req: ReadRequest = { queries: [], acceptedResponseTypes: [] };
  const accept = (n: number) => {
    // Unknown future types are ignored, as Prometheus' own server does.
    const type = RESPONSE_TYPES[n];
    if (type !== undefined) req.acceptedResponseTypes.push(type);
  };
  try {
    while (r.more()) {
      const t = r.uint32();
      if (t === 10) {
        const end = r.bytesEnd();
        req.queries.push(readQuery(r, end));
        if (r.pos !== end) throw new ProtoDecodeError("query overruns its length");
      } else if (t === 16) accept(r.uint32());
      else if (t === 18) {
        const end = r.bytesEnd();
        while (r.pos < end) accept(r.uint32());
      } else r.skip(t & 7);
    }
  } catch (e) {
    if (e instanceof ProtoDecodeError) {
      throw invalidArguments(`Failed to decode prometheus remote request: ${e.message}`);
    }
    throw e;
  }
  return req;
}

/** The response type to send: the client's first supported preference; none given means SAMPLES. */
export function pickReadResponseType(
  req: ReadRequest,
  supported: ReadResponseType[] = ["SAMPLES", "STREAMED_XOR_CHUNKS"],
): ReadResponseType {
  if (req.acceptedResponseTypes.length === 0) return "SAMPLES";
  for (const t of req.acceptedResponseTypes) if (supported.includes(t)) return t;
  throw invalidArguments(
    `Unsupported remote read response types: ${req.acceptedResponseTypes.join(", ")}; supported: ${
      supported.join(", ")
    }`,
  );
}

/** What one query reads, with the special matchers taken out (reference §6.9). */
export interface ReadTarget {
  metric: string;
  /** From an equality matcher on `__schema__`, `__database__` or `x_greptime_database`. */
  database?: string;
  /** The remaining matchers, to filter series by. */
  matchers: LabelMatcher[];
}

const DATABASE_MATCHERS = ["__schema__", "__database__", "x_greptime_database"];

/** Splits a query's matchers into metric, database and filters; needs exactly one `__name__` equality. */
export function readQueryTarget(query: ReadQuery): ReadTarget {
  const names = query.matchers.filter((m) => m.name === "__name__");
  if (names.length === 0) {
    throw invalidArguments("Invalid prometheus remote request, msg: missing '__name__' label in timeseries");
  }
  const eq = names.filter((m) => m.type === "EQ" && m.value !== "");
  if (eq.length !== 1 || names.length !== 1) {
    throw invalidArguments(
      "Invalid prometheus remote request, msg: expected exactly one non-empty equality matcher for '__name__'",
    );
  }
  const target: ReadTarget = { metric: eq[0].value, matchers: [] };
  for (const m of query.matchers) {
    if (m.name === "__name__") continue;
    if (m.type === "EQ" && DATABASE_MATCHERS.includes(m.name)) {
      if (target.database === undefined || m.name === "__schema__") target.database = m.value;
      continue;
    }
    target.matchers.push(m);
  }
  return target;
}

const regexCache = new Map<string, RegExp>();

/** Prometheus' fully anchored regex (`^(?:re)$`, dot matches newline); a bad pattern → 400. */
export function matcherRegExp(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    let source = pattern, flags = "s";
    // RE2's leading `(?i)` has no JS spelling except the flag.
    if (source.startsWith("(?i)")) source = source.slice(4), flags += "i";
    try {
      re = new RegExp(`^(?:${source})$`, flags);
    } catch (e) {
      throw invalidArguments(`Invalid regular expression in matcher: ${pattern}: ${(e as Error).message}`);
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/** Whether a label value satisfies a matcher; an absent label matches as the empty string. */
export function matchLabel(m: LabelMatcher, value: string | undefined | null): boolean {
  const v = value ?? "";
  switch (m.type) {
    case "EQ":
      return v === m.value;
    case "NEQ":
      return v !== m.value;
    case "RE":
      return matcherRegExp(m.value).test(v);
    case "NRE":
      return !matcherRegExp(m.value).test(v);
  }
}

/** Whether a label set satisfies every matcher. */
export function matchLabels(matchers: LabelMatcher[], labels: Record<string, string>): boolean {
  for (const m of matchers) {
    if (!matchLabel(m, Object.hasOwn(labels, m.name) ? labels[m.name] : undefined)) return false;
  }
  return true;
}

/** Label pairs sorted by name, as Prometheus expects them on the wire. */
function sortedLabels(labels: Record<string, string>): [string, string][] {
  return Object.entries(labels).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function compareLabelSets(a: [string, string][], b: [string, string][]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i][0] !== b[i][0]) return a[i][0] < b[i][0] ? -1 : 1;
    if (a[i][1] !== b[i][1]) return a[i][1] < b[i][1] ? -1 : 1;
  }
  return a.length - b.length;
}

function writeLabels(w: protobuf.Writer, labels: [string, string][]): void {
  for (const [name, value] of labels) {
    w.uint32(10).fork().uint32(10).string(name).uint32(18).string(value).ldelim();
  }
}

/** Encodes results as a snappy-compressed `ReadResponse` (SAMPLES), results in request order. */
export function encodeReadResponse(results: ReadQueryResult[]): Uint8Array<ArrayBuffer> {
  const w = protobuf.Writer.create();
  for (const result of results) {
    w.uint32(10).fork();
    for (const s of result.series) {
      w.uint32(10).fork();
      writeLabels(w, sortedLabels(s.labels));
      for (const sample of s.samples) writeSample(w, sample);
      w.ldelim();
    }
    w.ldelim();
  }
  return encodeSnappy(w.finish());
}

/** Prometheus' default `--storage.remote.read-max-bytes-in-frame`. */
export const MAX_BYTES_IN_FRAME = 1 << 20;

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

function sortedSamples(samples: RemoteSample[]): RemoteSample[] {
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
export function* chunkedReadFrames(
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
  samples: RemoteSample[];
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
