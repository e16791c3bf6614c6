import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import snappy from "snappyjs";
import { decodeSnappy, encodeSnappy, snappyDecodedLength } from "../../src/codec/snappy.ts";
import { decodeZstd, encodeZstd } from "../../src/codec/zstd.ts";
import { PetrelError } from "../../src/common/errors.ts";

function mixed(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    // Runs of repeated text with random bytes between exercise literals and every copy kind.
    out[i] = i % 1000 < 600 ? 'metric_name{host="a"} '[i % 22].charCodeAt(0) : x & 0xff;
  }
  return out;
}

const payloads: [string, Uint8Array][] = [
  ["empty", new Uint8Array(0)],
  ["one byte", new Uint8Array([7])],
  ["zeros 1 MiB", new Uint8Array(1 << 20)],
  ["mixed 300 KB", mixed(300_000)],
  ["random 70 KB", mixed(70_000).map((b, i) => (b * 31 + i * 7) & 0xff)],
];

for (const [name, data] of payloads) {
  Deno.test(`snappy round trip: ${name}`, () => {
    const packed = encodeSnappy(data);
    assert.deepEqual(decodeSnappy(packed, data.length), data);
    assert.deepEqual(snappy.uncompress(packed), data);
  });
}

function status(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PetrelError, `expected PetrelError, got ${e}`);
    return httpStatusOf(e);
  }
  assert.fail("expected an error");
}

Deno.test("snappy bomb: header claiming 4 GiB is 413 before allocating", () => {
  // uvarint 0xFFFFFFFF then a little junk: a 1 KB body claiming 4 GiB.
  const body = new Uint8Array(1024);
  body.set([0xff, 0xff, 0xff, 0xff, 0x0f]);
  assert.equal(snappyDecodedLength(body)[0], 0xffffffff);
  const before = Deno.memoryUsage().external;
  for (let i = 0; i < 20; i++) assert.equal(status(() => decodeSnappy(body, 64 << 20)), 413);
  // Twenty 4 GiB buffers would show in external memory (or fail outright) had any been allocated.
  assert.ok(Deno.memoryUsage().external - before < 64 << 20);
  const small = encodeSnappy(new Uint8Array(1000));
  assert.equal(status(() => decodeSnappy(small, 999)), 413);
  assert.equal(decodeSnappy(small, 1000).length, 1000);
});

const malformed: [string, number[]][] = [
  ["empty body (no header)", []],
  ["unterminated header", [0x80, 0x80]],
  ["header over 32 bits", [0xff, 0xff, 0xff, 0xff, 0x7f]],
  ["truncated (snappyjs zero-pads this)", [10, 0, 1]],
  ["literal past end of input", [5, 0x10, 1, 2]],
  ["copy before any output", [4, 0x01, 0x01]],
  ["copy offset zero", [8, 0x00, 65, 0x01, 0x00]],
  ["literal overruns declared length", [1, 0x04, 1, 2]],
  ["trailing short copy tag", [5, 0x10, 1, 2, 3, 4, 5, 0x02]],
];

for (const [name, bytes] of malformed) {
  Deno.test(`snappy malformed → 400: ${name}`, () => {
    assert.equal(status(() => decodeSnappy(new Uint8Array(bytes), 1 << 20)), 400);
  });
}

Deno.test("zstd round trip, limit → 413, garbage → 400", () => {
  const data = mixed(100_000);
  assert.deepEqual(decodeZstd(encodeZstd(data), 100_000), data);
  assert.equal(status(() => decodeZstd(encodeZstd(new Uint8Array(1 << 20)), 1000)), 413);
  assert.equal(status(() => decodeZstd(new Uint8Array([1, 2, 3, 4, 5]), 1000)), 400);
  assert.equal(decodeZstd(encodeZstd(data), Infinity).length, data.length);
});
