/** VRL lexer: source text to tokens with byte-offset spans (newlines are tokens; the parser skips them where free). */

import { VrlCompileError } from "./diagnostic.ts";

/** Token kinds. Punctuation tokens use their own text as kind. */
export type TokenKind =
  | "ident"
  | "int"
  | "float"
  | "string"
  | "rawstring"
  | "regex"
  | "timestamp"
  | "newline"
  | "eof"
  | "punct";

/** A piece of a string literal: literal text, or a `{{ … }}` template expression with its source offset. */
export type StringPart = { text: string } | { expr: string; offset: number };

/** One token. `space` tells whether whitespace preceded it (paths must be contiguous). */
export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  space: boolean;
  parts?: StringPart[];
}

const PUNCT3 = new Set<string>([]);
const PUNCT2 = new Set(["==", "!=", "<=", ">=", "&&", "||", "??", "|=", "->"]);
const PUNCT1 = new Set([..."()[]{},:;.=!<>+-*/%|"]);

const isIdentStart = (c: string) => /[A-Za-z_@]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_@]/.test(c);
const isDigit = (c: string) => c >= "0" && c <= "9";

/** Splits VRL source into tokens. */
export function lex(src: string, base = 0): Token[] {
  const out: Token[] = [];
  let i = 0;
  let space = false;
  const push = (kind: TokenKind, text: string, start: number, end: number, parts?: StringPart[]) => {
    out.push({ kind, text, start: start + base, end: end + base, space, parts });
    space = false;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      space = true;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      space = true;
      continue;
    }
    if (c === "\n") {
      push("newline", "\n", i, i + 1);
      i++;
      space = true;
      continue;
    }
    if ((c === "s" || c === "r" || c === "t") && src[i + 1] === "'") {
      const start = i;
      i += 2;
      let text = "";
      while (i < src.length && src[i] !== "'") {
        if (src[i] === "\\" && src[i + 1] === "'") {
          text += "'";
          i += 2;
        } else text += src[i++];
      }
      if (i >= src.length) throw new VrlCompileError("E202", "unterminated literal", start + base, i + base);
      i++;
      push(c === "s" ? "rawstring" : c === "r" ? "regex" : "timestamp", text, start, i);
      continue;
    }
    if (isIdentStart(c)) {
      const start = i;
      while (i < src.length && isIdentChar(src[i])) i++;
      push("ident", src.slice(start, i), start, i);
      continue;
    }
    if (isDigit(c)) {
      const start = i;
      while (i < src.length && (isDigit(src[i]) || src[i] === "_")) i++;
      let kind: TokenKind = "int";
      if (src[i] === "." && isDigit(src[i + 1] ?? "")) {
        kind = "float";
        i++;
        while (i < src.length && (isDigit(src[i]) || src[i] === "_")) i++;
      }
      if ((src[i] === "e" || src[i] === "E") && /[0-9+-]/.test(src[i + 1] ?? "")) {
        kind = "float";
        i += 2;
        while (i < src.length && isDigit(src[i])) i++;
      }
      push(kind, src.slice(start, i).replaceAll("_", ""), start, i);
      continue;
    }
    if (c === '"') {
      const start = i;
      const [parts, end] = lexString(src, i + 1, base);
      i = end;
      const text = parts.every((p) => "text" in p)
        ? parts.map((p) => (p as { text: string }).text).join("")
        : "";
      push("string", text, start, i, parts);
      continue;
    }
    const two = src.slice(i, i + 2);
    if (PUNCT3.has(src.slice(i, i + 3))) {
      push("punct", src.slice(i, i + 3), i, i + 3);
      i += 3;
      continue;
    }
    if (PUNCT2.has(two)) {
      push("punct", two, i, i + 2);
      i += 2;
      continue;
    }
    if (PUNCT1.has(c)) {
      push("punct", c, i, i + 1);
      i++;
      continue;
    }
    throw new VrlCompileError("E203", `unexpected character ${JSON.stringify(c)}`, i + base, i + 1 + base);
  }
  push("eof", "", i, i);
  return out;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  // ESC, as in the docs example `strip_ansi_escape_codes("\e[46mfoo\e[0m bar")`.
  e: "\x1b",
  "\\": "\\",
  '"': '"',
  "'": "'",
  "{": "{",
  "}": "}",
  "\n": "",
};

function lexString(src: string, i: number, base: number): [StringPart[], number] {
  const parts: StringPart[] = [];
  let text = "";
  const start = i - 1;
  while (i < src.length && src[i] !== '"') {
    const c = src[i];
    if (c === "\\") {
      const e = src[i + 1];
      // A backslash ending the program leaves the string unterminated (reported below).
      if (e === undefined) {
        i = src.length;
        break;
      }
      if (e === "u" && src[i + 2] === "{") {
        const close = src.indexOf("}", i + 3);
        const cp = parseInt(src.slice(i + 3, close), 16);
        if (close < 0 || !Number.isFinite(cp)) {
          throw new VrlCompileError("E209", "invalid escape character: \\u", i + base, i + 2 + base);
        }
        text += String.fromCodePoint(cp);
        i = close + 1;
        continue;
      }
      if (!(e in ESCAPES)) {
        throw new VrlCompileError("E209", `invalid escape character: \\${e}`, i + base, i + 2 + base);
      }
      text += ESCAPES[e];
      if (e === "\n") {
        i += 2;
        while (src[i] === " " || src[i] === "\t") i++;
        continue;
      }
      i += 2;
      continue;
    }
    if (c === "{" && src[i + 1] === "{") {
      const close = src.indexOf("}}", i + 2);
      if (close < 0) throw new VrlCompileError("E202", "unterminated template", i + base, i + 2 + base);
      if (text) parts.push({ text });
      text = "";
      parts.push({ expr: src.slice(i + 2, close), offset: i + 2 + base });
      i = close + 2;
      continue;
    }
    text += c;
    i++;
  }
  if (i >= src.length) {
    throw new VrlCompileError("E202", "unterminated string literal", start + base, i + base);
  }
  if (text || parts.length === 0) parts.push({ text });
  return [parts, i + 1];
}
