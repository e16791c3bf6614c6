/**
 * The SQL regex functions with DataFusion's semantics: the `regexp` behind `~ ~* !~ !~*` (SQLite's
 * REGEXP operator), regexp_like, regexp_match, regexp_replace, regexp_count and regexp_instr. Patterns are Rust
 * `regex` syntax (common/rust_regex.ts); a flags argument becomes a leading inline group (`'i'` →
 * `(?i)`) as DataFusion builds it, so an unknown flag fails as Rust fails it; `g` means every match
 * where a function takes it; replacements use Rust's `$1` `${1}` `$name` `$$`, and `\1` as `${1}`.
 */
import { compileRegExp, regExpErrorReason } from "../../common/regexp.ts";
import { rustRegexToJs } from "../../common/rust_regex.ts";
import { parseReplacement, replaceAllRust } from "../../common/rust_replacement.ts";
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
 * at 0, and `replace` and `matchAll` start a `g` one from 0.
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
    args: [2, 3],
    fn: (s, p, f) => {
      if (s === null || p === null || f === null) return null;
      const flags = str(f ?? "")!;
      noGlobal("regexp_like", flags);
      return cachedRegex(str(p)!, flags).test(str(s)!) ? 1 : 0;
    },
  },
  regexp_replace: {
    args: [3, 4],
    fn: (s, p, r, f) => {
      if (s === null || p === null || r === null || f === null) return null;
      const flags = str(f ?? "")!;
      const re = cachedRegex(str(p)!, flags.replaceAll("g", ""), flags.includes("g"));
      // DataFusion turns POSIX `\1` into `${1}` (and a `\` before no digit into `${}`, an empty group)
      return replaceAllRust(str(s)!, re, parseReplacement(str(r)!.replace(/\\(\d*)/g, "$${$1}")));
    },
  },
  regexp_match: {
    args: [2, 3],
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
    args: [2, 4],
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
  regexp_instr: {
    args: [2, 6],
    int: true,
    fn: (s, p, start, n, f, sub) => {
      if ([s, p, start, n, f, sub].some((x) => x === null)) return null;
      const from = start === undefined ? 1 : Number(start);
      if (from < 1) throw new Error(`regexp_instr: start position must be greater than 0, got ${from}`);
      const nth = n === undefined ? 1 : Number(n);
      if (nth < 1) throw new Error(`regexp_instr: n must be greater than 0, got ${nth}`);
      const group = sub === undefined ? 0 : Number(sub);
      if (group < 0) throw new Error(`regexp_instr: subexpr must be non-negative, got ${group}`);
      const flags = str(f ?? "")!;
      if (flags.includes("g")) throw new Error("regexp_instr() does not support the 'global' flag");
      const text = [...str(s)!].slice(from - 1).join("");
      return nthMatchPosition(text, cachedRegex(str(p)!, flags, true), nth, group, from);
    },
  },
};

/**
 * The 1-based character position in the whole string (`text` starts at character `from`) of the
 * `nth` match of `re`, or of its capture `group`; 0 when there is none, as DataFusion's regexp_instr.
 */
function nthMatchPosition(text: string, re: RegExp, nth: number, group: number, from: number): number {
  // the `d` flag gives each capture's offset
  const withIndices = group > 0 ? new RegExp(re.source, re.flags + "d") : re;
  let k = 0;
  for (const m of text.matchAll(withIndices)) {
    if (++k < nth) continue;
    const at = group > 0 ? m.indices?.[group]?.[0] : m.index;
    return at === undefined ? 0 : from + [...text.slice(0, at)].length;
  }
  return 0;
}
