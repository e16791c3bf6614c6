/**
 * PromQL's lexer, after Prometheus' `promql/parser/lex.go`: tokens with byte positions, and its
 * error messages (unclosed parentheses, unterminated strings, bad escapes, bad durations).
 */
import { ParseError } from "./parse_error.ts";

/** Token kinds: punctuation and operators are their own text. */
export type TokenType =
  | "IDENT"
  | "NUMBER"
  | "DURATION"
  | "STRING"
  | "EOF"
  | "("
  | ")"
  | "{"
  | "}"
  | "["
  | "]"
  | ","
  | ":"
  | "@"
  | "="
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "^"
  | "=="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "=~"
  | "!~";

/** One token; `val` is the source text (for STRING: the unquoted value, `raw` the source). */
export interface Token {
  type: TokenType;
  val: string;
  pos: number;
  end: number;
}

const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "atan2",
  "offset",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
]);

/** Aggregation keywords (case-insensitive, as Prometheus' lexer treats all keywords). */
export const AGGREGATORS = new Set([
  "sum",
  "avg",
  "count",
  "min",
  "max",
  "group",
  "stddev",
  "stdvar",
  "topk",
  "bottomk",
  "count_values",
  "quantile",
  "limitk",
  "limit_ratio",
]);

/** The keyword a token spells (lower-cased), or null for plain identifiers. */
export function keywordOf(t: Token): string | null {
  if (t.type !== "IDENT") return null;
  const w = t.val.toLowerCase();
  return KEYWORDS.has(w) || AGGREGATORS.has(w) ? w : null;
}

/** Prometheus' description of a token in "unexpected …" messages. */
export function describeToken(t: Token): string {
  switch (t.type) {
    case "EOF":
      return "end of input";
    case "IDENT": {
      const kw = keywordOf(t);
      if (kw === null) {
        return `${t.val.includes(":") ? "metric identifier" : "identifier"} ${goQuote(t.val)}`;
      }
      if (AGGREGATORS.has(kw)) return `<aggr:${t.val}>`;
      if (kw === "and" || kw === "or" || kw === "unless" || kw === "atan2") return `<op:${t.val}>`;
      return `<${t.val}>`;
    }
    case "NUMBER":
      return `number ${goQuote(t.val)}`;
    case "DURATION":
      return `duration ${goQuote(t.val)}`;
    case "STRING":
      return `string ${goQuote(t.val.length > 10 ? t.val : t.val)}`;
    case "(":
    case ")":
    case "{":
    case "}":
    case "[":
    case "]":
    case ",":
    case ":":
    case "=":
      return goQuote(t.type);
    default:
      return `<op:${t.val}>`;
  }
}

/** A Go `%q` rendering of a string (double quotes, Go escapes). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\x07") out += "\\a";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\v") out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

const isDigit = (c: string) => c >= "0" && c <= "9";
const isAlpha = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isAlnum = (c: string) => isAlpha(c) || isDigit(c);
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";
const DURATION_UNITS = "smhdwy";

/** Splits a query into tokens; a lexer error throws a {@link ParseError}. */
export function lex(input: string): Token[] {
  return new Lexer(input).run();
}

class Lexer {
  private pos = 0;
  private parenDepth = 0;
  private braceOpen = false;
  private bracketOpen = false;
  private readonly tokens: Token[] = [];

  constructor(private readonly input: string) {}

  private fail(pos: number, msg: string): never {
    throw new ParseError(msg, { start: pos, end: this.input.length }, this.input);
  }

  private emit(type: TokenType, start: number, val = this.input.slice(start, this.pos)): void {
    this.tokens.push({ type, val, pos: start, end: this.pos });
  }

  run(): Token[] {
    const s = this.input;
    while (true) {
      while (this.pos < s.length && isSpace(s[this.pos])) this.pos++;
      if (this.pos >= s.length) break;
      const c = s[this.pos];
      if (c === "#") {
        while (this.pos < s.length && s[this.pos] !== "\n") this.pos++;
        continue;
      }
      this.token(c);
    }
    if (this.braceOpen) this.fail(this.pos, "unexpected end of input inside braces");
    if (this.bracketOpen) this.fail(this.pos, "unclosed left bracket");
    if (this.parenDepth > 0) this.fail(this.pos, "unclosed left parenthesis");
    this.tokens.push({ type: "EOF", val: "", pos: s.length, end: s.length });
    return this.tokens;
  }

  private token(c: string): void {
    const s = this.input, start = this.pos;
    const next = s[this.pos + 1];
    if (c === '"' || c === "'") return this.quoted(c);
    if (c === "`") return this.raw();
    if (isDigit(c) || (c === "." && next !== undefined && isDigit(next))) return this.numberOrDuration();
    if (isAlpha(c) || (c === ":" && !this.bracketOpen)) {
      // Colons belong to identifiers, except inside brackets where they separate a subquery's step.
      this.pos++;
      while (this.pos < s.length && (isAlnum(s[this.pos]) || s[this.pos] === ":")) this.pos++;
      const word = s.slice(start, this.pos);
      const lower = word.toLowerCase();
      if (!this.braceOpen && (lower === "inf" || lower === "nan")) return this.emit("NUMBER", start);
      return this.emit("IDENT", start);
    }
    this.pos++;
    switch (c) {
      case "(":
        this.parenDepth++;
        return this.emit("(", start);
      case ")":
        if (--this.parenDepth < 0) this.fail(this.pos, "unexpected right parenthesis ')'");
        return this.emit(")", start);
      case "{":
        if (this.braceOpen) this.fail(start, "unexpected left brace '{'");
        this.braceOpen = true;
        return this.emit("{", start);
      case "}":
        if (!this.braceOpen) this.fail(start, "unexpected character: '}'");
        this.braceOpen = false;
        return this.emit("}", start);
      case "[":
        if (this.bracketOpen) this.fail(start, "unexpected left bracket '['");
        this.bracketOpen = true;
        return this.emit("[", start);
      case "]":
        if (!this.bracketOpen) this.fail(start, "unexpected right bracket ']'");
        this.bracketOpen = false;
        return this.emit("]", start);
      case ",":
      case "@":
      case "+":
      case "-":
      case "*":
      case "/":
      case "%":
      case "^":
        return this.emit(c, start);
      case ":":
        if (this.bracketOpen && this.tokens.at(-1)?.type === ":") this.fail(start, "unexpected colon ':'");
        return this.emit(":", start);
      case "=":
        if (s[this.pos] === "=") return this.pos++, this.emit("==", start);
        if (s[this.pos] === "~") {
          if (!this.braceOpen) this.fail(start, "unexpected character after '=': '~'");
          return this.pos++, this.emit("=~", start);
        }
        return this.emit("=", start);
      case "!":
        if (s[this.pos] === "=") return this.pos++, this.emit("!=", start);
        if (s[this.pos] === "~" && this.braceOpen) return this.pos++, this.emit("!~", start);
        this.fail(start, `unexpected character after '!': ${goRune(s[this.pos] ?? "")}`);
        break;
      case "<":
      case ">":
        if (s[this.pos] === "=") return this.pos++, this.emit(`${c}=` as TokenType, start);
        return this.emit(c, start);
      default:
        this.fail(start, `unexpected character: ${goRune(c)}`);
    }
  }

  /** A number (decimal, hex, exponent) or a duration (`1h30m`), as Prometheus' scanNumber decides. */
  private numberOrDuration(): void {
    const s = this.input, start = this.pos;
    if (this.scanDuration()) return this.emit("DURATION", start);
    this.pos = start;
    if (s[this.pos] === "0" && (s[this.pos + 1] === "x" || s[this.pos + 1] === "X")) {
      this.pos += 2;
      while (this.pos < s.length && /[0-9a-fA-F_]/.test(s[this.pos])) this.pos++;
    } else {
      while (this.pos < s.length && (isDigit(s[this.pos]) || s[this.pos] === "_")) this.pos++;
      if (s[this.pos] === ".") {
        this.pos++;
        while (this.pos < s.length && (isDigit(s[this.pos]) || s[this.pos] === "_")) this.pos++;
      }
      if (s[this.pos] === "e" || s[this.pos] === "E") {
        this.pos++;
        if (s[this.pos] === "+" || s[this.pos] === "-") this.pos++;
        while (this.pos < s.length && isDigit(s[this.pos])) this.pos++;
      }
    }
    if (this.pos < s.length && (isAlnum(s[this.pos]) || s[this.pos] === ".")) {
      while (this.pos < s.length && isAlnum(s[this.pos])) this.pos++;
      if (this.bracketOpen) this.fail(start, `bad duration syntax: ${goQuote(s.slice(start, this.pos))}`);
      this.fail(start, `bad number or duration syntax: ${goQuote(s.slice(start, this.pos))}`);
    }
    this.emit("NUMBER", start);
  }

  /** Consumes `(\d+(ms|s|m|h|d|w|y))+` not followed by an identifier character. */
  private scanDuration(): boolean {
    const s = this.input;
    let any = false;
    while (isDigit(s[this.pos] ?? "")) {
      const digitsStart = this.pos;
      while (isDigit(s[this.pos] ?? "")) this.pos++;
      const u = s[this.pos] ?? "";
      if (u === "m" && s[this.pos + 1] === "s") this.pos += 2;
      else if (u !== "" && DURATION_UNITS.includes(u)) this.pos++;
      else {
        this.pos = digitsStart;
        break;
      }
      any = true;
    }
    if (!any) return false;
    const after = s[this.pos] ?? "";
    return !(isAlnum(after) || after === ".");
  }

  private quoted(q: string): void {
    const s = this.input, start = this.pos;
    let out = "";
    this.pos++;
    while (true) {
      if (this.pos >= s.length || s[this.pos] === "\n") this.fail(start, "unterminated quoted string");
      const c = s[this.pos];
      if (c === q) break;
      if (c === "\\") {
        out += this.escape(q, start);
        continue;
      }
      out += c;
      this.pos++;
    }
    this.pos++;
    this.emit("STRING", start, out);
  }

  private escape(q: string, start: number): string {
    const s = this.input;
    this.pos++;
    const c = s[this.pos];
    if (c === undefined) this.fail(start, "escape sequence not terminated");
    this.pos++;
    const simple: Record<string, string> = {
      a: "\x07",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
      "\\": "\\",
    };
    if (simple[c] !== undefined) return simple[c];
    if (c === q) return c;
    const digits = (n: number, base: number, re: RegExp): number => {
      let v = 0;
      for (let i = 0; i < n; i++) {
        const d = s[this.pos];
        if (d === undefined) this.fail(start, "escape sequence not terminated");
        if (!re.test(d)) this.fail(start, `illegal character ${goRuneU(d)} in escape sequence`);
        v = v * base + parseInt(d, base);
        this.pos++;
      }
      return v;
    };
    if (c >= "0" && c <= "7") {
      this.pos--;
      const v = digits(3, 8, /[0-7]/);
      if (v > 255) this.fail(start, "octal escape value > 255: " + v);
      return String.fromCharCode(v);
    }
    if (c === "x") return String.fromCharCode(digits(2, 16, /[0-9a-fA-F]/));
    if (c === "u" || c === "U") {
      const v = digits(c === "u" ? 4 : 8, 16, /[0-9a-fA-F]/);
      if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) {
        this.fail(start, "escape sequence is an invalid Unicode code point");
      }
      return String.fromCodePoint(v);
    }
    this.fail(start, `unknown escape sequence ${goRuneU(c)}`);
  }

  private raw(): void {
    const s = this.input, start = this.pos;
    const end = s.indexOf("`", start + 1);
    if (end < 0) this.fail(start, "unterminated raw string");
    this.pos = end + 1;
    this.emit("STRING", start, s.slice(start + 1, end));
  }
}

/** Go's `%q` of a rune: `'x'`. */
function goRune(c: string): string {
  return c === "'" ? "'\\''" : `'${c}'`;
}

/** Go's `%#U` of a rune: `U+0071 'q'`. */
function goRuneU(c: string): string {
  const cp = c.codePointAt(0)!;
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")} '${c}'`;
}
