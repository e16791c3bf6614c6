/** Snappy's framing format: both chunk kinds, checksums, the limit, and telling it from a raw block. */
import assert from "node:assert/strict";
import { PetrelError } from "../../src/common/errors.ts";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { decodeSnappyBody, decodeSnappyFramed, isSnappyFramed } from "../../src/codec/snappy_framed.ts";
import { httpStatusOf } from "../../src/http/render_error.ts";
import { chunk, encodeSnappyFramed, STREAM_ID } from "../helpers/snappy_framed.ts";

function status(f: () => unknown): number {
  try {
    f();
  } catch (e) {
    assert(e instanceof PetrelError, String(e));
    return httpStatusOf(e);
  }
  return 200;
}

Deno.test("snappy framed: compressed and uncompressed chunks, padding, across 64 KiB chunks", () => {
  const text = new TextEncoder().encode("otlp body ".repeat(20_000)); // 200 KB: four chunks
  for (const uncompressed of [false, true]) {
    const framed = encodeSnappyFramed(text, uncompressed);
    assert(isSnappyFramed(framed));
    assert.deepStrictEqual(decodeSnappyFramed(framed, 0), text);
    const padded = new Uint8Array([...framed, ...chunk(0xfe, new Uint8Array(3))]);
    assert.deepStrictEqual(decodeSnappyBody(padded, 1 << 20), text);
  }
  const block = encodeSnappy(text);
  assert(!isSnappyFramed(block));
  assert.deepStrictEqual(decodeSnappyBody(block, 1 << 20), text);
});

Deno.test("snappy framed: bad checksum, reserved chunk, truncation → 400; over the limit → 413", () => {
  const data = new TextEncoder().encode("hello framed snappy");
  const framed = encodeSnappyFramed(data);
  const flipped = framed.slice();
  flipped[STREAM_ID.length + 4] ^= 1; // the stored checksum
  assert.equal(status(() => decodeSnappyFramed(flipped, 0)), 400);
  const reserved = new Uint8Array([...STREAM_ID, ...chunk(0x02, new Uint8Array(4))]);
  assert.equal(status(() => decodeSnappyFramed(reserved, 0)), 400);
  assert.equal(status(() => decodeSnappyFramed(framed.subarray(0, framed.length - 1), 0)), 400);
  assert.equal(status(() => decodeSnappyFramed(framed, data.length - 1)), 413);
  assert.equal(status(() => decodeSnappyFramed(framed, data.length)), 200);
});
