/**
 * The lookaround idioms Petrel's translators (rust_regex.ts, re2.ts) emit for RE2's assertions, by
 * their exact JS text, with the RE2 assertion each one reads as (js_to_re2.ts). Rust's Unicode word
 * boundaries are RE2's ASCII `\b` only on ASCII subjects: Rust's Unicode `\w` takes exactly
 * `[0-9A-Za-z_]` among ASCII characters.
 */
import { WORD_A, WORD_U } from "./rust_regex.ts";

/**
 * A lookaround idiom the translators emit for an RE2 assertion, by its exact text. `ascii`: the
 * same only on ASCII subjects (or, for ASCII word classes, when case is not ignored: with `i`, JS's
 * `[0-9A-Za-z_]` also takes U+017F and U+212A). `needs`: `\b` only where the next piece starts
 * (`after`) or the previous one ends (`before`) with a word character.
 */
export interface Assertion {
  js: string;
  re2: string;
  ascii: boolean;
  needs?: "after" | "before";
  asciiWord?: boolean;
  /** The same only on subjects that do not end with `\n` (Oniguruma's `^`, which is not after a final `\n`). */
  noFinalLf?: boolean;
}

/** Word boundaries over a word class: `\b` `\B`, and `\<` `\>` `\b{start-half}` `\b{end-half}`. */
function boundaries(body: string, unicode: boolean): Assertion[] {
  const w = `[${body}]`, asciiWord = !unicode;
  const start = `(?<!${w})(?=${w})`, end = `(?<=${w})(?!${w})`;
  return [
    { js: `(?:${end}|${start})`, re2: "\\b", ascii: unicode, asciiWord },
    { js: `(?:${start}|${end})`, re2: "\\b", ascii: unicode, asciiWord },
    { js: `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`, re2: "\\B", ascii: unicode, asciiWord },
    // RE2 has none of these, but next to a word character each one is `\b`
    { js: start, re2: "\\b", ascii: true, needs: "after" },
    { js: end, re2: "\\b", ascii: true, needs: "before" },
    { js: `(?<!${w})`, re2: "\\b", ascii: true, needs: "after" },
    { js: `(?!${w})`, re2: "\\b", ascii: true, needs: "before" },
  ];
}

/** The lookaround idioms the translators emit for RE2 assertions, by their exact text. */
export const ASSERTIONS: Assertion[] = [
  { js: "(?<![\\s\\S])", re2: "\\A", ascii: false },
  { js: "(?![\\s\\S])", re2: "\\z", ascii: false },
  { js: "(?<![^\\n])", re2: "(?m:^)", ascii: false },
  { js: "(?![^\\n])", re2: "(?m:$)", ascii: false },
  // Oniguruma's `^`: the text's start, or after a `\n` that does not end the text
  { js: "(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))", re2: "(?m:^)", ascii: false, noFinalLf: true },
  ...boundaries(WORD_A, false),
  ...boundaries(WORD_U, true),
];
/** The ASCII characters outside `[0-9A-Za-z_]`, which Rust's Unicode `\w` does not take either. */
const NOT_WORD_ASCII = String.fromCharCode(...Array.from({ length: 128 }, (_, c) => c))
  .replace(/\w/g, "");

/** Whether every ASCII character `leaf` (a JS atom, `v` or `u` mode) matches, case ignored or not, is a word character. */
export function wordLeaf(leaf: string, v: boolean): boolean {
  try {
    return !new RegExp(`(?:${leaf})`, (v ? "v" : "u") + "i").test(NOT_WORD_ASCII);
  } catch {
    return false;
  }
}
