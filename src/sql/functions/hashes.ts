/**
 * The hash functions (md5, the SHA-2 family, digest) over node:crypto, in a group of their own: loading
 * node:crypto costs a query worker 10-50 ms at its start, so a worker loads this group only for a query
 * that names one of them (see registry.ts).
 */
import { createHash } from "node:crypto";
import { bytesOf } from "./datafusion.ts";
import type { ScalarDef } from "./values.ts";
import { str } from "./values.ts";

const hash = (algo: string): ScalarDef => ({
  args: [1, 1],
  fn: (v) => (v === null ? null : new Uint8Array(createHash(algo).update(bytesOf(v)).digest())),
});

/** digest()'s algorithm names and node:crypto's. */
const DIGESTS: Record<string, string> = {
  md5: "md5",
  sha224: "sha224",
  sha256: "sha256",
  sha384: "sha384",
  sha512: "sha512",
  blake2b: "blake2b512",
  blake2s: "blake2s256",
};

/** The hash functions: md5 answers hex text (PostgreSQL's), the others bytes (DataFusion's Binary). */
export const HASH_SCALARS: Record<string, ScalarDef> = {
  md5: { args: [1, 1], fn: (s) => (s === null ? null : createHash("md5").update(str(s)!).digest("hex")) },
  sha224: hash("sha224"),
  sha256: hash("sha256"),
  sha384: hash("sha384"),
  sha512: hash("sha512"),
  digest: {
    args: [2, 2],
    fn: (v, algo) => {
      if (v === null || algo === null) return null;
      const name = DIGESTS[str(algo)!.toLowerCase()];
      if (!name) {
        throw new Error(
          `There is no built-in digest algorithm named '${str(algo)}', currently supported algorithms are: ${
            Object.keys(DIGESTS).join(", ")
          }`,
        );
      }
      return new Uint8Array(createHash(name).update(bytesOf(v)).digest());
    },
  },
};
