/**
 * RE2's limit on nested counted repeats, and the spelling that stays under it. RE2 (and RE2JS)
 * refuse a pattern whose nested `{n,m}` counts multiply past 1000 (`(a{1,100}){1,100}b`: "invalid
 * repeat count"); Rust's `regex` takes it (its limit is the compiled program's size). RE2 itself
 * compiles `x{n,m}` as n copies of `x` then m-n nested optional ones, `x{n,}` as n copies then
 * `x*`: written out that way the pattern is the same program, so it matches the same, prefers the
 * same match and keeps the same captures, as long as `x` holds no capture group (copies of one
 * would renumber the groups after it).
 */

/** RE2's ceiling on the product of nested repeat counts (re2/parse.cc, Go's regexp/syntax). */
export const MAX_NESTED_COUNT = 1000;

/** RE2's ceiling on how deeply groups nest (the written-out optionals nest once per count). */
const MAX_DEPTH = 900;

/**
 * Past this many characters matched by leaves in the written-out program, the pattern is refused:
 * RE2JS takes about 15 ms per 1000 to compile it, and Rust refuses somewhat further on (10 MB of
 * program), e.g. `(a{1,1000}){1,1000}`.
 */
export const MAX_WRITTEN_OUT = 30_000;

/** A counted quantifier as the reader parsed it. */
export interface Count {
  text: string;
  min: number;
  max: number;
}

/** How much a quantifier multiplies RE2's nested count by: its max, or its min when unbounded; 1 for `*` `+` `?`. */
export function countFactor(q: Count): number {
  if (!q.text.startsWith("{")) return 1;
  return Math.max(1, q.max === Infinity ? q.min : q.max);
}

/** How many copies of its atom RE2 writes out for a quantifier (for the size estimate). */
export function copies(q: Count): number {
  return Math.max(1, q.max === Infinity ? q.min + 1 : q.max);
}

/**
 * `(?:atom)` repeated as RE2 compiles `atom{n,m}`, with no count left in it; null when the
 * optionals would nest deeper than RE2 allows. `atom` must hold no capture group.
 */
export function writtenOut(atom: string, q: Count): string | null {
  const lazy = q.text.endsWith("}?");
  const one = `(?:${atom})`;
  let out = one.repeat(q.min);
  if (q.max === Infinity) return out + one + (lazy ? "*?" : "*");
  const optional = q.max - q.min;
  if (optional > MAX_DEPTH) return null;
  const mark = lazy ? ")??" : ")?";
  let tail = "";
  for (let k = 0; k < optional; k++) tail = `(?:${atom}${tail}${mark}`;
  out += tail;
  return out;
}

/**
 * What RE2's limit sees in a piece: the product of its nested counts (`weight`), its spelling with
 * every count over capture-free text written out (`lean`) and that spelling's weight, whether it
 * holds a capture group, and how many leaves RE2 writes out (`size`).
 */
export interface Counts {
  weight: number;
  lean: string;
  leanWeight: number;
  captures: boolean;
  size: number;
}

/** The counts of a piece with no quantifier in it, spelled `text`, of `size` leaves. */
export function plainCounts(text: string, size: number): Counts {
  return { weight: 1, lean: text, leanWeight: 1, captures: false, size };
}

/** Alternatives' counts. */
export function branchCounts(branches: Counts[]): Counts {
  return {
    weight: Math.max(...branches.map((b) => b.weight)),
    lean: branches.map((b) => b.lean).join("|"),
    leanWeight: Math.max(...branches.map((b) => b.leanWeight)),
    captures: branches.some((b) => b.captures),
    size: branches.reduce((sum, b) => sum + b.size, 0),
  };
}

/** A sequence's counts, from its atoms each with its quantifier (null for none). */
export function sequenceCounts(items: { atom: Counts & { group: boolean }; q: Count | null }[]): Counts {
  let weight = 1, lean = "", leanWeight = 1, captures = false, size = 0;
  for (const { atom, q } of items) {
    captures ||= atom.captures;
    const factor = q === null ? 1 : countFactor(q);
    weight = Math.max(weight, atom.weight * factor);
    size += atom.size * (q === null ? 1 : copies(q));
    const out = factor > 1 && !atom.captures ? writtenOut(atom.lean, q!) : null;
    if (out !== null) lean += out;
    else {
      lean += q === null ? atom.lean : (atom.group ? atom.lean : `(?:${atom.lean})`) + q.text;
      // a count over capture groups (or too deep to write out) stays, and counts as RE2 counts it
      leanWeight = Math.max(leanWeight, atom.leanWeight * factor);
    }
  }
  return { weight, lean, leanWeight, captures, size };
}
