/**
 * SQL tokens for GreptimeDB's dialect: identifiers (bare, "double" or `backtick` quoted), 'strings',
 * numbers and operators; comments are dropped. Positions are kept for error messages.
 */
import { invalidSyntax } from "../common/errors.ts";

/** Kinds of tokens. */
export type TokenKind = "ident" | "qident" | "string" | "number" | "op" | "param";

/** One token; `value` is the unquoted text of identifiers and strings. */
export interface Token {
  kind: TokenKind;
  text: string;
  value: string;
  pos: number;
}

const OPERATORS = ["::", "<=", ">=", "<>", "!=", "||", "!~*", "!~", "~*", "->>", "->", "==", "<<", ">>"];

const NUMBER = /0x[0-9a-fA-F]+|\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.(?:[eE][+-]?\d+)?/y;
const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT = /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/y;

/** Line and column (1-based) of an offset, as GreptimeDB's parser errors show them. */
export function lineColumn(sql: string, pos: number): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let i = 0; i < pos && i < sql.length; i++) {
    if (sql[i] === "\n") {
      line++;
      col = 1;
    } else col++;
  }
  return { line, column: col };
}

function syntaxError(sql: string, pos: number, what: string): Error {
  const { line, column } = lineColumn(sql, pos);
  return invalidSyntax(`Invalid SQL syntax: sql parser error: ${what} at Line: ${line}, Column: ${column}`);
}

function readQuoted(sql: string, start: number, quote: string): { value: string; end: number } {
  let i = start + 1;
  let value = "";
  const backslash = quote === "'";
  for (;;) {
    const q = sql.indexOf(quote, i);
    if (q < 0) break;
    // only a backslash before the closing quote matters; search just that span
    const rel = backslash ? sql.slice(i, q).indexOf("\\") : -1;
    const b = rel < 0 ? -1 : i + rel;
    if (b >= 0 && (sql[b + 1] === "'" || sql[b + 1] === "\\")) {
      value += sql.slice(i, b) + sql[b + 1];
      i = b + 2;
      continue;
    }
    value += sql.slice(i, q);
    if (sql[q + 1] === quote) {
      value += quote;
      i = q + 2;
      continue;
    }
    return { value, end: q + 1 };
  }
  throw syntaxError(sql, start, `Unterminated ${quote === "'" ? "string literal" : "quoted identifier"}`);
}

/** Splits SQL text into tokens. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === " " || ch === "\n" || ch === "\t" || ch === "\r" || /\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
      continue;
    }
    if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) throw syntaxError(sql, i, "Unterminated comment");
      i = end + 2;
      continue;
    }
    if (ch === "'" || ((ch === "E" || ch === "e") && sql[i + 1] === "'")) {
      const start = ch === "'" ? i : i + 1;
      const { value, end } = readQuoted(sql, start, "'");
      tokens.push({ kind: "string", text: sql.slice(i, end), value, pos: i });
      i = end;
      continue;
    }
    if (ch === '"' || ch === "`") {
      const { value, end } = readQuoted(sql, i, ch);
      tokens.push({ kind: "qident", text: sql.slice(i, end), value, pos: i });
      i = end;
      continue;
    }
    if ((ch >= "0" && ch <= "9") || (ch === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      NUMBER.lastIndex = i;
      const text = NUMBER.exec(sql)![0];
      tokens.push({ kind: "number", text, value: text, pos: i });
      i += text.length;
      continue;
    }
    if (IDENT_START.test(ch)) {
      IDENT.lastIndex = i;
      const text = IDENT.exec(sql)![0];
      tokens.push({ kind: "ident", text, value: text, pos: i });
      i += text.length;
      continue;
    }
    if (ch === "?" || ch === "$") {
      const m = /^(\?\d*|\$\d+)/.exec(sql.slice(i, i + 20));
      if (m) {
        tokens.push({ kind: "param", text: m[0], value: m[0], pos: i });
        i += m[0].length;
        continue;
      }
    }
    const op = OPERATORS.find((o) => sql.startsWith(o, i));
    if (op) {
      tokens.push({ kind: "op", text: op, value: op, pos: i });
      i += op.length;
      continue;
    }
    if ("(),;.=<>+-*/%|&~!^[]:{}@#".includes(ch)) {
      tokens.push({ kind: "op", text: ch, value: ch, pos: i });
      i++;
      continue;
    }
    throw syntaxError(sql, i, `Unexpected character '${ch}'`);
  }
  return tokens;
}

/** One statement of a request: its tokens and source text. */
export interface StatementText {
  tokens: Token[];
  text: string;
  /** Offset of the statement in the request, for error positions. */
  offset: number;
}

/** Splits a request into `;`-separated statements, dropping empty ones. */
export function splitStatements(sql: string): StatementText[] {
  const tokens = tokenize(sql);
  const out: StatementText[] = [];
  let cur: Token[] = [];
  const flush = (endPos: number) => {
    if (cur.length > 0) {
      const start = cur[0].pos;
      out.push({ tokens: cur, text: sql.slice(start, endPos), offset: start });
    }
    cur = [];
  };
  for (const t of tokens) {
    if (t.kind === "op" && t.text === ";") flush(t.pos);
    else cur.push(t);
  }
  flush(sql.length);
  return out;
}

/** Whether a token is the given keyword (case-insensitive, unquoted). */
export function isKeyword(t: Token | undefined, ...words: string[]): boolean {
  if (!t || t.kind !== "ident" || t.text.length > 16) return false;
  const u = t.text.toUpperCase();
  return words.includes(u);
}

/** Whether a token is the given operator. */
export function isOp(t: Token | undefined, ...ops: string[]): boolean {
  return !!t && t.kind === "op" && ops.includes(t.text);
}
