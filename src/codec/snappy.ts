/**
 * Snappy raw block format (what Prometheus remote write/read and Loki protobuf push send), with the
 * declared length checked before anything is allocated: a 1 KB body claiming 4 GiB is refused with
 * 413, and a truncated or corrupt body is a 400 instead of zero-padded garbage (snappyjs returns a
 * zero-filled buffer for truncated input, so decoding is done here with every bound checked).
 */

import snappy from "snappyjs";
import type { PetrelError } from "../common/errors.ts";
import { corruptBody, inflatedTooLarge } from "./body_errors.ts";

/** Reads the uvarint length header of a snappy block; returns [length, headerBytes]. */
export function snappyDecodedLength(bytes: Uint8Array): [number, number] {
  let result = 0;
  let shift = 0;
  for (let i = 0; i < 5 && i < bytes.length; i++) {
    const b = bytes[i];
    result += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      if (result > 0xffffffff) break;
      return [result, i + 1];
    }
    shift += 7;
  }
  throw corrupt("invalid length header");
}

function corrupt(why: string): PetrelError {
  return corruptBody("snappy", why);
}

/** Decodes a snappy block; header length > `limit` (if > 0) → 413 before allocating; malformed → 400. */
export function decodeSnappy(bytes: Uint8Array, limit: number): Uint8Array {
  const [length, start] = snappyDecodedLength(bytes);
  if (limit > 0 && length > limit) {
    throw inflatedTooLarge("snappy", limit, `the block declares ${length} bytes`);
  }
  const out = new Uint8Array(length);
  const n = bytes.length;
  let s = start;
  let d = 0;
  while (s < n) {
    const tag = bytes[s++];
    const kind = tag & 3;
    if (kind === 0) {
      let len = tag >>> 2;
      if (len >= 60) {
        const extra = len - 59;
        if (s + extra > n) throw corrupt("truncated literal length");
        len = 0;
        for (let k = 0; k < extra; k++) len += bytes[s + k] * 2 ** (8 * k);
        s += extra;
      }
      len += 1;
      if (s + len > n) throw corrupt("truncated literal");
      if (d + len > length) throw corrupt("literal overruns declared length");
      if (len < 16) {
        for (let k = 0; k < len; k++) out[d + k] = bytes[s + k];
      } else {
        out.set(bytes.subarray(s, s + len), d);
      }
      s += len;
      d += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (s >= n) throw corrupt("truncated copy");
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | bytes[s++];
    } else if (kind === 2) {
      if (s + 2 > n) throw corrupt("truncated copy");
      len = (tag >>> 2) + 1;
      offset = bytes[s] | (bytes[s + 1] << 8);
      s += 2;
    } else {
      if (s + 4 > n) throw corrupt("truncated copy");
      len = (tag >>> 2) + 1;
      offset = (bytes[s] | (bytes[s + 1] << 8) | (bytes[s + 2] << 16)) + bytes[s + 3] * 0x1000000;
      s += 4;
    }
    if (offset === 0 || offset > d) throw corrupt("copy offset out of range");
    if (d + len > length) throw corrupt("copy overruns declared length");
    if (offset >= len && len > 16) {
      out.copyWithin(d, d - offset, d - offset + len);
      d += len;
    } else {
      // Overlapping copies repeat the window byte by byte, as the format defines.
      for (let k = 0; k < len; k++, d++) out[d] = out[d - offset];
    }
  }
  if (d !== length) throw corrupt(`truncated body: decoded ${d} of ${length} declared bytes`);
  return out;
}

/** Compresses bytes into a snappy raw block (snappyjs). */
export function encodeSnappy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  // snappyjs always returns a fresh array over its own ArrayBuffer.
  return snappy.compress(bytes) as Uint8Array<ArrayBuffer>;
}
