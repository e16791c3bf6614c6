/**
 * The case functions (`camelcase`, `pascalcase`, `snakecase`, `kebabcase`, `screamingsnakecase`) with the
 * `convert_case` crate's word splitting that VRL uses: delimiters (`_`, `-`, space) are removed, and words split
 * at case and digit boundaries; `original_case` limits the boundaries to that case's, `excluded_boundaries`
 * removes some.
 */

import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { type ArgInfo, fail, type FnDef, opt, req } from "./def.ts";

const isUpper = (c: string) => c !== c.toLowerCase();
const isLower = (c: string) => c !== c.toUpperCase();
const isDigit = (c: string) => c >= "0" && c <= "9";

const DELIMITERS: Record<string, string> = { underscore: "_", hyphen: "-", space: " " };
const PAIRS: Record<string, (a: string, b: string) => boolean> = {
  lower_upper: (a, b) => isLower(a) && isUpper(b),
  upper_lower: (a, b) => isUpper(a) && isLower(b),
  lower_digit: (a, b) => isLower(a) && isDigit(b),
  upper_digit: (a, b) => isUpper(a) && isDigit(b),
  digit_lower: (a, b) => isDigit(a) && isLower(b),
  digit_upper: (a, b) => isDigit(a) && isUpper(b),
};
const BOUNDARIES = [...Object.keys(DELIMITERS), ...Object.keys(PAIRS), "acronym"];
const DEFAULTS = [
  "underscore",
  "hyphen",
  "space",
  "lower_upper",
  "upper_digit",
  "digit_upper",
  "digit_lower",
  "lower_digit",
  "acronym",
];
const CAMEL = ["lower_upper", "acronym", "lower_digit", "upper_digit", "digit_lower", "digit_upper"];
const CASE_BOUNDARIES: Record<string, string[]> = {
  "camelCase": CAMEL,
  "PascalCase": CAMEL,
  "SCREAMING_SNAKE": ["underscore"],
  "snake_case": ["underscore"],
  "kebab-case": ["hyphen"],
};

/** Splits `s` into words at the named boundaries (convert_case's `split`). */
export function splitWords(s: string, boundaries: string[]): string[] {
  const delims = new Set(boundaries.filter((b) => b in DELIMITERS).map((b) => DELIMITERS[b]));
  const pairs = boundaries.filter((b) => b in PAIRS).map((b) => PAIRS[b]);
  const acronym = boundaries.includes("acronym");
  const out: string[] = [];
  let chunk: string[] = [];
  const flush = () => {
    let start = 0;
    for (let i = 1; i < chunk.length; i++) {
      const a = chunk[i - 1], b = chunk[i];
      const three = acronym && i + 1 < chunk.length && isUpper(a) && isUpper(b) && isLower(chunk[i + 1]);
      if (three || pairs.some((p) => p(a, b))) {
        out.push(chunk.slice(start, i).join(""));
        start = i;
      }
    }
    out.push(chunk.slice(start).join(""));
    chunk = [];
  };
  for (const c of s) {
    if (delims.has(c)) flush();
    else chunk.push(c);
  }
  flush();
  return out.filter((w) => w !== "");
}

const capitalize = (w: string) => {
  const [first, ...rest] = w;
  return first.toUpperCase() + rest.join("").toLowerCase();
};

function boundariesFor(original: VrlValue | undefined, excluded: VrlValue | undefined): string[] {
  let bs = DEFAULTS;
  if (typeof original === "string") {
    bs = CASE_BOUNDARIES[original] ??
      fail(`unknown original_case: ${original}; expected one of ${Object.keys(CASE_BOUNDARIES).join(", ")}`);
  }
  if (Array.isArray(excluded)) {
    for (const e of excluded) {
      if (typeof e !== "string" || !BOUNDARIES.includes(e)) {
        return fail(`unknown boundary: ${String(e)}; expected one of ${BOUNDARIES.join(", ")}`);
      }
    }
    bs = bs.filter((b) => !excluded.includes(b));
  }
  return bs;
}

function checkArgs(a: (ArgInfo | undefined)[]): string | undefined {
  try {
    boundariesFor(a[1]?.constant?.value, a[2]?.constant?.value);
  } catch (e) {
    return (e as Error).message;
  }
}

function caseFn(conv: (ws: string[]) => string): FnDef {
  return {
    params: [req("value", K.BYTES), opt("original_case", K.BYTES), opt("excluded_boundaries", K.ARRAY)],
    returns: K.BYTES,
    check: checkArgs,
    fallibleFor: (a) => (a[1] !== undefined && !a[1].constant) || (a[2] !== undefined && !a[2].constant),
    call: ([v, original, excluded]) => conv(splitWords(v as string, boundariesFor(original, excluded))),
  };
}

/** The case functions by name. */
export const CASING_FNS: Record<string, FnDef> = {
  camelcase: caseFn((ws) => ws.map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w))).join("")),
  pascalcase: caseFn((ws) => ws.map(capitalize).join("")),
  snakecase: caseFn((ws) => ws.map((w) => w.toLowerCase()).join("_")),
  kebabcase: caseFn((ws) => ws.map((w) => w.toLowerCase()).join("-")),
  screamingsnakecase: caseFn((ws) => ws.map((w) => w.toUpperCase()).join("_")),
};
