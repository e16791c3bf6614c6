/** Cryptographic functions: `encrypt`, `decrypt` (ciphers in `ciphers.ts`), `hmac`, `random_bytes`. */

import { createHmac, getRandomValues } from "node:crypto";
import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { algorithm, crypt } from "./ciphers.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";

const S = K.BYTES;

const ALGORITHM_CHECK = (a: ({ constant?: { value: unknown } } | undefined)[]) => {
  const v = a[1]?.constant?.value;
  if (typeof v === "string" && !algorithm(v)) return `Invalid algorithm: ${v}`;
};

function run(args: (VrlValue | undefined)[], decrypt: boolean): string {
  const [v, alg, k, i] = args;
  const a = algorithm(alg as string) ?? fail(`Invalid algorithm: ${alg}`);
  return bytesString(
    crypt(utf8Bytes(v as string), a, utf8Bytes(k as string), utf8Bytes(i as string), decrypt),
  );
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
    call: (args) => run(args, false),
  },
  decrypt: {
    params: [req("ciphertext", S), req("algorithm", S), req("key", S), req("iv", S)],
    returns: S,
    fallible: true,
    check: ALGORITHM_CHECK,
    call: (args) => run(args, true),
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
