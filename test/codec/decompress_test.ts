/** The one Content-Encoding module: which codec decodes a body, the limit, and what passes through. */
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { decodeBody, decompress, decompressPrometheus, encodingOf } from "../../src/codec/decompress.ts";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { encodeZstd } from "../../src/codec/zstd.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { httpStatusOf } from "../../src/http/render_error.ts";

const DATA = new TextEncoder().encode("cpu,host=a usage=0.5 1\n".repeat(200));

const CODECS: [string, (b: Uint8Array) => Uint8Array][] = [
  ["gzip", (b) => zlib.gzipSync(b)],
  ["x-gzip", (b) => zlib.gzipSync(b)],
  ["deflate", (b) => zlib.deflateSync(b)],
  ["br", (b) => zlib.brotliCompressSync(b)],
  ["zstd", encodeZstd],
  ["snappy", encodeSnappy],
];

function statusOf(fn: () => unknown): number {
  try {
    fn();
    return 200;
  } catch (e) {
    assert.ok(e instanceof PetrelError, String(e));
    return httpStatusOf(e);
  }
}

async function statusOfAsync(fn: () => Promise<unknown>): Promise<number> {
  try {
    await fn();
    return 200;
  } catch (e) {
    assert.ok(e instanceof PetrelError, String(e));
    return httpStatusOf(e);
  }
}

for (const [codec, compress] of CODECS) {
  Deno.test(`decompress ${codec}: round trip, limit → 413, truncated or garbage → 400`, async () => {
    const packed = compress(DATA);
    assert.deepEqual(await decompress(packed, codec, DATA.length), DATA);
    assert.deepEqual(await decompress(packed, codec, 0), DATA, "0 means unlimited");
    assert.equal(await statusOfAsync(() => decompress(packed, codec, DATA.length - 1)), 413);
    await assert.rejects(() => decompress(packed, codec, 10), /length limit exceeded/);
    for (const cut of [12, packed.length - 1]) {
      assert.equal(
        await statusOfAsync(() => decompress(packed.subarray(0, cut), codec, 0)),
        400,
        `cut at ${cut}`,
      );
    }
    const garbage = new TextEncoder().encode("definitely not compressed data");
    assert.equal(await statusOfAsync(() => decompress(garbage, codec, 0)), 400);
  });
}

Deno.test("encodingOf: trimmed, lowercased; identity and absent are none", () => {
  assert.equal(encodingOf(" GZip "), "gzip");
  assert.equal(encodingOf("identity"), null);
  assert.equal(encodingOf(""), null);
  assert.equal(encodingOf(null), null);
});

Deno.test("decodeBody: transfer codecs are undone; snappy and unknown codecs pass through", async () => {
  assert.deepEqual(await decodeBody(zlib.gzipSync(DATA), "gzip", 0), { body: DATA, encoding: null });
  assert.deepEqual(await decodeBody(zlib.brotliCompressSync(DATA), "br", 0), { body: DATA, encoding: null });
  const snappy = encodeSnappy(DATA);
  assert.deepEqual(await decodeBody(snappy, "snappy", 0), { body: snappy, encoding: "snappy" });
  assert.deepEqual(await decodeBody(DATA, "lz4", 0), { body: DATA, encoding: "lz4" });
  assert.deepEqual(await decodeBody(DATA, null, 0), { body: DATA, encoding: null });
});

Deno.test("decodeBody: a codec the protocol decodes itself is left on the body", async () => {
  const z = encodeZstd(DATA);
  assert.deepEqual(await decodeBody(z, "zstd", 0, ["snappy", "zstd"]), { body: z, encoding: "zstd" });
  assert.deepEqual((await decodeBody(z, "zstd", 0)).body, DATA);
});

Deno.test("decompressPrometheus: vmagent's mislabelled bodies decode only with the fallback", () => {
  const z = encodeZstd(DATA);
  assert.deepEqual(new Uint8Array(decompressPrometheus(z, "snappy", 0, true)), DATA);
  assert.equal(statusOf(() => decompressPrometheus(z, "snappy", 0, false)), 400);
  assert.deepEqual(new Uint8Array(decompressPrometheus(encodeSnappy(DATA), "zstd", 0, true)), DATA);
  // zstd's magic read as a snappy length header declares 40 bytes: over the limit, so no retry.
  assert.equal(
    statusOf(() => decompressPrometheus(z, "snappy", 10, true)),
    413,
    "not retried past the limit",
  );
  assert.equal(statusOf(() => decompressPrometheus(encodeSnappy(DATA), null, 10, true)), 413);
});
