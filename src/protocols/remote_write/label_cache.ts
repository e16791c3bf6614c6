/**
 * Label sets of remote write 1.0 series by their wire bytes. A sender repeats each series' labels,
 * byte for byte, in every request: a label set seen before is taken from here, the very same
 * frozen object, instead of being decoded string by string. That identity is what lets the layers
 * after the parser keep their own per-label-set work (special labels split off, the series key) in
 * WeakMaps rather than redo it for every series of every request (`common/labels.ts`,
 * `storage/metric_engine.ts`). Only ASCII label sets are cached, so UTF-8 strictness never depends
 * on what an earlier request decoded.
 */

/** One cached label set: its wire bytes, and the labels. */
interface Entry {
  bytes: Uint8Array;
  labels: Readonly<Record<string, string>>;
}

/** Label sets kept at most (with what later layers keep by them, ~0.6 KB each: ~20 MB when full). */
const MAX_ENTRIES = 32_768;
/** Longest label section cached (longer ones are rare and decoded each time). */
const MAX_BYTES = 1024;

const byHash = new Map<number, Entry>();
let missesWhenFull = 0;

/** The hash of bytes [a, b), or -1 when they are not all ASCII or too many to cache. */
export function labelBytesHash(buf: Uint8Array, a: number, b: number): number {
  if (b - a > MAX_BYTES) return -1;
  let h = 0x811c9dc5, high = 0, i = a;
  for (; i + 4 <= b; i += 4) {
    const w = buf[i] | (buf[i + 1] << 8) | (buf[i + 2] << 16) | (buf[i + 3] << 24);
    high |= w;
    h = Math.imul(h ^ w, 0x9e3779b1);
    h ^= h >>> 15;
  }
  for (; i < b; i++) {
    const c = buf[i];
    high |= c;
    h = Math.imul(h ^ c, 0x9e3779b1);
    h ^= h >>> 15;
  }
  // a small integer key: V8 hashes it without boxing
  return (high & 0x80808080) === 0 ? h & 0x3fffffff : -1;
}

function same(bytes: Uint8Array, buf: Uint8Array, a: number, b: number): boolean {
  if (bytes.length !== b - a) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buf[a + i]) return false;
  return true;
}

/** The cached labels of bytes [a, b) with hash `h`, or undefined. */
export function cachedLabels(
  h: number,
  buf: Uint8Array,
  a: number,
  b: number,
): Readonly<Record<string, string>> | undefined {
  const e = byHash.get(h);
  return e !== undefined && same(e.bytes, buf, a, b) ? e.labels : undefined;
}

/** Freezes and caches the labels decoded from bytes [a, b) of `buf` with hash `h`. */
export function cacheLabels(
  h: number,
  buf: Uint8Array,
  a: number,
  b: number,
  labels: Record<string, string>,
): void {
  if (byHash.size >= MAX_ENTRIES) {
    // Full: a sender with more series than fit would only churn it (each miss paying the insert),
    // so it starts afresh only after as many misses as it holds, for series that came and went.
    if (++missesWhenFull < MAX_ENTRIES) return;
    byHash.clear();
    missesWhenFull = 0;
  }
  byHash.set(h, { bytes: buf.slice(a, b), labels: Object.freeze(labels) });
}
