/**
 * Translates Rust `regex` crate syntax to a JavaScript RegExp with the `u` flag (reference §4.14):
 * `(?P<n>` → `(?<n>`, leading inline flags → RegExp flags, later ones (`a(?i)b`, `(?-s:…)`) → scoped
 * modifier groups, Unicode-aware `\d \w \b`, POSIX classes, `\A \z`, `\x{…}`, `\pL`, and escapes JS
 * rejects in unicode mode. VRL regex literals and the pipeline's regex processors both use it.
 * The translation itself is `regex_translate.ts`, shared with grok's Oniguruma patterns.
 */

import { compileRegExp } from "../src/common/regexp.ts";
import { translateRegexFlavour } from "./regex_translate.ts";

/** Translates `src`; throws an Error with a regex-crate-like message on unsupported syntax. */
export function translateRustRegex(src: string): { source: string; flags: string } {
  return translateRegexFlavour(src, "rust");
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

/** One piece of a Rust replacement string: literal text or a group reference. */
type ReplacementPart = string | { group: string | number };

/** Parses Rust's replacement syntax: `$1`, `$name`, `${name}`, `$$`. */
export function parseReplacement(rep: string): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let lit = "";
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i];
    if (c !== "$") {
      lit += c;
      continue;
    }
    if (rep[i + 1] === "$") {
      lit += "$";
      i++;
      continue;
    }
    let name: string | undefined;
    if (rep[i + 1] === "{") {
      const end = rep.indexOf("}", i + 2);
      if (end > 0) {
        name = rep.slice(i + 2, end);
        i = end;
      }
    } else {
      const m = /^[_0-9A-Za-z]+/.exec(rep.slice(i + 1));
      if (m) {
        name = m[0];
        i += m[0].length;
      }
    }
    if (name === undefined) {
      lit += "$";
      continue;
    }
    if (lit) parts.push(lit);
    lit = "";
    parts.push({ group: /^[0-9]+$/.test(name) ? Number(name) : name });
  }
  if (lit) parts.push(lit);
  return parts;
}

/** Replaces every match of `re` (must be global) in `s` using parsed Rust replacement parts. */
export function replaceAllRust(s: string, re: RegExp, parts: ReplacementPart[]): string {
  if (parts.length === 1 && typeof parts[0] === "string") {
    const lit = parts[0];
    return s.replace(re, () => lit);
  }
  return s.replace(re, (...args: unknown[]) => {
    const last = args[args.length - 1];
    const groups = typeof last === "object" && last !== null
      ? last as Record<string, string | undefined>
      : undefined;
    const nGroups = args.length - (groups ? 3 : 2);
    let out = "";
    for (const p of parts) {
      if (typeof p === "string") out += p;
      else if (typeof p.group === "number") {
        out += p.group < nGroups ? (args[p.group] as string | undefined) ?? "" : "";
      } else out += groups?.[p.group] ?? "";
    }
    return out;
  });
}
