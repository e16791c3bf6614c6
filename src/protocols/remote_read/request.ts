/**
 * Prometheus remote read requests: decode a snappy `ReadRequest` (queries with matchers, time range,
 * hints and accepted response types) and pick the response type (SAMPLES in `response.ts`).
 * The STREAMED_XOR_CHUNKS response lives in `chunked.ts`.
 */

import { ProtoDecodeError, ProtoReader } from "../../codec/protobuf.ts";
import { decompressPrometheus } from "../../codec/decompress.ts";
import { invalidArguments } from "../../common/errors.ts";
import type { LabelMatcher, MatcherType } from "../../common/label_matcher.ts";

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
  const raw = decompressPrometheus(body, "snappy", limit, false);
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
