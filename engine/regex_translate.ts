/**
 * Translates Oniguruma (grok patterns; the `grok` crate compiles them with Ruby syntax) into a
 * JavaScript RegExp source and flags (reference §4.14): atomic groups, possessive quantifiers, `\h`
 * `\H`, ASCII and POSIX classes, `(?P<n>` → `(?<n>`, `\A \z \Z`, and verbose mode. Ruby's options
 * are not Rust's: `^` `$` always match at lines (`\n` only; `^` not after a final `\n`), `(?m)` lets `.` take `\n` (there is no
 * `(?s)`), `.` takes everything else (`\r` too), and an isolated `(?i)` runs to the end of its
 * group, alternatives included (`a(?i)b|c` is `a(?i:b|c)`). Anchors and `.` are spelled as the
 * lookarounds and classes src/common/js_assertions.ts reads back as RE2's, so risky patterns still
 * go linear. Rust `regex` syntax (VRL, the regex processors, SQL) is src/common/rust_regex.ts.
 */

import { ASSERTIONS } from "../src/common/js_assertions.ts";
import { POSIX } from "../src/common/re2.ts";
import { WORD_U } from "../src/common/rust_regex.ts";

/** The JS spelling of an RE2 assertion, as the RE2 reader knows it. */
const spelled = (re2: string) => ASSERTIONS.find((a) => a.re2 === re2)!.js;
/**
 * Oniguruma's line anchors (its newline is `\n` only) and the string's ends. Its `^` is not after a
 * `\n` that ends the text (regexec.c's BEGIN_LINE: `!ON_STR_END`), as Ruby's `"a\n".scan(/^/)` finds
 * one line start; its `$` is before any `\n` and at the end, a final `\n` or not.
 */
const LINE_START = ASSERTIONS.find((a) => a.noFinalLf)!.js, LINE_END = spelled("(?m:$)");
const TEXT_START = spelled("\\A"), TEXT_END = spelled("\\z");
const HEX = POSIX.xdigit;

/**
 * Oniguruma's Unicode classes (UTF-8 subjects): `\w` as Rust's Unicode word class (letters, marks,
 * decimal digits, connectors), `\d` the decimal digits, `\s` White_Space (NEL included, no BOM, unlike
 * JS's `\s`), and `\b` `\B` over that `\w`, spelled as the RE2 reader knows them. Classes need the
 * `u` flag; `\W` inside a class stays JS's ASCII one (a negated set cannot nest there).
 */
const WORD_CLASS = `[${WORD_U}]`;
const WORD_START = `(?<!${WORD_CLASS})(?=${WORD_CLASS})`, WORD_END = `(?<=${WORD_CLASS})(?!${WORD_CLASS})`;
const UNICODE_ESCAPES: Record<string, { out: string; inClass?: string }> = {
  w: { out: WORD_CLASS, inClass: WORD_U },
  W: { out: `[^${WORD_U}]` },
  d: { out: "\\p{Nd}", inClass: "\\p{Nd}" },
  D: { out: "\\P{Nd}", inClass: "\\P{Nd}" },
  s: { out: "\\p{White_Space}", inClass: "\\p{White_Space}" },
  S: { out: "\\P{White_Space}", inClass: "\\P{White_Space}" },
  b: { out: `(?:${WORD_START}|${WORD_END})` },
  B: { out: `(?:(?<=${WORD_CLASS})(?=${WORD_CLASS})|(?<!${WORD_CLASS})(?!${WORD_CLASS}))` },
};
/** What a `u`-flag pattern may escape as itself (and `-` in a class; other punctuation goes bare). */
const SYNTAX = new Set("^$\\.*+?()[]{}|/");

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

/** What applies inside one open group: `(?m)` (dot-all), `(?x)`, and how many modifier groups to close. */
interface Frame {
  dotAll: boolean;
  verbose: boolean;
  closers: number;
}

/** The walk's state: position, output, class state and the options of the open groups. */
class Walk {
  i = 0;
  out = "";
  inClass = false;
  classStart = false;
  frames: Frame[];
  constructor(readonly src: string, dotAll: boolean, verbose: boolean, readonly unicode: boolean) {
    this.frames = [{ dotAll, verbose, closers: 0 }];
  }
  get top(): Frame {
    return this.frames[this.frames.length - 1];
  }
  /** The current options, with the letters `on` set and those in `off` cleared. */
  options(on: string, off: string): Omit<Frame, "closers"> {
    const { dotAll, verbose } = this.top;
    return {
      dotAll: on.includes("m") || (dotAll && !off.includes("m")),
      verbose: on.includes("x") || (verbose && !off.includes("x")),
    };
  }
  /** Opens a group with the current options (changed by `on`/`off` when given). */
  open(text: string, on = "", off = ""): void {
    this.frames.push({ ...this.options(on, off), closers: 0 });
    this.out += text;
  }
  /** Closes the modifier groups isolated options opened in the innermost group. */
  closeScoped(): string {
    return ")".repeat(this.top.closers);
  }
}

/** Oniguruma's options, as a JS modifier group's letters (`i` only: `m` and `x` are read here). */
function modifiers(on: string, off: string): string {
  const bad = /[^imx]/.exec(on + off);
  if (bad) throw new SyntaxError(`undefined group option: (?${bad[0]}) is not Oniguruma syntax`);
  const i = on.includes("i") ? "i" : "", noI = off.includes("i") ? "-i" : "";
  return i + noI;
}

/**
 * Translates the Oniguruma pattern `src` (with RegExp flags `extraFlags`) into a JS source and flags.
 * `unicode` (the default) spells `\w \d \s \b` as Oniguruma's Unicode classes, for the `u` flag;
 * without it they stay JS's ASCII ones, for a pattern the `u` flag refuses.
 */
export function translateOniguruma(
  src: string,
  extraFlags = "",
  unicode = true,
): { source: string; flags: string } {
  const flags = new Set<string>(extraFlags.split("").filter((f) => f !== "m"));
  const w = new Walk(src, flags.delete("s"), flags.delete("x"), unicode);
  leadingFlags(w, flags);
  while (w.i < src.length) {
    const c = src[w.i];
    if (w.top.verbose && !w.inClass && skipVerbose(w, c)) continue;
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

// Leading `(?flags)` groups apply to the whole pattern: `i` becomes the RegExp flag.
function leadingFlags(w: Walk, flags: Set<string>): void {
  for (;;) {
    const m = /^\(\?([a-zA-Z]+)\)/.exec(w.src.slice(w.i));
    if (!m) break;
    if (modifiers(m[1], "")) flags.add("i");
    if (m[1].includes("m")) w.top.dotAll = true;
    if (m[1].includes("x")) w.top.verbose = true;
    w.i += m[0].length;
  }
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
  const wide = w.unicode && n !== undefined ? UNICODE_ESCAPES[n] : undefined;
  if (n === "h") w.out += w.inClass ? HEX : `[${HEX}]`;
  else if (n === "H") w.out += w.inClass ? negatedPosix(HEX) : `[^${HEX}]`;
  else if (wide && (!w.inClass || wide.inClass)) w.out += w.inClass ? wide.inClass : wide.out;
  else if (
    w.unicode && n !== undefined && /^[^\p{L}\p{N}\s]$/u.test(n) && !SYNTAX.has(n) &&
    !(w.inClass && n === "-")
  ) {
    // `\"`, `\:`: Oniguruma's escaped punctuation is the character, which `u` wants bare
    w.out += n;
  } else if (w.inClass) w.out += "\\" + (n ?? "");
  else if (n === "A") w.out += TEXT_START;
  else if (n === "z") w.out += TEXT_END;
  else if (n === "Z") w.out += `(?=\\n?${TEXT_END})`;
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
    w.open("(");
    w.i++;
    return;
  }
  const inline = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?(\)|:)/.exec(src.slice(w.i));
  if (inline && (inline[1] || inline[2] !== undefined)) {
    const [whole, on, off = "", end] = inline;
    const mods = modifiers(on, off);
    w.i += whole.length;
    if (end === ":") {
      w.open(mods === "" ? "(?:" : `(?${mods}:`, on, off);
      return;
    }
    // an isolated option takes the rest of the group as its own: `a(?i)b|c` is `a(?i:b|c)`
    Object.assign(w.top, w.options(on, off));
    w.top.closers++;
    w.out += mods === "" ? "(?:" : `(?${mods}:`;
    return;
  }
  if (src.startsWith("(?P<", w.i)) {
    w.open("(?<");
    w.i += 4;
  } else if (src[w.i + 2] === ">") {
    // An atomic group matches like a plain one wherever backtracking into it would not help.
    w.open("(?:");
    w.i += 3;
  } else {
    w.open("(");
    w.i++;
  }
}

function plainChar(w: Walk, c: string): void {
  w.i++;
  if (c === ")") {
    w.out += w.closeScoped() + ")";
    if (w.frames.length > 1) w.frames.pop();
  } else if ("+*?}".includes(c) && w.src[w.i] === "+") {
    // Possessive quantifiers read as greedy ones.
    w.out += c;
    w.i++;
  } else if (c === "^") w.out += LINE_START;
  else if (c === "$") w.out += LINE_END;
  else if (c === ".") w.out += w.top.dotAll ? "[\\s\\S]" : "[^\\n]";
  else w.out += c;
}
