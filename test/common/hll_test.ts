/**
 * HyperLogLog++ accuracy: exact while sparse, within 2 % at 100k distinct values (dense), merges as a
 * union, and state bytes that round-trip and refuse corruption.
 */
import assert from "node:assert/strict";
import { Hll } from "../../src/common/hll.ts";

function sketchOf(from: number, to: number, prefix = ""): Hll {
  const h = new Hll();
  for (let i = from; i < to; i++) h.add(`${prefix}${i}`);
  return h;
}

Deno.test("small cardinalities are exact (sparse), repeats counted once", () => {
  for (const n of [0, 1, 2, 10, 100, 1000, 4000]) {
    const h = sketchOf(0, n);
    for (let i = 0; i < n; i += 3) h.add(String(i));
    assert.equal(h.count(), n, `n = ${n}`);
  }
});

Deno.test("large cardinalities within 2 % (dense)", () => {
  for (const n of [5000, 20000, 100000, 300000]) {
    const est = sketchOf(0, n, "user-").count();
    assert.ok(Math.abs(est - n) / n < 0.02, `n = ${n}, estimate ${est}`);
  }
});

Deno.test("merge is the union: overlapping halves, sparse with dense", () => {
  const a = sketchOf(0, 60000), b = sketchOf(40000, 100000);
  a.merge(b);
  assert.ok(Math.abs(a.count() - 100000) / 100000 < 0.02, `${a.count()}`);
  const small = sketchOf(0, 50), big = sketchOf(1000, 50000);
  small.merge(big);
  assert.ok(Math.abs(small.count() - 49050) / 49050 < 0.02, `${small.count()}`);
  const s1 = sketchOf(0, 3000), s2 = sketchOf(2000, 5000); // the union turns dense
  s1.merge(s2);
  assert.ok(Math.abs(s1.count() - 5000) / 5000 < 0.01, `${s1.count()}`);
});

Deno.test("state bytes round-trip, sparse and dense; corrupt bytes are refused", () => {
  for (const n of [0, 7, 100000]) {
    const h = sketchOf(0, n);
    const back = Hll.fromBytes(h.toBytes());
    assert.equal(back.count(), h.count());
    assert.deepEqual(back.toBytes(), h.toBytes());
  }
  const sparse = sketchOf(0, 5).toBytes(), dense = sketchOf(0, 100000).toBytes();
  assert.throws(() => Hll.fromBytes(new Uint8Array([1, 2, 3])), /not an hll state/);
  assert.throws(() => Hll.fromBytes(sparse.slice(0, sparse.length - 1)), /corrupt hll state/);
  assert.throws(() => Hll.fromBytes(dense.slice(0, 100)), /corrupt hll state/);
  const badVersion = sparse.slice();
  badVersion[1] = 9;
  assert.throws(() => Hll.fromBytes(badVersion), /version 9/);
  const badRegister = dense.slice();
  badRegister[10] = 200;
  assert.throws(() => Hll.fromBytes(badRegister), /register out of range/);
});
