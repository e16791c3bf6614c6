/**
 * What makes a loop over a piece of a regex backtrack exponentially in V8, for `js_to_re2.ts`: the
 * pieces it reads, and the two ways a loop's turns can still be read one way only.
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
}

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
