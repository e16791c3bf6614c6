/**
 * The `regex` crate's iteration, splitting and replacement semantics on JS regexes, where they differ from
 * JS's own `split`/`replace`: captures are not spliced into split output, an empty match right where the
 * previous match ended is skipped, and replacements use Rust's `$name`/`${name}` syntax.
 */

import { globalRegex } from "../regex.ts";

/** The matches of `re` in `v` as `Regex::find_iter`/`captures_iter` yield them. */
export function* rustMatches(v: string, re: RegExp): Generator<RegExpExecArray> {
  const g = globalRegex(re);
  let prevEnd = -1, at = 0;
  while (at <= v.length) {
    g.lastIndex = at;
    const m = g.exec(v);
    if (!m) return;
    const start = m.index, end = start + m[0].length;
    const step = v.codePointAt(start)! > 0xffff ? 2 : 1;
    if (start === end && start === prevEnd) {
      at = start + step;
      continue;
    }
    prevEnd = end;
    at = start === end ? end + step : end;
    yield m;
  }
}

/** `Regex::split`/`splitn`: empty matches split too (also at both ends); `limit` caps the pieces. */
export function regexSplit(v: string, re: RegExp, limit?: number): string[] {
  if (limit !== undefined && limit <= 0) return [];
  const out: string[] = [];
  let last = 0;
  for (const m of rustMatches(v, re)) {
    if (limit !== undefined && out.length >= limit - 1) break;
    out.push(v.slice(last, m.index));
    last = m.index + m[0].length;
  }
  out.push(v.slice(last));
  return out;
}

/** `Regex::replacen`: the first `count` matches (all when negative) replaced by the expanded `with`. */
export function regexReplace(v: string, re: RegExp, w: string, count: number): string {
  let out = "", last = 0, n = 0;
  for (const m of rustMatches(v, re)) {
    if (count >= 0 && n++ >= count) break;
    out += v.slice(last, m.index) + expandReplacement(w, m);
    last = m.index + m[0].length;
  }
  return out + v.slice(last);
}

const CAP_LETTER = /[0-9A-Za-z_]/;

/**
 * `Captures::expand`: `$$` is `$`; `$name` takes the longest run of letters, digits and `_` (all digits: a
 * group number, so `$1a` names a group "1a"); `${name}` is braced; an unknown group is empty; any other `$`
 * is literal.
 */
export function expandReplacement(w: string, m: RegExpExecArray): string {
  let out = "";
  let i = 0;
  while (i < w.length) {
    const d = w.indexOf("$", i);
    if (d < 0) break;
    out += w.slice(i, d);
    if (w[d + 1] === "$") {
      out += "$";
      i = d + 2;
      continue;
    }
    let name: string | undefined, end = d + 1;
    if (w[d + 1] === "{") {
      const close = w.indexOf("}", d + 2);
      if (close >= 0) [name, end] = [w.slice(d + 2, close), close + 1];
    } else {
      while (end < w.length && CAP_LETTER.test(w[end])) end++;
      if (end > d + 1) name = w.slice(d + 1, end);
    }
    if (name === undefined) {
      out += "$";
      i = d + 1;
      continue;
    }
    out += (/^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name]) ?? "";
    i = end;
  }
  return out + w.slice(i);
}
