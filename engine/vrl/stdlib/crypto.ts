/**
 * Cryptographic functions: `encrypt`, `decrypt`, `hmac`, `random_bytes`. Ciphers come from
 * node:crypto; the modes it lacks here (CFB, OFB, little-endian CTR, the non-PKCS7 paddings) are built
 * on its single-block AES so every VRL algorithm name works.
 */

import { createCipheriv, createDecipheriv, createHmac, getRandomValues } from "node:crypto";
import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";

const S = K.BYTES;
const BLOCK = 16;

type Mode = "CFB" | "OFB" | "CTR-LE" | "CTR-BE" | "CBC";
type Padding = "PKCS7" | "ANSIX923" | "ISO7816" | "ISO10126";
interface Algorithm {
  kind: "aes" | "chacha";
  keyBytes: number;
  ivBytes: number;
  mode?: Mode;
  padding?: Padding;
}

/** Parses a VRL algorithm name (`AES-256-CBC-PKCS7`, `AES-128-CTR`, `CHACHA20-POLY1305`). */
function algorithm(name: string): Algorithm | undefined {
  if (name === "CHACHA20-POLY1305") return { kind: "chacha", keyBytes: 32, ivBytes: 12 };
  const m = /^AES-(128|192|256)-(CFB|OFB|CTR|CTR-LE|CTR-BE|CBC-(PKCS7|ANSIX923|ISO7816|ISO10126))$/.exec(
    name,
  );
  if (!m) return undefined;
  const keyBytes = Number(m[1]) / 8;
  // VRL's plain "CTR" is the 64-bit little-endian counter (ctr::Ctr64LE).
  const mode = (m[2] === "CTR" ? "CTR-LE" : m[2].startsWith("CBC") ? "CBC" : m[2]) as Mode;
  return { kind: "aes", keyBytes, ivBytes: BLOCK, mode, padding: m[3] as Padding | undefined };
}

const ALGORITHM_CHECK = (a: ({ constant?: { value: unknown } } | undefined)[]) => {
  const v = a[1]?.constant?.value;
  if (typeof v === "string" && !algorithm(v)) return `Invalid algorithm: ${v}`;
};

function blockCipher(key: Uint8Array): (block: Uint8Array) => Uint8Array {
  const c = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  c.setAutoPadding(false);
  return (block) => new Uint8Array(c.update(block));
}

/** CFB (full block), OFB and the 64-bit little-endian CTR from single-block AES. */
function keystreamXor(data: Uint8Array, key: Uint8Array, iv: Uint8Array, mode: Mode, decrypt: boolean) {
  const enc = blockCipher(key);
  const out = new Uint8Array(data.length);
  let feedback: Uint8Array = iv.slice();
  for (let off = 0, n = 0; off < data.length; off += BLOCK, n++) {
    let ks: Uint8Array;
    if (mode === "CTR-LE") {
      const ctr = feedback.slice();
      const dv = new DataView(ctr.buffer);
      dv.setBigUint64(0, BigInt.asUintN(64, dv.getBigUint64(0, true) + BigInt(n)), true);
      ks = enc(ctr);
    } else ks = enc(feedback);
    const chunk = data.subarray(off, off + BLOCK);
    for (let i = 0; i < chunk.length; i++) out[off + i] = chunk[i] ^ ks[i];
    if (mode === "OFB") feedback = ks;
    else if (mode === "CFB") feedback = (decrypt ? chunk : out.subarray(off, off + BLOCK)).slice();
  }
  return out;
}

// The 128-bit big-endian counter is node's own CTR mode.
function ctrBigEndian(data: Uint8Array, key: Uint8Array, iv: Uint8Array): Uint8Array {
  return new Uint8Array(createCipheriv(`aes-${key.length * 8}-ctr`, key, iv).update(data));
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

function cbc(data: Uint8Array, key: Uint8Array, iv: Uint8Array, decrypt: boolean): Uint8Array {
  const name = `aes-${key.length * 8}-cbc`;
  const c = decrypt ? createDecipheriv(name, key, iv) : createCipheriv(name, key, iv);
  c.setAutoPadding(false);
  const out = new Uint8Array(data.length);
  out.set(c.update(data));
  return out;
}

function chacha(data: Uint8Array, key: Uint8Array, iv: Uint8Array, decrypt: boolean): Uint8Array {
  if (!decrypt) {
    const c = createCipheriv("chacha20-poly1305", key, iv, { authTagLength: 16 });
    const body = c.update(data);
    c.final();
    return Uint8Array.from([...body, ...c.getAuthTag()]);
  }
  if (data.length < 16) return fail("Invalid ciphertext: shorter than the authentication tag");
  const d = createDecipheriv("chacha20-poly1305", key, iv, { authTagLength: 16 });
  d.setAuthTag(data.subarray(data.length - 16));
  try {
    const body = d.update(data.subarray(0, data.length - 16));
    d.final();
    return new Uint8Array(body);
  } catch {
    return fail("Decryption failed: authentication tag mismatch");
  }
}

function crypt(args: (VrlValue | undefined)[], decrypt: boolean): string {
  const [v, alg, k, i] = args;
  const a = algorithm(alg as string) ?? fail(`Invalid algorithm: ${alg}`);
  const key = utf8Bytes(k as string), iv = utf8Bytes(i as string), data = utf8Bytes(v as string);
  if (key.length !== a.keyBytes) {
    return fail(`Invalid key length: expected ${a.keyBytes} bytes, got ${key.length}`);
  }
  if (iv.length !== a.ivBytes) {
    return fail(`Invalid iv length: expected ${a.ivBytes} bytes, got ${iv.length}`);
  }
  if (a.kind === "chacha") return bytesString(chacha(data, key, iv, decrypt));
  if (a.mode === "CTR-BE") return bytesString(ctrBigEndian(data, key, iv));
  if (a.mode !== "CBC") return bytesString(keystreamXor(data, key, iv, a.mode!, decrypt));
  if (decrypt) return bytesString(unpad(cbc(data, key, iv, true), a.padding!));
  return bytesString(cbc(pad(data, a.padding!), key, iv, false));
}

const HMAC: Record<string, string> = {
  "SHA1": "sha1",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
};
const MAX_RANDOM_BYTES = 64 * 1024;

/** Cryptographic functions by name. */
export const CRYPTO_FNS: Record<string, FnDef> = {
  encrypt: {
    params: [req("plaintext", S), req("algorithm", S), req("key", S), req("iv", S)],
    returns: S,
    fallible: true,
    check: ALGORITHM_CHECK,
    call: (args) => crypt(args, false),
  },
  decrypt: {
    params: [req("ciphertext", S), req("algorithm", S), req("key", S), req("iv", S)],
    returns: S,
    fallible: true,
    check: ALGORITHM_CHECK,
    call: (args) => crypt(args, true),
  },
  hmac: {
    params: [req("value", S), req("key", S), opt("algorithm", S)],
    returns: S,
    fallibleFor: (a) => !!a[2] && !(typeof a[2].constant?.value === "string" && a[2].constant.value in HMAC),
    check: (a) => {
      const v = a[2]?.constant?.value;
      if (typeof v === "string" && !(v in HMAC)) return `Invalid algorithm: ${v}`;
    },
    call: ([v, k, alg]) => {
      const name = HMAC[str(alg, "SHA-256")] ?? fail(`Invalid algorithm: ${alg}`);
      return bytesString(
        new Uint8Array(createHmac(name, utf8Bytes(k as string)).update(utf8Bytes(v as string)).digest()),
      );
    },
  },
  random_bytes: {
    params: [req("length", K.INTEGER)],
    returns: S,
    fallibleFor: (a) => {
      const v = a[0]?.constant?.value;
      return !(typeof v === "bigint" && v >= 0n && v <= BigInt(MAX_RANDOM_BYTES));
    },
    call: ([n]) => {
      const len = n as bigint;
      if (len < 0n) return fail("Length cannot be negative");
      if (len > BigInt(MAX_RANDOM_BYTES)) return fail(`Length is too large. Maximum is ${MAX_RANDOM_BYTES}`);
      return bytesString(getRandomValues(new Uint8Array(Number(len))));
    },
  },
};
