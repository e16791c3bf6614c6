/**
 * The SQL regex functions with DataFusion's semantics: the `regexp` behind `~ ~* !~ !~*` (SQLite's
 * REGEXP operator), regexp_like, regexp_match, regexp_replace and regexp_count. Patterns are Rust
 * `regex` syntax (common/rust_regex.ts); a flags argument becomes a leading inline group (`'i'` →
 * `(?i)`) as DataFusion builds it, so an unknown flag fails as Rust fails it; `g` means every match
 * where a function takes it; replacements use Rust's `$1` `${1}` `$name` `$$`, and `\1` as `${1}`.
 */
import { compileRegExp, regExpErrorReason } from "../../common/regexp.ts";
import { rustRegexToJs } from "../../common/rust_regex.ts";
import type { ScalarDef } from "./values.ts";
import { str } from "./values.ts";

/**
 * Marks the pattern of a case-insensitive match (`x ~* p` → `x REGEXP __petrel_icase(p)`): SQLite's
 * REGEXP operator calls `regexp(pattern, value)` and has no flags. A noncharacter no pattern holds,
 * kept at the front when `p` is a concatenation (`~*` binds looser than `||`).
 */
const ICASE = "\uFDD0";

/** Compiled patterns (one per distinct pattern and flags, not one per row). */
const regexCache = new Map<string, RegExp>();
const REGEX_CACHE_SIZE = 256;

/**
 * A Rust pattern compiled as DataFusion compiles it, `(?flags)pattern`, with `g` for every match;
 * a pattern Rust refuses throws naming it. A cached regex is stateless here: exec without `g` starts
 * at 0, and `g` ones are only used through matchAll, which copies them.
 */
export function cachedRegex(pattern: string, flags = "", global = false): RegExp {
  const key = `${global ? "g" : ""}${flags}/${pattern}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    const marked = pattern.startsWith(ICASE);
    const body = marked ? pattern.slice(ICASE.length) : pattern;
    const inline = (marked ? "i" : "") + flags;
    const full = inline === "" ? body : `(?${inline})${body}`;
    try {
      const js = rustRegexToJs(full);
      re = compileRegExp(js.source, js.flags + (global ? "g" : ""));
    } catch (e) {
      const shown = full.length > 200 ? `${full.slice(0, 200)}…` : full;
      throw new Error(
        `Regular expression did not compile: regex parse error: ${shown}: ${regExpErrorReason(e)}`,
      );
    }
    if (regexCache.size >= REGEX_CACHE_SIZE) regexCache.delete(regexCache.keys().next().value!);
    regexCache.set(key, re);
  }
  return re;
}

/**
 * Rust's `Captures::expand`: `$$` is `$`; `$name`/`$1` take the longest `[0-9A-Za-z_]` run (`$1a` is
 * group "1a"); `${…}` takes anything to `}`; an unknown group is empty; a `$` starting no reference stays.
 */
function expand(template: string, m: RegExpExecArray): string {
  let out = "", i = 0;
  for (let d = template.indexOf("$"); d >= 0; d = template.indexOf("$", i)) {
    out += template.slice(i, d);
    i = d + 1;
    if (template[d + 1] === "$") {
      out += "$";
      i = d + 2;
      continue;
    }
    let name: string | undefined;
    const close = template[d + 1] === "{" ? template.indexOf("}", d + 2) : -1;
    if (close >= 0) name = template.slice(d + 2, close), i = close + 1;
    else if (template[d + 1] !== "{") {
      const run = /^[0-9A-Za-z_]+/.exec(template.slice(d + 1));
      if (run !== null) name = run[0], i = d + 1 + run[0].length;
    }
    if (name === undefined) out += "$";
    else out += (/^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name]) ?? "";
  }
  return out + template.slice(i);
}

/** `text` with the first (or every) match of `re` replaced by the expanded template. */
function replaceRust(text: string, re: RegExp, template: string): string {
  const matches = re.global ? [...text.matchAll(re)] : [re.exec(text)].filter((m) => m !== null);
  let out = "", last = 0;
  for (const m of matches) {
    out += text.slice(last, m.index) + expand(template, m);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/** Refuses `g` where DataFusion refuses it (a `g` among other flags: arrow's kernel does, or Rust's parser). */
function noGlobal(fn: string, flags: string): void {
  if (flags === "g") throw new Error(`${fn}() does not support the "global" option`);
  if (flags.includes("g")) throw new Error(`${fn}() does not support global flag`);
}

/** The regex functions by name. */
export const REGEX_SCALARS: Record<string, ScalarDef> = {
  regexp: {
    int: true,
    fn: (p, s) => (p === null || s === null ? null : cachedRegex(str(p)!).test(str(s)!) ? 1 : 0),
  },
  __petrel_icase: { fn: (p) => (p === null ? null : ICASE + str(p)!) },
  regexp_like: {
    fn: (s, p, f) => {
      if (s === null || p === null || f === null) return null;
      const flags = str(f ?? "")!;
      noGlobal("regexp_like", flags);
      return cachedRegex(str(p)!, flags).test(str(s)!) ? 1 : 0;
    },
  },
  regexp_replace: {
    fn: (s, p, r, f) => {
      if (s === null || p === null || r === null || f === null) return null;
      const flags = str(f ?? "")!;
      const re = cachedRegex(str(p)!, flags.replaceAll("g", ""), flags.includes("g"));
      // DataFusion turns POSIX `\1` into `${1}` (and a `\` before no digit into `${}`, an empty group)
      return replaceRust(str(s)!, re, str(r)!.replace(/\\(\d*)/g, "$${$1}"));
    },
  },
  regexp_match: {
    fn: (s, p, f) => {
      if (s === null || p === null || f === null) return null;
      const flags = str(f ?? "")!;
      noGlobal("regexp_match", flags);
      const m = cachedRegex(str(p)!, flags).exec(str(s)!);
      // a List<String> kept as JSON text (functions/arrays.ts); a group that took no part is NULL
      return m ? JSON.stringify(m.length > 1 ? m.slice(1).map((g) => g ?? null) : [m[0]]) : null;
    },
  },
  regexp_count: {
    int: true,
    fn: (s, p, start, f) => {
      if (s === null || p === null || start === null || f === null) return null;
      const from = start === undefined ? 1 : Number(start);
      if (from < 1) throw new Error(`regexp_count: start position must be greater than 0, got ${from}`);
      const flags = str(f ?? "")!;
      if (flags.includes("g")) throw new Error("regexp_count() does not support global flag");
      const text = [...str(s)!].slice(from - 1).join("");
      return [...text.matchAll(cachedRegex(str(p)!, flags, true))].length;
    },
  },
};
