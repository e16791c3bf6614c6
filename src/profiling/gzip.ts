/** gzip for pprof files: pprof writes profiles gzipped and reads them either way. */
import { gunzipSync, gzipSync } from "node:zlib";

/** The most an uploaded profile may inflate to; past it the upload is refused, not decoded. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

/** Whether bytes start with the gzip magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Gzips bytes. */
export function gzip(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(bytes));
}

/** Inflates gzip bytes; null when they are not valid gzip or inflate past `MAX_INFLATED_BYTES`. */
export function gunzip(bytes: Uint8Array): Uint8Array | null {
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES }));
  } catch {
    return null;
  }
}
