/**
 * Compression functions (`encode_/decode_` gzip, zlib, zstd, snappy, lz4). Input and output are VRL
 * byte strings (`../bytes.ts`); decoded output is capped so a small hostile body cannot exhaust memory.
 */

import * as zlib from "node:zlib";
import { decodeLz4Block, decodeLz4Frame, encodeLz4Block, isLz4Frame } from "../../../src/codec/lz4.ts";
import { decodeSnappy, encodeSnappy } from "../../../src/codec/snappy.ts";
import { decodeZstd } from "../../../src/codec/zstd.ts";
import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req } from "./def.ts";

const S = K.BYTES;
/** Largest output a decode function produces (VRL has no cap; a pipeline must not be exhausted). */
const MAX_DECODED = 64 << 20;

const bytesOf = (v: VrlValue | undefined) => utf8Bytes(v as string);

function level(v: VrlValue | undefined, dflt: number, max: number): number {
  if (v === undefined || v === null) return dflt;
  const n = Number(v as bigint);
  return n < 0 ? 0 : n > max ? max : n;
}

function decodeWith(name: string, f: () => Uint8Array): string {
  try {
    return bytesString(f());
  } catch (e) {
    return fail(`unable to decode value with ${name} decoder: ${(e as Error).message}`);
  }
}

const zopts = { maxOutputLength: MAX_DECODED };

function gzip(b: Uint8Array, lvl: number): Uint8Array {
  const out = new Uint8Array(zlib.gzipSync(b, { level: lvl }));
  out[9] = 0xff; // flate2 (VRL) writes "unknown" as the OS byte; zlib writes the host's.
  return out;
}

/** Compression functions by name. */
export const COMPRESSION_FNS: Record<string, FnDef> = {
  encode_gzip: {
    params: [req("value", S), opt("compression_level", K.INTEGER)],
    returns: S,
    fresh: true,
    call: ([v, l]) => bytesString(gzip(bytesOf(v), level(l, 6, 9))),
  },
  decode_gzip: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => decodeWith("Gzip", () => zlib.gunzipSync(bytesOf(v), zopts)),
  },
  encode_zlib: {
    params: [req("value", S), opt("compression_level", K.INTEGER)],
    returns: S,
    fresh: true,
    call: ([v, l]) => bytesString(zlib.deflateSync(bytesOf(v), { level: level(l, 6, 9) })),
  },
  decode_zlib: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => decodeWith("Zlib", () => zlib.inflateSync(bytesOf(v), zopts)),
  },
  encode_zstd: {
    params: [req("value", S), opt("compression_level", K.INTEGER)],
    returns: S,
    fresh: true,
    call: ([v, l]) =>
      bytesString(
        zlib.zstdCompressSync(bytesOf(v), {
          params: { [zlib.constants.ZSTD_c_compressionLevel]: level(l, 3, 22) },
        }),
      ),
  },
  decode_zstd: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => decodeWith("Zstd", () => decodeZstd(bytesOf(v), MAX_DECODED)),
  },
  encode_snappy: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => bytesString(encodeSnappy(bytesOf(v))),
  },
  decode_snappy: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => decodeWith("Snappy", () => decodeSnappy(bytesOf(v), MAX_DECODED)),
  },
  encode_lz4: {
    params: [req("value", S), opt("prepend_size", K.BOOLEAN)],
    returns: S,
    fallible: true,
    call: ([v, p]) => {
      const src = bytesOf(v);
      const block = encodeLz4Block(src);
      if (!flag(p, true)) return bytesString(block);
      const out = new Uint8Array(4 + block.length);
      new DataView(out.buffer).setUint32(0, src.length, true);
      out.set(block, 4);
      return bytesString(out);
    },
  },
  decode_lz4: {
    params: [req("value", S), opt("buf_size", K.INTEGER), opt("prepended_size", K.BOOLEAN)],
    returns: S,
    fallible: true,
    call: ([v, buf, p]) =>
      decodeWith("Lz4", () => {
        const src = bytesOf(v);
        const cap = buf === undefined || buf === null
          ? 1 << 20
          : Math.min(Number(buf as bigint), MAX_DECODED);
        if (isLz4Frame(src)) return decodeLz4Frame(src, MAX_DECODED);
        if (!flag(p, true)) return decodeLz4Block(src, Math.max(0, cap));
        if (src.length < 4) throw new Error("missing the prepended size");
        const size = new DataView(src.buffer, src.byteOffset, 4).getUint32(0, true);
        if (size > MAX_DECODED) throw new Error(`decoded size ${size} is too large`);
        const out = decodeLz4Block(src.subarray(4), size);
        if (out.length !== size) throw new Error(`expected ${size} bytes, decoded ${out.length}`);
        return out;
      }),
  },
};
