/**
 * UDDSketch (Epicoco et al. 2020, as Timescale's `uddsketch` crate that GreptimeDB uses), for
 * `uddsketch_state`, `uddsketch_merge` and `uddsketch_calc`: values counted in log-spaced buckets
 * (bucket i of |v| holds (γ^(i-1), γ^i], γ = (1+α)/(1-α)), negatives in their own buckets by |v|, and
 * zeros in a zero bucket, as the crate keeps them. When more than `maxBuckets` buckets are in use,
 * every pair of adjacent buckets is collapsed (i → ⌈i/2⌉, γ → γ²), so α grows to 2α/(1+α²).
 *
 * State bytes (Petrel's own; GreptimeDB's are bincode of the Rust struct):
 *   'U', version 1, u32 LE maxBuckets, f64 LE initial error, u8 compactions, f64 LE count,
 *   f64 LE sum, f64 LE zero count, u32 LE n, then n × (i8 sign, f64 LE index, f64 LE count),
 *   negatives (sign -1) and positives (sign 1) each in ascending index order.
 */

const TAG = 0x55; // 'U'
const VERSION = 1;
const HEADER = 2 + 4 + 8 + 1 + 8 + 8 + 8 + 4;
const ENTRY = 1 + 8 + 8;
/** The largest bucket count a sketch may keep (bounds memory and state size). */
export const MAX_BUCKETS = 1 << 20;

/** A UDDSketch: bucket counts by index, for positive and negative values, and a zero count. */
export class UddSketch {
  readonly maxBuckets: number;
  readonly initialError: number;
  compactions = 0;
  gamma: number;
  count = 0;
  sum = 0;
  zero = 0;
  pos = new Map<number, number>();
  neg = new Map<number, number>();

  /** An empty sketch; the arguments must already be checked (see `checkUddParams`). */
  constructor(maxBuckets: number, initialError: number) {
    this.maxBuckets = maxBuckets;
    this.initialError = initialError;
    this.gamma = (1 + initialError) / (1 - initialError);
  }

  /** The current relative error bound α (grows with each collapse). */
  get error(): number {
    return (this.gamma - 1) / (this.gamma + 1);
  }

  /** Adds one value (NaN and infinities have no bucket and are refused). */
  add(v: number): void {
    if (!Number.isFinite(v)) throw new Error(`uddsketch cannot hold ${v}`);
    this.count++;
    this.sum += v;
    if (v === 0) this.zero++;
    else {
      const side = v > 0 ? this.pos : this.neg;
      const i = this.key(Math.abs(v));
      side.set(i, (side.get(i) ?? 0) + 1);
    }
    this.fit();
  }

  /** Folds another sketch of the same parameters into this one. */
  merge(other: UddSketch): void {
    if (other.maxBuckets !== this.maxBuckets || Math.abs(other.initialError - this.initialError) > 1e-12) {
      throw new Error(
        `uddsketch states differ: bucket_num ${other.maxBuckets} and error_rate ${other.initialError} ` +
          `cannot merge into bucket_num ${this.maxBuckets} and error_rate ${this.initialError}`,
      );
    }
    const o = other.clone();
    while (this.compactions < o.compactions) this.collapse();
    while (o.compactions < this.compactions) o.collapse();
    for (const [i, c] of o.pos) this.pos.set(i, (this.pos.get(i) ?? 0) + c);
    for (const [i, c] of o.neg) this.neg.set(i, (this.neg.get(i) ?? 0) + c);
    this.zero += o.zero;
    this.count += o.count;
    this.sum += o.sum;
    this.fit();
  }

  /** The estimated value at quantile q in [0, 1] (the crate's rank rule); null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    let remaining = Math.floor(this.count * q) + 1;
    const buckets = this.ordered();
    if (remaining >= this.count) return buckets[buckets.length - 1][0];
    for (const [value, c] of buckets) {
      if (remaining <= c) return value;
      remaining -= c;
    }
    return buckets[buckets.length - 1][0];
  }

  /** The sketch as state bytes. */
  toBytes(): Uint8Array {
    const entries = [
      ...[...this.neg].sort((a, b) => a[0] - b[0]).map(([i, c]) => [-1, i, c]),
      ...[...this.pos].sort((a, b) => a[0] - b[0]).map(([i, c]) => [1, i, c]),
    ];
    const out = new Uint8Array(HEADER + ENTRY * entries.length);
    const view = new DataView(out.buffer);
    out[0] = TAG;
    out[1] = VERSION;
    view.setUint32(2, this.maxBuckets, true);
    view.setFloat64(6, this.initialError, true);
    out[14] = this.compactions;
    view.setFloat64(15, this.count, true);
    view.setFloat64(23, this.sum, true);
    view.setFloat64(31, this.zero, true);
    view.setUint32(39, entries.length, true);
    entries.forEach(([s, i, c], k) => {
      const at = HEADER + ENTRY * k;
      view.setInt8(at, s);
      view.setFloat64(at + 1, i, true);
      view.setFloat64(at + 9, c, true);
    });
    return out;
  }

  /** Reads state bytes; throws a message naming what is wrong with them. */
  static fromBytes(b: Uint8Array): UddSketch {
    if (b.length < 2 || b[0] !== TAG) throw new Error("not a uddsketch state");
    if (b[1] !== VERSION) throw new Error(`unsupported uddsketch state version ${b[1]}`);
    if (b.length < HEADER) throw new Error("corrupt uddsketch state (truncated)");
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const maxBuckets = view.getUint32(2, true), err = view.getFloat64(6, true);
    const problem = checkUddParams(maxBuckets, err);
    if (problem) throw new Error(`corrupt uddsketch state (${problem})`);
    const s = new UddSketch(maxBuckets, err);
    const n = view.getUint32(39, true);
    if (b.length !== HEADER + ENTRY * n) throw new Error("corrupt uddsketch state (length)");
    for (let k = 0; k < b[14]; k++) s.widen();
    if (!Number.isFinite(s.gamma)) throw new Error("corrupt uddsketch state (compactions)");
    s.count = view.getFloat64(15, true);
    s.sum = view.getFloat64(23, true);
    s.zero = view.getFloat64(31, true);
    let total = s.zero;
    for (let k = 0; k < n; k++) {
      const at = HEADER + ENTRY * k;
      const sign = view.getInt8(at), i = view.getFloat64(at + 1, true), c = view.getFloat64(at + 9, true);
      if ((sign !== 1 && sign !== -1) || !Number.isSafeInteger(i) || !Number.isSafeInteger(c) || c < 1) {
        throw new Error("corrupt uddsketch state (bucket)");
      }
      (sign > 0 ? s.pos : s.neg).set(i, c);
      total += c;
    }
    if (!Number.isSafeInteger(s.zero) || s.zero < 0 || total !== s.count || !Number.isFinite(s.sum)) {
      throw new Error("corrupt uddsketch state (counts)");
    }
    return s;
  }

  private clone(): UddSketch {
    const s = new UddSketch(this.maxBuckets, this.initialError);
    s.compactions = this.compactions;
    s.gamma = this.gamma;
    Object.assign(s, { count: this.count, sum: this.sum, zero: this.zero });
    s.pos = new Map(this.pos);
    s.neg = new Map(this.neg);
    return s;
  }

  private key(abs: number): number {
    const i = Math.ceil(Math.log(abs) / Math.log(this.gamma));
    return i === 0 ? 0 : i; // no -0 keys
  }

  private get buckets(): number {
    return this.pos.size + this.neg.size + (this.zero > 0 ? 1 : 0);
  }

  /**
   * Collapses until at most maxBuckets are used, or no collapse can merge any more buckets (or γ would
   * pass the largest double).
   */
  private fit(): void {
    while (
      this.buckets > this.maxBuckets && !(settled(this.pos) && settled(this.neg)) &&
      Number.isFinite(this.gamma * this.gamma)
    ) this.collapse();
  }

  private collapse(): void {
    this.widen();
    this.pos = halve(this.pos);
    this.neg = halve(this.neg);
  }

  private widen(): void {
    this.compactions++;
    this.gamma *= this.gamma;
  }

  /** Bucket estimates ascending: negatives from the largest |v|, zero, then positives. */
  private ordered(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (const i of [...this.neg.keys()].sort((a, b) => b - a)) out.push([-this.value(i), this.neg.get(i)!]);
    if (this.zero > 0) out.push([0, this.zero]);
    for (const i of [...this.pos.keys()].sort((a, b) => a - b)) out.push([this.value(i), this.pos.get(i)!]);
    return out;
  }

  /** The crate's estimate for bucket i: γ^(i-1)·(1+α), within α of every value the bucket holds. */
  private value(i: number): number {
    return this.gamma ** (i - 1) * (1 + this.error);
  }
}

/** Why (bucket_num, error_rate) cannot make a sketch, or undefined when they can. */
export function checkUddParams(bucketNum: number, errorRate: number): string | undefined {
  if (!Number.isInteger(bucketNum) || bucketNum < 1 || bucketNum > MAX_BUCKETS) {
    return `bucket_num must be an integer from 1 to ${MAX_BUCKETS}, got ${bucketNum}`;
  }
  if (!(errorRate > 1e-9 && errorRate < 1)) {
    return `error_rate must be above 1e-9 and below 1, got ${errorRate}`;
  }
  return undefined;
}

/** Keys no collapse can merge further (⌈i/2⌉ fixes only 0 and 1). */
function settled(side: Map<number, number>): boolean {
  for (const i of side.keys()) if (i !== 0 && i !== 1) return false;
  return true;
}

function halve(side: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [i, c] of side) {
    const j = Math.ceil(i / 2) || 0;
    out.set(j, (out.get(j) ?? 0) + c);
  }
  return out;
}
