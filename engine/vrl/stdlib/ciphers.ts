/**
 * The ciphers behind VRL's `encrypt`/`decrypt`: every algorithm name VRL accepts, parsed into a block
 * cipher (AES from node:crypto, SM4 from sm-crypto), a mode and a padding, or an AEAD (ChaCha20-Poly1305
 * from node:crypto, XChaCha20-Poly1305 and XSalsa20-Poly1305 from @noble/ciphers). The modes node lacks
 * here (CFB, OFB, both CTR counters, the non-PKCS7 paddings) are built on a single-block encryption, so
 * AES and SM4 share them.
 */

import { createCipheriv, createDecipheriv, getRandomValues } from "node:crypto";
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { xsalsa20poly1305 } from "@noble/ciphers/salsa.js";
import sm4 from "sm-crypto/src/sm4/index.js";
import { fail } from "./def.ts";

const BLOCK = 16;

type Mode = "CFB" | "OFB" | "CTR-LE" | "CTR-BE" | "CBC";
type Padding = "PKCS7" | "ANSIX923" | "ISO7816" | "ISO10126";
type Aead = "CHACHA20-POLY1305" | "XCHACHA20-POLY1305" | "XSALSA20-POLY1305";

/** A parsed VRL algorithm name with the key and iv lengths it needs. */
export type Algorithm =
  & { keyBytes: number; ivBytes: number }
  & ({ kind: "aead"; aead: Aead } | { kind: "AES" | "SM4"; mode: Mode; padding?: Padding });

const AEADS: Record<Aead, number> = {
  "CHACHA20-POLY1305": 12,
  "XCHACHA20-POLY1305": 24,
  "XSALSA20-POLY1305": 24,
};

/**
 * Parses a VRL algorithm name (`AES-256-CBC-PKCS7`, `SM4-CTR`, `XCHACHA20-POLY1305`); VRL upper-cases
 * the name first.
 */
export function algorithm(name: string): Algorithm | undefined {
  const n = name.toUpperCase();
  if (n in AEADS) return { kind: "aead", aead: n as Aead, keyBytes: 32, ivBytes: AEADS[n as Aead] };
  const m = /^(?:AES-(128|192|256)|SM4)-(CFB|OFB|CTR|CTR-LE|CTR-BE|CBC-(PKCS7|ANSIX923|ISO7816|ISO10126))$/
    .exec(n);
  if (!m) return undefined;
  // VRL's plain "CTR" is the 64-bit little-endian counter (ctr::Ctr64LE).
  const mode = (m[2] === "CTR" ? "CTR-LE" : m[2].startsWith("CBC") ? "CBC" : m[2]) as Mode;
  const padding = m[3] as Padding | undefined;
  if (m[1] === undefined) return { kind: "SM4", keyBytes: 16, ivBytes: BLOCK, mode, padding };
  return { kind: "AES", keyBytes: Number(m[1]) / 8, ivBytes: BLOCK, mode, padding };
}

/** A 128-bit block cipher under one key: single-block encryption and CBC without padding. */
interface BlockCipher {
  encrypt(block: Uint8Array): Uint8Array;
  cbc(data: Uint8Array, iv: Uint8Array, decrypt: boolean): Uint8Array;
}

function aes(key: Uint8Array): BlockCipher {
  const ecb = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  ecb.setAutoPadding(false);
  return {
    encrypt: (block) => new Uint8Array(ecb.update(block)),
    cbc(data, iv, decrypt) {
      const name = `aes-${key.length * 8}-cbc`;
      const c = decrypt ? createDecipheriv(name, key, iv) : createCipheriv(name, key, iv);
      c.setAutoPadding(false);
      const out = new Uint8Array(data.length);
      out.set(c.update(data));
      return out;
    },
  };
}

interface Sm4Options {
  padding: "none";
  output: "array";
  mode?: "cbc";
  iv?: Uint8Array;
}
const sm4Lib = sm4 as {
  encrypt(data: Uint8Array, key: Uint8Array, o: Sm4Options): number[];
  decrypt(data: Uint8Array, key: Uint8Array, o: Sm4Options): number[];
};

function sm4Cipher(key: Uint8Array): BlockCipher {
  return {
    encrypt: (block) => Uint8Array.from(sm4Lib.encrypt(block, key, { padding: "none", output: "array" })),
    cbc(data, iv, decrypt) {
      const o: Sm4Options = { padding: "none", output: "array", mode: "cbc", iv };
      return Uint8Array.from(decrypt ? sm4Lib.decrypt(data, key, o) : sm4Lib.encrypt(data, key, o));
    },
  };
}

/** The counter block for block `n` after `iv`: 64-bit little-endian (first half) or 128-bit big-endian. */
function counter(iv: Uint8Array, n: number, mode: "CTR-LE" | "CTR-BE"): Uint8Array {
  const ctr = iv.slice();
  const dv = new DataView(ctr.buffer);
  if (mode === "CTR-LE") {
    dv.setBigUint64(0, BigInt.asUintN(64, dv.getBigUint64(0, true) + BigInt(n)), true);
  } else {
    const v = (dv.getBigUint64(0) << 64n | dv.getBigUint64(8)) + BigInt(n);
    dv.setBigUint64(0, BigInt.asUintN(64, v >> 64n));
    dv.setBigUint64(8, BigInt.asUintN(64, v));
  }
  return ctr;
}

/** CFB (full block), OFB and both CTR counters from single-block encryption. */
function keystreamXor(data: Uint8Array, c: BlockCipher, iv: Uint8Array, mode: Mode, decrypt: boolean) {
  const out = new Uint8Array(data.length);
  let feedback: Uint8Array = iv.slice();
  for (let off = 0, n = 0; off < data.length; off += BLOCK, n++) {
    const ks = c.encrypt(mode === "CTR-LE" || mode === "CTR-BE" ? counter(iv, n, mode) : feedback);
    const chunk = data.subarray(off, off + BLOCK);
    for (let i = 0; i < chunk.length; i++) out[off + i] = chunk[i] ^ ks[i];
    if (mode === "OFB") feedback = ks;
    else if (mode === "CFB") feedback = (decrypt ? chunk : out.subarray(off, off + BLOCK)).slice();
  }
  return out;
}

function pad(data: Uint8Array, padding: Padding): Uint8Array {
  const n = BLOCK - (data.length % BLOCK);
  const out = new Uint8Array(data.length + n);
  out.set(data);
  if (padding === "PKCS7") out.fill(n, data.length);
  else if (padding === "ANSIX923") out[out.length - 1] = n;
  else if (padding === "ISO7816") out[data.length] = 0x80;
  else {
    getRandomValues(out.subarray(data.length, out.length - 1));
    out[out.length - 1] = n;
  }
  return out;
}

function unpad(data: Uint8Array, padding: Padding): Uint8Array {
  if (data.length === 0 || data.length % BLOCK !== 0) return fail("Invalid padding");
  if (padding === "ISO7816") {
    let i = data.length - 1;
    while (i >= data.length - BLOCK && data[i] === 0) i--;
    if (i < data.length - BLOCK || data[i] !== 0x80) return fail("Invalid padding");
    return data.subarray(0, i);
  }
  const n = data[data.length - 1];
  if (n === 0 || n > BLOCK) return fail("Invalid padding");
  for (let i = data.length - n; i < data.length - 1; i++) {
    const expected = padding === "PKCS7" ? n : padding === "ANSIX923" ? 0 : data[i];
    if (data[i] !== expected) return fail("Invalid padding");
  }
  return data.subarray(0, data.length - n);
}

const TAG = 16;

function chacha(data: Uint8Array, key: Uint8Array, iv: Uint8Array, decrypt: boolean): Uint8Array {
  if (!decrypt) {
    const c = createCipheriv("chacha20-poly1305", key, iv, { authTagLength: TAG });
    const body = c.update(data);
    c.final();
    return Uint8Array.from([...body, ...c.getAuthTag()]);
  }
  const d = createDecipheriv("chacha20-poly1305", key, iv, { authTagLength: TAG });
  d.setAuthTag(data.subarray(data.length - TAG));
  const body = d.update(data.subarray(0, data.length - TAG));
  d.final();
  return new Uint8Array(body);
}

/**
 * The AEADs as VRL's crates lay them out: ChaCha20/XChaCha20 put the tag after the ciphertext,
 * XSalsa20-Poly1305 (crypto_secretbox) before it, as NaCl does.
 */
function aead(name: Aead, data: Uint8Array, key: Uint8Array, iv: Uint8Array, decrypt: boolean): Uint8Array {
  if (decrypt && data.length < TAG) return fail("Invalid ciphertext: shorter than the authentication tag");
  try {
    if (name === "CHACHA20-POLY1305") return chacha(data, key, iv, decrypt);
    const c = name === "XCHACHA20-POLY1305" ? xchacha20poly1305(key, iv) : xsalsa20poly1305(key, iv);
    return decrypt ? c.decrypt(data) : c.encrypt(data);
  } catch {
    return fail("Decryption failed: authentication tag mismatch");
  }
}

/** Encrypts or decrypts `data` as VRL's `encrypt`/`decrypt` do, failing with VRL's messages. */
export function crypt(
  data: Uint8Array,
  a: Algorithm,
  key: Uint8Array,
  iv: Uint8Array,
  decrypt: boolean,
): Uint8Array {
  if (key.length !== a.keyBytes) {
    return fail(`Invalid key length: expected ${a.keyBytes} bytes, got ${key.length}`);
  }
  if (iv.length !== a.ivBytes) {
    return fail(`Invalid iv length: expected ${a.ivBytes} bytes, got ${iv.length}`);
  }
  if (a.kind === "aead") return aead(a.aead, data, key, iv, decrypt);
  const c = a.kind === "AES" ? aes(key) : sm4Cipher(key);
  if (a.mode !== "CBC") return keystreamXor(data, c, iv, a.mode, decrypt);
  if (decrypt) return unpad(c.cbc(data, iv, true), a.padding!);
  return c.cbc(pad(data, a.padding!), iv, false);
}
