/**
 * A JavaScript RegExp source, as Petrel's translators emit it (rust_regex.ts, re2.ts, the grok
 * translator: `u`/`v` mode), read back into RE2 syntax with the same meaning, together with whether
 * a backtracking engine could take exponential time on it. Reading the translated source (not the
 * user's pattern) gives one reader for every dialect. Anything it does not know for sure to mean the
 * same in RE2 (lookaround other than the assertions the translators spell out, back-references,
 * `v`-mode set operations, non-Unicode mode) makes it answer null, and the caller keeps V8's engine.
 * Rust's Unicode word boundaries have no RE2 spelling, but on a subject of ASCII characters only
 * they are RE2's ASCII `\b`: such a reading is marked `asciiOnly`. JS's `m`-mode `^` `$` (no
 * translator emits them) are RE2's `(?m:^)` `(?m:$)` on a subject whose only line terminator is `\n`: `lineFeedsOnly`.
 */
import { ASSERTIONS, wordLeaf } from "./js_assertions.ts";
import { hex, literal, NOT_SPACE, SPACE } from "./re2_spelling.ts";
import {
  branchCounts,
  type Count,
  type Counts,
  MAX_NESTED_COUNT,
  MAX_WRITTEN_OUT,
  plainCounts,
  sequenceCounts,
} from "./re2_repeat.ts";

/**
 * The RE2 spelling of a JS source, whether V8 could backtrack exponentially on it, its longest chain
 * of loops (V8's time can grow as the subject's length to this power: loop_risk.ts), and whether
 * the two mean the same only on subjects of ASCII characters (Unicode word boundaries read as `\b`).
 */
export interface Re2Reading {
  re2: string;
  risky: boolean;
  chain: number;
  asciiOnly: boolean;
  /** RE2 reads it the same only on subjects with no `\r`, U+2028, U+2029 (RE2's `(?m:^)` and `(?m:$)` see `\n` only). */
  lineFeedsOnly: boolean;
  /** RE2 reads it the same only on subjects that do not end with `\n` (Oniguruma's `^` is `(?m:^)` but there). */
  noFinalLf: boolean;
  /**
   * Its nested counts multiply past RE2's limit and cannot be written out under it (they repeat
   * capture groups, or the program would be too large): `re2` is then the spelling RE2 refuses.
   */
  tooLarge: boolean;
}

const MAX_REPEAT = 1000;

const no = () => false;

/** A parsed atom: whether it is a group, and for a word assertion, which side must be a word character. */
type Atom = Read & { group: boolean; needs?: "after" | "before" };

/** A piece with what RE2's limit on nested counts sees in it (re2_repeat.ts). */
type Read = Piece & Counts;

/** A zero-width assertion as a piece: it consumes nothing. */
function assertion(text: string): Atom {
  const steps: Step[] = [{ kind: text === "\\A" || text === "(?m:^)" ? "anchor" : "check" }];
  return {
    text,
    ambiguous: false,
    group: false,
    leaves: [],
    wordLead: no,
    wordTrail: no,
    steps,
    ...plainCounts(text, 0),
  };
}

/** Past this many turns a bounded loop backtracks like an unbounded one (`\d{1,1000}\d{1,1000}x`). */
const LONG_LOOP = 100;

/** Thrown inside the reader for what RE2 cannot say the same way. */
import { chainDegree, chosenByLead, type Piece, separated, type Step } from "./loop_risk.ts";

class Unsupported extends Error {}

class Reader {
  private i = 0;
  private risky = false;
  private asciiOnly = false;
  private lineFeedsOnly = false;
  private noFinalLf = false;
  private chain = 0;
  private readonly dotAll: boolean[];
  private readonly multiline: boolean[];
  private readonly ignoreCase: boolean[];

  constructor(private readonly p: string, private readonly v: boolean, flags: string) {
    this.dotAll = [flags.includes("s")];
    this.multiline = [flags.includes("m")];
    this.ignoreCase = [flags.includes("i")];
  }

  run(): Re2Reading {
    const body = this.alternation(true);
    if (this.i < this.p.length) throw new Unsupported();
    const { risky, chain, asciiOnly, lineFeedsOnly, noFinalLf } = this;
    const reading = { risky, chain, asciiOnly, lineFeedsOnly, noFinalLf };
    if (body.weight <= MAX_NESTED_COUNT) return { re2: body.text, ...reading, tooLarge: false };
    const fits = body.leanWeight <= MAX_NESTED_COUNT && body.size <= MAX_WRITTEN_OUT;
    return { re2: fits ? body.lean : body.text, ...reading, tooLarge: !fits };
  }

  /** Notes the longest chain of loops along `steps` V8 could split one stretch between. */
  private chains(steps: Step[], trailing: boolean): void {
    if (steps.some((s) => s.kind === "loop")) {
      this.chain = Math.max(this.chain, chainDegree(steps, true, trailing, this.v));
    }
  }

  /** Branches; at the top a last loop with nothing after it backtracks into nothing that can fail. */
  private alternation(top = false): Read {
    const branches: Read[] = [this.sequence()];
    while (this.p[this.i] === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    // one branch is read as part of the sequence around it; others each on their own, as if
    // anything before could take what they start with
    if (top || branches.length > 1) branches.forEach((b) => this.chains(b.steps, !top));
    const leaves = branches.flatMap((b) => b.leaves);
    return {
      text: branches.map((b) => b.text).join("|"),
      ambiguous: branches.some((b) => b.ambiguous) || (branches.length > 1 && !chosenByLead(branches)),
      leaves,
      steps: branches.length === 1 ? branches[0].steps : [{ kind: "fixed", leaves }],
      lead: branches.length === 1 ? branches[0].lead : undefined,
      trail: branches.length === 1 ? branches[0].trail : undefined,
      wordLead: () => branches.every((b) => b.wordLead()),
      wordTrail: () => branches.every((b) => b.wordTrail()),
      ...branchCounts(branches),
    };
  }

  private sequence(): Read {
    let text = "", ambiguous = false, lead: string | undefined, trail: string | undefined;
    const items: { atom: Atom; q: Count | null }[] = [];
    const leaves: string[] = [];
    const steps: Step[] = [];
    let first = true;
    // whether a match starts (ends) with a word character: the atoms up to the first (from the last)
    // that must match once, assertions aside; and whether a `\<` waits for such an atom
    let wordLead: (() => boolean) | undefined, wordTrail = no, wordAfter = false;
    const leadParts: (() => boolean)[] = [];
    while (this.i < this.p.length && this.p[this.i] !== "|" && this.p[this.i] !== ")") {
      const atom = this.atom();
      const q = this.quantifier();
      if (atom.needs !== undefined) {
        if (q !== null || (atom.needs === "before" && !wordTrail())) throw new Unsupported();
        wordAfter ||= atom.needs === "after";
      } else if (atom.leaves.length > 0) {
        const once = q === null || q.min >= 1;
        if (wordAfter && !atom.wordLead()) throw new Unsupported();
        wordAfter &&= !once;
        if (wordLead === undefined) {
          leadParts.push(atom.wordLead);
          if (once) wordLead = () => leadParts.every((part) => part());
        }
        const before = wordTrail;
        wordTrail = once ? atom.wordTrail : () => before() && atom.wordTrail();
      }
      if (first && q === null) lead = atom.lead;
      first = false;
      trail = q === null ? atom.trail : undefined;
      leaves.push(...atom.leaves);
      items.push({ atom, q });
      if (q === null) {
        text += atom.text;
        ambiguous ||= atom.ambiguous;
        steps.push(...atom.steps);
        continue;
      }
      if (atom.group) this.chains(atom.steps, true);
      if (q.max > LONG_LOOP) {
        const first = atom.lead === undefined
          ? atom.leaves
          : [`\\u{${atom.lead.codePointAt(0)!.toString(16)}}`];
        steps.push({ kind: "loop", leaves: atom.leaves, first });
      } else steps.push({ kind: "fixed", leaves: atom.leaves });
      // a loop over something that can match one stretch in several ways is what backtracks
      // exponentially, unless each turn starts (or ends) with a character found nowhere else in it
      if (q.max > 1 && atom.ambiguous && atom.group && !separated(atom, this.v)) this.risky = true;
      text += (atom.group ? atom.text : `(?:${atom.text})`) + q.text;
      ambiguous ||= atom.ambiguous || q.min !== q.max;
    }
    if (wordAfter) throw new Unsupported();
    const counts = sequenceCounts(items);
    return { text, ambiguous, leaves, steps, lead, trail, wordLead: wordLead ?? no, wordTrail, ...counts };
  }

  /** `*` `+` `?` `{n}` `{n,}` `{n,m}` and a lazy `?`, or null. */
  private quantifier(): Count | null {
    const p = this.p;
    const c = p[this.i];
    let text: string, min: number, max: number;
    if (c === "*" || c === "+" || c === "?") {
      text = c, min = c === "+" ? 1 : 0, max = c === "?" ? 1 : Infinity;
      this.i++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(this.i));
      if (m === null) throw new Unsupported();
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new Unsupported();
      text = m[0];
      this.i += m[0].length;
    } else return null;
    if (p[this.i] === "?") text += "?", this.i++;
    return { text, min, max };
  }

  private atom(): Atom {
    const p = this.p;
    const c = p[this.i];
    if (c === "(") return this.group();
    const start = this.i;
    const leaf = (text: string, lead?: string) => {
      const js = p.slice(start, this.i);
      const word = () => wordLeaf(js, this.v);
      return {
        text,
        ambiguous: false,
        group: false,
        leaves: [js],
        steps: [{ kind: "fixed", leaves: [js] }] as Step[],
        lead,
        trail: lead,
        wordLead: word,
        wordTrail: word,
        ...plainCounts(text, 1),
      };
    };
    if (c === "[") return leaf(this.charClass());
    if (c === "\\") {
      const text = this.escape(false);
      if (text === "\\b" || text === "\\B") {
        // with `i`, JS's `\b` also takes U+017F and U+212A as word characters
        this.asciiOnly ||= this.ignoreCase[this.ignoreCase.length - 1];
        return assertion(text);
      }
      return leaf(text, /^\\[!-/:-@[-`{-~]$/.test(p.slice(start, this.i)) ? p[start + 1] : undefined);
    }
    const multiline = this.multiline[this.multiline.length - 1];
    this.i++;
    if (c === "^" || c === "$") this.lineFeedsOnly ||= multiline;
    if (c === "^") return assertion(multiline ? "(?m:^)" : "\\A");
    if (c === "$") return assertion(multiline ? "(?m:$)" : "\\z");
    if (c === ".") {
      return leaf(this.dotAll[this.dotAll.length - 1] ? "(?s:.)" : "[^\\n\\r\\x{2028}\\x{2029}]");
    }
    const cp = p.codePointAt(this.i - 1)!;
    if (cp > 0xffff) this.i++;
    return leaf(literal(cp), String.fromCodePoint(cp));
  }

  private group(): Atom {
    const p = this.p;
    for (const a of ASSERTIONS) {
      if (p.startsWith(a.js, this.i)) {
        this.i += a.js.length;
        this.asciiOnly ||= a.ascii || (a.asciiWord === true && this.ignoreCase[this.ignoreCase.length - 1]);
        this.noFinalLf ||= a.noFinalLf === true;
        return { ...assertion(a.re2), needs: a.needs };
      }
    }
    const rest = p.slice(this.i, this.i + 40);
    let open: string;
    let dotAll = this.dotAll[this.dotAll.length - 1];
    let multiline = this.multiline[this.multiline.length - 1];
    let ignoreCase = this.ignoreCase[this.ignoreCase.length - 1];
    const named = /^\(\?<([^>=!]+)>/.exec(rest);
    const modifiers = /^\(\?([ims]*)(?:-([ims]*))?:/.exec(rest);
    if (!rest.startsWith("(?")) open = "(", this.i++;
    else if (named !== null) open = `(?P<${named[1]}>`, this.i += named[0].length;
    else if (modifiers !== null) {
      const [whole, on, off = ""] = modifiers;
      if (on.includes("s")) dotAll = true;
      if (off.includes("s")) dotAll = false;
      if (on.includes("m")) multiline = true;
      if (off.includes("m")) multiline = false;
      if (on.includes("i")) ignoreCase = true;
      if (off.includes("i")) ignoreCase = false;
      const i = on.includes("i") ? "i" : "", noI = off.includes("i") ? "-i" : "";
      open = `(?${i}${noI}:`;
      this.i += whole.length;
    } else throw new Unsupported();
    this.dotAll.push(dotAll);
    this.multiline.push(multiline);
    this.ignoreCase.push(ignoreCase);
    const body = this.alternation();
    this.dotAll.pop();
    this.multiline.pop();
    this.ignoreCase.pop();
    if (p[this.i] !== ")") throw new Unsupported();
    this.i++;
    const captures = body.captures || open.startsWith("(?P<") || open === "(";
    return { ...body, text: `${open}${body.text})`, lean: `${open}${body.lean})`, captures, group: true };
  }

  /** An escape, outside a class or inside one, as RE2 text. */
  private escape(inClass: boolean): string {
    const p = this.p;
    const n = p[this.i + 1];
    if (n === undefined) throw new Unsupported();
    this.i += 2;
    switch (n) {
      case "d":
      case "D":
      case "w":
      case "W":
        return "\\" + n;
      case "s":
        return inClass ? SPACE : `[${SPACE}]`;
      case "S":
        return inClass ? NOT_SPACE : `[${NOT_SPACE}]`;
      case "b":
      case "B":
        if (inClass) throw new Unsupported();
        return "\\" + n;
      case "t":
      case "n":
      case "v":
      case "f":
      case "r":
        return "\\" + n;
      case "0":
        if (/[0-9]/.test(p[this.i] ?? "")) throw new Unsupported();
        return hex(0);
      case "p":
      case "P":
        return this.property(n === "P", inClass);
      case "x": {
        const m = /^[0-9A-Fa-f]{2}/.exec(p.slice(this.i));
        if (m === null) throw new Unsupported();
        this.i += 2;
        return hex(parseInt(m[0], 16));
      }
      case "u": {
        const m = /^(?:\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{4}))/.exec(p.slice(this.i));
        if (m === null) throw new Unsupported();
        this.i += m[0].length;
        const cp = parseInt(m[1] ?? m[2], 16);
        if (cp >= 0xd800 && cp <= 0xdfff) throw new Unsupported();
        return hex(cp);
      }
    }
    // an escaped syntax character stands for itself; letters and digits left are
    // back-references, `\k<…>`, `\c…`, `\q{…}`: none of which RE2 has
    if (/[0-9A-Za-z]/.test(n)) throw new Unsupported();
    const cp = p.codePointAt(this.i - 1)!;
    if (cp > 0xffff) this.i++;
    return literal(cp);
  }

  /** `\p{…}`/`\P{…}` after the letter: Script=X → X, Join_Control spelled out; other names as they are. */
  private property(negated: boolean, inClass: boolean): string {
    const m = /^\{([A-Za-z_=]+)\}/.exec(this.p.slice(this.i));
    if (m === null) throw new Unsupported();
    this.i += m[0].length;
    let name = m[1];
    if (name.startsWith("Script=")) name = name.slice(7);
    else if (name.includes("=")) throw new Unsupported();
    if (name === "Join_Control") {
      if (negated && inClass) throw new Unsupported();
      return `[${negated ? "^" : ""}\\x{200c}-\\x{200d}]`.slice(inClass ? 1 : 0, inClass ? -1 : undefined);
    }
    return `\\${negated ? "P" : "p"}{${name}}`;
  }

  /** A class at `[`; nested classes (`v` mode) are flattened when they are plain unions. */
  private charClass(): string {
    const p = this.p;
    this.i++;
    let negated = false;
    if (p[this.i] === "^") negated = true, this.i++;
    const inner = this.classBody();
    return `[${negated ? "^" : ""}${inner}]`;
  }

  private classBody(): string {
    const p = this.p;
    let out = "";
    for (;;) {
      const c = p[this.i];
      if (c === undefined) throw new Unsupported();
      if (c === "]") {
        this.i++;
        return out;
      }
      if (this.v && (p.startsWith("&&", this.i) || p.startsWith("--", this.i))) throw new Unsupported();
      if (c === "[" && this.v) {
        if (p[this.i + 1] === "^") throw new Unsupported();
        this.i++;
        out += this.classBody();
        continue;
      }
      if (c === "-") {
        out += "-";
        this.i++;
        continue;
      }
      if (c === "\\") out += this.escape(true);
      else {
        const cp = p.codePointAt(this.i)!;
        this.i += cp > 0xffff ? 2 : 1;
        out += literal(cp);
      }
    }
  }
}

/**
 * The RE2 reading of a JS RegExp source and flags, or null when RE2 could not mean the same
 * (the caller then keeps V8's engine).
 * @example jsToRe2("^((a+)+)b", "v") → { re2: "\\A((a+)+)b", risky: true }
 */
export function jsToRe2(source: string, flags: string): Re2Reading | null {
  const v = flags.includes("v");
  if (!v && !flags.includes("u")) return null;
  try {
    const reading = new Reader(source, v, flags).run();
    if (flags.includes("i")) reading.re2 = `(?i:${reading.re2})`;
    return reading;
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
