/**
 * Linear-time matching for user patterns that V8's backtracking engine could take exponential time
 * on (`(a+)+b` against `aaaa…c` hangs the process, which runs every request). GreptimeDB's Rust
 * `regex` and Prometheus' Go RE2 match such patterns in linear time; so does RE2JS, a JavaScript port
 * of RE2. A LinearRegExp is a RegExp whose `exec` runs RE2JS: `test`, `String.prototype.match`,
 * `replace`, `split`, `matchAll` and `search` all go through `exec`, so every call site keeps working.
 * A pattern with Rust's Unicode word boundaries means the same to RE2 only on ASCII subjects (most
 * log text), one with JS's multiline anchors only on subjects whose line ends are `\n`, one with
 * Oniguruma's `^` only on subjects not ending with `\n`: any other subject runs on V8.
 */
import { RE2JS } from "re2js";
import { jsToRe2 } from "./js_to_re2.ts";
import { RISKY_CHAIN, shortForV8 } from "./loop_risk.ts";
import { MAX_NESTED_COUNT } from "./re2_repeat.ts";

/** Why a risky pattern whose nested counts RE2 cannot take is refused. */
export const TOO_LARGE = `regex too large: nested repetition counts exceed ${MAX_NESTED_COUNT}`;

/** RE2JS's matcher. */
interface Matcher {
  find(start: number): boolean;
  start(group: number): number;
  end(group: number): number;
}

interface Compiled {
  re2: RE2JS;
  /** The capture group names by group number (JS numbers groups as RE2 does). */
  names: (string | undefined)[];
  /** A character in the subject that makes RE2 read the pattern otherwise, or null when none does. */
  differsOn: RegExp | null;
}

/** Any UTF-16 code unit past ASCII (a surrogate too); a line terminator other than `\n`; a final `\n`. */
const NOT_ASCII = "[\\u0080-\\uffff]", NOT_LF = "[\\r\\u2028\\u2029]", FINAL_LF = "\\n$";

const compiled = new Map<string, Compiled | null>();
const MAX_CACHED = 1000;

/** RE2JS's program for a JS source and flags, or null when RE2 cannot mean the same (cached). */
function compileLinear(source: string, flags: string): Compiled | null {
  const key = flags.replace(/[gyd]/g, "") + "/" + source;
  let hit = compiled.get(key);
  if (hit !== undefined) return hit;
  hit = null;
  const reading = jsToRe2(source, flags);
  if (reading !== null && !reading.tooLarge) {
    try {
      const re2 = RE2JS.compile(reading.re2);
      const names: (string | undefined)[] = [];
      for (const [name, n] of Object.entries(re2.namedGroups())) names[n] = name;
      const { asciiOnly, lineFeedsOnly, noFinalLf } = reading;
      const differs = [asciiOnly && NOT_ASCII, lineFeedsOnly && NOT_LF, noFinalLf && FINAL_LF].filter((d) =>
        d
      );
      hit = { re2, names, differsOn: differs.length > 0 ? new RegExp(differs.join("|")) : null };
    } catch {
      // beyond what RE2 takes (size, a property it lacks): V8 keeps it
    }
  }
  if (compiled.size >= MAX_CACHED) compiled.clear();
  compiled.set(key, hit);
  return hit;
}

/** A RegExp matched by RE2 (linear time) instead of V8's backtracking engine; same results. */
export class LinearRegExp extends RegExp {
  readonly #linear: Compiled;
  /** The last subject checked for characters RE2 reads otherwise (`g` callers pass one subject many times). */
  #checked: string | undefined;
  #checkedSame = false;
  /** Subjects shorter than this run on V8 (a pattern whose risk grows only polynomially). */
  readonly #v8Below: number;

  /** Throws when RE2 cannot read the pattern the same way; `linearWhenRisky` checks that first. */
  constructor(pattern: string | RegExp, flags?: string, v8Below = 0) {
    super(pattern, flags);
    this.#v8Below = v8Below;
    const linear = compileLinear(this.source, this.flags);
    if (linear === null) throw new SyntaxError("pattern has no linear-time equivalent");
    this.#linear = linear;
  }

  /** Whether RE2 answers for `s`: when `s` has none of the characters RE2 would read the pattern otherwise on. */
  #linearFor(s: string): boolean {
    if (s.length < this.#v8Below) return false;
    const { differsOn } = this.#linear;
    if (differsOn === null) return true;
    if (s !== this.#checked) this.#checked = s, this.#checkedSame = !differsOn.test(s);
    return this.#checkedSame;
  }

  /** RegExp's `test`; without `g` or `y`, RE2's own test, which skips finding where the match is. */
  override test(input: string): boolean {
    const s = String(input);
    if (this.global || this.sticky || !this.#linearFor(s)) return super.test(s);
    return this.#linear.re2.test(s);
  }

  /** RegExp's `exec`, honouring `lastIndex` for `g` and `y`, with named groups. */
  override exec(input: string): RegExpExecArray | null {
    const s = String(input);
    if (!this.#linearFor(s)) return super.exec(s);
    const stateful = this.global || this.sticky;
    const from = stateful ? this.lastIndex : 0;
    if (from > s.length) {
      this.lastIndex = 0;
      return null;
    }
    const m = this.#linear.re2.matcher(s) as unknown as Matcher;
    // RE2 anchors only at the input's start; the leftmost match from `from` is the sticky one
    // when there is one (leftmost-first picks the same match at the same start)
    const found = m.find(from) && (!this.sticky || m.start(0) === from);
    if (!found) {
      if (stateful) this.lastIndex = 0;
      return null;
    }
    const { names } = this.#linear;
    const groupCount = this.#linear.re2.groupCount();
    const values: (string | undefined)[] = [];
    for (let g = 0; g <= groupCount; g++) {
      const start = m.start(g);
      values.push(start < 0 ? undefined : s.slice(start, m.end(g)));
    }
    const result = values as unknown as RegExpExecArray;
    result.index = m.start(0);
    result.input = s;
    let groups: Record<string, string | undefined> | undefined;
    if (names.length > 0) {
      groups = Object.create(null) as Record<string, string | undefined>;
      names.forEach((name, g) => name !== undefined && (groups![name] = values[g]));
    }
    result.groups = groups as Record<string, string> | undefined;
    if (stateful) this.lastIndex = m.end(0);
    return result;
  }

  /**
   * `String.prototype.split` by the spec's steps, but finding each separator by one search instead
   * of a sticky match tried at every position (which would make splitting quadratic).
   */
  override [Symbol.split](input: string, limit?: number): string[] {
    const s = String(input);
    const max = limit === undefined ? 2 ** 32 - 1 : limit >>> 0;
    const out: string[] = [];
    if (max === 0) return out;
    if (!this.#linearFor(s)) return s.split(new RegExp(this), limit);
    const re = new LinearRegExp(this.source, this.flags.replace(/[gy]/g, "") + "g");
    if (s.length === 0) return re.exec(s) === null ? [s] : out;
    const unicode = this.unicode || this.unicodeSets;
    let p = 0, q = 0;
    while (q < s.length) {
      re.lastIndex = q;
      const m = re.exec(s);
      if (m === null || m.index >= s.length) break;
      const e = Math.min(re.lastIndex, s.length);
      if (e === p) {
        q = m.index + (unicode && (s.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
        continue;
      }
      out.push(s.slice(p, m.index));
      if (out.length === max) return out;
      for (let g = 1; g < m.length; g++) {
        out.push(m[g] as string);
        if (out.length === max) return out;
      }
      p = q = e;
    }
    out.push(s.slice(p));
    return out;
  }
}

/**
 * `re` itself, or a LinearRegExp with its source and flags when V8 could backtrack exponentially
 * on it, or polynomially with a high power (loop_risk.ts: then subjects too short for that to
 * matter stay V8's), and RE2 reads it the same way. Patterns RE2 cannot say (lookaround,
 * back-references) stay on V8. `d` (match indices) stays on V8: nothing here asks for indices.
 */
export function linearWhenRisky(re: RegExp): RegExp {
  if (re instanceof LinearRegExp || re.flags.includes("d")) return re;
  const reading = jsToRe2(re.source, re.flags);
  if (reading === null || (!reading.risky && reading.chain < RISKY_CHAIN)) return re;
  // V8 would backtrack on it and RE2 cannot take it: refused, as Rust refuses a program this large
  if (reading.tooLarge) throw new SyntaxError(TOO_LARGE);
  if (compileLinear(re.source, re.flags) === null) return re;
  return new LinearRegExp(re.source, re.flags, reading.risky ? 0 : shortForV8(reading.chain));
}
