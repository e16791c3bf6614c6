/**
 * Regexes of VRL. Literals (`r'…'`) and `to_regex` are Rust `regex` syntax, translated by the one
 * Rust translator (src/common/rust_regex.ts, through `../rust_regex.ts`), so a pattern means the same
 * in a VRL program, a pipeline processor and SQL. Grok patterns are Oniguruma's (atomic groups,
 * possessive quantifiers), read by `../regex_translate.ts`.
 */

import { compileRegExp } from "../../src/common/regexp.ts";
import { translateRustRegex } from "../rust_regex.ts";
import { translateOniguruma } from "../regex_translate.ts";
import { VrlRegex } from "./value.ts";

/** Translates a grok (Oniguruma-flavoured) pattern into a JS source and flags (named groups, inline flags, atomic groups, POSIX classes). */
export function translateRegex(pattern: string, extraFlags = ""): { source: string; flags: string } {
  return translateOniguruma(pattern, extraFlags);
}

/** Builds a JS RegExp from a grok pattern; throws on syntax JS cannot accept. */
export function toJsRegExp(pattern: string, extraFlags = ""): RegExp {
  const { source, flags } = translateRegex(pattern, extraFlags);
  try {
    return compileRegExp(source, flags + "u");
  } catch {
    // what the `u` flag refuses (`[\w-.]`, `\x{41}`) keeps JS's ASCII `\w \d \s \b`
    const ascii = translateOniguruma(pattern, extraFlags, false);
    return compileRegExp(ascii.source, ascii.flags);
  }
}

/** Compiles a VRL regex literal (`r'…'`) or `to_regex` argument: Rust syntax; throws on what Rust rejects. */
export function compileRegex(pattern: string): VrlRegex {
  const { source, flags } = translateRustRegex(pattern);
  return new VrlRegex(pattern, compileRegExp(source, flags));
}

/** A global-flagged copy of a regex for iteration (cached per RegExp). */
const globalCache = new WeakMap<RegExp, RegExp>();
/** Returns a `g`-flagged version of `re`. */
export function globalRegex(re: RegExp): RegExp {
  let g = globalCache.get(re);
  if (!g) {
    // the RegExp's own class, so a LinearRegExp stays linear
    g = new (re.constructor as RegExpConstructor)(
      re.source,
      re.flags.includes("g") ? re.flags : re.flags + "g",
    );
    globalCache.set(re, g);
  }
  g.lastIndex = 0;
  return g;
}
