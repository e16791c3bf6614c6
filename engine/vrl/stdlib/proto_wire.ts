/**
 * The protobuf wire format with 64-bit integers as `bigint`, for `parse_proto`/`encode_proto`: VRL
 * integers are i64, so every varint and fixed64 is read exactly (the hot-path reader in
 * `src/codec/protobuf.ts` trades that for speed, and protobufjs would hand out `Long`s).
 */

/** A malformed message; the text is prost's `DecodeError` description. */
export class WireError extends Error {}

/** Reads one message's bytes in order. */
export class WireReader {
  pos: number;
  readonly end: number;
  readonly buf: Uint8Array;
  private readonly view: DataView;

  constructor(buf: Uint8Array, pos = 0, end = buf.length) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** True while bytes remain. */
  more(): boolean {
    return this.pos < this.end;
  }

  /** A varint as an unsigned 64-bit `bigint`. */
  varint(): bigint {
    let v = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new WireError("buffer underflow");
      const b = this.buf[this.pos++];
      v |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return BigInt.asUintN(64, v);
    }
    throw new WireError("invalid varint");
  }

  /** A varint that must fit a JS number (tags, lengths). */
  small(): number {
    const v = this.varint();
    if (v > 0xffffffffn) throw new WireError("invalid varint");
    return Number(v);
  }

  /** `n` raw bytes (a view). */
  take(n: number): Uint8Array {
    if (this.pos + n > this.end) throw new WireError("buffer underflow");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A length-delimited field's bytes. */
  bytes(): Uint8Array {
    return this.take(this.small());
  }

  /** Little-endian fixed-width values. */
  fixed32(): number {
    const p = this.take(4).byteOffset - this.buf.byteOffset;
    return this.view.getUint32(p, true);
  }
  fixed64(): bigint {
    const p = this.take(8).byteOffset - this.buf.byteOffset;
    return this.view.getBigUint64(p, true);
  }
  float(): number {
    const p = this.take(4).byteOffset - this.buf.byteOffset;
    return this.view.getFloat32(p, true);
  }
  double(): number {
    const p = this.take(8).byteOffset - this.buf.byteOffset;
    return this.view.getFloat64(p, true);
  }

  /** The bytes of a group whose start tag (field `number`) was just read; stops after its end tag. */
  group(number: number): Uint8Array {
    const start = this.pos;
    for (;;) {
      const before = this.pos;
      const tag = this.small();
      if ((tag & 7) === 4) {
        if (tag >>> 3 !== number) throw new WireError("unexpected end group tag");
        return this.buf.subarray(start, before);
      }
      this.skip(tag);
    }
  }

  /** Skips the value of a field whose tag was just read. */
  skip(tag: number): void {
    switch (tag & 7) {
      case 0:
        this.varint();
        return;
      case 1:
        this.take(8);
        return;
      case 2:
        this.bytes();
        return;
      case 3:
        this.group(tag >>> 3);
        return;
      case 5:
        this.take(4);
        return;
      default:
        throw new WireError(`invalid wire type value: ${tag & 7}`);
    }
  }
}

/** Builds a message's bytes. */
export class WireWriter {
  private chunks: number[] = [];

  /** An unsigned varint from the low 64 bits of `v`. */
  varint(v: bigint): void {
    let u = BigInt.asUintN(64, v);
    while (u >= 0x80n) {
      this.chunks.push(Number(u & 0x7fn) | 0x80);
      u >>= 7n;
    }
    this.chunks.push(Number(u));
  }

  /** A field tag. */
  tag(number: number, wireType: number): void {
    this.varint(BigInt(number * 8 + wireType));
  }

  /** Raw bytes, with a length prefix. */
  bytes(b: Uint8Array): void {
    this.varint(BigInt(b.length));
    for (const x of b) this.chunks.push(x);
  }

  /** Little-endian fixed-width values. */
  fixed32(v: bigint): void {
    this.fixed(BigInt.asUintN(32, v), 4);
  }
  fixed64(v: bigint): void {
    this.fixed(BigInt.asUintN(64, v), 8);
  }
  float(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    for (const x of b) this.chunks.push(x);
  }
  double(v: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    for (const x of b) this.chunks.push(x);
  }

  /** The bytes written so far. */
  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }

  private fixed(u: bigint, n: number): void {
    for (let i = 0; i < n; i++) {
      this.chunks.push(Number(u & 0xffn));
      u >>= 8n;
    }
  }
}

/** Zigzag decoding of a `sint32`/`sint64` varint. */
export function unzigzag(u: bigint): bigint {
  return (u >> 1n) ^ -(u & 1n);
}

/** Zigzag encoding for a `sint64` (or a `sint32` already narrowed). */
export function zigzag(v: bigint): bigint {
  return BigInt.asUintN(64, (v << 1n) ^ (v >> 63n));
}

/** The wire type of each scalar field type (packable in a repeated field); others are length-delimited (2). */
export const SCALAR_WIRE_TYPE: Record<string, number> = {
  DOUBLE: 1,
  FLOAT: 5,
  INT32: 0,
  INT64: 0,
  UINT32: 0,
  UINT64: 0,
  SINT32: 0,
  SINT64: 0,
  FIXED32: 5,
  FIXED64: 1,
  SFIXED32: 5,
  SFIXED64: 1,
  BOOL: 0,
  ENUM: 0,
};
