/**
 * zstd bodies (remote write with `Content-Encoding: zstd`) through `node:zlib`, with output capped
 * at the body limit so a small frame cannot expand without bound: over the limit → 413, corrupt → 400.
 */

import * as zlib from "node:zlib";
import { invalidArguments, tooLarge } from "../common/errors.ts";

/** Decodes a zstd frame; output larger than `limit` → 413, malformed → 400. */
export function decodeZstd(bytes: Uint8Array, limit: number): Uint8Array {
  try {
    const cap = Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : Number.MAX_SAFE_INTEGER;
    const out = zlib.zstdDecompressSync(bytes, { maxOutputLength: cap });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE") {
      throw tooLarge(`Request body too large: zstd body expands beyond the limit of ${limit} bytes`);
    }
    throw invalidArguments(`Failed to decompress zstd body: ${(e as Error).message}`);
  }
}

/** Compresses bytes with zstd at the default level. */
export function encodeZstd(bytes: Uint8Array): Uint8Array {
  const out = zlib.zstdCompressSync(bytes);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
