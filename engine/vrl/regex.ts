/**
 * Regexes of VRL. Literals (`r'…'`) and `to_regex` are Rust `regex` syntax, translated by the
 * engine's one Rust translator (`../rust_regex.ts`), so a pattern means the same in a VRL program
 * and a pipeline processor. Grok patterns are Oniguruma's (atomic groups, possessive quantifiers),
 * which `translateRegex` here approximates.
 */

import { translateRustRegex } from "../rust_regex.ts";
import { VrlRegex } from "./value.ts";

const POSIX_CLASSES: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Translates a grok (Oniguruma-flavoured) pattern into a JS source and flags (named groups, inline flags, atomic groups, POSIX classes). */
export function translateRegex(pattern: string, extraFlags = ""): { source: string; flags: string } {
  const flags = new Set(extraFlags.split("").filter(Boolean));
  let p = pattern;
  // Leading inline flags apply to the whole pattern: JS only knows them as RegExp flags.
  for (;;) {
    const m = /^\(\?([imsxU]+)\)/.exec(p);
    if (!m) break;
    for (const f of m[1]) flags.add(f);
    p = p.slice(m[0].length);
  }
  if (flags.has("x")) p = stripExtended(p);
  flags.delete("x");
  flags.delete("U");
  let out = "";
  let inClass = false;
  // Rust's mid-pattern `(?i)` lasts to the end of the enclosing group; JS only has scoped `(?i:…)`.
  // Each open group keeps the modifier groups opened inside it, closed (and reopened around `|`).
  const scopes: string[][] = [[]];
  const closeScoped = () => ")".repeat(scopes[scopes.length - 1].length);
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      const n = p[i + 1];
      if (n === "A" && !inClass) out += "^";
      else if (n === "z" && !inClass) out += "$(?![\\s\\S])";
      else if (n === "Z" && !inClass) out += "$";
      else if (n === "h" && !inClass) out += "[0-9a-fA-F]";
      else out += c + (n ?? "");
      i++;
      continue;
    }
    if (inClass) {
      if (c === "[" && p[i + 1] === ":") {
        const close = p.indexOf(":]", i + 2);
        const name = close > 0 ? p.slice(i + 2, close) : "";
        const neg = name.startsWith("^");
        const cls = POSIX_CLASSES[neg ? name.slice(1) : name];
        if (cls && !neg) {
          out += cls;
          i = close + 1;
          continue;
        }
      }
      if (c === "[") {
        out += "\\[";
        continue;
      }
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (p[i + 1] === "^") out += p[++i];
      if (p[i + 1] === "]") {
        out += "\\]";
        i++;
      }
      continue;
    }
    if (c === "(" && p[i + 1] === "?") {
      const inline = /^\(\?([imsxU]*(?:-[imsxU]*)?)\)/.exec(p.slice(i));
      if (inline) {
        const mods = inline[1].replace(/[xU]/g, "").replace(/-$/, "");
        if (mods && mods !== "-") {
          out += `(?${mods}:`;
          scopes[scopes.length - 1].push(mods);
        }
        i += inline[0].length - 1;
        continue;
      }
      scopes.push([]);
      if (p[i + 2] === "P" && p[i + 3] === "<") {
        out += "(?<";
        i += 3;
        continue;
      }
      if (p[i + 2] === ">") {
        out += "(?:";
        i += 2;
        continue;
      }
      out += c;
      continue;
    }
    if (c === "(") {
      scopes.push([]);
      out += c;
      continue;
    }
    if (c === ")") {
      out += closeScoped() + ")";
      if (scopes.length > 1) scopes.pop();
      continue;
    }
    if (c === "|" && scopes[scopes.length - 1].length) {
      out += closeScoped() + "|" + scopes[scopes.length - 1].map((m) => `(?${m}:`).join("");
      continue;
    }
    if ((c === "+" || c === "*" || c === "?" || c === "}") && p[i + 1] === "+") {
      out += c;
      i++;
      continue;
    }
    out += c;
  }
  out += closeScoped();
  return { source: out, flags: [...flags].join("") };
}

function stripExtended(p: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      out += c + (p[i + 1] ?? "");
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") inClass = true;
    if (c === "#") {
      while (i < p.length && p[i] !== "\n") i++;
      continue;
    }
    if (/\s/.test(c)) continue;
    out += c;
  }
  return out;
}

/** Builds a JS RegExp from a grok pattern; throws on syntax JS cannot accept. */
export function toJsRegExp(pattern: string, extraFlags = ""): RegExp {
  const { source, flags } = translateRegex(pattern, extraFlags);
  try {
    return new RegExp(source, flags + "u");
  } catch {
    return new RegExp(source, flags);
  }
}

/** Compiles a VRL regex literal (`r'…'`) or `to_regex` argument: Rust syntax; throws on what Rust rejects. */
export function compileRegex(pattern: string): VrlRegex {
  const { source, flags } = translateRustRegex(pattern);
  return new VrlRegex(pattern, new RegExp(source, flags));
}

/** A global-flagged copy of a regex for iteration (cached per RegExp). */
const globalCache = new WeakMap<RegExp, RegExp>();
/** Returns a `g`-flagged version of `re`. */
export function globalRegex(re: RegExp): RegExp {
  let g = globalCache.get(re);
  if (!g) {
    g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g");
    globalCache.set(re, g);
  }
  g.lastIndex = 0;
  return g;
}
