/**
 * Translates Oniguruma (grok patterns) into a JavaScript RegExp source and flags (reference §4.14):
 * atomic groups, possessive quantifiers, `\h`, `\Z`, ASCII classes, `(?P<n>` → `(?<n>`, leading inline
 * flags → RegExp flags, later ones (`a(?i)b`) → scoped modifier groups, POSIX classes, `\A \z`, and
 * verbose mode. Rust `regex` syntax (VRL, the regex processors, SQL) is src/common/rust_regex.ts.
 */

import { POSIX } from "../src/common/re2.ts";

/** `[:^name:]` as code-point ranges: everything outside the ASCII class (JS classes cannot nest a negation). */
function negatedPosix(cls: string): string {
  const member = new RegExp(`[${cls}]`, "u");
  const hex = (n: number) => `\\u{${n.toString(16)}}`;
  let out = "";
  let start = -1;
  for (let cp = 0; cp <= 0x80; cp++) {
    const outside = cp === 0x80 || !member.test(String.fromCodePoint(cp));
    if (outside && start < 0) start = cp;
    if (!outside && start >= 0) {
      out += start === cp - 1 ? hex(start) : `${hex(start)}-${hex(cp - 1)}`;
      start = -1;
    }
  }
  return out + `${hex(start)}-${hex(0x10ffff)}`;
}

/** The walk's state: position, output, class state and the inline-flag scopes of open groups. */
class Walk {
  i = 0;
  out = "";
  inClass = false;
  classStart = false;
  verbose = false;
  // Rust's mid-pattern `(?i)` lasts to the end of the enclosing group; JS only has scoped `(?i:…)`.
  // Each open group keeps the modifier groups opened inside it, closed (and reopened around `|`).
  scopes: string[][] = [[]];
  constructor(readonly src: string) {}
  closeScoped(): string {
    return ")".repeat(this.scopes[this.scopes.length - 1].length);
  }
}

/** Translates the Oniguruma pattern `src` (with RegExp flags `extraFlags`) into a JS source and flags. */
export function translateOniguruma(src: string, extraFlags = ""): { source: string; flags: string } {
  const w = new Walk(src);
  const flags = leadingFlags(w, extraFlags);
  while (w.i < src.length) {
    const c = src[w.i];
    if (w.verbose && !w.inClass && skipVerbose(w, c)) continue;
    if (c === "\\") escape(w);
    else if (w.inClass) classChar(w, c);
    else if (c === "[") {
      w.inClass = true;
      w.classStart = true;
      w.out += "[";
      w.i++;
    } else if (c === "(") groupOpen(w);
    else plainChar(w, c);
  }
  w.out += w.closeScoped();
  return { source: w.out, flags: [...flags].join("") };
}

// Leading `(?flags)` groups become RegExp flags.
function leadingFlags(w: Walk, extraFlags: string): Set<string> {
  const flags = new Set<string>(extraFlags.split("").filter(Boolean));
  if (flags.delete("x")) w.verbose = true;
  flags.delete("U");
  for (;;) {
    const m = /^\(\?([imsxU]+)\)/.exec(w.src.slice(w.i));
    if (!m) break;
    for (const f of m[1]) {
      if (f === "x") w.verbose = true;
      else if (f !== "U") flags.add(f);
    }
    w.i += m[0].length;
  }
  return flags;
}

// Verbose mode drops whitespace and `#` comments outside classes; true when something was skipped.
function skipVerbose(w: Walk, c: string): boolean {
  if (/\s/.test(c)) {
    w.i++;
    return true;
  }
  if (c !== "#") return false;
  while (w.i < w.src.length && w.src[w.i] !== "\n") w.i++;
  return true;
}

function escape(w: Walk): void {
  const n = w.src[w.i + 1];
  w.i += 2;
  if (n === "A" && !w.inClass) w.out += "^";
  else if (n === "z" && !w.inClass) w.out += "$(?![\\s\\S])";
  else if (n === "Z" && !w.inClass) w.out += "$";
  else if (n === "h" && !w.inClass) w.out += "[0-9a-fA-F]";
  else w.out += "\\" + (n ?? "");
  w.classStart = false;
}

function classChar(w: Walk, c: string): void {
  const src = w.src;
  if (c === "[" && src[w.i + 1] === ":") {
    const end = src.indexOf(":]", w.i + 2);
    const name = end > 0 ? src.slice(w.i + 2, end) : "";
    const neg = name.startsWith("^");
    const cls = POSIX[neg ? name.slice(1) : name];
    if (cls) {
      w.out += neg ? negatedPosix(cls) : cls;
      w.i = end + 2;
      w.classStart = false;
      return;
    }
  }
  w.i++;
  if (c === "]" && !w.classStart) {
    w.inClass = false;
    w.out += "]";
  } else if (c === "]" || c === "[") {
    w.out += "\\" + c;
    w.classStart = false;
  } else if (c === "^" && w.classStart && w.out.endsWith("[")) w.out += "^";
  else {
    w.out += c;
    w.classStart = false;
  }
}

function groupOpen(w: Walk): void {
  const src = w.src;
  if (src[w.i + 1] !== "?") {
    w.scopes.push([]);
    w.out += "(";
    w.i++;
    return;
  }
  const inline = /^\(\?([imsxU]*)(?:-([imsxU]*))?(\)|:)/.exec(src.slice(w.i));
  if (inline && (inline[1] || inline[2] !== undefined)) {
    const [whole, on, off = "", end] = inline;
    const onK = on.replace(/[xU]/g, ""), offK = off.replace(/[xU]/g, "");
    const mods = onK + (offK ? "-" + offK : "");
    if (end === ":") {
      w.scopes.push([]);
      w.out += mods === "" ? "(?:" : `(?${mods}:`;
    } else if (mods !== "") {
      w.out += `(?${mods}:`;
      w.scopes[w.scopes.length - 1].push(mods);
    }
    w.i += whole.length;
    return;
  }
  w.scopes.push([]);
  if (src.startsWith("(?P<", w.i)) {
    w.out += "(?<";
    w.i += 4;
  } else if (src[w.i + 2] === ">") {
    // An atomic group matches like a plain one wherever backtracking into it would not help.
    w.out += "(?:";
    w.i += 3;
  } else {
    w.out += "(";
    w.i++;
  }
}

function plainChar(w: Walk, c: string): void {
  w.i++;
  if (c === ")") {
    w.out += w.closeScoped() + ")";
    if (w.scopes.length > 1) w.scopes.pop();
  } else if (c === "|" && w.scopes[w.scopes.length - 1].length) {
    const open = w.scopes[w.scopes.length - 1];
    w.out += w.closeScoped() + "|" + open.map((m) => `(?${m}:`).join("");
  } else if ("+*?}".includes(c) && w.src[w.i] === "+") {
    // Possessive quantifiers read as greedy ones.
    w.out += c;
    w.i++;
  } else w.out += c;
}
