/**
 * Functions over raw bytes: `ip_pton`/`ip_ntop`, `encode_charset`/`decode_charset`, `parse_cbor`.
 * CBOR is decoded here rather than with a library because VRL keeps integers and floats apart and
 * the JS CBOR libraries give both as `number`.
 */

import { Buffer } from "node:buffer";
import { isIP } from "node:net";
import iconv from "iconv-lite";
import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import { VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, type FnDef, req } from "./def.ts";

const S = K.BYTES;

function ipBytes(s: string): Uint8Array {
  const family = isIP(s);
  if (family === 4) return Uint8Array.from(s.split(".").map(Number));
  if (family !== 6) return fail("unable to parse IP address: invalid IP address syntax");
  const [head, tail] = s.includes("::") ? s.split("::") : [s, undefined];
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  let h = groups(head), t = groups(tail);
  const v4 = (g: string[]) => {
    const last = g[g.length - 1];
    if (!last?.includes(".")) return g;
    const b = last.split(".").map(Number);
    return [...g.slice(0, -1), ((b[0] << 8) | b[1]).toString(16), ((b[2] << 8) | b[3]).toString(16)];
  };
  if (tail === undefined) h = v4(h);
  else t = v4(t);
  const all = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  const out = new Uint8Array(16);
  all.forEach((g, i) => (out[2 * i] = parseInt(g, 16) >> 8, out[2 * i + 1] = parseInt(g, 16) & 255));
  return out;
}

function ipText(b: Uint8Array): string {
  if (b.length === 4) return [...b].join(".");
  if (b.length !== 16) return fail("unable to convert value to IP address: value must be 4 or 16 bytes long");
  const g = Array.from({ length: 8 }, (_, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  // IPv4-mapped addresses print in dotted form, as Rust's Ipv6Addr Display does.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return `::ffff:${[...b.subarray(12)].join(".")}`;
  }
  let best = -1, bestLen = 0;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) (best = i, bestLen = j - i);
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`;
}

function charset(name: string): string {
  const n = name.trim().toLowerCase();
  if (!iconv.encodingExists(n)) return fail(`Unknown charset: ${name}`);
  return n;
}

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
    call: ([v, c]) => bytesString(new Uint8Array(iconv.encode(v as string, charset(c as string)))),
  },
  decode_charset: {
    params: [req("value", S), req("from_charset", S)],
    returns: S,
    fallible: true,
    call: ([v, c]) => iconv.decode(Buffer.from(utf8Bytes(v as string)), charset(c as string)),
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
