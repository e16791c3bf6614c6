/**
 * LZ4 block and frame formats. Decoding follows the format spec; encoding writes a valid block of
 * literals plus matches found through a small hash table (lz4_flex's greedy scheme, so short inputs
 * compress byte-for-byte as VRL's `encode_lz4` does).
 */

/** Raised for a block or frame that does not decode. */
export class Lz4Error extends Error {}

const MIN_MATCH = 4;
const LAST_LITERALS = 5;
const MF_LIMIT = 12;
const FRAME_MAGIC = 0x184d2204;

/**
 * Decodes one LZ4 block whose decoded size is at most `maxSize`. `prefix` is earlier output that
 * back-references may reach (a linked block of a frame).
 */
export function decodeLz4Block(
  src: Uint8Array,
  maxSize: number,
  prefix: Uint8Array = new Uint8Array(0),
): Uint8Array {
  const out = new Uint8Array(prefix.length + maxSize);
  out.set(prefix);
  let ip = 0, op = prefix.length;
  while (ip < src.length) {
    const token = src[ip++];
    let lit = token >>> 4;
    if (lit === 15) lit += readLength(src, () => ip++);
    if (ip + lit > src.length || op + lit > out.length) throw new Lz4Error("literal run past the end");
    out.set(src.subarray(ip, ip + lit), op);
    ip += lit;
    op += lit;
    if (ip >= src.length) break;
    if (ip + 2 > src.length) throw new Lz4Error("truncated match offset");
    const offset = src[ip] | (src[ip + 1] << 8);
    ip += 2;
    if (offset === 0 || offset > op) throw new Lz4Error("match offset out of range");
    let len = token & 15;
    if (len === 15) len += readLength(src, () => ip++);
    len += MIN_MATCH;
    if (op + len > out.length) throw new Lz4Error("match past the end of the output");
    for (let k = 0; k < len; k++, op++) out[op] = out[op - offset];
  }
  return out.slice(prefix.length, op);
}

function readLength(src: Uint8Array, next: () => number): number {
  let n = 0, b;
  do {
    const i = next();
    if (i >= src.length) throw new Lz4Error("truncated length");
    b = src[i];
    n += b;
  } while (b === 255);
  return n;
}

/** Encodes `src` as one LZ4 block. */
export function encodeLz4Block(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  const table = new Map<number, number>();
  let anchor = 0, ip = 0;
  const end = src.length;
  const key = (i: number) => src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24);
  while (end >= MF_LIMIT && ip <= end - MF_LIMIT) {
    const k = key(ip);
    const cand = table.get(k);
    table.set(k, ip);
    if (cand === undefined || ip - cand > 65535 || key(cand) !== k) {
      ip++;
      continue;
    }
    let len = MIN_MATCH;
    while (ip + len < end - LAST_LITERALS && src[cand + len] === src[ip + len]) len++;
    writeSequence(out, src, anchor, ip, ip - cand, len);
    ip += len;
    anchor = ip;
  }
  writeSequence(out, src, anchor, end, 0, 0);
  return Uint8Array.from(out);
}

function writeSequence(
  out: number[],
  src: Uint8Array,
  from: number,
  to: number,
  offset: number,
  len: number,
) {
  const lit = to - from;
  const m = len ? len - MIN_MATCH : 0;
  out.push((Math.min(lit, 15) << 4) | (len ? Math.min(m, 15) : 0));
  if (lit >= 15) pushLength(out, lit - 15);
  for (let i = from; i < to; i++) out.push(src[i]);
  if (!len) return;
  out.push(offset & 255, offset >>> 8);
  if (m >= 15) pushLength(out, m - 15);
}

function pushLength(out: number[], n: number) {
  while (n >= 255) {
    out.push(255);
    n -= 255;
  }
  out.push(n);
}

/** Whether bytes start with the LZ4 frame magic number. */
export function isLz4Frame(b: Uint8Array): boolean {
  return b.length >= 4 && (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0 === FRAME_MAGIC;
}

const BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

/** Decodes an LZ4 frame (blocks independent or linked; checksums are not verified). */
export function decodeLz4Frame(b: Uint8Array, maxSize: number): Uint8Array {
  if (!isLz4Frame(b) || b.length < 7) throw new Lz4Error("not an LZ4 frame");
  const flg = b[4], bd = b[5];
  if (flg >> 6 !== 1) throw new Lz4Error("unsupported LZ4 frame version");
  const blockMax = BLOCK_MAX[(bd >> 4) & 7];
  if (!blockMax) throw new Lz4Error("invalid block size in LZ4 frame");
  let ip = 6 + (flg & 8 ? 8 : 0) + (flg & 1 ? 4 : 0) + 1;
  const blockChecksum = (flg & 16) !== 0;
  const parts: Uint8Array[] = [];
  let total = 0;
  while (true) {
    if (ip + 4 > b.length) throw new Lz4Error("truncated LZ4 frame");
    const word = (b[ip] | (b[ip + 1] << 8) | (b[ip + 2] << 16) | (b[ip + 3] << 24)) >>> 0;
    ip += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    if (ip + size > b.length) throw new Lz4Error("truncated LZ4 block");
    const data = b.subarray(ip, ip + size);
    const block = word & 0x80000000 ? data.slice() : decodeLinked(data, parts, blockMax);
    total += block.length;
    if (total > maxSize) throw new Lz4Error("decoded data is larger than the buffer");
    parts.push(block);
    ip += size + (blockChecksum ? 4 : 0);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) (out.set(p, off), off += p.length);
  return out;
}

// Linked blocks may refer back into up to 64 KiB of earlier output.
function decodeLinked(data: Uint8Array, parts: Uint8Array[], blockMax: number): Uint8Array {
  const prev = parts.length ? parts[parts.length - 1] : new Uint8Array(0);
  return decodeLz4Block(data, blockMax, prev.subarray(Math.max(0, prev.length - 65536)));
}
