/** Regex functions: `match`, `match_any`, `match_array`, `parse_regex`, `parse_regex_all`. */

import { K, t, type TypeDef } from "../types.ts";
import { kindOf, type VrlObject, VrlRegex, type VrlValue } from "../value.ts";
import { type ArgInfo, fail, flag, type FnDef, opt, req } from "./def.ts";
import { rustMatches } from "./rust_regex.ts";

function captures(m: RegExpExecArray, numeric: boolean): VrlObject {
  const out: VrlObject = new Map();
  if (numeric) m.forEach((g, i) => out.set(String(i), g ?? null));
  if (m.groups) { for (const [k, g] of Object.entries(m.groups)) out.set(k, g ?? null); }
  return out;
}

const test = (re: RegExp, s: string) => {
  re.lastIndex = 0;
  return re.test(s);
};

/** VRL's static type of a regex match object: named groups are strings, numbered ones string or null. */
function captureType(a: (ArgInfo | undefined)[]): TypeDef {
  const re = a[1]?.constant?.value;
  if (!(re instanceof VrlRegex)) return t(K.OBJECT);
  const fields = new Map<string, TypeDef>();
  const groups = new RegExp(`${re.re.source}|`, re.re.flags).exec("")!;
  for (let i = 0; i < groups.length; i++) fields.set(String(i), t(K.BYTES | K.NULL));
  for (const name of Object.keys(groups.groups ?? {})) fields.set(name, t(K.BYTES));
  return { kind: K.OBJECT, fields, exact: true };
}

/** Regex functions by name. */
export const REGEX_FNS: Record<string, FnDef> = {
  match: {
    params: [req("value", K.BYTES), req("pattern", K.REGEX)],
    returns: K.BOOLEAN,
    call: ([v, p]) => test((p as VrlRegex).re, v as string),
  },
  match_any: {
    params: [req("value", K.BYTES), req("patterns", K.ARRAY)],
    returns: K.BOOLEAN,
    check: (a) => {
      const c = a[1]?.constant?.value;
      if (Array.isArray(c) && c.some((x) => !(x instanceof VrlRegex))) {
        return "patterns must be an array of regexes";
      }
    },
    call: ([v, ps]) => (ps as VrlValue[]).some((p) => p instanceof VrlRegex && test(p.re, v as string)),
  },
  match_array: {
    params: [req("value", K.ARRAY), req("pattern", K.REGEX), opt("all", K.BOOLEAN)],
    returns: K.BOOLEAN,
    call: ([v, p, all]) => {
      const re = (p as VrlRegex).re;
      const ok = (x: VrlValue) => typeof x === "string" && test(re, x);
      return flag(all, false) ? (v as VrlValue[]).every(ok) : (v as VrlValue[]).some(ok);
    },
  },
  parse_regex: {
    params: [req("value", K.BYTES), req("pattern", K.REGEX), opt("numeric_groups", K.BOOLEAN)],
    returns: captureType,
    fallible: true,
    fresh: true,
    call: ([v, p, n]) => {
      const re = (p as VrlRegex).re;
      re.lastIndex = 0;
      const m = re.exec(v as string);
      if (!m) return fail("could not find any pattern matches");
      return captures(m, flag(n, false));
    },
  },
  parse_regex_all: {
    params: [req("value", K.BYTES), req("pattern", K.REGEX), opt("numeric_groups", K.BOOLEAN)],
    returns: K.ARRAY,
    fallible: true,
    fresh: true,
    call: ([v, p, n]) => {
      const out: VrlValue[] = [];
      for (const m of rustMatches(v as string, (p as VrlRegex).re)) out.push(captures(m, flag(n, false)));
      return out;
    },
  },
};

/** Raises the error VRL gives for a non-regex where a regex was needed. */
export function expectRegex(v: VrlValue): VrlRegex {
  return v instanceof VrlRegex ? v : fail(`expected regex, got ${kindOf(v)}`);
}
