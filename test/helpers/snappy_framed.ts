/** Snappy framing-format bodies for tests, as Go's `snappy.NewBufferedWriter` writes them. */
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { maskedCrc32c } from "../../src/codec/snappy_framed.ts";

/** The stream identifier chunk. */
export const STREAM_ID = [0xff, 0x06, 0x00, 0x00, ...new TextEncoder().encode("sNaPpY")];

/** One chunk: type, 24-bit little-endian length, data. */
export function chunk(type: number, data: Uint8Array): number[] {
  return [type, data.length & 0xff, (data.length >> 8) & 0xff, data.length >> 16, ...data];
}

function crcBytes(data: Uint8Array): number[] {
  const c = maskedCrc32c(data);
  return [c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, c >>> 24];
}

/** A framed stream of compressed (or `uncompressed`) chunks of up to 64 KiB each. */
export function encodeSnappyFramed(data: Uint8Array, uncompressed = false): Uint8Array {
  const out = [...STREAM_ID];
  for (let at = 0; at < data.length; at += 65536) {
    const part = data.subarray(at, at + 65536);
    const payload = uncompressed ? part : encodeSnappy(part);
    out.push(...chunk(uncompressed ? 0x01 : 0x00, new Uint8Array([...crcBytes(part), ...payload])));
  }
  return new Uint8Array(out);
}
