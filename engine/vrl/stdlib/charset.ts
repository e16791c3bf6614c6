/**
 * `encode_charset`/`decode_charset` over the WHATWG encodings the runtime's TextDecoder knows (the
 * same set encoding_rs, VRL's library, implements). Encoding has no runtime API, so each charset's
 * encoder is the inverse of its decoder, built once on first use: every byte and every two-byte
 * sequence decoded, the first sequence giving a character wins. No library: iconv-lite would add
 * half a megabyte to the release file (and its idle memory) for the same tables.
 */

import { utf8Bytes } from "../bytes.ts";
import { fail } from "./def.ts";

const inverses = new Map<string, Map<number, number[]>>();

/** The canonical WHATWG name of a charset label; an unknown label fails. */
export function charsetName(label: string): string {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return fail(`Unknown charset: ${label}`);
  }
}

/** Decodes bytes in a charset, invalid sequences becoming U+FFFD (encoding_rs' `decode`). */
export function decodeCharset(bytes: Uint8Array, label: string): string {
  return new TextDecoder(charsetName(label)).decode(bytes);
}

/** Encodes text in a charset; characters it cannot hold become `&#N;` (encoding_rs' `encode`). */
export function encodeCharset(text: string, label: string): Uint8Array {
  const name = charsetName(label);
  if (name === "utf-8") return utf8Bytes(text);
  if (name === "utf-16le" || name === "utf-16be") return utf16(text, name === "utf-16be");
  if (name === "iso-2022-jp" || name === "replacement") return fail(`Encoding to ${name} is not supported`);
  const inverse = inverseOf(name);
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const seq = cp < 0x80 && name !== "shift_jis" ? [cp] : inverse.get(cp);
    if (seq) out.push(...seq);
    else for (const c of `&#${cp};`) out.push(c.charCodeAt(0));
  }
  return Uint8Array.from(out);
}

function utf16(text: string, bigEndian: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    out[2 * i + (bigEndian ? 0 : 1)] = u >> 8;
    out[2 * i + (bigEndian ? 1 : 0)] = u & 0xff;
  }
  return out;
}

function inverseOf(name: string): Map<number, number[]> {
  let inverse = inverses.get(name);
  if (inverse) return inverse;
  inverse = new Map();
  const dec = new TextDecoder(name);
  const add = (seq: number[]) => {
    const s = dec.decode(Uint8Array.from(seq));
    const cp = s.codePointAt(0)!;
    if (s.length === 0 || cp === 0xfffd || s.length !== (cp > 0xffff ? 2 : 1)) return false;
    if (!inverse!.has(cp)) inverse!.set(cp, seq);
    return true;
  };
  const leads: number[] = [];
  for (let b = 0; b < 256; b++) if (!add([b]) && b >= 0x80) leads.push(b);
  for (const lead of leads) for (let trail = 0x40; trail < 0xff; trail++) add([lead, trail]);
  inverses.set(name, inverse);
  return inverse;
}
