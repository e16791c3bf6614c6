/** `parse_grok` / `parse_groks`: grok patterns expanded to one JS regex with renamed capture groups. */

import { toJsRegExp } from "../regex.ts";
import { K } from "../types.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { fail, type FnDef, opt, req } from "./def.ts";
import { GROK_PATTERNS } from "./grok_patterns.ts";

/** A compiled grok expression. */
export interface Grok {
  re: RegExp;
  fields: { group: string; name: string; type?: string }[];
}

const cache = new Map<string, Grok>();

/** Expands and compiles a grok pattern; throws with a message on unknown pattern names or bad regex. */
export function compileGrok(pattern: string, aliases: Record<string, string> = {}): Grok {
  const key = Object.keys(aliases).length ? pattern + "\0" + JSON.stringify(aliases) : pattern;
  const hit = cache.get(key);
  if (hit) return hit;
  const fields: Grok["fields"] = [];
  const expand = (p: string, depth: number): string => {
    if (depth > 50) throw new Error("grok pattern recursion too deep");
    return p.replace(
      /%\{(\w+)(?::([\w.@\[\]-]+))?(?::(\w+))?\}/g,
      (_m, name: string, field?: string, type?: string) => {
        const def = aliases[name] ?? GROK_PATTERNS[name];
        if (def === undefined) {
          throw new Error(
            `The given pattern definition name "${name}" could not be found in the definition map`,
          );
        }
        const body = expand(def, depth + 1);
        if (!field) return `(?:${body})`;
        const group = `g${fields.length}`;
        fields.push({ group, name: field, type });
        return `(?<${group}>${body})`;
      },
    );
  };
  const src = expand(pattern, 0).replace(/\(\?<(?![=!])([A-Za-z_][A-Za-z0-9_]*)>/g, (m, n: string) => {
    if (/^g\d+$/.test(n)) return m;
    const group = `g${fields.length}`;
    fields.push({ group, name: n });
    return `(?<${group}>`;
  });
  const grok = { re: toJsRegExp(src), fields };
  if (cache.size > 500) cache.clear();
  cache.set(key, grok);
  return grok;
}

function convert(v: string, type?: string): VrlValue {
  if (type === "int" || type === "integer") {
    const n = Number.parseInt(v, 10);
    return Number.isNaN(n) ? null : BigInt(n);
  }
  if (type === "float" || type === "number") {
    const f = Number.parseFloat(v);
    return Number.isNaN(f) ? null : f;
  }
  return v;
}

/** Runs a compiled grok against text; null when it does not match. */
export function runGrok(g: Grok, text: string): VrlObject | null {
  const m = g.re.exec(text);
  if (!m) return null;
  const out: VrlObject = new Map();
  for (const f of g.fields) {
    const v = m.groups?.[f.group];
    if (v === undefined && out.has(f.name)) continue;
    out.set(f.name, v === undefined ? "" : convert(v, f.type));
  }
  return out;
}

function checkPattern(a: ({ constant?: { value: VrlValue } } | undefined)[]): string | undefined {
  const p = a[1]?.constant?.value;
  if (typeof p !== "string") return;
  try {
    compileGrok(p);
  } catch (e) {
    return `failed to parse grok expression: ${(e as Error).message}`;
  }
}

/** `parse_groks` compiles constant patterns (with constant aliases) when the program compiles, as VRL does. */
function checkPatterns(a: ({ constant?: { value: VrlValue } } | undefined)[]): string | undefined {
  const ps = a[1]?.constant?.value;
  const al = a[2] === undefined ? new Map() : a[2].constant?.value;
  if (!Array.isArray(ps) || !(al instanceof Map)) return;
  const aliases: Record<string, string> = {};
  for (const [k, x] of al) if (typeof x === "string") aliases[k] = x;
  for (const p of ps) {
    if (typeof p !== "string") continue;
    try {
      compileGrok(p, aliases);
    } catch (e) {
      return `failed to parse grok expression: ${(e as Error).message}`;
    }
  }
}

/** Grok functions by name. */
export const GROK_FNS: Record<string, FnDef> = {
  parse_grok: {
    params: [req("value", K.BYTES), req("pattern", K.BYTES)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    check: checkPattern,
    call: ([v, p]) => {
      let g: Grok;
      try {
        g = compileGrok(p as string);
      } catch (e) {
        return fail(`failed to parse grok expression: ${(e as Error).message}`);
      }
      return runGrok(g, v as string) ?? fail("unable to parse input with grok pattern");
    },
  },
  parse_groks: {
    params: [req("value", K.BYTES), req("patterns", K.ARRAY), opt("aliases", K.OBJECT)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    check: checkPatterns,
    call: ([v, ps, al]) => {
      const aliases: Record<string, string> = {};
      if (al instanceof Map) { for (const [k, x] of al) if (typeof x === "string") aliases[k] = x; }
      for (const p of ps as VrlValue[]) {
        if (typeof p !== "string") return fail("patterns must be strings");
        let g: Grok;
        try {
          g = compileGrok(p, aliases);
        } catch (e) {
          return fail(`failed to parse grok expression: ${(e as Error).message}`);
        }
        const r = runGrok(g, v as string);
        if (r) return r;
      }
      return fail("unable to parse input with grok pattern");
    },
  },
};
