/**
 * VRL strings are byte strings; Petrel keeps them as JS strings so every string function works on
 * text unchanged. Bytes that are not valid UTF-8 (what `decode_base64`, `decode_gzip` or `decrypt`
 * may produce) are kept as the lone surrogates U+DC80–U+DCFF, one per byte (Python's
 * "surrogateescape"), so they survive until bytes are needed again (`encode_base64`, hashes,
 * compression) and are replaced by U+FFFD only where a value leaves VRL as text, as VRL does.
 */

const decoder = new TextDecoder("utf-8", { fatal: true });
const lossyDecoder = new TextDecoder();
const encoder = new TextEncoder();
const ESCAPED = /[\uDC80-\uDCFF]/;

/** The bytes a VRL string stands for: UTF-8, with escaped raw bytes put back. */
export function utf8Bytes(s: string): Uint8Array {
  if (!ESCAPED.test(s)) return encoder.encode(s);
  const out: number[] = [];
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    // A low surrogate right after a high one is half of a real character, not an escaped byte.
    if (i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff) continue;
    for (const b of encoder.encode(s.slice(run, i))) out.push(b);
    out.push(c - 0xdc00);
    run = i + 1;
  }
  for (const b of encoder.encode(s.slice(run))) out.push(b);
  return Uint8Array.from(out);
}

/** A VRL string holding the given bytes: UTF-8 text, each byte of an invalid sequence escaped. */
export function bytesString(b: Uint8Array): string {
  try {
    return decoder.decode(b);
  } catch {
    let out = "";
    let i = 0;
    while (i < b.length) {
      const n = validSequenceLength(b, i);
      if (n > 0) {
        out += lossyDecoder.decode(b.subarray(i, i + n));
        i += n;
      } else out += String.fromCharCode(0xdc00 + b[i++]);
    }
    return out;
  }
}

/** The text a VRL string shows outside VRL: invalid bytes become U+FFFD (Rust's `from_utf8_lossy`). */
export function lossyText(s: string): string {
  return ESCAPED.test(s) ? lossyDecoder.decode(utf8Bytes(s)) : s;
}

/** Whether a string carries bytes that are not valid UTF-8. */
export function hasRawBytes(s: string): boolean {
  return ESCAPED.test(s);
}

// Length of the valid UTF-8 sequence at `i` (0 when the byte there starts none).
function validSequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  const c1 = b[i + 1];
  if (c === 0xe0 && c1 < 0xa0) return 0; // overlong
  if (c === 0xed && c1 >= 0xa0) return 0; // surrogate
  if (c === 0xf0 && c1 < 0x90) return 0; // overlong
  if (c === 0xf4 && c1 >= 0x90) return 0; // beyond U+10FFFF
  return n;
}
