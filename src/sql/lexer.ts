/**
 * SQL tokens for GreptimeDB's dialect: identifiers (bare, "double" or `backtick` quoted), 'strings',
 * numbers and operators; comments are dropped. Positions are kept for error messages. The PromQL of
 * a TQL statement is read by PromQL's rules for strings and comments.
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

const OPERATORS = [
  "::",
  "@@",
  "<=",
  ">=",
  "<>",
  "!=",
  "||",
  "!~*",
  "!~",
  "~*",
  "->>",
  "->",
  "==",
  "<<",
  ">>",
];

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

/**
 * How text is read: SQL, or the PromQL of a TQL statement, where `#` starts a comment to the end of
 * the line and strings are '…' or "…" with backslash escapes, or `…` raw (Prometheus' lexer), so a
 * `;` inside them does not end the statement. `--` and `/*` are not comments in PromQL.
 */
type Mode = "sql" | "promql";

/** Reads tokens one at a time from an offset. */
class Lexer {
  i = 0;
  constructor(readonly sql: string) {}

  /** The next token read in `mode` (whitespace and comments skipped); null at the end. */
  next(mode: Mode = "sql"): Token | null {
    const sql = this.sql;
    while (this.i < sql.length) {
      const i = this.i, ch = sql[i];
      if (ch === " " || ch === "\n" || ch === "\t" || ch === "\r" || /\s/.test(ch)) {
        this.i++;
        continue;
      }
      if (mode === "promql") {
        if (ch === "#") {
          this.i = promqlCommentEnd(sql, i);
          continue;
        }
        if (ch === "'" || ch === '"' || ch === "`") return this.promqlString(ch);
      } else {
        if (ch === "-" && sql[i + 1] === "-") {
          while (this.i < sql.length && sql[this.i] !== "\n") this.i++;
          continue;
        }
        if (ch === "/" && sql[i + 1] === "*") {
          const end = sql.indexOf("*/", i + 2);
          if (end < 0) throw syntaxError(sql, i, "Unterminated comment");
          this.i = end + 2;
          continue;
        }
        if (ch === "'" || ((ch === "E" || ch === "e") && sql[i + 1] === "'")) {
          const { value, end } = readQuoted(sql, ch === "'" ? i : i + 1, "'");
          return this.emit("string", end, value);
        }
        if (ch === '"' || ch === "`") {
          const { value, end } = readQuoted(sql, i, ch);
          return this.emit("qident", end, value);
        }
      }
      return this.plain(ch);
    }
    return null;
  }

  /** The next SQL token, not consumed. */
  peek(): Token | null {
    const at = this.i;
    try {
      return this.next();
    } finally {
      this.i = at;
    }
  }

  private emit(kind: TokenKind, end: number, value?: string): Token {
    const text = this.sql.slice(this.i, end);
    const t = { kind, text, value: value ?? text, pos: this.i };
    this.i = end;
    return t;
  }

  /** Numbers, identifiers, parameters and operators: read alike in SQL and PromQL. */
  private plain(ch: string): Token {
    const sql = this.sql, i = this.i;
    if ((ch >= "0" && ch <= "9") || (ch === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      NUMBER.lastIndex = i;
      return this.emit("number", i + NUMBER.exec(sql)![0].length);
    }
    if (IDENT_START.test(ch)) {
      IDENT.lastIndex = i;
      return this.emit("ident", i + IDENT.exec(sql)![0].length);
    }
    if (ch === "?" || ch === "$") {
      const m = /^(\?\d*|\$\d+)/.exec(sql.slice(i, i + 20));
      if (m) return this.emit("param", i + m[0].length);
    }
    const op = OPERATORS.find((o) => sql.startsWith(o, i));
    // `@@name` is a session variable (refused as a placeholder), not the `@@` operator
    if (op === "@@" && IDENT_START.test(sql[i + 2] ?? "")) return this.emit("op", i + 1);
    if (op) return this.emit("op", i + op.length);
    if ("(),;.=<>+-*/%|&~!^[]:{}@#".includes(ch)) return this.emit("op", i + 1);
    throw syntaxError(sql, i, `Unexpected character '${ch}'`);
  }

  /**
   * A PromQL string; "…" reads as a quoted identifier, as in SQL, so `AS "alias"` keeps working.
   * One left open runs to the end, for the PromQL parser to report.
   */
  private promqlString(quote: string): Token {
    const sql = this.sql;
    let j = this.i + 1, value = "";
    while (j < sql.length && sql[j] !== quote) {
      if (sql[j] === "\\" && quote !== "`" && j + 1 < sql.length) j++;
      value += sql[j++];
    }
    return this.emit(quote === "'" ? "string" : "qident", Math.min(j + 1, sql.length), value);
  }
}

/**
 * Where a PromQL `#` comment at `from` ends: at the end of its line, or at a `;` that ends the
 * line, which ends the statement as GreptimeDB (whose parser knows no `#` comments) would split
 * `… # note;⏎SELECT 1`; any other `;` in a comment is part of it.
 */
function promqlCommentEnd(sql: string, from: number): number {
  const eol = sql.indexOf("\n", from);
  const line = sql.slice(from, eol < 0 ? sql.length : eol).trimEnd();
  if (line.endsWith(";")) return from + line.length - 1;
  return eol < 0 ? sql.length : eol;
}

/** Splits SQL text into tokens. */
export function tokenize(sql: string): Token[] {
  const lexer = new Lexer(sql);
  const tokens: Token[] = [];
  for (let t = lexer.next(); t; t = lexer.next()) tokens.push(t);
  return withoutTrailingCommas(tokens);
}

/** Keywords that end a comma-separated list (sqlparser's reserved-for-column-alias words that follow one). */
const LIST_ENDS = new Set([
  "FROM",
  "WHERE",
  "GROUP",
  "HAVING",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "FETCH",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "WINDOW",
  "QUALIFY",
  "INTO",
]);

/**
 * Drops the trailing comma of a list (`SELECT a, b, FROM t`, `GROUP BY a, ORDER BY …`, `(a, b,)`):
 * GreptimeDB's parser runs with sqlparser's `trailing_commas`, and its docs write flows that way.
 */
function withoutTrailingCommas(tokens: Token[]): Token[] {
  if (isKeyword(tokens[0], "TQL")) return tokens;
  const ends = (t: Token | undefined) =>
    t === undefined || isOp(t, ")", "]") || (t.kind === "ident" && LIST_ENDS.has(t.text.toUpperCase()));
  let out: Token[] | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (isOp(tokens[i], ",") && ends(tokens[i + 1])) out ??= tokens.slice(0, i);
    else out?.push(tokens[i]);
  }
  return out ?? tokens;
}

/**
 * Reads a TQL statement's keywords and parameter list (SQL) onto `cur`, the grammar of
 * `tql/statement.ts`: true when PromQL follows, false when they are not well formed (the rest stays
 * SQL and the TQL parser reports what is wrong).
 */
function readTqlHeader(lexer: Lexer, cur: Token[]): boolean {
  const take = (ok: (t: Token) => boolean): boolean => {
    let t: Token | null;
    try {
      t = lexer.peek();
    } catch {
      return false; // not SQL: PromQL starts here
    }
    if (!t || !ok(t)) return false;
    cur.push(lexer.next()!);
    return true;
  };
  if (take((t) => isKeyword(t, "EXPLAIN", "ANALYZE"))) {
    take((t) => isKeyword(t, "VERBOSE"));
    if (take((t) => isKeyword(t, "FORMAT"))) take((t) => !isOp(t, ";"));
  } else if (!take((t) => isKeyword(t, "EVAL", "EVALUATE"))) return false;
  if (!take((t) => isOp(t, "("))) return true;
  for (let depth = 1; depth > 0;) {
    const t = lexer.peek();
    if (!t || isOp(t, ";")) return false;
    if (isOp(t, "(")) depth++;
    if (isOp(t, ")")) depth--;
    cur.push(lexer.next()!);
  }
  return true;
}

/** One statement of a request: its tokens and source text. */
export interface StatementText {
  tokens: Token[];
  text: string;
  /** Offset of the statement in the request, for error positions. */
  offset: number;
}

/**
 * Splits a request into `;`-separated statements, dropping empty ones. A TQL statement's PromQL is
 * read as PromQL, so a `;` in its strings and comments stays in it.
 */
export function splitStatements(sql: string): StatementText[] {
  const lexer = new Lexer(sql);
  const out: StatementText[] = [];
  let cur: Token[] = [];
  let mode: Mode = "sql";
  const flush = (endPos: number) => {
    if (cur.length > 0) {
      const start = cur[0].pos;
      out.push({ tokens: withoutTrailingCommas(cur), text: sql.slice(start, endPos), offset: start });
    }
    cur = [];
    mode = "sql";
  };
  for (let t = lexer.next(); t; t = lexer.next(mode)) {
    if (t.kind === "op" && t.text === ";") {
      flush(t.pos);
      continue;
    }
    cur.push(t);
    if (cur.length === 1 && isKeyword(t, "TQL") && readTqlHeader(lexer, cur)) mode = "promql";
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
