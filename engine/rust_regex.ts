/**
 * Rust `regex` crate syntax as JavaScript RegExps for VRL regex literals and the pipeline's regex
 * processors (reference §4.14): the translation is SQL's (src/common/rust_regex.ts), as is the
 * replacement syntax (src/common/rust_replacement.ts, re-exported here).
 */

import { compileRegExp } from "../src/common/regexp.ts";
import { rustRegexToJs } from "../src/common/rust_regex.ts";

export { parseReplacement, replaceAllRust } from "../src/common/rust_replacement.ts";

/** Translates `src`; throws an Error with the regex crate's reason on syntax it refuses. */
export function translateRustRegex(src: string): { source: string; flags: string } {
  return rustRegexToJs(src);
}

const cache = new Map<string, RegExp>();

/** Compiles a Rust regex into a JS RegExp (cached); throws Error(message) when invalid. */
export function compileRustRegex(src: string, extraFlags = ""): RegExp {
  const key = extraFlags + "\u0000" + src;
  const hit = cache.get(key);
  if (hit) return hit;
  const { source, flags } = translateRustRegex(src);
  const re = compileRegExp(source, flags + extraFlags);
  cache.set(key, re);
  return re;
}
