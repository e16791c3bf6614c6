/**
 * zstd bodies through `node:zlib`, with output capped at the body limit so a small frame cannot
 * expand without bound (over the limit → 413), and with the frames checked whole first (corrupt or
 * truncated → 400): Deno 2.9.6's `zstdDecompressSync` returns what it decoded of a truncated frame
 * without an error (measured), which would turn a cut-off upload into silently partial data.
 */

import * as zlib from "node:zlib";
import { corruptBody, inflatedTooLarge } from "./body_errors.ts";

const FRAME_MAGIC = 0xfd2fb528;

/** Why the bytes are not a sequence of whole zstd frames (RFC 8878 §3.1), or null when they are. */
function zstdFramesProblem(bytes: Uint8Array): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  if (bytes.length === 0) return "empty body";
  while (at < bytes.length) {
    if (at + 4 > bytes.length) return "truncated frame magic";
    const magic = view.getUint32(at, true);
    at += 4;
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (at + 4 > bytes.length) return "truncated skippable frame";
      at += 4 + view.getUint32(at, true);
      continue;
    }
    if (magic !== FRAME_MAGIC) return "not a zstd frame";
    if (at >= bytes.length) return "truncated frame header";
    const fhd = bytes[at++];
    const single = (fhd & 0x20) !== 0;
    const fcsSize = [single ? 1 : 0, 2, 4, 8][fhd >> 6];
    at += (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3] + fcsSize;
    for (let last = false; !last;) {
      if (at + 3 > bytes.length) return "truncated block header";
      const header = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
      at += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 3;
      if (type === 3) return "reserved block type";
      at += type === 1 ? 1 : header >>> 3;
    }
    if (fhd & 0x04) at += 4;
  }
  return at === bytes.length ? null : "truncated frame";
}

/** Decodes zstd frames; output larger than `limit` (if > 0) → 413, malformed or truncated → 400. */
export function decodeZstd(bytes: Uint8Array, limit: number): Uint8Array {
  const problem = zstdFramesProblem(bytes);
  if (problem !== null) throw corruptBody("zstd", problem);
  try {
    const cap = Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : Number.MAX_SAFE_INTEGER;
    const out = zlib.zstdDecompressSync(bytes, { maxOutputLength: cap });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE") throw inflatedTooLarge("zstd", limit);
    throw corruptBody("zstd", (e as Error).message);
  }
}

/** Compresses bytes with zstd at the default level. */
export function encodeZstd(bytes: Uint8Array): Uint8Array {
  const out = zlib.zstdCompressSync(bytes);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
