/**
 * Request bodies, read as a stream with the size limit enforced as bytes arrive (also for chunked
 * uploads without Content-Length); `src/codec/decompress.ts` then undoes `Content-Encoding`.
 */
import { PetrelError, StatusCode, tooLarge } from "../common/errors.ts";
import type { BodyLease } from "./body_memory.ts";

/** The 413 every over-limit body gets. */
function bodyTooLarge(limit: number): PetrelError {
  return tooLarge(`Failed to buffer the request body: length limit exceeded (body_limit is ${limit} bytes)`);
}

/**
 * Reads the whole body into one buffer, preallocated from Content-Length when it is honest (in a
 * SharedArrayBuffer when `shared`); a `limit` of 0 means unlimited. Streaming instead of
 * `req.arrayBuffer()` keeps RSS flat (measured in reference/deno-platform.md §4).
 */
export async function readBodyLimited(
  req: Request,
  limit: number,
  shared = false,
  lease?: BodyLease,
): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array(0);
  const max = limit > 0 ? limit : Number.MAX_SAFE_INTEGER;
  const declared = Number(req.headers.get("content-length") ?? -1);
  if (declared > max) {
    await req.body.cancel().catch(() => {});
    throw bodyTooLarge(limit);
  }
  try {
    // The whole declared length is reserved before a byte is read: a refused upload costs nothing.
    if (declared > 0) lease?.reserve(declared);
  } catch (e) {
    await req.body.cancel().catch(() => {});
    throw e;
  }
  const out: Uint8Array | null = declared < 0
    ? null
    : shared
    ? new Uint8Array(new SharedArrayBuffer(declared))
    : new Uint8Array(declared);
  const chunks: Uint8Array[] = [];
  let n = 0;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (n + value.byteLength > max) throw bodyTooLarge(limit);
      if (declared < 0 || n + value.byteLength > declared) lease?.reserve(value.byteLength);
      if (out && n + value.byteLength <= out.byteLength) out.set(value, n);
      else chunks.push(value);
      n += value.byteLength;
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    if (e instanceof PetrelError) throw e;
    throw new PetrelError(
      StatusCode.InvalidArguments,
      `Failed to read the request body: ${(e as Error).message}`,
    );
  }
  if (out && chunks.length === 0 && n === out.byteLength) return out;
  const whole = new Uint8Array(n);
  let offset = 0;
  if (out) {
    const head = Math.min(out.byteLength, n);
    whole.set(out.subarray(0, head), 0);
    offset = head;
  }
  for (const c of chunks) {
    whole.set(c, offset);
    offset += c.byteLength;
  }
  return whole;
}
