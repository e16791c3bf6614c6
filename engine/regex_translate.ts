/**
 * Translates a foreign regex flavour into a JavaScript RegExp source and flags (reference §4.14).
 * Two flavours share the walk: Rust's `regex` crate (VRL literals, `to_regex`, the pipeline's regex
 * processors: Unicode `\d \w \b`, errors where the crate rejects a pattern) and Oniguruma (grok
 * patterns: atomic groups, possessive quantifiers, `\h`, `\Z`, ASCII classes).
 * `(?P<n>` → `(?<n>`, leading inline flags → RegExp flags, later ones (`a(?i)b`) → scoped modifier
 * groups, POSIX classes, `\A \z`, and verbose mode are common to both.
 */

/** A source regex flavour. */
export type RegexFlavour = "rust" | "oniguruma";

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

/** `[:^name:]` as code-point ranges: everything outside the ASCII class (JS classes cannot nest a negation). */
function negatedPosix(cls: string): string {
  const member = new RegExp(`[${cls}]`, "u");
  const hex = (n: number) => `\\u{${n.toString(16)}}`;
  let out = "";
  let start = -1;
  for (let cp = 0; cp <= 0x80; cp++) {
    const outside = cp === 0x80 || !member.test(String.fromCodePoint(cp));
    if (outside && start < 0) start = cp;
    if (!outside && start >= 0) {
      out += start === cp - 1 ? hex(start) : `${hex(start)}-${hex(cp - 1)}`;
      start = -1;
    }
  }
  return out + `${hex(start)}-${hex(0x10ffff)}`;
}
const JS_SYNTAX = new Set("^$\\.*+?()[]{}|/".split(""));

/** The walk's state: position, output, class state and the inline-flag scopes of open groups. */
class Walk {
  i = 0;
  out = "";
  inClass = false;
  classStart = false;
  verbose = false;
  // Rust's mid-pattern `(?i)` lasts to the end of the enclosing group; JS only has scoped `(?i:…)`.
  // Each open group keeps the modifier groups opened inside it, closed (and reopened around `|`).
  scopes: string[][] = [[]];
  constructor(readonly src: string, readonly flavour: RegexFlavour) {}
  closeScoped(): string {
    return ")".repeat(this.scopes[this.scopes.length - 1].length);
  }
}

/** Translates `src` from `flavour`; throws an Error with a regex-crate-like message on what Rust rejects. */
export function translateRegexFlavour(
  src: string,
  flavour: RegexFlavour,
  extraFlags = "",
): { source: string; flags: string } {
  const w = new Walk(src, flavour);
  const flags = leadingFlags(w, extraFlags);
  while (w.i < src.length) {
    const c = src[w.i];
    if (w.verbose && !w.inClass && skipVerbose(w, c)) continue;
    if (c === "\\") escape(w);
    else if (w.inClass) classChar(w, c);
    else if (c === "[") {
      w.inClass = true;
      w.classStart = true;
      w.out += "[";
      w.i++;
    } else if (c === "(") groupOpen(w);
    else plainChar(w, c);
  }
  if (w.inClass && flavour === "rust") throw new Error("unclosed character class");
  w.out += w.closeScoped();
  return { source: w.out, flags: [...flags].join("") };
}

// Leading `(?flags)` groups become RegExp flags.
function leadingFlags(w: Walk, extraFlags: string): Set<string> {
  const rust = w.flavour === "rust";
  const flags = new Set<string>(rust ? ["u"] : extraFlags.split("").filter(Boolean));
  if (flags.delete("x")) w.verbose = true;
  flags.delete("U");
  for (;;) {
    const m = (rust ? /^\(\?([imsxU-]+)\)/ : /^\(\?([imsxU]+)\)/).exec(w.src.slice(w.i));
    if (!m) break;
    if (rust && (m[1].includes("-") || m[1].includes("U"))) {
      throw new Error(`unsupported inline flags: ${m[0]}`);
    }
    for (const f of m[1]) {
      if (f === "x") w.verbose = true;
      else if (f !== "U") flags.add(f);
    }
    w.i += m[0].length;
  }
  return flags;
}

// Verbose mode drops whitespace and `#` comments outside classes; true when something was skipped.
function skipVerbose(w: Walk, c: string): boolean {
  if (/\s/.test(c)) {
    w.i++;
    return true;
  }
  if (c !== "#") return false;
  while (w.i < w.src.length && w.src[w.i] !== "\n") w.i++;
  return true;
}

function escape(w: Walk): void {
  const n = w.src[w.i + 1];
  w.i += 2;
  if (w.flavour === "oniguruma") {
    if (n === "A" && !w.inClass) w.out += "^";
    else if (n === "z" && !w.inClass) w.out += "$(?![\\s\\S])";
    else if (n === "Z" && !w.inClass) w.out += "$";
    else if (n === "h" && !w.inClass) w.out += "[0-9a-fA-F]";
    else w.out += "\\" + (n ?? "");
    w.classStart = false;
    return;
  }
  if (n === undefined) throw new Error("incomplete escape sequence");
  w.out += rustEscape(w, n);
  w.classStart = false;
}

function rustEscape(w: Walk, n: string): string {
  switch (n) {
    case "d":
      return "\\p{Nd}";
    case "D":
      return "\\P{Nd}";
    case "w":
      return w.inClass ? WORD : `[${WORD}]`;
    case "W":
      return w.inClass ? "\\W" : `[^${WORD}]`;
    case "b":
      return w.inClass ? "\\b" : `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
    case "B":
      return `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;
    case "A":
      return "(?<![\\s\\S])";
    case "z":
      return "(?![\\s\\S])";
    case "x": {
      if (w.src[w.i] !== "{") {
        w.i += 2;
        return "\\x" + w.src.slice(w.i - 2, w.i);
      }
      const end = w.src.indexOf("}", w.i);
      if (end < 0) throw new Error("unclosed hex escape");
      const hex = w.src.slice(w.i + 1, end);
      w.i = end + 1;
      return `\\u{${hex}}`;
    }
    case "p":
    case "P": {
      const braced = w.src[w.i] === "{";
      const end = braced ? w.src.indexOf("}", w.i) : w.i + 1;
      if (end < 0) throw new Error("unclosed Unicode class");
      const name = braced ? w.src.slice(w.i + 1, end) : w.src[w.i];
      w.i = braced ? end + 1 : end;
      return `\\${n}{${unicodeClassName(name)}}`;
    }
    default:
      if (/[0-9]/.test(n)) throw new Error("backreferences are not supported");
      // JS reads `\k<name>` as a backreference and `\cX` as a control character; Rust knows neither.
      if (n === "k" || n === "c") throw new Error("unrecognized escape sequence");
      if (/[A-Za-z]/.test(n) || JS_SYNTAX.has(n) || (w.inClass && n === "-")) return "\\" + n;
      return n;
  }
}

function classChar(w: Walk, c: string): void {
  const src = w.src;
  const rust = w.flavour === "rust";
  if (c === "[" && src[w.i + 1] === ":") {
    const end = src.indexOf(":]", w.i + 2);
    const name = end > 0 ? src.slice(w.i + 2, end) : "";
    const neg = name.startsWith("^");
    const cls = POSIX[neg ? name.slice(1) : name];
    if (rust && end > 0 && !cls) throw new Error(`invalid POSIX class: ${name}`);
    if (cls) {
      w.out += neg ? negatedPosix(cls) : cls;
      w.i = end + 2;
      w.classStart = false;
      return;
    }
  }
  w.i++;
  if (c === "]" && !w.classStart) {
    w.inClass = false;
    w.out += "]";
  } else if (c === "]" || c === "[") {
    w.out += "\\" + c;
    w.classStart = false;
  } else if (c === "^" && w.classStart && w.out.endsWith("[")) w.out += "^";
  else {
    w.out += c;
    w.classStart = false;
  }
}

function groupOpen(w: Walk): void {
  const src = w.src;
  if (src[w.i + 1] !== "?") {
    w.scopes.push([]);
    w.out += "(";
    w.i++;
    return;
  }
  const inline = /^\(\?([imsxU]*)(?:-([imsxU]*))?(\)|:)/.exec(src.slice(w.i));
  if (inline && (inline[1] || inline[2] !== undefined)) {
    const [whole, on, off = "", end] = inline;
    if (w.flavour === "rust" && /[xU]/.test(on + off)) throw new Error(`unsupported inline flags: ${whole}`);
    const onK = on.replace(/[xU]/g, ""), offK = off.replace(/[xU]/g, "");
    const mods = onK + (offK ? "-" + offK : "");
    if (end === ":") {
      w.scopes.push([]);
      w.out += mods === "" ? "(?:" : `(?${mods}:`;
    } else if (mods !== "") {
      w.out += `(?${mods}:`;
      w.scopes[w.scopes.length - 1].push(mods);
    }
    w.i += whole.length;
    return;
  }
  if (w.flavour === "rust" && /^\(\?<?[=!]/.test(src.slice(w.i, w.i + 4))) {
    throw new Error("look-around, including look-ahead and look-behind, is not supported");
  }
  w.scopes.push([]);
  if (src.startsWith("(?P<", w.i)) {
    w.out += "(?<";
    w.i += 4;
  } else if (w.flavour === "oniguruma" && src[w.i + 2] === ">") {
    // An atomic group matches like a plain one wherever backtracking into it would not help.
    w.out += "(?:";
    w.i += 3;
  } else {
    w.out += "(";
    w.i++;
  }
}

function plainChar(w: Walk, c: string): void {
  w.i++;
  if (c === ")") {
    w.out += w.closeScoped() + ")";
    if (w.scopes.length > 1) w.scopes.pop();
  } else if (c === "|" && w.scopes[w.scopes.length - 1].length) {
    const open = w.scopes[w.scopes.length - 1];
    w.out += w.closeScoped() + "|" + open.map((m) => `(?${m}:`).join("");
  } else if (w.flavour === "oniguruma" && "+*?}".includes(c) && w.src[w.i] === "+") {
    // Possessive quantifiers read as greedy ones.
    w.out += c;
    w.i++;
  } else if (w.flavour === "rust" && (c === "}" || c === "]")) {
    // Rust treats a lone closing brace/bracket as a literal; JS unicode mode does not.
    w.out += c === "}" && /\{\d*(,\d*)?$/.test(w.out) ? c : "\\" + c;
  } else w.out += c;
}

function unicodeClassName(name: string): string {
  if (/^[LNPSZMC]$/.test(name)) return name;
  if (/^(Greek|Latin|Cyrillic|Han|Arabic|Hebrew|Hiragana|Katakana|Hangul|Thai|Devanagari)$/.test(name)) {
    return `Script=${name}`;
  }
  return name;
}
