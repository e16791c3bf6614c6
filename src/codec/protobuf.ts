/**
 * A minimal protobuf wire reader for the hot decode paths (remote write, remote read requests).
 * protobufjs' generated decoders allocate an object per message and return int64 as `Long`; reading
 * fields straight into our own shapes is faster and lets label strings be UTF-8-checked on the way.
 * Encoding stays with protobufjs' `Writer`.
 */

/** A malformed protobuf message; callers turn it into their protocol's 400 error. */
export class ProtoDecodeError extends Error {}

const utf8Strict = new TextDecoder("utf-8", { fatal: true });
const utf8Lossy = new TextDecoder("utf-8");

/** Reads fields of one message (or a sub-range of it) in order. */
export class ProtoReader {
  pos: number;
  readonly buf: Uint8Array;
  readonly end: number;
  private readonly view: DataView;

  constructor(buf: Uint8Array, pos = 0, end = buf.length) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** A reader over the bytes [pos, end) of the same buffer. */
  sub(pos: number, end: number): ProtoReader {
    return new ProtoReader(this.buf, pos, end);
  }

  /** True while fields remain. */
  more(): boolean {
    return this.pos < this.end;
  }

  /** A varint of up to 32 significant bits (tags, lengths, enums, uint32). */
  uint32(): number {
    const buf = this.buf;
    let p = this.pos;
    let b = buf[p++];
    let v = b & 0x7f;
    if (b >= 0x80) {
      b = buf[p++];
      v |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = buf[p++];
        v |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = buf[p++];
          v |= (b & 0x7f) << 21;
          if (b >= 0x80) {
            b = buf[p++];
            v = (v >>> 0) + (b & 0x0f) * 0x10000000;
            // Bytes 6..10 only carry sign extension of negative int32 enums; skip them.
            while (b >= 0x80 && p < this.end) b = buf[p++];
            if (b >= 0x80) throw new ProtoDecodeError("invalid varint");
          }
        }
      }
    }
    if (p > this.end) throw new ProtoDecodeError("truncated varint");
    this.pos = p;
    return v >>> 0;
  }

  /** A signed int64 varint as a number (exact up to 2^53; timestamps in ms or s). */
  int64(): number {
    const buf = this.buf;
    const start = this.pos;
    let p = start;
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      const b = buf[p++];
      if (p > this.end) throw new ProtoDecodeError("truncated varint");
      v += (b & 0x7f) * mul;
      if (b < 0x80) {
        this.pos = p;
        return v;
      }
      mul *= 128;
    }
    // Rare: large or negative values (10 bytes of two's complement); do it exactly.
    let big = 0n;
    let shift = 0n;
    p = start;
    for (let i = 0; i < 10; i++) {
      if (p >= this.end) throw new ProtoDecodeError("truncated varint");
      const b = buf[p++];
      big |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = p;
        return Number(BigInt.asIntN(64, big));
      }
      shift += 7n;
    }
    throw new ProtoDecodeError("invalid varint");
  }

  /** A little-endian IEEE double (wire type 1). */
  double(): number {
    const p = this.pos;
    if (p + 8 > this.end) throw new ProtoDecodeError("truncated double");
    this.pos = p + 8;
    return this.view.getFloat64(p, true);
  }

  /** Reads a length prefix and returns the end offset of the bytes that follow. */
  bytesEnd(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) throw new ProtoDecodeError("truncated length-delimited field");
    return end;
  }

  /** A length-delimited byte string (a view, not a copy). */
  bytes(): Uint8Array {
    const end = this.bytesEnd();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  /** A length-delimited UTF-8 string; `strict` rejects invalid UTF-8 instead of replacing it. */
  string(strict: boolean): string {
    const end = this.bytesEnd();
    const s = decodeUtf8(this.buf, this.pos, end, strict);
    this.pos = end;
    return s;
  }

  /**
   * A length-delimited UTF-8 string that rarely repeats (a log line): not looked up in or added to
   * the cache of short strings, where it would cost a hash and evict strings that do repeat.
   */
  uniqueString(strict: boolean): string {
    const end = this.bytesEnd();
    const s = decodeUtf8Unique(this.buf, this.pos, end, strict);
    this.pos = end;
    return s;
  }

  /** Skips a field of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos = this.bytesEnd();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new ProtoDecodeError(`invalid wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new ProtoDecodeError("truncated field");
  }
}

/** `String.fromCharCode`'s arguments by length, reused (`apply` on a subarray cost ~2x as much). */
const charArgs: number[][] = [];

/** ASCII bytes [a, b) (at most 64) as a string. */
function asciiOf(buf: Uint8Array, a: number, b: number): string {
  const args = charArgs[b - a] ??= new Array(b - a).fill(0);
  for (let i = a, k = 0; i < b; i++, k++) args[k] = buf[i];
  return String.fromCharCode.apply(null, args);
}

const CACHE_SLOTS = 16384;
const cacheStrings: string[] = new Array(CACHE_SLOTS).fill("");

/**
 * Decodes UTF-8 bytes [a, b). Short ASCII strings (label names and values, which repeat across
 * requests) come from a small hash-indexed cache, so a known string costs a hash and a compare
 * instead of an allocation; TextDecoder's per-call cost would dominate otherwise.
 */
function decodeUtf8(buf: Uint8Array, a: number, b: number, strict: boolean): string {
  const len = b - a;
  if (len === 0) return "";
  if (len <= 64) {
    let h = 0x811c9dc5;
    let high = 0;
    for (let i = a; i < b; i++) {
      const c = buf[i];
      high |= c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (high < 0x80) {
      const slot = (h >>> 0) & (CACHE_SLOTS - 1);
      const hit = cacheStrings[slot];
      if (hit.length === len) {
        let same = true;
        for (let i = 0; i < len; i++) {
          if (hit.charCodeAt(i) !== buf[a + i]) {
            same = false;
            break;
          }
        }
        if (same) return hit;
      }
      const s = asciiOf(buf, a, b);
      cacheStrings[slot] = s;
      return s;
    }
  }
  return decodeWithTextDecoder(buf, a, b, strict);
}

function decodeWithTextDecoder(buf: Uint8Array, a: number, b: number, strict: boolean): string {
  try {
    return (strict ? utf8Strict : utf8Lossy).decode(buf.subarray(a, b));
  } catch {
    throw new ProtoDecodeError("invalid utf-8 sequence in string");
  }
}

/** Decodes UTF-8 bytes [a, b) without the cache (ASCII up to 64 bytes by char codes, as decodeUtf8). */
function decodeUtf8Unique(buf: Uint8Array, a: number, b: number, strict: boolean): string {
  const len = b - a;
  if (len === 0) return "";
  if (len <= 64) {
    let high = 0;
    for (let i = a; i < b; i++) high |= buf[i];
    if (high < 0x80) return asciiOf(buf, a, b);
  }
  return decodeWithTextDecoder(buf, a, b, strict);
}
