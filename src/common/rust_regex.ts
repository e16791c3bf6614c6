/**
 * Rust `regex` crate syntax (what DataFusion, hence GreptimeDB's SQL, runs) as a JavaScript RegExp.
 * Rust's syntax is RE2's (re2.ts, for Prometheus) plus: flag groups anywhere, scoped `(?i:…)` and
 * negated `(?-i)`, the `x` (verbose), `U` (swap greed), `R` (CRLF) and `u` flags, `(?<name>…)`,
 * nested classes with `&&` `--` `~~`, `\<` `\>` `\b{start}`; and it differs in meaning: `\d \w \s \b`
 * are Unicode-aware, `.` never matches `\n` unless `(?s)`, `(?m)` lines end at `\n` only.
 * Flags other than `i` become explicit JS (`^` `$` `.` classes, greed), so they can be scoped; `i`
 * becomes JS modifier groups. The target is JS's `v` mode, which has nested classes and set operations.
 * What Rust refuses (lookaround, back-references, `\Q…\E`) is refused with Rust's message.
 */
import { POSIX } from "./re2.ts";

/** A pattern Rust's regex crate would not compile; the message is regex-syntax's reason. */
export class RustRegexError extends SyntaxError {}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  U: boolean;
  u: boolean;
  R: boolean;
}

/** A group being read: the flags to restore at its `)`, and the JS modifier groups opened inside it. */
interface Frame {
  saved: Flags;
  /** Whether case is ignored where the group starts (what `|` returns to). */
  baseI: boolean;
  /** `(?i:`/`(?-i:` groups opened by bare `(?i)` inside it, closed at its `|` and `)`. */
  mods: number;
}

/** Rust's Unicode `\w`: Alphabetic, marks, decimal digits, connector punctuation, joiners (UTS#18). */
export const WORD_U = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
/** Rust's ASCII `\w` (`(?-u)`), the class body as WORD_U's. */
export const WORD_A = "0-9A-Za-z_";
const SPACE_A = "\\t\\n\\v\\f\\r ";
/** What `v` mode wants escaped: syntax characters, and inside a class also its reserved punctuators. */
const SPECIAL = new Set("^$\\.*+?()[]{}|/");
const CLASS_SPECIAL = new Set("^$\\.*+?()[]{}|/&-!#%,:;<=>@`~");
const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

function lit(ch: string, inClass: boolean): string {
  return (inClass ? CLASS_SPECIAL : SPECIAL).has(ch) ? "\\" + ch : ch;
}

/** Property names looked up so far (a pattern's `\p{…}`: request input); starts over past 1000. */
const propertyCache = new Map<string, string | null>();
const CACHED_PROPERTIES = 1000;

/** Property names cached now (for tests). */
export function cachedPropertyNames(): number {
  return propertyCache.size;
}

/** The JS spelling of a Unicode property Rust names (`L`, `Letter`, `Greek`, `sc=Greek`, `greek`), or null. */
function jsProperty(name: string): string | null {
  let found = propertyCache.get(name);
  if (found !== undefined) return found;
  const loose = name.split(/[\s_-]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join("_");
  found = null;
  for (const candidate of [name, `Script=${name}`, loose, `Script=${loose}`]) {
    try {
      new RegExp(`\\p{${candidate}}`, "v");
      found = candidate;
      break;
    } catch {
      // not this spelling
    }
  }
  if (propertyCache.size >= CACHED_PROPERTIES) propertyCache.clear();
  propertyCache.set(name, found);
  return found;
}

/** One escape: its JS text, and the code point when it stands for a single character. */
interface Escape {
  text: string;
  cp?: number;
}

/** A translated atom that is an assertion: `^`, `$`, or a bare look-around (`\A`, `\z`, `(?m)^`). */
const ASSERTION = /^(?:\^|\$|\(\?<?[=!].*\))$/s;

class Translator {
  private i = 0;
  private flags: Flags = { i: false, m: false, s: false, x: false, U: false, u: true, R: false };
  private readonly names = new Set<string>();

  constructor(private readonly p: string) {}

  private fail(reason: string): never {
    throw new RustRegexError(reason);
  }

  run(): string {
    const p = this.p;
    const frames: Frame[] = [{ saved: { ...this.flags }, baseI: false, mods: 0 }];
    let out = "";
    let canRepeat = false;
    // where the last atom's text starts in `out`, and where each open group's does
    let atom = 0;
    const groupStarts: number[] = [];
    while (this.i < p.length) {
      const c = p[this.i];
      if (this.skipVerbose()) continue;
      const top = frames[frames.length - 1];
      if (c === "*" || c === "+" || c === "?" || c === "{") {
        if (!canRepeat) this.fail("repetition operator missing expression");
        // Rust repeats an assertion (`^*`, `\A?`, `(?m)$+`); JS only a group holding one
        if (ASSERTION.test(out.slice(atom))) out = out.slice(0, atom) + `(?:${out.slice(atom)})`;
        out += this.repetition();
        canRepeat = false;
        continue;
      }
      canRepeat = true;
      if (c !== ")") atom = out.length;
      if (c === "\\") out += this.escape(false).text;
      else if (c === "[") out += this.charClass();
      else if (c === "(") {
        const opened = this.group(top);
        out += opened.text;
        if (opened.frame) frames.push(opened.frame), groupStarts.push(atom);
        canRepeat = false;
      } else if (c === ")") {
        if (frames.length === 1) this.fail("unopened group");
        frames.pop();
        atom = groupStarts.pop()!;
        out += ")".repeat(top.mods) + ")";
        this.flags = top.saved;
        this.i++;
      } else if (c === "|") {
        out += ")".repeat(top.mods) + "|";
        top.mods = 0;
        if (this.flags.i !== top.baseI) out += this.flags.i ? "(?i:" : "(?-i:", top.mods = 1;
        canRepeat = false;
        this.i++;
      } else {
        const ch = String.fromCodePoint(p.codePointAt(this.i)!);
        out += this.plain(ch);
        this.i += ch.length;
      }
    }
    if (frames.length > 1) this.fail("unclosed group");
    return out + ")".repeat(frames[0].mods);
  }

  /** A character outside a class: `.` `^` `$` as the flags read them, anything else as itself. */
  private plain(ch: string): string {
    const f = this.flags;
    const line = f.R ? "\\r\\n" : "\\n";
    if (ch === ".") return f.s ? "[\\s\\S]" : `[^${line}]`;
    if (ch === "^") return f.m ? `(?<![^${line}])` : "^";
    if (ch === "$") return f.m ? `(?![^${line}])` : "$";
    return lit(ch, false);
  }

  /** Skips whitespace and `#` comments in verbose mode; whether it skipped anything. */
  private skipVerbose(): boolean {
    if (!this.flags.x) return false;
    const c = this.p[this.i];
    if (/\s/.test(c)) {
      this.i++;
      return true;
    }
    if (c === "#") {
      const end = this.p.indexOf("\n", this.i);
      this.i = end < 0 ? this.p.length : end + 1;
      return true;
    }
    return false;
  }

  /** `*` `+` `?` `{n}` `{n,}` `{n,m}` with its laziness, which `(?U)` swaps. */
  private repetition(): string {
    const p = this.p;
    let q: string;
    if (p[this.i] === "{") {
      const m = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(p.slice(this.i));
      if (m === null) this.fail("unclosed counted repetition");
      if (m[3] !== undefined && m[3] !== "" && Number(m[3]) < Number(m[1])) {
        this.fail("invalid repetition count range, the start must be <= the end");
      }
      q = `{${m[1]}${m[2] === undefined ? "" : `,${m[3]}`}}`;
      this.i += m[0].length;
    } else q = p[this.i++];
    let lazy = false;
    if (p[this.i] === "?") lazy = true, this.i++;
    return q + (lazy !== this.flags.U ? "?" : "");
  }

  /** A `(`: a group (pushing its frame) or a bare flag group (changing the flags from here on). */
  private group(top: Frame): { text: string; frame?: Frame } {
    const p = this.p;
    const rest = p.slice(this.i, this.i + 4);
    const frame = (): Frame => ({ saved: { ...this.flags }, baseI: this.flags.i, mods: 0 });
    if (!rest.startsWith("(?")) {
      this.i++;
      return { text: "(", frame: frame() };
    }
    if (/^\(\?<?[=!]/.test(rest)) {
      this.fail("look-around, including look-ahead and look-behind, is not supported");
    }
    if (rest.startsWith("(?P=")) this.fail("backreferences are not supported");
    const named = /^\(\?P?<([^>]*)(>?)/.exec(p.slice(this.i));
    if (named !== null) {
      if (named[2] === "") this.fail("unclosed capture group name");
      const name = named[1];
      if (name === "") this.fail("empty capture group name");
      if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) this.fail(`invalid capture group name: ${name}`);
      if (this.names.has(name)) this.fail(`duplicate capture group name: ${name}`);
      this.names.add(name);
      this.i += named[0].length;
      return { text: `(?<${name}>`, frame: frame() };
    }
    this.i += 2;
    const was = { ...this.flags };
    let negate = false, any = false;
    const seen = new Set<string>();
    for (;;) {
      const c = p[this.i];
      if (c === undefined) this.fail("expected flag but got end of regex");
      if (c === ")" || c === ":") {
        if (negate && !any) this.fail("dangling flag negation operator");
        if (seen.size === 0 && c === ")") this.fail("empty flag group");
        this.i++;
        break;
      }
      if (c === "-") {
        if (negate) this.fail("flag negation operator repeated");
        negate = true, any = false;
      } else if ("imsxURu".includes(c)) {
        if (seen.has(c)) this.fail(`duplicate flag: ${c}`);
        seen.add(c);
        this.flags[c as keyof Flags] = !negate;
        any = true;
      } else this.fail(`unrecognized flag: ${c}`);
      this.i++;
    }
    const modifier = this.flags.i === was.i ? "" : this.flags.i ? "(?i:" : "(?-i:";
    if (p[this.i - 1] === ":") {
      return { text: modifier || "(?:", frame: { saved: was, baseI: this.flags.i, mods: 0 } };
    }
    if (modifier !== "") top.mods++;
    return { text: modifier };
  }

  /** An escape at `\`; assertions only outside a class. */
  private escape(inClass: boolean): Escape {
    const p = this.p;
    const n = p[this.i + 1];
    if (n === undefined) this.fail("incomplete escape sequence, reached end of pattern prematurely");
    this.i += 2;
    const u = this.flags.u;
    const word = u ? WORD_U : WORD_A;
    switch (n) {
      case "d":
        return { text: u ? "\\p{Nd}" : "[0-9]" };
      case "D":
        return { text: u ? "\\P{Nd}" : "[^0-9]" };
      case "w":
        return { text: `[${word}]` };
      case "W":
        return { text: `[^${word}]` };
      case "s":
        return { text: u ? "\\p{White_Space}" : `[${SPACE_A}]` };
      case "S":
        return { text: u ? "\\P{White_Space}" : `[^${SPACE_A}]` };
      case "p":
      case "P":
        return { text: this.property(n === "P") };
      case "x":
      case "u":
      case "U":
        return this.hex(n);
    }
    if (n in SIMPLE_ESCAPES) return { text: n === "a" ? "\\x07" : `\\${n}`, cp: SIMPLE_ESCAPES[n] };
    if (/[0-9]/.test(n)) this.fail("backreferences are not supported");
    if (!inClass) {
      const w = `[${word}]`;
      const start = `(?<!${w})(?=${w})`, end = `(?<=${w})(?!${w})`;
      if (n === "A") return { text: "(?<![\\s\\S])" };
      if (n === "z") return { text: "(?![\\s\\S])" };
      if (n === "<") return { text: start };
      if (n === ">") return { text: end };
      if (n === "B") return { text: `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))` };
      if (n === "b") {
        const special = /^\{(start|end|start-half|end-half)\}/.exec(p.slice(this.i));
        if (special === null) return { text: `(?:${start}|${end})` };
        this.i += special[0].length;
        const half = { start, end, "start-half": `(?<!${w})`, "end-half": `(?!${w})` };
        return { text: half[special[1] as keyof typeof half] };
      }
    }
    // Rust takes an escaped punctuation character or space as itself
    if (/[!-/:-@[-`{-~ ]/.test(n) && !(n === "<" || n === ">")) {
      return { text: lit(n, inClass), cp: n.charCodeAt(0) };
    }
    this.fail(`unrecognized escape sequence: \\${n}`);
  }

  /** `\x7F` `\x{…}` `\u007F` `\u{…}` `\U0010FFFF`: a code point. */
  private hex(kind: string): Escape {
    const p = this.p;
    let digits: string;
    if (p[this.i] === "{") {
      const end = p.indexOf("}", this.i);
      if (end < 0) this.fail("unclosed hexadecimal literal");
      digits = p.slice(this.i + 1, end);
      this.i = end + 1;
    } else {
      const width = kind === "x" ? 2 : kind === "u" ? 4 : 8;
      digits = p.slice(this.i, this.i + width);
      this.i += width;
    }
    if (!/^[0-9A-Fa-f]{1,8}$/.test(digits)) this.fail("invalid hexadecimal digit");
    const cp = parseInt(digits, 16);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail("invalid Unicode scalar value");
    return { text: `\\u{${cp.toString(16)}}`, cp };
  }

  /** `\pL`, `\p{Greek}`, `\p{^Greek}`, `\PL`, after the `\p`. */
  private property(negated: boolean): string {
    const p = this.p;
    let name: string;
    if (p[this.i] === "{") {
      const end = p.indexOf("}", this.i);
      if (end < 0) this.fail("unclosed Unicode class");
      name = p.slice(this.i + 1, end);
      this.i = end + 1;
    } else {
      if (this.i >= p.length) this.fail("incomplete escape sequence, reached end of pattern prematurely");
      name = p[this.i++];
    }
    if (name.startsWith("^")) negated = !negated, name = name.slice(1);
    const js = jsProperty(name.trim());
    if (js === null) this.fail(`Unicode property not found: ${name}`);
    return `\\${negated ? "P" : "p"}{${js}}`;
  }

  /** A bracketed class at `[`, nested classes and `&&` `--` `~~` included, as a `v`-mode class. */
  private charClass(): string {
    const p = this.p;
    this.i++;
    let negated = false;
    if (p[this.i] === "^") negated = true, this.i++;
    const operands: string[] = [];
    const ops: string[] = [];
    let run = "";
    // Rust reads a `]` first in a class as itself
    if (p[this.i] === "]") run += "\\]", this.i++;
    for (;;) {
      if (this.i >= p.length) this.fail("unclosed character class");
      if (this.flags.x && /\s/.test(p[this.i])) {
        this.i++;
        continue;
      }
      const c = p[this.i];
      if (c === "]") {
        this.i++;
        break;
      }
      const op = p.slice(this.i, this.i + 2);
      if (op === "&&" || op === "--" || op === "~~") {
        operands.push(run), ops.push(op), run = "";
        this.i += 2;
        continue;
      }
      if (c === "[") {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.i));
        if (posix !== null && POSIX[posix[2]] !== undefined) {
          run += `[${posix[1]}${POSIX[posix[2]]}]`;
          this.i += posix[0].length;
        } else run += this.charClass();
        continue;
      }
      const lo = this.classAtom();
      if (p[this.i] === "-" && p[this.i + 1] !== "]" && p[this.i + 1] !== "-" && this.i + 1 < p.length) {
        this.i++;
        const hi = this.classAtom();
        if (lo.cp === undefined || hi.cp === undefined) {
          this.fail("invalid range boundary, must be a literal");
        }
        if (lo.cp > hi.cp) this.fail("invalid character class range, the start must be <= the end");
        run += `${lo.text}-${hi.text}`;
      } else run += lo.text;
    }
    operands.push(run);
    if (ops.length === 0) return `[${negated ? "^" : ""}${run}]`;
    let acc = `[${operands[0]}]`;
    ops.forEach((op, k) => {
      const b = `[${operands[k + 1]}]`;
      acc = op === "~~" ? `[[${acc}--${b}][${b}--${acc}]]` : `[${acc}${op}${b}]`;
    });
    return negated ? `[^${acc}]` : acc;
  }

  private classAtom(): Escape {
    if (this.p[this.i] === "\\") return this.escape(true);
    const cp = this.p.codePointAt(this.i)!;
    const ch = String.fromCodePoint(cp);
    this.i += ch.length;
    return { text: lit(ch, true), cp };
  }
}

/**
 * A Rust regex as a JS RegExp source and flags (`v`); throws a RustRegexError naming what Rust refuses.
 * @example rustRegexToJs("(?i)^web\\d") → { source: "(?i:^web\\p{Nd})", flags: "v" }
 */
export function rustRegexToJs(pattern: string): { source: string; flags: string } {
  return { source: new Translator(pattern).run(), flags: "v" };
}
