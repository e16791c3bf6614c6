/**
 * Snappy's framing format (the `snappy` Content-Encoding of Go's `snappy.NewBufferedWriter`, which the
 * OpenTelemetry Collector's confighttp has sent, and its `x-snappy-framed`), next to the raw block
 * format of snappy.ts: chunks of a type byte and a 24-bit length, the data masked-CRC-32C checked.
 */
import type { PetrelError } from "../common/errors.ts";
import { corruptBody, inflatedTooLarge } from "./body_errors.ts";
import { crc32c } from "./crc32c.ts";
import { decodeSnappy } from "./snappy.ts";

/** The stream identifier chunk every framed stream starts with. */
const STREAM_ID = [0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]; // …"sNaPpY"

/** Whether `bytes` start as a framed snappy stream (a raw block never does: its length comes first). */
export function isSnappyFramed(bytes: Uint8Array): boolean {
  return bytes.length >= STREAM_ID.length && STREAM_ID.every((b, i) => bytes[i] === b);
}

/** A snappy body in either format: framed when it starts with the stream identifier, else a raw block. */
export function decodeSnappyBody(bytes: Uint8Array, limit: number): Uint8Array {
  return isSnappyFramed(bytes) ? decodeSnappyFramed(bytes, limit) : decodeSnappy(bytes, limit);
}

/** The CRC of a chunk's data as the framing format stores it (rotated and offset). */
export function maskedCrc32c(data: Uint8Array): number {
  const c = crc32c(data);
  return ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

function corrupt(why: string): PetrelError {
  return corruptBody("snappy (framed)", why);
}

/** Decodes a framed snappy stream; more than `limit` bytes out (if > 0) → 413, malformed → 400. */
export function decodeSnappyFramed(bytes: Uint8Array, limit: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) throw corrupt("truncated chunk header");
    const type = bytes[at];
    const length = bytes[at + 1] | (bytes[at + 2] << 8) | (bytes[at + 3] << 16);
    const start = at + 4;
    at = start + length;
    if (at > bytes.length) throw corrupt("truncated chunk");
    if (type === 0xff || type >= 0x80) continue; // stream identifier, padding, skippable chunks
    if (type > 0x01) throw corrupt(`reserved chunk type 0x${type.toString(16)}`);
    if (length < 4) throw corrupt("chunk too short for its checksum");
    const stored =
      (bytes[start] | (bytes[start + 1] << 8) | (bytes[start + 2] << 16) | (bytes[start + 3] << 24)) >>>
      0;
    const payload = bytes.subarray(start + 4, at);
    const data = type === 0x00 ? decodeSnappy(payload, limit > 0 ? Math.max(1, limit - total) : 0) : payload;
    if (maskedCrc32c(data) !== stored) throw corrupt("checksum mismatch");
    total += data.length;
    if (limit > 0 && total > limit) throw inflatedTooLarge("snappy", limit);
    parts.push(data);
  }
  const out = new Uint8Array(total);
  let d = 0;
  for (const p of parts) {
    out.set(p, d);
    d += p.length;
  }
  return out;
}
