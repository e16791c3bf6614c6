/** XXH64 (seed 0) of Prometheus' label-set bytes, for `limit_ratio`'s stable per-series sampling. */
import type { Labels } from "./values.ts";

const M = (1n << 64n) - 1n;
const P1 = 11400714785074694791n, P2 = 14029467366897019727n, P3 = 1609587929392839161n;
const P4 = 9650029242287828579n, P5 = 2870177450012600261n;

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M;
const round = (acc: bigint, input: bigint) => (rotl((acc + input * P2) & M, 31n) * P1) & M;
const merge = (acc: bigint, val: bigint) => (((acc ^ round(0n, val)) * P1) & M) + P4 & M;

function u64(b: Uint8Array, i: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k]);
  return v;
}

function u32(b: Uint8Array, i: number): bigint {
  return BigInt((b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0);
}

/** XXH64 of bytes with seed 0. */
export function xxhash64(b: Uint8Array): bigint {
  const len = b.length;
  let i = 0, h: bigint;
  if (len >= 32) {
    let v1 = (P1 + P2) & M, v2 = P2, v3 = 0n, v4 = (M + 1n - P1) & M;
    for (; i + 32 <= len; i += 32) {
      v1 = round(v1, u64(b, i));
      v2 = round(v2, u64(b, i + 8));
      v3 = round(v3, u64(b, i + 16));
      v4 = round(v4, u64(b, i + 24));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M;
    h = merge(h, v1);
    h = merge(h, v2);
    h = merge(h, v3);
    h = merge(h, v4);
  } else h = P5;
  h = (h + BigInt(len)) & M;
  for (; i + 8 <= len; i += 8) h = ((rotl(h ^ round(0n, u64(b, i)), 27n) * P1) & M) + P4 & M;
  if (i + 4 <= len) {
    h = ((rotl(h ^ ((u32(b, i) * P1) & M), 23n) * P2) & M) + P3 & M;
    i += 4;
  }
  for (; i < len; i++) h = (rotl(h ^ ((BigInt(b[i]) * P5) & M), 11n) * P1) & M;
  h ^= h >> 33n;
  h = (h * P2) & M;
  h ^= h >> 29n;
  h = (h * P3) & M;
  h ^= h >> 32n;
  return h;
}

const encoder = new TextEncoder();

/** Prometheus' `Labels.Hash()`: XXH64 over `name\xffvalue\xff` of the sorted labels, as a float. */
export function labelsHash(labels: Labels): number {
  const parts: number[] = [];
  for (const name of Object.keys(labels).sort()) {
    parts.push(...encoder.encode(name), 0xff, ...encoder.encode(labels[name]), 0xff);
  }
  return Number(xxhash64(new Uint8Array(parts)));
}
