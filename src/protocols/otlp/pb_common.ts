/**
 * Protobuf decoding of OTLP's shared messages (AnyValue, KeyValue, Resource, InstrumentationScope)
 * and the reader the signal decoders share. Nested messages are read in place (no sub-reader per
 * message); every length is checked against its enclosing message, so a corrupt length is a
 * ProtoDecodeError, never an allocation. Fields are matched on the whole tag (number and wire type):
 * a known field with the wrong wire type is skipped as an unknown field, as Go's protobuf does.
 */
import { ProtoDecodeError, ProtoReader } from "../../codec/protobuf.ts";
import type { AnyValue, InstrumentationScope, KeyValue, Resource } from "./model.ts";

/** How deep AnyValue arrays and kvlists may nest (a bound on recursion, far above real payloads). */
export const MAX_VALUE_DEPTH = 32;

const TWO32 = 4294967296;

/** ProtoReader plus the fixed-width and 64-bit reads OTLP needs. */
export class PbReader extends ProtoReader {
  private readonly dv: DataView;

  constructor(buf: Uint8Array) {
    super(buf);
    this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private take(n: number): number {
    const p = this.pos;
    if (p + n > this.end) throw new ProtoDecodeError("truncated fixed-width field");
    this.pos = p + n;
    return p;
  }

  /** A fixed64, exact. */
  fixed64(): bigint {
    return this.dv.getBigUint64(this.take(8), true);
  }

  /** A fixed64 as a number (counts: exact up to 2^53). */
  fixed64Number(): number {
    const p = this.take(8);
    return this.dv.getUint32(p + 4, true) * TWO32 + this.dv.getUint32(p, true);
  }

  /** An sfixed64 as a number. */
  sfixed64Number(): number {
    const p = this.take(8);
    return this.dv.getInt32(p + 4, true) * TWO32 + this.dv.getUint32(p, true);
  }

  /** A fixed32. */
  fixed32(): number {
    return this.dv.getUint32(this.take(4), true);
  }

  /** A double (wire type 1). */
  f64(): number {
    return this.dv.getFloat64(this.take(8), true);
  }

  /** A zigzag-encoded sint32. */
  sint32(): number {
    const v = this.uint32();
    return (v >>> 1) ^ -(v & 1);
  }

  /** A bool varint. */
  bool(): boolean {
    return this.int64() !== 0;
  }

  /** An int64 varint, exact: a number when safe, else a bigint. */
  int64Exact(): number | bigint {
    const start = this.pos;
    const v = this.int64();
    if (Number.isSafeInteger(v)) return v;
    let big = 0n, shift = 0n;
    for (let p = start; p < this.pos; p++, shift += 7n) big |= BigInt(this.buf[p] & 0x7f) << shift;
    return BigInt.asIntN(64, big);
  }

  /** Reads a length prefix; the end offset of the message that follows. */
  msgEnd(): number {
    return this.bytesEnd();
  }

  /** Checks that a nested message ended exactly where its length said. */
  close(end: number): void {
    if (this.pos !== end) throw new ProtoDecodeError("field overruns its enclosing message");
  }

  /** Reads a tag (never 0: field number 0 is invalid). */
  tag(): number {
    const t = this.uint32();
    if (t >>> 3 === 0) throw new ProtoDecodeError("invalid field number 0");
    return t;
  }

  /** A length-delimited string, strictly UTF-8 (proto3 strings must be valid UTF-8). */
  str(): string {
    return this.string(true);
  }

  /** A string field that rarely repeats (a log body), strictly UTF-8, kept out of the string cache. */
  uniqueStr(): string {
    return this.uniqueString(true);
  }
}

/** Tags (field number << 3 | wire type) as the switch statements match them. */
export function tag(field: number, wire: 0 | 1 | 2 | 5): number {
  return (field << 3) | wire;
}

/** The two lowercase hex digits of each byte, as char codes: byte b's at [2b] and [2b + 1]. */
const HEX_CODES = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  const h = b.toString(16).padStart(2, "0");
  HEX_CODES[2 * b] = h.charCodeAt(0);
  HEX_CODES[2 * b + 1] = h.charCodeAt(1);
}
/** Bytes hexed by one `String.fromCharCode` call (its arguments array is reused, one per length). */
const HEX_CHUNK = 64;
const hexArgs: number[][] = [];

/**
 * Lowercase hex of bytes [a, b) of `buf`, built as one flat string: appending two digits at a time
 * made ~25 strings for a trace id (a rope, flattened again when SQLite binds it or a Map hashes it).
 */
export function hexOf(buf: Uint8Array, a: number, b: number): string {
  if (b - a > HEX_CHUNK) {
    let s = "";
    for (let i = a; i < b; i += HEX_CHUNK) s += hexOf(buf, i, Math.min(b, i + HEX_CHUNK));
    return s;
  }
  const args = hexArgs[b - a] ??= new Array(2 * (b - a)).fill(0);
  for (let i = a, k = 0; i < b; i++, k += 2) {
    const c = 2 * buf[i];
    args[k] = HEX_CODES[c];
    args[k + 1] = HEX_CODES[c + 1];
  }
  return String.fromCharCode.apply(null, args);
}

/**
 * The last id a field read and its hex: the spans of a trace come together, so a span's trace id
 * (and its parent's id) is mostly the one before, and the same string is reused instead of made.
 */
export class HexIdMemo {
  /** The last id's bytes (copied into one buffer: a typed array made a miss cost more than the hex). */
  private bytes = new Uint8Array(32);
  private length = -1;
  private hex = "";

  /** The hex of bytes [a, b) of `buf`. */
  of(buf: Uint8Array, a: number, b: number): string {
    const last = this.bytes, len = b - a;
    if (len === this.length) {
      let k = 0;
      while (k < len && buf[a + k] === last[k]) k++;
      if (k === len) return this.hex;
    }
    if (len > last.length) return hexOf(buf, a, b);
    for (let k = 0; k < len; k++) last[k] = buf[a + k];
    this.length = len;
    return this.hex = hexOf(buf, a, b);
  }
}

/** A bytes field (trace or span id) as lowercase hex (`memo`: reused when it is the last id read). */
export function readHexId(r: PbReader, memo?: HexIdMemo): string {
  const end = r.bytesEnd();
  const s = memo === undefined ? hexOf(r.buf, r.pos, end) : memo.of(r.buf, r.pos, end);
  r.pos = end;
  return s;
}

/** An `AnyValue` message body of length-prefixed form (the reader is at its length). */
export function readAnyValue(r: PbReader, depth: number): AnyValue {
  const end = r.msgEnd();
  let v: AnyValue = { type: "empty" };
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 10: // string_value = 1
        v = { type: "string", value: r.str() };
        break;
      case 16: // bool_value = 2
        v = { type: "bool", value: r.bool() };
        break;
      case 24: // int_value = 3
        v = { type: "int", value: r.int64Exact() };
        break;
      case 33: // double_value = 4
        v = { type: "double", value: r.f64() };
        break;
      case 42: // array_value = 5
        v = { type: "array", value: readArrayValue(r, depth + 1) };
        break;
      case 50: // kvlist_value = 6
        v = { type: "kvlist", value: readKeyValueList(r, depth + 1) };
        break;
      case 58: // bytes_value = 7
        v = { type: "bytes", value: r.bytes().slice() };
        break;
      default:
        r.skip(t & 7);
    }
  }
  r.close(end);
  return v;
}

function checkDepth(depth: number): void {
  if (depth > MAX_VALUE_DEPTH) throw new ProtoDecodeError(`AnyValue nested deeper than ${MAX_VALUE_DEPTH}`);
}

function readArrayValue(r: PbReader, depth: number): AnyValue[] {
  checkDepth(depth);
  const end = r.msgEnd();
  const out: AnyValue[] = [];
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) out.push(readAnyValue(r, depth));
    else r.skip(t & 7);
  }
  r.close(end);
  return out;
}

function readKeyValueList(r: PbReader, depth: number): KeyValue[] {
  checkDepth(depth);
  const end = r.msgEnd();
  const out: KeyValue[] = [];
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) out.push(readKeyValue(r, depth));
    else r.skip(t & 7);
  }
  r.close(end);
  return out;
}

const EMPTY: AnyValue = { type: "empty" };

/** A `KeyValue` message (the reader is at its length); appends nothing, returns it. */
export function readKeyValue(r: PbReader, depth = 0): KeyValue {
  const end = r.msgEnd();
  let key = "";
  let value = EMPTY;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) key = r.str();
    else if (t === 18) value = readAnyValue(r, depth);
    else r.skip(t & 7);
  }
  r.close(end);
  return { key, value };
}

/** A `Resource` message. */
export function readResource(r: PbReader): Resource {
  const end = r.msgEnd();
  const res: Resource = { attributes: [], droppedAttributesCount: 0 };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) res.attributes.push(readKeyValue(r));
    else if (t === 16) res.droppedAttributesCount = r.uint32();
    else r.skip(t & 7);
  }
  r.close(end);
  return res;
}

/** An `InstrumentationScope` message. */
export function readScope(r: PbReader): InstrumentationScope {
  const end = r.msgEnd();
  const s: InstrumentationScope = { name: "", version: "", attributes: [], droppedAttributesCount: 0 };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) s.name = r.str();
    else if (t === 18) s.version = r.str();
    else if (t === 26) s.attributes.push(readKeyValue(r));
    else if (t === 32) s.droppedAttributesCount = r.uint32();
    else r.skip(t & 7);
  }
  r.close(end);
  return s;
}

/** Reads a packed (or a single unpacked) run of fixed64 values into `out` as numbers. */
export function readFixed64s(r: PbReader, t: number, out: number[]): void {
  if ((t & 7) === 1) {
    out.push(r.fixed64Number());
    return;
  }
  const end = r.bytesEnd();
  if ((end - r.pos) % 8 !== 0) throw new ProtoDecodeError("packed fixed64 length not a multiple of 8");
  while (r.pos < end) out.push(r.fixed64Number());
}

/** Reads a packed (or single) run of doubles into `out`. */
export function readDoubles(r: PbReader, t: number, out: number[]): void {
  if ((t & 7) === 1) {
    out.push(r.f64());
    return;
  }
  const end = r.bytesEnd();
  if ((end - r.pos) % 8 !== 0) throw new ProtoDecodeError("packed double length not a multiple of 8");
  while (r.pos < end) out.push(r.f64());
}

/** Reads a packed (or single) run of uint64 varints into `out` as numbers. */
export function readUint64s(r: PbReader, t: number, out: number[]): void {
  if ((t & 7) === 0) {
    out.push(r.int64());
    return;
  }
  const end = r.bytesEnd();
  while (r.pos < end) out.push(r.int64());
  r.close(end);
}
