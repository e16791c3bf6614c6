/** How characters and JS's `\s` are spelled in RE2 syntax, for `js_to_re2.ts`. */

/** JS's `\s`: WhiteSpace and LineTerminator (RE2's `\s` is ASCII). */
const JS_SPACE: [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** A code point as an RE2 hex escape. */
export function hex(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

function ranges(list: [number, number][]): string {
  return list.map(([a, b]) => a === b ? hex(a) : `${hex(a)}-${hex(b)}`).join("");
}

function complement(list: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of list) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

/** JS's `\s` and `\S` as the inside of an RE2 class. */
export const SPACE = ranges(JS_SPACE);
export const NOT_SPACE = ranges(complement(JS_SPACE));

/** A character as an RE2 literal: escaped when it is punctuation or a control character. */
export function literal(cp: number): string {
  if (cp < 0x20 || cp === 0x7f) return hex(cp);
  const ch = String.fromCodePoint(cp);
  return cp < 0x80 && /[^0-9A-Za-z ]/.test(ch) ? "\\" + ch : ch;
}
