/**
 * The one place that owns `Content-Encoding`: which codec decodes a body (gzip, deflate, br, zstd,
 * snappy) and the decoded-size limit every endpoint holds bodies to, so a small compressed body
 * cannot balloon in memory (over the limit → 413, corrupt → 400). A limit of 0 means unlimited.
 */
import zlib from "node:zlib";
import { PetrelError, unsupportedMediaType } from "../common/errors.ts";
import { corruptBody, inflatedTooLarge } from "./body_errors.ts";
import { decodeSnappy } from "./snappy.ts";
import { decodeZstd } from "./zstd.ts";

type Decoder = (body: Uint8Array, limit: number) => Uint8Array;
type Inflate = (buf: Uint8Array, opts: { maxOutputLength: number }) => Uint8Array;

function zlibDecoder(codec: string, inflate: Inflate): Decoder {
  return (body, limit) => {
    try {
      const out = inflate(body, { maxOutputLength: limit > 0 ? limit : 2 ** 32 });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (e) {
      const err = e as { code?: string; message: string };
      if (err.code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) {
        throw inflatedTooLarge(codec, limit);
      }
      throw corruptBody(codec, err.message);
    }
  };
}

/**
 * Brotli through the web `DecompressionStream`, read chunk by chunk against the limit: Deno 2.9.6's
 * `node:zlib` brotli returns a truncated body's prefix without an error (measured); this one fails.
 */
async function decodeBrotli(body: Uint8Array, limit: number): Promise<Uint8Array> {
  const reader = new Blob([body as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("brotli")).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (limit > 0 && size > limit) throw inflatedTooLarge("br", limit);
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    if (e instanceof PetrelError) throw e;
    throw corruptBody("br", (e as Error).message);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) out.set(c, at), at += c.byteLength;
  return out;
}

/** Codecs decoded synchronously, in one call bounded by the limit. */
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: zlibDecoder("gzip", zlib.gunzipSync),
  "x-gzip": zlibDecoder("gzip", zlib.gunzipSync),
  deflate: zlibDecoder("deflate", zlib.inflateSync),
  zstd: decodeZstd,
  snappy: decodeSnappy,
};

/**
 * What the HTTP layer undoes for every endpoint, as GreptimeDB's decompression layer does; snappy is
 * not among them: it is a protocol's own block format (remote write and read, Loki).
 */
const TRANSFER_CODECS: ReadonlySet<string> = new Set(["gzip", "x-gzip", "deflate", "br", "zstd"]);

/** The codec a `Content-Encoding` header names, lowercased; null when absent or `identity`. */
export function encodingOf(header: string | null | undefined): string | null {
  const name = header?.trim().toLowerCase() ?? "";
  return name === "" || name === "identity" ? null : name;
}

/** Decodes a body compressed with `codec` (any name {@link encodingOf} gives); an unknown codec → 415. */
export function decompress(body: Uint8Array, codec: string, limit: number): Promise<Uint8Array> {
  if (codec === "br") return decodeBrotli(body, limit);
  try {
    return Promise.resolve(decodeSync(body, codec, limit));
  } catch (e) {
    return Promise.reject(e);
  }
}

function decodeSync(body: Uint8Array, codec: string, limit: number): Uint8Array {
  const decode = Object.hasOwn(DECODERS, codec) ? DECODERS[codec] : undefined;
  if (decode === undefined) throw unsupportedMediaType(`Unsupported Content-Encoding: ${codec}`);
  return decode(body, limit);
}

/** A request body after transfer decoding, and the encoding still on it for the protocol to undo. */
export interface DecodedBody {
  body: Uint8Array;
  /** A codec the endpoint's protocol takes itself (one of `own`), or an unknown one passed through. */
  encoding: string | null;
}

/**
 * Undoes a body's `Content-Encoding` unless the endpoint's protocol decodes that codec itself (`own`,
 * e.g. remote write's snappy and zstd); an encoding nobody here knows passes through untouched.
 */
export async function decodeBody(
  body: Uint8Array,
  header: string | null,
  limit: number,
  own: readonly string[] = [],
): Promise<DecodedBody> {
  const codec = encodingOf(header);
  if (codec === null) return { body, encoding: null };
  if (own.includes(codec) || !TRANSFER_CODECS.has(codec)) return { body, encoding: codec };
  return { body: await decompress(body, codec, limit), encoding: null };
}

/**
 * Prometheus' block compression (remote write and read): snappy unless the sender said zstd. With
 * `fallback`, a body its label does not decode is tried with the other codec, because vmagent sends
 * zstd under a snappy label (and back); a body over the limit is never retried.
 */
export function decompressPrometheus(
  body: Uint8Array,
  codec: string | null,
  limit: number,
  fallback: boolean,
): Uint8Array {
  const first = codec === "zstd" ? "zstd" : "snappy";
  try {
    return decodeSync(body, first, limit);
  } catch (e) {
    if (!fallback || (e instanceof PetrelError && e.reason === "too_large")) throw e;
    try {
      return decodeSync(body, first === "zstd" ? "snappy" : "zstd", limit);
    } catch {
      throw e;
    }
  }
}
