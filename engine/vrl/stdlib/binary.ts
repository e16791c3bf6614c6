/**
 * Functions over raw bytes: `ip_pton`/`ip_ntop`, `encode_charset`/`decode_charset` (`charset.ts`), `parse_cbor`.
 * CBOR is decoded here rather than with a library because VRL keeps integers and floats apart and
 * the JS CBOR libraries give both as `number`.
 */

import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import { VrlTimestamp, type VrlValue } from "../value.ts";
import { decodeCharset, encodeCharset } from "./charset.ts";
import { fail, type FnDef, req } from "./def.ts";
import { ipBytes, ipText } from "./ip.ts";

const S = K.BYTES;

/** A CBOR item decoder over one buffer. */
class Cbor {
  private at = 0;
  private readonly view: DataView;
  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  document(): VrlValue {
    const v = this.item(0);
    if (this.at !== this.b.length) throw new Error("trailing bytes after the CBOR item");
    return v;
  }

  private need(n: number): number {
    if (this.at + n > this.b.length) throw new Error("unexpected end of CBOR data");
    const at = this.at;
    this.at += n;
    return at;
  }

  private arg(info: number): bigint | undefined {
    if (info < 24) return BigInt(info);
    if (info === 24) return BigInt(this.b[this.need(1)]);
    if (info === 25) return BigInt(this.view.getUint16(this.need(2)));
    if (info === 26) return BigInt(this.view.getUint32(this.need(4)));
    if (info === 27) return this.view.getBigUint64(this.need(8));
    if (info === 31) return undefined;
    throw new Error(`invalid CBOR additional information ${info}`);
  }

  private item(depth: number): VrlValue {
    if (depth > 128) throw new Error("CBOR nested too deeply");
    const head = this.b[this.need(1)];
    const major = head >> 5, info = head & 31;
    if (major === 7) return this.simple(info);
    const n = this.arg(info);
    switch (major) {
      case 0:
        return BigInt.asIntN(64, n!);
      case 1:
        return BigInt.asIntN(64, -1n - n!);
      case 2:
        return bytesString(this.chunks(n, 2));
      case 3:
        return new TextDecoder().decode(this.chunks(n, 3));
      case 4: {
        const out: VrlValue[] = [];
        while (n === undefined ? !this.breakNext() : out.length < Number(n)) out.push(this.item(depth + 1));
        return out;
      }
      case 5: {
        const out = new Map<string, VrlValue>();
        for (let i = 0; n === undefined ? !this.breakNext() : i < Number(n); i++) {
          const k = this.item(depth + 1);
          out.set(typeof k === "string" ? k : String(k), this.item(depth + 1));
        }
        return out;
      }
      default: {
        const v = this.item(depth + 1);
        if (n === 1n && (typeof v === "bigint" || typeof v === "number")) {
          return VrlTimestamp.fromMs(Number(v) * 1000);
        }
        return v;
      }
    }
  }

  private breakNext(): boolean {
    if (this.b[this.at] !== 0xff) return false;
    this.at++;
    return true;
  }

  private chunks(n: bigint | undefined, major: number): Uint8Array {
    if (n !== undefined) return this.b.slice(this.need(Number(n)), this.at);
    const parts: number[] = [];
    while (!this.breakNext()) {
      const head = this.b[this.need(1)];
      if (head >> 5 !== major) throw new Error("invalid chunk in an indefinite-length string");
      const len = this.arg(head & 31);
      if (len === undefined) throw new Error("nested indefinite-length string");
      parts.push(...this.b.subarray(this.need(Number(len)), this.at));
    }
    return Uint8Array.from(parts);
  }

  private simple(info: number): VrlValue {
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 22 || info === 23) return null;
    if (info === 25) return this.finite(halfFloat(this.view.getUint16(this.need(2))));
    if (info === 26) return this.finite(this.view.getFloat32(this.need(4)));
    if (info === 27) return this.finite(this.view.getFloat64(this.need(8)));
    if (info === 24) return (this.need(1), null);
    if (info < 20) return null;
    throw new Error(info === 31 ? "unexpected break" : `invalid CBOR simple value ${info}`);
  }

  private finite(f: number): VrlValue {
    return Number.isNaN(f) ? null : f;
  }
}

function halfFloat(h: number): number {
  const exp = (h >> 10) & 31, frac = h & 1023, sign = h & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Byte-level functions by name. */
export const BINARY_FNS: Record<string, FnDef> = {
  ip_pton: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => bytesString(ipBytes(v as string)),
  },
  ip_ntop: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => ipText(utf8Bytes(v as string)),
  },
  encode_charset: {
    params: [req("value", S), req("to_charset", S)],
    returns: S,
    fallible: true,
    call: ([v, c]) => bytesString(encodeCharset(v as string, c as string)),
  },
  decode_charset: {
    params: [req("value", S), req("from_charset", S)],
    returns: S,
    fallible: true,
    call: ([v, c]) => decodeCharset(utf8Bytes(v as string), c as string),
  },
  parse_cbor: {
    params: [req("value", S)],
    returns: K.ANY & ~K.REGEX,
    fallible: true,
    call: ([v]) => {
      try {
        return new Cbor(utf8Bytes(v as string)).document();
      } catch (e) {
        return fail(`unable to parse CBOR: ${(e as Error).message}`);
      }
    },
  },
};
