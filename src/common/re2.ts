/**
 * RE2 (Go `regexp`) syntax as a JavaScript RegExp source, for Prometheus label matchers and
 * `label_replace`: the spellings RE2 has and JS lacks or spells differently — a leading `(?i)`/`(?m)`/
 * `(?s)` flag group, `(?P<name>…)`, `\Q…\E`, `\A`, `\z`, `\pL`, and POSIX classes like `[[:digit:]]`.
 * What both read alike passes through unchanged; what only JS has (lookaround, back-references)
 * is refused with Go's message, as Prometheus refuses it.
 */

/** ASCII POSIX classes (RE2's `[[:name:]]`), as JS class contents. */
export const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7f",
  blank: "\\t ",
  cntrl: "\\x00-\\x1f\\x7f",
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

/** Unicode general categories, which JS's `\p{…}` takes bare. */
const CATEGORY = /^(L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfsno]?|Any)$/;

/** Characters an escape may stand for in JS's unicode mode (its "syntax characters" and `/`). */
const UNICODE_ESCAPABLE = new Set("^$\\.*+?()[]{}|/");

function literal(text: string, inClass: boolean): string {
  return text.replace(inClass ? /[\\\]^-]/g : /[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * A RE2 pattern as a JS RegExp source and flags (always `s`: Prometheus' `.` matches a newline);
 * throws a SyntaxError naming a construct RE2 lacks.
 * @example re2ToJs("(?i)a[[:digit:]]\\z") → { source: "a[0-9](?![\\s\\S])", flags: "si" }
 */
export function re2ToJs(pattern: string): { source: string; flags: string } {
  let flags = "s";
  let i = 0;
  const lead = /^\(\?([ims]+)\)/.exec(pattern);
  if (lead !== null) {
    for (const f of new Set(lead[1])) if (!flags.includes(f)) flags += f;
    i = lead[0].length;
  }
  // `\pL` and `\p{Greek}` need JS's unicode mode, which rejects needless escapes such as `\_`.
  const unicode = /\\[pP]/.test(pattern);
  if (unicode) flags += "u";
  let out = "", inClass = false;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "\\") {
      const n = pattern[i + 1] ?? "";
      // JS reads these as back-references (RE2 has none); `\0` and multi-digit escapes are octal
      if ((/[1-9]/.test(n) && !/[0-7]/.test(pattern[i + 2] ?? "")) || n === "k") {
        throw new SyntaxError(`invalid escape sequence: \`\\${n}\``);
      }
      if (n === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        out += literal(end < 0 ? pattern.slice(i + 2) : pattern.slice(i + 2, end), inClass);
        i = end < 0 ? pattern.length : end + 2;
        continue;
      }
      if (!inClass && (n === "z" || n === "A")) {
        out += n === "z" ? "(?![\\s\\S])" : "(?<![\\s\\S])";
        i += 2;
        continue;
      }
      if (n === "p" || n === "P") {
        const braced = pattern[i + 2] === "{" ? pattern.indexOf("}", i + 3) : -1;
        let name = braced < 0 ? pattern[i + 2] ?? "" : pattern.slice(i + 3, braced);
        let negated = n === "P";
        if (name.startsWith("^")) negated = !negated, name = name.slice(1);
        // RE2 names scripts bare (`\p{Greek}`); JS wants `Script=` for all but general categories.
        const property = CATEGORY.test(name) ? name : `Script=${name}`;
        out += `\\${negated ? "P" : "p"}{${property}}`;
        i = braced < 0 ? i + 3 : braced + 1;
        continue;
      }
      if (unicode && /[!-/:-@[-`{-~]/.test(n) && !UNICODE_ESCAPABLE.has(n) && !(inClass && n === "-")) {
        out += literal(n, inClass);
      } else out += c + n;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === "[" && pattern[i + 1] === ":") {
        const end = pattern.indexOf(":]", i + 2);
        const posix = end < 0 ? undefined : POSIX[pattern.slice(i + 2, end)];
        if (posix !== undefined) {
          out += posix;
          i = end + 2;
          continue;
        }
      }
      if (c === "]") inClass = false;
      out += c === "[" ? "\\[" : c;
      i++;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      i++;
      if (pattern[i] === "^") out += pattern[i++];
      // RE2 reads a `]` first in a class as itself (JS: an empty class).
      if (pattern[i] === "]") out += "\\]", i++;
      continue;
    }
    const look = /^\(\?<?[=!]/.exec(pattern.slice(i, i + 4));
    if (look !== null) {
      // RE2 has no lookaround: JS would take it and match what Prometheus refuses
      throw new SyntaxError(`invalid or unsupported Perl syntax: \`${look[0].slice(0, 3)}\``);
    }
    if (pattern.startsWith("(?P<", i)) {
      out += "(?<";
      i += 4;
      continue;
    }
    out += c;
    i++;
  }
  return { source: out, flags };
}
