/**
 * Go `regexp` (RE2) syntax as a JavaScript RegExp (`v` mode), for Prometheus label matchers,
 * `label_replace` and remote-read matchers, read the way Go's regexp/syntax parser reads it (Perl
 * flags): flag groups anywhere, scoped and negated (`(?i:…)`, `(?-s)`, `(?U)`), `(?P<n>…)`,
 * `\Q…\E`, `\A` `\z`, ASCII `\d \w \s \b`, POSIX classes (also negated), `\pN` `\p{^Greek}`,
 * `\x{…}`, octal escapes and repetition counts up to 1000. Flags other than `i` become explicit JS
 * (`^` `$` `.` and greed) so they can be scoped; `i` becomes JS modifier groups.
 * What Go refuses (lookaround, back-references, `\C`, `\Z`, …) is refused with Go's message.
 * rust_regex.ts does the same for Rust's syntax; the two differ in nearly every message and in the
 * meaning of `\d \w \s \b`, classes and flags, so sharing one parser would branch on almost every line.
 */

/** ASCII POSIX classes (RE2's `[[:name:]]`), as JS class contents. */
export const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7f",
  blank: "\\t ",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`\\{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Go's Perl classes (ASCII; its `\s` lacks `\v`), as JS class contents. */
const PERL: Record<string, string> = { d: "0-9", s: "\\t\\n\\f\\r ", w: "0-9A-Za-z_" };

/** Unicode general categories Go knows (no `Cn`), which JS's `\p{…}` takes bare. */
const CATEGORY = /^(L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfso]?)$/;
const SPECIAL = new Set("^$\\.*+?()[]{}|/");
const CLASS_SPECIAL = new Set("^$\\.*+?()[]{}|/&-!#%,:;<=>@`~");
const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\\x07",
  f: "\\f",
  n: "\\n",
  r: "\\r",
  t: "\\t",
  v: "\\v",
};
const WORD = "[0-9A-Za-z_]";
const MAX_REPEAT = 1000;

function lit(cp: number, inClass: boolean): string {
  const ch = String.fromCodePoint(cp);
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, "0")}`;
  return (inClass ? CLASS_SPECIAL : SPECIAL).has(ch) ? "\\" + ch : ch;
}

/** Go's flags: `i` fold case, `m` multi-line, `s` dot matches `\n`, `U` swap greed. */
interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

/** An open group: flags to restore at its `)`, case at its start, and `(?i:` groups opened inside it. */
interface Frame {
  saved: Flags;
  /** Where the group starts in the output (what a repetition after its `)` applies to). */
  start: number;
  baseI: boolean;
  mods: number;
  /** The largest product of nested counted repetitions inside (Go refuses more than 1000). */
  size: number;
}

class GoParser {
  private i = 0;
  private flags: Flags = { i: false, m: false, s: true, U: false };
  private readonly names = new Set<string>();

  constructor(private readonly p: string) {}

  private fail(code: string, expr: string): never {
    throw new SyntaxError(`${code}: \`${expr}\``);
  }

  run(): string {
    const p = this.p;
    const frames: Frame[] = [{ saved: { ...this.flags }, start: 0, baseI: false, mods: 0, size: 1 }];
    let out = "";
    /** Where the atom a repetition would apply to starts in `out`; -1 after `(`, `|` or at the start. */
    let atom = -1;
    /** Where that atom ends when a bare `(?i)` follows it (`a(?i)*` repeats the `a`), else -1. */
    let atomEnd = -1;
    let atomSize = 1;
    /** Where the previous token started in the pattern if it was a repetition (Go refuses `a**`). */
    let lastRepeat = -1;
    while (this.i < p.length) {
      const c = p[this.i];
      const top = frames[frames.length - 1];
      const start = this.i;
      if (c === "*" || c === "+" || c === "?" || c === "{") {
        const q = this.repetition();
        if (q !== null) {
          if (lastRepeat >= 0) this.fail("invalid nested repetition operator", p.slice(lastRepeat, this.i));
          if (atom < 0) this.fail("missing argument to repetition operator", p.slice(start, this.i));
          if (q.count !== null && q.count > 0) {
            if (q.count >= 2 && q.count * atomSize > MAX_REPEAT) this.fail("invalid repeat count", q.op);
            atomSize *= q.count;
            top.size = Math.max(top.size, atomSize);
          }
          // JS cannot repeat an assertion (Go can: `^*`), so those go in a group
          const end = atomEnd < 0 ? out.length : atomEnd;
          const text = out.slice(atom, end);
          const repeated = (/^(\^|\$|\(\?<?[=!])/.test(text) ? `(?:${text})` : text) + q.text;
          out = out.slice(0, atom) + repeated + out.slice(end);
          if (atomEnd >= 0) atomEnd = atom + repeated.length;
          lastRepeat = start;
          continue;
        }
      }
      lastRepeat = -1;
      const at = out.length;
      if (c === "(") {
        const opened = this.group(top, out.length);
        if (opened.frame) frames.push(opened.frame), atom = -1, atomEnd = -1;
        else if (atom >= 0 && atomEnd < 0 && opened.text !== "") atomEnd = out.length;
        out += opened.text;
        continue;
      }
      if (c === ")") {
        if (frames.length === 1) this.fail("unexpected )", p);
        frames.pop();
        out += ")".repeat(top.mods) + ")";
        this.flags = top.saved;
        this.i++;
        atom = top.start, atomEnd = -1, atomSize = top.size;
        const parent = frames[frames.length - 1];
        parent.size = Math.max(parent.size, top.size);
        continue;
      }
      if (c === "|") {
        out += ")".repeat(top.mods) + "|";
        top.mods = 0;
        if (this.flags.i !== top.baseI) out += this.flags.i ? "(?i:" : "(?-i:", top.mods = 1;
        this.i++;
        atom = -1, atomEnd = -1;
        continue;
      }
      if (c === "\\" && p[this.i + 1] === "Q") {
        const end = p.indexOf("\\E", this.i + 2);
        const text = end < 0 ? p.slice(this.i + 2) : p.slice(this.i + 2, end);
        this.i = end < 0 ? p.length : end + 2;
        const cps = [...text].map((ch) => lit(ch.codePointAt(0)!, false));
        if (cps.length === 0) continue;
        out += cps.join("");
        atom = out.length - cps[cps.length - 1].length, atomEnd = -1, atomSize = 1;
        continue;
      }
      if (c === "\\") out += this.escape();
      else if (c === "[") out += this.charClass();
      else {
        const cp = p.codePointAt(this.i)!;
        this.i += cp > 0xffff ? 2 : 1;
        out += this.plain(cp);
      }
      atom = at, atomEnd = -1, atomSize = 1;
    }
    if (frames.length > 1) this.fail("missing closing )", p);
    return out + ")".repeat(frames[0].mods);
  }

  /** A character outside a class: `.` `^` `$` as the flags read them, anything else as itself. */
  private plain(cp: number): string {
    const f = this.flags;
    if (cp === 0x2e) return f.s ? "[\\s\\S]" : "[^\\n]";
    if (cp === 0x5e) return f.m ? "(?<![^\\n])" : "^";
    if (cp === 0x24) return f.m ? "(?![^\\n])" : "$";
    return lit(cp, false);
  }

  /**
   * `*` `+` `?` `{n}` `{n,}` `{n,m}` and laziness (swapped by `(?U)`), with the count Go checks
   * nesting against (`{n,m}`: m, `{n,}`: n) and the operator's text; null for a literal `{`.
   */
  private repetition(): { text: string; count: number | null; op: string } | null {
    const p = this.p;
    const start = this.i;
    let q: string, count: number | null = null;
    if (p[this.i] === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(this.i));
      // Go reads `{` as itself unless a count follows, and refuses leading zeros (`{01}` is literal)
      if (m === null || /^0\d/.test(m[1]) || /^0\d/.test(m[3] ?? "")) return null;
      this.i += m[0].length;
      const lo = Number(m[1]), hi = m[3] === undefined ? lo : m[3] === "" ? -1 : Number(m[3]);
      if (lo > MAX_REPEAT || hi > MAX_REPEAT || (hi >= 0 && hi < lo)) {
        this.fail("invalid repeat count", p.slice(start, this.i));
      }
      q = m[3] === undefined ? `{${lo}}` : `{${lo},${m[3]}}`;
      count = hi < 0 ? lo : hi;
    } else q = p[this.i++];
    const op = p.slice(start, this.i);
    let lazy = false;
    if (p[this.i] === "?") lazy = true, this.i++;
    return { text: q + (lazy !== this.flags.U ? "?" : ""), count, op };
  }

  /** A `(`: a group (returning its frame) or a bare flag group (changing the flags from here on). */
  private group(top: Frame, start: number): { text: string; frame?: Frame } {
    const p = this.p;
    const t = p.slice(this.i);
    const frame = (saved: Flags): Frame => ({ saved, start, baseI: this.flags.i, mods: 0, size: 1 });
    if (!t.startsWith("(?")) {
      this.i++;
      return { text: "(", frame: frame({ ...this.flags }) };
    }
    // Go has no lookbehind; Go ≥ 1.22 reads `(?<` as a named group, older Go refuses it as here.
    if (t.startsWith("(?<=") || t.startsWith("(?<!")) this.fail("invalid or unsupported Perl syntax", "(?<");
    if (t.startsWith("(?P<") || t.startsWith("(?<")) {
      const end = t.indexOf(">");
      if (end < 0) this.fail("invalid named capture", t);
      const name = t.slice(t[2] === "P" ? 4 : 3, end);
      if (!/^[0-9A-Za-z_]+$/.test(name)) this.fail("invalid named capture", t.slice(0, end + 1));
      this.i += end + 1;
      // Go lets a name repeat (`$name` is the leftmost) and start with a digit, JS neither:
      // such a group still captures, by number
      const plain = /^\d/.test(name) || this.names.has(name);
      this.names.add(name);
      return { text: plain ? "(" : `(?<${name}>`, frame: frame({ ...this.flags }) };
    }
    const was = { ...this.flags };
    let k = 2, negate = false, sawFlag = false;
    for (; k < t.length; k++) {
      const c = t[k];
      if (c === "i" || c === "m" || c === "s" || c === "U") {
        this.flags[c] = !negate;
        sawFlag = true;
      } else if (c === "-" && !negate) negate = true, sawFlag = false;
      else if ((c === ":" || c === ")") && (!negate || sawFlag)) break;
      else break;
    }
    if (k >= t.length || (t[k] !== ":" && t[k] !== ")") || (negate && !sawFlag)) {
      this.flags = was;
      this.fail("invalid or unsupported Perl syntax", t.slice(0, Math.min(k + 1, t.length)));
    }
    this.i += k + 1;
    const modifier = this.flags.i === was.i ? "" : this.flags.i ? "(?i:" : "(?-i:";
    if (t[k] === ":") return { text: modifier || "(?:", frame: frame(was) };
    if (modifier !== "") top.mods++;
    return { text: modifier };
  }

  /** An escape outside a class: assertions, `\pN`, Perl classes, or one character. */
  private escape(): string {
    const p = this.p;
    const n = p[this.i + 1];
    if (n === undefined) this.fail("trailing backslash at end of expression", "");
    const assertions: Record<string, string> = {
      A: "(?<![\\s\\S])",
      z: "(?![\\s\\S])",
      b: `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`,
      B: `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`,
    };
    if (n in assertions) {
      this.i += 2;
      return assertions[n];
    }
    return this.classEscape(false) ?? this.charEscape(false).text;
  }

  /** `\pN` `\p{Greek}` `\PL` `\p{^Greek}` `\d` `\S`…, or null when the escape is none of these. */
  private classEscape(inClass: boolean): string | null {
    const p = this.p;
    const n = p[this.i + 1];
    if (n === "p" || n === "P") {
      let name: string, end: number;
      if (p[this.i + 2] === "{") {
        end = p.indexOf("}", this.i);
        if (end < 0) this.fail("invalid character class range", p.slice(this.i));
        name = p.slice(this.i + 3, end);
        end++;
      } else {
        const cp = p.codePointAt(this.i + 2);
        name = cp === undefined ? "" : String.fromCodePoint(cp);
        end = this.i + 2 + name.length;
      }
      const seq = p.slice(this.i, end);
      let negated = n === "P";
      if (name.startsWith("^")) negated = !negated, name = name.slice(1);
      const js = name === "Any" ? "Any" : CATEGORY.test(name) ? name : this.script(name);
      if (js === null) this.fail("invalid character class range", seq);
      this.i = end;
      // Go's `C` lacks unassigned code points (JS's has them)
      if (js === "C") return `[${negated ? "^" : ""}\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}]`;
      return `\\${negated ? "P" : "p"}{${js}}`;
    }
    const perl = n === undefined ? undefined : PERL[n.toLowerCase()];
    if (perl === undefined) return null;
    this.i += 2;
    if (n === n.toLowerCase()) return inClass ? perl : `[${perl}]`;
    return `[^${perl}]`;
  }

  /** The JS name of a script Go names exactly (`Greek`, `Latin`), or null. */
  private script(name: string): string | null {
    if (!/^[A-Z][A-Za-z_]*$/.test(name)) return null;
    try {
      new RegExp(`\\p{Script=${name}}`, "v");
      return `Script=${name}`;
    } catch {
      return null;
    }
  }

  /** One escaped character (Go's parseEscape): its JS text and code point. */
  private charEscape(inClass: boolean): { text: string; cp: number } {
    const p = this.p;
    const start = this.i;
    if (this.i + 1 >= p.length) this.fail("trailing backslash at end of expression", "");
    const c = p.codePointAt(this.i + 1)!;
    const n = String.fromCodePoint(c);
    this.i += 1 + n.length;
    const done = (cp: number) => ({ text: lit(cp, inClass), cp });
    if (c < 0x80 && !/[0-9A-Za-z]/.test(n)) return done(c);
    if (n in SIMPLE_ESCAPES) {
      return { text: SIMPLE_ESCAPES[n], cp: "\x07\f\n\r\t\v"["afnrtv".indexOf(n)].charCodeAt(0) };
    }
    // `\1`–`\7` alone would be a back-reference, which Go lacks; with more octal digits it is octal
    if (/[0-7]/.test(n) && (n === "0" || /[0-7]/.test(p[this.i] ?? ""))) {
      let cp = c - 0x30;
      for (let k = 0; k < 2 && /[0-7]/.test(p[this.i] ?? ""); k++) {
        cp = cp * 8 + p.charCodeAt(this.i++) - 0x30;
      }
      return done(cp);
    }
    if (n === "x") {
      const bad = () => this.fail("invalid escape sequence", p.slice(start, this.i));
      if (p[this.i] === "{") {
        this.i++;
        let cp = 0, digits = 0;
        for (;;) {
          const d = p[this.i];
          if (d === undefined) bad();
          this.i++;
          if (d === "}") break;
          if (!/[0-9A-Fa-f]/.test(d)) bad();
          cp = cp * 16 + parseInt(d, 16), digits++;
          if (cp > 0x10ffff) bad();
        }
        if (digits === 0) bad();
        return done(cp);
      }
      const hex = p.slice(this.i, this.i + 2);
      this.i += Math.min(2, p.length - this.i);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) bad();
      return done(parseInt(hex, 16));
    }
    this.fail("invalid escape sequence", p.slice(start, this.i));
  }

  /** A bracketed class at `[` as a `v`-mode class; Go has no nested classes, only `[:name:]`. */
  private charClass(): string {
    const p = this.p;
    const whole = p.slice(this.i);
    this.i++;
    let out = "[";
    if (p[this.i] === "^") out += "^", this.i++;
    let first = true;
    for (;;) {
      if (this.i >= p.length) this.fail("missing closing ]", whole);
      if (p[this.i] === "]" && !first) break;
      first = false;
      if (p.startsWith("[:", this.i) && p.length - this.i > 2) {
        const end = p.indexOf(":]", this.i + 2);
        if (end >= 0) {
          const name = p.slice(this.i + 2, end);
          const negated = name.startsWith("^");
          const posix = POSIX[negated ? name.slice(1) : name];
          if (posix === undefined) this.fail("invalid character class range", p.slice(this.i, end + 2));
          out += negated ? `[^${posix}]` : posix;
          this.i = end + 2;
          continue;
        }
      }
      if (p[this.i] === "\\") {
        const cls = this.classEscape(true);
        if (cls !== null) {
          out += cls;
          continue;
        }
      }
      const rangeStart = this.i;
      const lo = this.classChar(whole);
      if (p[this.i] === "-" && this.i + 1 < p.length && p[this.i + 1] !== "]") {
        this.i++;
        const hi = this.classChar(whole);
        if (hi.cp < lo.cp) this.fail("invalid character class range", p.slice(rangeStart, this.i));
        out += `${lo.text}-${hi.text}`;
      } else out += lo.text;
    }
    this.i++;
    return out + "]";
  }

  private classChar(whole: string): { text: string; cp: number } {
    if (this.i >= this.p.length) this.fail("missing closing ]", whole);
    if (this.p[this.i] === "\\") return this.charEscape(true);
    const cp = this.p.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return { text: lit(cp, true), cp };
  }
}

/**
 * A Go regex as Prometheus compiles it (`^(?:re)$`, `.` matching `\n` unless `(?-s)`) as a JS
 * RegExp source and flags; throws a SyntaxError with Go's reason (and Go's text: errors about the
 * whole pattern show it wrapped). `bare` also parses the pattern alone, as label matchers do, so
 * `a)|(b` is refused there but not in `label_replace`.
 * @example re2ToJs("(?i)a[[:digit:]]") → { source: "^(?:(?i:a[0-9]))$", flags: "v" }
 */
export function re2ToJs(pattern: string, bare = true): { source: string; flags: string } {
  const source = new GoParser(`^(?:${pattern})$`).run();
  if (bare) new GoParser(pattern).run();
  return { source, flags: "v" };
}
