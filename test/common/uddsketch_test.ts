/**
 * UDDSketch: quantiles within the relative error (and within the grown error after collapses),
 * negatives and zeros in order, merges equal to one sketch of all values, and state bytes that
 * round-trip and refuse corruption.
 */
import assert from "node:assert/strict";
import { checkUddParams, UddSketch } from "../../src/common/uddsketch.ts";

/** The exact value at the crate's rank for q: the (⌊n·q⌋+1)-th smallest, capped at the last. */
function exact(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

function within(est: number | null, want: number, alpha: number, what: string): void {
  assert.ok(est !== null, what);
  assert.ok(
    Math.abs(est - want) <= alpha * Math.abs(want) + 1e-12,
    `${what}: ${est} vs ${want} (α ${alpha})`,
  );
}

// a deterministic spread of magnitudes (xorshift)
function values(n: number, seed = 7): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(Math.exp(((x >>> 0) / 2 ** 32) * 20 - 5)); // e^-5 … e^15
  }
  return out;
}

const QS = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1];

Deno.test("quantiles within the error rate when no collapse happens", () => {
  const vs = values(100000);
  const s = new UddSketch(10000, 0.01);
  for (const v of vs) s.add(v);
  assert.equal(s.compactions, 0);
  const sorted = [...vs].sort((a, b) => a - b);
  for (const q of QS) within(s.quantile(q), exact(sorted, q), 0.01, `q ${q}`);
});

Deno.test("collapsing keeps at most bucket_num buckets and quantiles within the grown error", () => {
  const vs = values(50000, 99);
  const s = new UddSketch(128, 0.01);
  for (const v of vs) s.add(v);
  assert.ok(s.compactions > 0);
  assert.ok(s.pos.size <= 128);
  let alpha = 0.01; // each collapse makes α into 2α/(1+α²)
  for (let k = 0; k < s.compactions; k++) alpha = (2 * alpha) / (1 + alpha * alpha);
  assert.ok(Math.abs(s.error - alpha) < 1e-9, `${s.error} vs ${alpha}`);
  const sorted = [...vs].sort((a, b) => a - b);
  for (const q of QS) within(s.quantile(q), exact(sorted, q), s.error, `q ${q}`);
});

Deno.test("negatives, zeros and positives in order", () => {
  const vs = [-1000, -10, -10, -0.5, 0, 0, 0, 0.25, 3, 3, 3, 70];
  const s = new UddSketch(100, 0.02);
  for (const v of vs) s.add(v);
  const sorted = [...vs].sort((a, b) => a - b);
  for (let q = 0; q <= 1; q += 0.05) within(s.quantile(q), exact(sorted, q), 0.02, `q ${q}`);
  assert.equal(s.quantile(0.4), 0);
  assert.equal(new UddSketch(10, 0.1).quantile(0.5), null);
});

Deno.test("tiny bucket_num with both signs still ends (collapses stop when nothing merges)", () => {
  const s = new UddSketch(1, 0.1);
  for (const v of [-1e6, -2, 0, 0.001, 5, 1e9]) s.add(v);
  assert.equal(s.count, 6);
  assert.ok(s.quantile(0.5) !== null);
});

Deno.test("merging sketches equals one sketch of all values, also across compaction levels", () => {
  const a = values(20000, 1), b = [-1, -2, -3, -5, -5, 0, 0.5];
  const whole = new UddSketch(64, 0.01), sa = new UddSketch(64, 0.01), sb = new UddSketch(64, 0.01);
  for (const v of a) whole.add(v), sa.add(v);
  for (const v of b) whole.add(v), sb.add(v);
  assert.notEqual(sa.compactions, sb.compactions);
  sa.merge(sb);
  assert.equal(sa.count, whole.count);
  for (const q of QS) assert.equal(sa.quantile(q), whole.quantile(q), `q ${q}`);
  assert.throws(() => sa.merge(new UddSketch(32, 0.01)), /uddsketch states differ/);
  assert.throws(() => sa.merge(new UddSketch(64, 0.02)), /uddsketch states differ/);
});

Deno.test("state bytes round-trip; corrupt bytes and bad parameters are refused", () => {
  const s = new UddSketch(32, 0.05);
  for (const v of [...values(1000), -3, 0]) s.add(v);
  const bytes = s.toBytes();
  const back = UddSketch.fromBytes(bytes);
  assert.deepEqual(back.toBytes(), bytes);
  for (const q of QS) assert.equal(back.quantile(q), s.quantile(q));
  assert.throws(() => UddSketch.fromBytes(new Uint8Array([0x48, 1, 14, 0])), /not a uddsketch state/);
  assert.throws(() => UddSketch.fromBytes(bytes.slice(0, bytes.length - 3)), /corrupt uddsketch state/);
  const badCount = bytes.slice();
  new DataView(badCount.buffer).setFloat64(15, 5, true);
  assert.throws(() => UddSketch.fromBytes(badCount), /corrupt uddsketch state \(counts\)/);
  assert.match(checkUddParams(0, 0.01) ?? "", /bucket_num/);
  assert.match(checkUddParams(10.5, 0.01) ?? "", /bucket_num/);
  assert.match(checkUddParams(10, 1) ?? "", /error_rate/);
  assert.match(checkUddParams(10, 0) ?? "", /error_rate/);
  assert.equal(checkUddParams(128, 0.01), undefined);
});
