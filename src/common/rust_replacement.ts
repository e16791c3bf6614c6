/**
 * Rust's replacement syntax (`regex::Captures::expand`), shared by SQL's regexp_replace and the
 * pipeline's gsub: `$1` and `$name` take the longest `[0-9A-Za-z_]` run (`$1a` is group "1a"),
 * `${…}` anything up to `}`, `$$` is `$`; an unknown group is empty and a `$` starting no reference stays.
 */

/** One piece of a Rust replacement string: literal text or a group reference. */
export type ReplacementPart = string | { group: string | number };

/** Parses Rust's replacement syntax: `$1`, `$name`, `${name}`, `$$`. */
export function parseReplacement(rep: string): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let lit = "";
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i];
    if (c !== "$") {
      lit += c;
      continue;
    }
    if (rep[i + 1] === "$") {
      lit += "$";
      i++;
      continue;
    }
    let name: string | undefined;
    if (rep[i + 1] === "{") {
      const end = rep.indexOf("}", i + 2);
      if (end > 0) {
        name = rep.slice(i + 2, end);
        i = end;
      }
    } else {
      const m = /^[_0-9A-Za-z]+/.exec(rep.slice(i + 1));
      if (m) {
        name = m[0];
        i += m[0].length;
      }
    }
    if (name === undefined) {
      lit += "$";
      continue;
    }
    if (lit) parts.push(lit);
    lit = "";
    parts.push({ group: /^[0-9]+$/.test(name) ? Number(name) : name });
  }
  if (lit) parts.push(lit);
  return parts;
}

/** Replaces every match of a global `re` in `s` (the first of another) with parsed Rust replacement parts. */
export function replaceAllRust(s: string, re: RegExp, parts: ReplacementPart[]): string {
  if (parts.length === 1 && typeof parts[0] === "string") {
    const lit = parts[0];
    return s.replace(re, () => lit);
  }
  return s.replace(re, (...args: unknown[]) => {
    const last = args[args.length - 1];
    const groups = typeof last === "object" && last !== null
      ? last as Record<string, string | undefined>
      : undefined;
    const nGroups = args.length - (groups ? 3 : 2);
    let out = "";
    for (const p of parts) {
      if (typeof p === "string") out += p;
      else if (typeof p.group === "number") {
        out += p.group < nGroups ? (args[p.group] as string | undefined) ?? "" : "";
      } else out += groups?.[p.group] ?? "";
    }
    return out;
  });
}
