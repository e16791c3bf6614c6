/** Non-cryptographic hashes and flow IDs: `xxhash`, `seahash`, `community_id`. */

import { createHash } from "node:crypto";
import { createXXHash128, createXXHash3, createXXHash32, createXXHash64 } from "hash-wasm";
import { utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { fail, type FnDef, opt, req, str, unlessConstant } from "./def.ts";
import { ipBytes } from "./ip.ts";

// The WebAssembly hashers are built once; their init/update/digest calls are synchronous.
const [XXH32, XXH64, XXH3, XXH128] = await Promise.all([
  createXXHash32(),
  createXXHash64(),
  createXXHash3(),
  createXXHash128(),
]);

const XXHASH_VARIANTS: Record<string, (s: string) => VrlValue> = {
  "XXH32": (s) => BigInt("0x" + XXH32.init().update(utf8Bytes(s)).digest("hex")),
  "XXH64": (s) => BigInt.asIntN(64, BigInt("0x" + XXH64.init().update(utf8Bytes(s)).digest("hex"))),
  "XXH3-64": (s) => BigInt.asIntN(64, BigInt("0x" + XXH3.init().update(utf8Bytes(s)).digest("hex"))),
  "XXH3-128": (s) => BigInt("0x" + XXH128.init().update(utf8Bytes(s)).digest("hex")).toString(),
};

const MASK64 = (1n << 64n) - 1n;
const SEA_P = 0x6eed0e9da4d94a4fn;

function diffuse(x: bigint): bigint {
  x = (x * SEA_P) & MASK64;
  x ^= (x >> 32n) >> (x >> 60n);
  return (x * SEA_P) & MASK64;
}

/** SeaHash (the `seahash` crate's default keys) of `buf`, as VRL's signed 64-bit integer. */
export function seahash(buf: Uint8Array): bigint {
  let a = 0x16f11fe89b0d677cn, b = 0xb480a793d8e6c86cn, c = 0x6fe2e5aaf078ebc9n, d = 0x14f994a4c5259381n;
  for (let i = 0; i < buf.length; i += 8) {
    let x = 0n;
    for (let j = Math.min(7, buf.length - i - 1); j >= 0; j--) x = (x << 8n) | BigInt(buf[i + j]);
    const next = diffuse(a ^ x);
    a = b;
    b = c;
    c = d;
    d = next;
  }
  return BigInt.asIntN(64, diffuse(a ^ b ^ c ^ d ^ BigInt(buf.length)));
}

function lessThan(a: Uint8Array, pa: number, b: Uint8Array, pb: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return pa < pb;
}

// ICMP "ports" are type and code; request/reply types map to their counterpart so both directions hash alike.
const ICMP4_PAIRS: Record<number, number> = {
  8: 0,
  0: 8,
  13: 14,
  14: 13,
  15: 16,
  16: 15,
  10: 9,
  9: 10,
  17: 18,
  18: 17,
};
const ICMP6_PAIRS: Record<number, number> = {
  128: 129,
  129: 128,
  130: 131,
  131: 130,
  133: 134,
  134: 133,
  135: 136,
  136: 135,
  139: 140,
  140: 139,
  144: 145,
  145: 144,
};

/** The spec's port equivalents of an ICMP type/code: [source, destination, one-way]. */
function icmpPorts(type: number, code: number, v6: boolean): [number, number, boolean] {
  const pair = (v6 ? ICMP6_PAIRS : ICMP4_PAIRS)[type];
  return pair === undefined ? [type, code, true] : [type, pair, false];
}

/** Community ID v1 of a flow (corelight's spec): `1:` + base64(SHA-1(seed, ordered endpoints, protocol, ports)). */
function communityId(args: (VrlValue | undefined)[]): string {
  const [src, dst, proto, sp, dp, seed] = args;
  let a = ipBytes(src as string), b = ipBytes(dst as string);
  if (a.length !== b.length) return fail("source and destination IPs must be of the same family");
  const p = Number(proto as bigint);
  if (p < 0 || p > 255) return fail("protocol must be between 0 and 255");
  let pa = sp === undefined || sp === null ? -1 : Number(sp),
    pb = dp === undefined || dp === null ? -1 : Number(dp);
  if (pa > 65535 || pb > 65535) return fail("ports must be between 0 and 65535");
  let oneWay = false;
  if ((p === 1 || p === 58) && pa >= 0 && pb >= 0) [pa, pb, oneWay] = icmpPorts(pa, pb, p === 58);
  if (!oneWay && !lessThan(a, pa, b, pb)) [a, b, pa, pb] = [b, a, pb, pa];
  const s = seed === undefined || seed === null ? 0 : Number(seed);
  const parts = [Uint8Array.of(s >> 8, s & 0xff), a, b, Uint8Array.of(p, 0)];
  if (pa >= 0 && pb >= 0) parts.push(Uint8Array.of(pa >> 8, pa & 0xff, pb >> 8, pb & 0xff));
  const h = createHash("sha1");
  for (const part of parts) h.update(part);
  return "1:" + h.digest("base64");
}

/** Hash functions by name. */
export const HASH_FNS: Record<string, FnDef> = {
  xxhash: {
    params: [req("value", K.BYTES), opt("variant", K.BYTES)],
    returns: K.INTEGER | K.BYTES,
    check: (a) => {
      const v = a[1]?.constant?.value;
      if (typeof v === "string" && !(v in XXHASH_VARIANTS)) {
        return `variant must be one of ${Object.keys(XXHASH_VARIANTS).join(", ")}`;
      }
    },
    fallibleFor: unlessConstant(1, (v) => typeof v === "string" && v in XXHASH_VARIANTS, true),
    call: ([v, variant]) => {
      const f = XXHASH_VARIANTS[str(variant, "XXH32")] ?? fail(`unknown variant ${variant}`);
      return f(v as string);
    },
  },
  seahash: {
    params: [req("value", K.BYTES)],
    returns: K.INTEGER,
    call: ([v]) => seahash(utf8Bytes(v as string)),
  },
  community_id: {
    params: [
      req("source_ip", K.BYTES),
      req("destination_ip", K.BYTES),
      req("protocol", K.INTEGER),
      opt("source_port", K.INTEGER),
      opt("destination_port", K.INTEGER),
      opt("seed", K.INTEGER),
    ],
    returns: K.BYTES,
    fallible: true,
    call: (args) => communityId(args),
  },
};
