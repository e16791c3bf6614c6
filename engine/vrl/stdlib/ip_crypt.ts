/**
 * `encrypt_ip` / `decrypt_ip`: the ipcrypt constructions (draft-denis-ipcrypt) VRL uses. `aes128` is
 * ipcrypt-deterministic (one AES-128 block over the 16-byte form); `pfx` is ipcrypt-pfx (prefix-preserving,
 * two AES-128 keys, one bit at a time).
 */

import { utf8Bytes } from "../bytes.ts";
import { type Cipheriv, createCipheriv, createDecipheriv } from "node:crypto";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { fail, type FnDef, req } from "./def.ts";
import { ipFrom16, ipTo16 } from "./ip.ts";

const MODES = ["aes128", "pfx"];

const ciphers = new Map<string, Cipheriv>();

/** One AES-128 block under `key` (an ECB cipher per key, reused: each 16-byte update is one block). */
function aesBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const id = Array.from(key).join(",");
  let c = ciphers.get(id);
  if (!c) {
    c = createCipheriv("aes-128-ecb", key, null).setAutoPadding(false);
    ciphers.set(id, c);
  }
  return new Uint8Array(c.update(block));
}

function keyBytes(key: string, mode: string): Uint8Array {
  const k = utf8Bytes(key);
  const want = mode === "aes128" ? 16 : 32;
  if (k.length !== want) return fail(`${mode} mode requires a ${want}-byte key, got ${k.length} bytes`);
  return k;
}

const getBit = (d: Uint8Array, pos: number) => (d[15 - (pos >> 3)] >> (pos & 7)) & 1;
function setBit(d: Uint8Array, pos: number, bit: number): void {
  const i = 15 - (pos >> 3), m = 1 << (pos & 7);
  d[i] = bit ? d[i] | m : d[i] & ~m;
}
function shiftLeft(d: Uint8Array): void {
  for (let i = 0; i < 16; i++) d[i] = ((d[i] << 1) | (i < 15 ? d[i + 1] >> 7 : 0)) & 0xff;
}

/** ipcrypt-pfx in either direction: every output bit is the input bit XOR a PRF of the original prefix. */
function pfx(input: Uint8Array, key: Uint8Array, decrypt: boolean): Uint8Array {
  const k1 = key.slice(0, 16), k2 = key.slice(16);
  if (k1.every((x, i) => x === k2[i])) return fail("pfx mode requires a key made of two different halves");
  const v4 = input.slice(0, 10).every((x) => x === 0) && input[10] === 0xff && input[11] === 0xff;
  const start = v4 ? 96 : 0;
  const out = new Uint8Array(16);
  const padded = new Uint8Array(16);
  if (v4) {
    out.set(input.slice(0, 12));
    padded[3] = 0x01;
    padded[14] = padded[15] = 0xff;
  } else padded[15] = 0x01;
  for (let len = start; len < 128; len++) {
    const e1 = aesBlock(k1, padded), e2 = aesBlock(k2, padded);
    const prf = (e1[15] ^ e2[15]) & 1;
    const pos = 127 - len;
    const inBit = getBit(input, pos);
    const outBit = prf ^ inBit;
    setBit(out, pos, outBit);
    shiftLeft(padded);
    setBit(padded, 0, decrypt ? outBit : inBit);
  }
  return out;
}

function cryptIp(ip: string, key: string, mode: string, decrypt: boolean): string {
  if (!MODES.includes(mode)) return fail(`Invalid mode '${mode}'. Must be 'aes128' or 'pfx'`);
  return cryptIpWithKey(ip, keyBytes(key, mode), mode, decrypt);
}

/** Encrypts (or decrypts) `ip` under raw key bytes; `mode` is `aes128` or `pfx`. */
export function cryptIpWithKey(ip: string, k: Uint8Array, mode: string, decrypt: boolean): string {
  const bytes = ipTo16(ip);
  if (mode === "pfx") return ipFrom16(pfx(bytes, k, decrypt));
  if (!decrypt) return ipFrom16(aesBlock(k, bytes));
  const d = createDecipheriv("aes-128-ecb", k, null).setAutoPadding(false);
  return ipFrom16(new Uint8Array(d.update(bytes)));
}

const ipCryptFn = (decrypt: boolean): FnDef => ({
  params: [req("ip", K.BYTES), req("key", K.BYTES), req("mode", K.BYTES)],
  returns: K.BYTES,
  fallible: true,
  check: (a) => {
    const m = a[2]?.constant?.value;
    if (typeof m === "string" && !MODES.includes(m)) return `Invalid mode '${m}'. Must be 'aes128' or 'pfx'`;
  },
  call: ([ip, key, mode]: (VrlValue | undefined)[]) =>
    cryptIp(ip as string, key as string, mode as string, decrypt),
});

/** IP address encryption functions by name. */
export const IP_CRYPT_FNS: Record<string, FnDef> = {
  encrypt_ip: ipCryptFn(false),
  decrypt_ip: ipCryptFn(true),
};
