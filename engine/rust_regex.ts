/**
 * Translates Rust `regex` crate syntax to a JavaScript RegExp with the `u` flag (reference §4.14):
 * `(?P<n>` → `(?<n>`, leading inline flags → RegExp flags, later ones (`a(?i)b`, `(?-s:…)`) → scoped
 * modifier groups, Unicode-aware `\d \w \b`, POSIX classes, `\A \z`, `\x{…}`, `\pL`, and escapes JS
 * rejects in unicode mode. VRL regex literals and the pipeline's regex processors both use it.
 */

const WORD = "\\p{L}\\p{M}\\p{Nd}\\p{Pc}";
const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};
const JS_SYNTAX = new Set("^$\\.*+?()[]{}|/".split(""));

/** Translates `src`; throws an Error with a regex-crate-like message on unsupported syntax. */
export function translateRustRegex(src: string): { source: string; flags: string } {
  let i = 0;
  const flags = new Set<string>(["u"]);
  let verbose = false;
  // Leading `(?flags)` groups become RegExp flags.
  for (;;) {
    const m = /^\(\?([imsxU-]+)\)/.exec(src.slice(i));
    if (!m) break;
    if (m[1].includes("-") || m[1].includes("U")) throw new Error(`unsupported inline flags: ${m[0]}`);
    for (const f of m[1]) {
      if (f === "x") verbose = true;
      else flags.add(f);
    }
    i += m[0].length;
  }
  let out = "";
  let inClass = false;
  let classStart = false;
  // Rust's mid-pattern `(?i)` lasts to the end of the enclosing group; JS only has scoped `(?i:…)`.
  // Each open group keeps the modifier groups opened inside it, closed (and reopened around `|`).
  const scopes: string[][] = [[]];
  const closeScoped = () => ")".repeat(scopes[scopes.length - 1].length);
  while (i < src.length) {
    const c = src[i];
    if (verbose && !inClass) {
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      if (c === "#") {
        while (i < src.length && src[i] !== "\n") i++;
        continue;
      }
    }
    if (c === "\\") {
      const n = src[i + 1];
      if (n === undefined) throw new Error("incomplete escape sequence");
      i += 2;
      switch (n) {
        case "d":
          out += "\\p{Nd}";
          break;
        case "D":
          out += "\\P{Nd}";
          break;
        case "w":
          out += inClass ? WORD : `[${WORD}]`;
          break;
        case "W":
          out += inClass ? "\\W" : `[^${WORD}]`;
          break;
        case "b":
          out += inClass ? "\\b" : `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
          break;
        case "B":
          out += `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;
          break;
        case "A":
          out += "(?<![\\s\\S])";
          break;
        case "z":
          out += "(?![\\s\\S])";
          break;
        case "x": {
          if (src[i] === "{") {
            const end = src.indexOf("}", i);
            if (end < 0) throw new Error("unclosed hex escape");
            out += `\\u{${src.slice(i + 1, end)}}`;
            i = end + 1;
          } else {
            out += "\\x" + src.slice(i, i + 2);
            i += 2;
          }
          break;
        }
        case "p":
        case "P": {
          if (src[i] === "{") {
            const end = src.indexOf("}", i);
            if (end < 0) throw new Error("unclosed Unicode class");
            out += `\\${n}{${unicodeClassName(src.slice(i + 1, end))}}`;
            i = end + 1;
          } else {
            out += `\\${n}{${unicodeClassName(src[i])}}`;
            i++;
          }
          break;
        }
        default:
          if (/[0-9]/.test(n)) throw new Error("backreferences are not supported");
          if (/[A-Za-z]/.test(n)) out += "\\" + n;
          else if (JS_SYNTAX.has(n) || (inClass && n === "-")) out += "\\" + n;
          else out += n;
      }
      classStart = false;
      continue;
    }
    if (inClass) {
      if (c === "[" && src[i + 1] === ":") {
        const end = src.indexOf(":]", i + 2);
        if (end > 0) {
          const name = src.slice(i + 2, end);
          const neg = name.startsWith("^");
          const cls = POSIX[neg ? name.slice(1) : name];
          if (!cls) throw new Error(`invalid POSIX class: ${name}`);
          if (neg) throw new Error("negated POSIX classes are not supported");
          out += cls;
          i = end + 2;
          classStart = false;
          continue;
        }
      }
      if (c === "]" && !classStart) {
        inClass = false;
        out += "]";
        i++;
        continue;
      }
      if (c === "]" || c === "[") {
        out += "\\" + c;
        i++;
        classStart = false;
        continue;
      }
      if (c === "^" && classStart && out.endsWith("[")) {
        out += "^";
        i++;
        continue;
      }
      out += c;
      classStart = false;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      classStart = true;
      out += "[";
      i++;
      continue;
    }
    if (c === "(" && src[i + 1] === "?") {
      const inline = /^\(\?([imsxU]*)(?:-([imsxU]*))?(\)|:)/.exec(src.slice(i));
      if (inline && (inline[1] || inline[2] !== undefined)) {
        const [whole, on, off = "", end] = inline;
        if (/[xU]/.test(on + off)) throw new Error(`unsupported inline flags: ${whole}`);
        const mods = on + (off ? "-" + off : "");
        if (end === ":") {
          scopes.push([]);
          out += mods === "" || mods === "-" ? "(?:" : `(?${mods}:`;
        } else if (mods !== "" && mods !== "-") {
          out += `(?${mods}:`;
          scopes[scopes.length - 1].push(mods);
        }
        i += whole.length;
        continue;
      }
      scopes.push([]);
      if (src.startsWith("(?P<", i)) {
        out += "(?<";
        i += 4;
        continue;
      }
      out += c;
      i++;
      continue;
    }
    if (c === "(") {
      scopes.push([]);
      out += c;
      i++;
      continue;
    }
    if (c === ")") {
      out += closeScoped() + ")";
      if (scopes.length > 1) scopes.pop();
      i++;
      continue;
    }
    if (c === "|" && scopes[scopes.length - 1].length) {
      out += closeScoped() + "|" + scopes[scopes.length - 1].map((m) => `(?${m}:`).join("");
      i++;
      continue;
    }
    if (c === "}" || c === "]") {
      // Rust treats a lone closing brace/bracket as a literal; JS unicode mode does not.
      if (c === "}" && /\{\d*(,\d*)?$/.test(out)) out += c;
      else out += "\\" + c;
      i++;
      continue;
    }
    out += c;
    i++;
  }
  if (inClass) throw new Error("unclosed character class");
  out += closeScoped();
  return { source: out, flags: [...flags].join("") };
}

function unicodeClassName(name: string): string {
  const short: Record<string, string> = { L: "L", N: "N", P: "P", S: "S", Z: "Z", M: "M", C: "C" };
  if (short[name]) return short[name];
  if (/^(Greek|Latin|Cyrillic|Han|Arabic|Hebrew|Hiragana|Katakana|Hangul|Thai|Devanagari)$/.test(name)) {
    return `Script=${name}`;
  }
  return name;
}

const cache = new Map<string, RegExp>();

/** Compiles a Rust regex into a JS RegExp (cached); throws Error(message) when invalid. */
export function compileRustRegex(src: string, extraFlags = ""): RegExp {
  const key = extraFlags + "\u0000" + src;
  const hit = cache.get(key);
  if (hit) return hit;
  const { source, flags } = translateRustRegex(src);
  const re = new RegExp(source, flags + extraFlags);
  cache.set(key, re);
  return re;
}

/** One piece of a Rust replacement string: literal text or a group reference. */
type ReplacementPart = string | { group: string | number };

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

/** Replaces every match of `re` (must be global) in `s` using parsed Rust replacement parts. */
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
