/**
 * HyperLogLog++ (Heule, Nunkesser, Hall 2013) at GreptimeDB's precision 14, for `hll`, `hll_merge`
 * and `hll_count`: a sparse representation (25-bit indexes, so small cardinalities are exact or
 * nearly) that turns dense (16384 six-bit registers) once it would be larger. The dense estimate is
 * Ertl's improved raw estimator (arXiv:1702.01284), which is unbiased over the whole range without
 * HLL++'s empirical bias tables.
 *
 * State bytes (Petrel's own; GreptimeDB's are bincode of the Rust struct):
 *   'H', version 1, precision 14, kind (0 sparse | 1 dense), then
 *   sparse: u32 LE count, count × u32 LE `index << 6 | rank` in ascending order;
 *   dense: 16384 bytes, one register each.
 */

/** GreptimeDB's precision: 2^14 registers, about 0.81 % standard error. */
export const HLL_PRECISION = 14;
const P = HLL_PRECISION;
const M = 1 << P;
/** Sparse precision: register indexes of 25 bits while the sketch is sparse. */
const SP = 25;
/** Hash bits left after the sparse index. */
const SPARSE_REST = 64 - SP;
/** A sparse sketch turns dense past this many entries (4 bytes each: the dense size). */
const SPARSE_LIMIT = M / 4;
const TAG = 0x48; // 'H'
const VERSION = 1;
const SPARSE = 0, DENSE = 1;

/** A HyperLogLog++ sketch: sparse entries (index → rank) or dense registers. */
export class Hll {
  sparse: Map<number, number> | null = new Map();
  dense: Uint8Array | null = null;

  /** Adds a value, given as its text or bytes (GreptimeDB hashes values as strings). */
  add(value: string | Uint8Array): void {
    const bytes = typeof value === "string" ? ENCODER.encode(value) : value;
    this.addHash(murmur3(bytes, 0x9747b28c), murmur3(bytes, 0x5bd1e995));
  }

  /** Adds a 64-bit hash given as its high and low 32-bit halves. */
  addHash(hi: number, lo: number): void {
    if (this.sparse) {
      const [index, rank] = indexAndRank(hi, lo, SP);
      if ((this.sparse.get(index) ?? 0) < rank) this.sparse.set(index, rank);
      if (this.sparse.size > SPARSE_LIMIT) this.toDense();
      return;
    }
    const [index, rank] = indexAndRank(hi, lo, P);
    if (this.dense![index] < rank) this.dense![index] = rank;
  }

  /** Folds another sketch into this one (a union of the two sets). */
  merge(other: Hll): void {
    if (this.sparse && other.sparse) {
      for (const [i, r] of other.sparse) if ((this.sparse.get(i) ?? 0) < r) this.sparse.set(i, r);
      if (this.sparse.size > SPARSE_LIMIT) this.toDense();
      return;
    }
    if (this.sparse) this.toDense();
    const regs = other.dense ?? denseOf(other.sparse!);
    const own = this.dense!;
    for (let i = 0; i < M; i++) if (own[i] < regs[i]) own[i] = regs[i];
  }

  /** The estimated number of distinct values. */
  count(): number {
    if (this.sparse) {
      // linear counting over the 2^25 sparse registers: exact in practice at these sizes
      const m = 2 ** SP, empty = m - this.sparse.size;
      return Math.round(m * Math.log(m / empty));
    }
    return Math.round(ertlEstimate(this.dense!));
  }

  /** The sketch as state bytes. */
  toBytes(): Uint8Array {
    if (this.sparse) {
      const entries = [...this.sparse].map(([i, r]) => i * 64 + r).sort((a, b) => a - b);
      const out = new Uint8Array(8 + 4 * entries.length);
      out.set([TAG, VERSION, P, SPARSE]);
      const view = new DataView(out.buffer);
      view.setUint32(4, entries.length, true);
      entries.forEach((e, k) => view.setUint32(8 + 4 * k, e, true));
      return out;
    }
    const out = new Uint8Array(4 + M);
    out.set([TAG, VERSION, P, DENSE]);
    out.set(this.dense!, 4);
    return out;
  }

  /** Reads state bytes; throws a message naming what is wrong with them. */
  static fromBytes(b: Uint8Array): Hll {
    if (b.length < 4 || b[0] !== TAG) throw new Error("not an hll state");
    if (b[1] !== VERSION) throw new Error(`unsupported hll state version ${b[1]}`);
    if (b[2] !== P) throw new Error(`hll state has precision ${b[2]}, expected ${P}`);
    const h = new Hll();
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    if (b[3] === SPARSE) {
      const n = b.length >= 8 ? view.getUint32(4, true) : -1;
      if (n < 0 || b.length !== 8 + 4 * n || n > SPARSE_LIMIT) {
        throw new Error("corrupt hll state (sparse length)");
      }
      for (let k = 0; k < n; k++) {
        const e = view.getUint32(8 + 4 * k, true), r = e & 63;
        if (r < 1 || r > SPARSE_REST + 1 || e >= 2 ** (SP + 6)) {
          throw new Error("corrupt hll state (sparse entry)");
        }
        h.sparse!.set(Math.floor(e / 64), r);
      }
      return h;
    }
    if (b[3] !== DENSE || b.length !== 4 + M) throw new Error("corrupt hll state (length or kind)");
    const regs = b.slice(4);
    if (regs.some((r) => r > 64 - P + 1)) throw new Error("corrupt hll state (register out of range)");
    h.sparse = null;
    h.dense = regs;
    return h;
  }

  private toDense(): void {
    this.dense = denseOf(this.sparse!);
    this.sparse = null;
  }
}

const ENCODER = new TextEncoder();

/** Dense registers of sparse entries: the index's lower 11 bits are the start of the dense rank's bits. */
function denseOf(sparse: Map<number, number>): Uint8Array {
  const regs = new Uint8Array(M);
  const low = SP - P, lowMask = (1 << low) - 1;
  for (const [i, r] of sparse) {
    const bits = i & lowMask;
    const rank = bits !== 0 ? Math.clz32(bits) - (32 - low) + 1 : low + r;
    const d = i >>> low;
    if (regs[d] < rank) regs[d] = rank;
  }
  return regs;
}

/** Ertl's improved raw estimator (his Algorithm 6) over the register histogram. */
function ertlEstimate(regs: Uint8Array): number {
  const q = 64 - P;
  const c = new Array<number>(q + 2).fill(0);
  for (const r of regs) c[r]++;
  let z = M * tau(1 - c[q + 1] / M);
  for (let k = q; k >= 1; k--) z = 0.5 * (z + c[k]);
  z += M * sigma(c[0] / M);
  return (M * M) / (2 * Math.LN2 * z);
}

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1, z = x, prev: number;
  do {
    x *= x;
    prev = z;
    z += x * y;
    y += y;
  } while (z !== prev);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1, z = 1 - x, prev: number;
  do {
    x = Math.sqrt(x);
    prev = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== prev);
  return z / 3;
}

/** MurmurHash3 x86 32-bit of bytes; two seeds give the sketch its 64 bits. */
function murmur3(b: Uint8Array, seed: number): number {
  let h = seed >>> 0;
  const n = b.length, whole = n & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (n & 3) {
    case 3:
      k ^= b[whole + 2] << 16;
    // falls through
    case 2:
      k ^= b[whole + 1] << 8;
    // falls through
    case 1:
      k ^= b[whole];
      k = Math.imul(k, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      h ^= Math.imul(k, 0x1b873593);
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 64-bit hash's register index (its top `bits` bits) and rank (the position of the first 1 in the
 * other 64 - bits, or 64 - bits + 1 when they are all 0).
 */
function indexAndRank(hi: number, lo: number, bits: number): [number, number] {
  const restHi = hi & ((1 << (32 - bits)) - 1);
  const rank = restHi !== 0
    ? Math.clz32(restHi) - bits + 1
    : lo !== 0
    ? 32 - bits + Math.clz32(lo) + 1
    : 64 - bits + 1;
  return [hi >>> (32 - bits), rank];
}
