/**
 * What makes a regex backtrack for exponential or high polynomial time in V8, for `js_to_re2.ts`:
 * the pieces it reads, the two ways a loop's turns can still be read one way only, and chains of
 * unbounded loops one stretch of text can be split between in many ways (`.*a.*a.*b`, `\d+\d+x`).
 */

/**
 * A parsed piece in RE2 text, and what makes a loop over it risky: whether it contains variable-count
 * repetition or alternation (ambiguity a loop can multiply), the JS text of the characters, classes
 * and escapes it consumes with, and the character every match of it starts (ends) with, if it is one
 * fixed one (then the first (last) leaf); and whether every match of it starts (ends) with an ASCII
 * word character when the subject is ASCII (asked only next to `\<`-like assertions).
 */
export interface Piece {
  text: string;
  ambiguous: boolean;
  leaves: string[];
  lead?: string;
  trail?: string;
  wordLead: () => boolean;
  wordTrail: () => boolean;
  /** What the piece does to a chain of loops, in order (chainDegree). */
  steps: Step[];
}

/**
 * One step along a sequence, as a chain of loops sees it: a piece matched a fixed (or small bounded)
 * number of times, an unbounded loop (its leaves, and the leaves its first character comes from), a
 * start anchor (no chain runs through it), or an assertion that can fail (a loop before it counts).
 */
export type Step =
  | { kind: "fixed"; leaves: string[] }
  | { kind: "loop"; leaves: string[]; first: string[] }
  | { kind: "anchor" }
  | { kind: "check" };

/**
 * Whether the next character picks the branch: each starts with a fixed character no other starts
 * with (case aside), so a loop over them reads one stretch one way only (`(1|2)+`, `(GET|PUT)+`);
 * branches holding a capture group are left to the linear engine.
 */
export function chosenByLead(branches: Piece[]): boolean {
  const leads = branches.map((b) => b.lead);
  // a capture inside keeps Rust's and Go's value across turns only on the linear engine ((?:(a)|b)+)
  if (leads.some((l) => l === undefined) || branches.some((b) => /\((?!\?)|\(\?P</.test(b.text))) {
    return false;
  }
  // with `iu` a character matches at least the ones it matches under the pattern's flags
  const same = (a: string, b: string) => new RegExp(`^\\u{${a.codePointAt(0)!.toString(16)}}$`, "iu").test(b);
  return leads.every((a, i) => leads.every((b, j) => i === j || !same(a!, b!)));
}

/**
 * Whether every turn of a loop over `piece` starts (or ends) with a character none of its other
 * leaves matches: then where each turn starts and ends is fixed by the text.
 */
export function separated(piece: Piece, v: boolean): boolean {
  // with `i` added a class matches at least what it matches under the pattern's flags
  const flags = (v ? "v" : "u") + "i";
  const nowhereElse = (ch: string, others: string[]) => {
    try {
      return others.every((leaf) => !new RegExp(`^(?:${leaf})$`, flags).test(ch));
    } catch {
      return false;
    }
  };
  return (piece.lead !== undefined && nowhereElse(piece.lead, piece.leaves.slice(1))) ||
    (piece.trail !== undefined && nowhereElse(piece.trail, piece.leaves.slice(0, -1)));
}

/**
 * A chain this long makes V8 take time of the order of the subject's length to this power on a
 * subject that fails late (measured: `\d+\d+x` 1.6 s on 2000 digits, `a.*a.*b` 6.6 s on 2000 a's,
 * hours on 30 KB); two (`error.*timeout`, quadratic) stays V8's, whose matching is fastest on
 * everyday lines.
 */
export const RISKY_CHAIN = 3;

/** Past ASCII, characters common in log text, tried with the pattern's own characters. */
const SAMPLES = [
  ...Array.from({ length: 128 }, (_, c) => c),
  0xa0,
  0xe9,
  0x3b1,
  0x416,
  0x2028,
  0x4e2d,
  0x1f600,
]
  .map((c) => String.fromCodePoint(c));
const leafCache = new Map<string, { re: RegExp | null; sampled: boolean[] }>();

/** A leaf as a RegExp with `i` added (so it matches at least what it matches in the pattern). */
function leafMatcher(leaf: string, v: boolean): { re: RegExp | null; sampled: boolean[] } {
  const key = (v ? "v" : "u") + leaf;
  let hit = leafCache.get(key);
  if (hit === undefined) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(`^(?:${leaf})$`, (v ? "v" : "u") + "is");
    } catch {
      // an atom that is not a whole RegExp on its own: taken to overlap everything
    }
    hit = { re, sampled: SAMPLES.map((c) => re === null || re.test(c)) };
    if (leafCache.size >= 4096) leafCache.clear();
    leafCache.set(key, hit);
  }
  return hit;
}

/** Whether some character matches a leaf of `a` and a leaf of `b` (tried on samples and their own characters). */
export function overlaps(a: string[], b: string[], v: boolean): boolean {
  const ma = a.map((l) => leafMatcher(l, v)), mb = b.map((l) => leafMatcher(l, v));
  if (SAMPLES.some((_, i) => ma.some((m) => m.sampled[i]) && mb.some((m) => m.sampled[i]))) return true;
  const own = [...a.join(""), ...b.join("")];
  const matches = (ms: typeof ma, c: string) => ms.some((m) => m.re === null || m.re.test(c));
  return own.some((c) => matches(ma, c) && matches(mb, c));
}

/**
 * The longest chain of unbounded loops along `steps` that V8 can split one stretch of text between
 * in many ways, each retried at every split of the loop before: each next loop's first character,
 * and every fixed piece between, is one the loop before could have taken too. An unanchored search
 * is a loop before the first (it retries at every start); with `trailing` false a last loop with
 * nothing after it does not count (whatever it leaves, nothing after it can fail).
 */
export function chainDegree(steps: Step[], unanchored: boolean, trailing: boolean, v: boolean): number {
  let length = unanchored ? 1 : 0, longest = 0;
  // the leaves of the chain's last loop; null: the search's start, which takes any character
  let last: string[] | null = null;
  for (const step of steps) {
    if (step.kind === "anchor") {
      length = 0;
      continue;
    }
    longest = Math.max(longest, length);
    if (step.kind === "fixed") {
      if (length > 0 && last !== null && !overlaps(last, step.leaves, v)) length = 0;
    } else if (step.kind === "loop") {
      const extends_ = length > 0 && (last === null || overlaps(last, step.first, v));
      length = extends_ ? length + 1 : 1;
      last = step.leaves;
    }
  }
  return trailing ? Math.max(longest, length) : longest;
}

/** Splits V8 may try on one subject before it counts as long enough to go linear (a few ms). */
const V8_STEPS = 1e6;

/**
 * The subject length below which V8's worst case for a chain this long stays within V8_STEPS (about
 * n^chain / chain! splits): 181 for 3, 69 for 4, 41 for 5; measured worst cases there, warm, 1–7 ms
 * a subject. RE2 finds captures tens of times slower than V8 on everyday lines (a grok pattern's
 * `(.*?) (.*?) (.*)` on 178-character lines: 8.7 ms V8, 466 ms RE2 for 20k), so short ones stay V8's.
 */
export function shortForV8(chain: number): number {
  let splits = V8_STEPS;
  for (let k = 2; k <= chain; k++) splits *= k;
  return Math.floor(splits ** (1 / chain));
}
