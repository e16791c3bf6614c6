/**
 * The token-level structure of a query shared by the rewriter and the output-column typing:
 * keyword vocabulary, `::` cast expansion, bracket matching, select-list items.
 */
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";
import type { Cursor } from "./cursor.ts";

/** The position of tokens the rewriter made up (they have no source text). */
export const SYNTHETIC = -1;
/** A made-up token. */
export const synth = (kind: Token["kind"], text: string): Token => ({
  kind,
  text,
  value: text,
  pos: SYNTHETIC,
});

/** Keywords that end one expression segment (the unit of time literals is chosen per segment). */
export const SEPARATORS = new Set([
  "AND",
  "OR",
  "WHERE",
  "ON",
  "HAVING",
  "SELECT",
  "FROM",
  "GROUP",
  "ORDER",
  "BY",
  "LIMIT",
  "OFFSET",
  "WHEN",
  "THEN",
  "ELSE",
  "END",
  "JOIN",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "SET",
  "VALUES",
  "CASE",
  "USING",
  "WINDOW",
  "PARTITION",
]);

/** Keywords that can follow a table or select item and are not its alias. */
export const NOT_ALIAS = new Set([
  ...SEPARATORS,
  "INNER",
  "LEFT",
  "RIGHT",
  "FULL",
  "OUTER",
  "CROSS",
  "NATURAL",
  "AS",
  "INTO",
  "NOT",
  "ALIGN",
  "FILL",
  "RANGE",
  "LATERAL",
]);

/** Comparison operators. */
export const CMP_OPS = ["=", "==", "<", ">", "<=", ">=", "<>", "!="];
/** The spellings of now(). */
export const NOW_NAMES = new Set([
  "now",
  "current_timestamp",
  "localtimestamp",
  "statement_timestamp",
  "transaction_timestamp",
]);
/** Functions whose result is a timestamp in the unit of the expression. */
export const TIME_RESULT_FUNCS = new Set([
  ...NOW_NAMES,
  "date_bin",
  "date_trunc",
  "datetrunc",
  "__petrel_to_ts",
]);
/** Aggregates whose result has their argument's type. */
export const KEEP_TYPE_AGGS = new Set(["min", "max", "first_value", "last_value", "last", "first"]);
/** Unit words of `INTERVAL '1' HOUR`. */
export const INTERVAL_UNITS = new Set([
  "YEAR",
  "YEARS",
  "MONTH",
  "MONTHS",
  "WEEK",
  "WEEKS",
  "DAY",
  "DAYS",
  "HOUR",
  "HOURS",
  "MINUTE",
  "MINUTES",
  "SECOND",
  "SECONDS",
  "MILLISECOND",
  "MILLISECONDS",
  "MICROSECOND",
  "MICROSECONDS",
  "NANOSECOND",
  "NANOSECONDS",
]);

/** Whether a token can end an operand (so a following `~` or `/` is binary). */
export function isOperandEnd(t: Token | undefined): boolean {
  return !!t && (t.kind !== "op" || t.text === ")" || t.text === "]");
}

/** Typed literal words: `TIMESTAMP '…'` and `DATE '…'` are casts of their string. */
const TYPED_LITERALS = new Set(["TIMESTAMP", "DATE"]);

/**
 * Turns `x::type` into `CAST(x AS type)`, and the typed literals `TIMESTAMP '…'` / `DATE '…'` into
 * `CAST('…' AS TIMESTAMP)`, so later steps handle one form.
 */
export function expandDoubleColonCasts(tokens: Token[], cur: Cursor): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (
      t.kind === "ident" && TYPED_LITERALS.has(t.text.toUpperCase()) && tokens[i + 1]?.kind === "string" &&
      !isKeyword(out[out.length - 1], "AS")
    ) {
      out.push(
        synth("ident", "CAST"),
        synth("op", "("),
        tokens[++i],
        synth("ident", "AS"),
        t,
        synth("op", ")"),
      );
      continue;
    }
    if (!isOp(t, "::")) {
      out.push(t);
      continue;
    }
    let start = out.length - 1;
    if (start < 0) throw errorAt(cur, t, "Expected: an expression before ::");
    if (isOp(out[start], ")")) {
      let depth = 0;
      for (; start >= 0; start--) {
        if (isOp(out[start], ")")) depth++;
        else if (isOp(out[start], "(")) depth--;
        if (depth === 0) break;
      }
      if (start > 0 && (out[start - 1].kind === "ident" || out[start - 1].kind === "qident")) start--;
    } else {
      while (start >= 2 && isOp(out[start - 1], ".")) start -= 2;
    }
    if (start > 0 && isKeyword(out[start - 1], "INTERVAL")) start--;
    const operand = out.splice(start);
    const type: Token[] = [];
    i++;
    if (!tokens[i] || (tokens[i].kind !== "ident" && tokens[i].kind !== "qident")) {
      throw errorAt(cur, tokens[i] ?? t, "Expected: a data type after ::");
    }
    type.push(tokens[i]);
    if (isOp(tokens[i + 1], "(")) {
      while (i + 1 < tokens.length && !isOp(tokens[i], ")")) type.push(tokens[++i]);
    }
    while (isKeyword(tokens[i + 1], "UNSIGNED", "WITH", "WITHOUT", "TIME", "ZONE")) type.push(tokens[++i]);
    out.push(
      synth("ident", "CAST"),
      synth("op", "("),
      ...operand,
      synth("ident", "AS"),
      ...type,
      synth("op", ")"),
    );
  }
  return out;
}

/** A syntax error positioned at a token. */
export function errorAt(cur: Cursor, t: Token, message: string): Error {
  const idx = cur.tokens.indexOf(t);
  if (idx >= 0) cur.i = idx;
  return cur.error(message);
}

/** A statement's tokens (with `::` casts expanded) and their bracket structure. */
export class QueryTokens {
  readonly toks: Token[];
  /** For each bracket, the index of its partner; -1 elsewhere. */
  readonly match: number[];
  /** For each token, the index of the innermost open bracket around it; -1 at top level. */
  readonly parent: number[];

  constructor(tokensIn: Token[], readonly cursor: Cursor) {
    const toks = expandDoubleColonCasts(tokensIn, cursor);
    const n = toks.length;
    const match = new Array<number>(n).fill(-1);
    const parent = new Array<number>(n).fill(-1);
    const stack: number[] = [];
    for (let i = 0; i < n; i++) {
      parent[i] = stack.length ? stack[stack.length - 1] : -1;
      if (isOp(toks[i], "(")) stack.push(i);
      else if (isOp(toks[i], ")")) {
        const open = stack.pop();
        if (open === undefined) throw errorAt(cursor, toks[i], "Expected: end of statement, found: )");
        match[open] = i;
        match[i] = open;
        parent[i] = stack.length ? stack[stack.length - 1] : -1;
      }
    }
    if (stack.length) throw errorAt(cursor, toks[stack[stack.length - 1]], "Expected: ), found: EOF");
    this.toks = toks;
    this.match = match;
    this.parent = parent;
  }

  /** An identifier's name as GreptimeDB resolves it (bare names lowercased). */
  lower = (t: Token): string => (t.kind === "qident" ? t.value : t.value.toLowerCase());

  /** The function whose argument list opens at `open`, if any. */
  funcOf = (open: number): string | undefined => {
    const f = this.toks[open - 1];
    return open > 0 && f && f.kind === "ident" ? f.value.toLowerCase() : undefined;
  };

  /** The token ranges of the comma-separated arguments inside the bracket at `open`. */
  args = (open: number): Array<[number, number]> => {
    const { toks, match } = this;
    const close = match[open];
    const out: Array<[number, number]> = [];
    let s = open + 1;
    for (let k = open + 1; k < close; k++) {
      if (isOp(toks[k], "(")) k = match[k];
      else if (isOp(toks[k], ",")) {
        out.push([s, k]);
        s = k + 1;
      }
    }
    if (close > open + 1) out.push([s, close]);
    return out;
  };

  /** The end of the operand (unary sign, literal, name, call, cast or parenthesized group) at `i`; `i` if none. */
  primaryEnd = (i: number): number => {
    const { toks, match } = this;
    let k = i;
    while (isOp(toks[k], "-", "+")) k++;
    const t = toks[k];
    if (!t) return i;
    if (t.kind === "number" || t.kind === "string") return k + 1;
    if (isOp(t, "(")) return match[k] + 1;
    if (t.kind === "ident" || t.kind === "qident") {
      if (isKeyword(t, "CASE", "NOT", "SELECT", "EXISTS")) return i;
      if (isOp(toks[k + 1], "(")) return match[k + 1] + 1;
      let j = k + 1;
      while (
        isOp(toks[j], ".") && toks[j + 1] && (toks[j + 1].kind === "ident" || toks[j + 1].kind === "qident")
      ) j += 2;
      return j;
    }
    return i;
  };

  /** The start of the operand that ends just before `i` (name, literal, call or bracketed group); `i` if none. */
  primaryStart = (i: number): number => {
    const { toks, match } = this;
    let k = i - 1;
    const t = toks[k];
    if (!t) return i;
    if (isOp(t, ")")) {
      k = match[k];
      if (k > 0 && toks[k - 1].kind === "ident") k--;
      return k;
    }
    if (t.kind === "number" || t.kind === "string") return k;
    if (t.kind === "ident" || t.kind === "qident") {
      while (
        k >= 2 && isOp(toks[k - 1], ".") && (toks[k - 2].kind === "ident" || toks[k - 2].kind === "qident")
      ) k -= 2;
      return k;
    }
    return i;
  };

  /** The tokens of a range with bracketed groups collapsed to their opening bracket. */
  depthZero = (s: number, e: number): Token[] => {
    const out: Token[] = [];
    for (let k = s; k < e; k++) {
      out.push(this.toks[k]);
      if (isOp(this.toks[k], "(")) k = this.match[k] - 1;
    }
    return out;
  };
}

/**
 * Whether tokens `s`..`e` were put out of their text's order before the rewrite (`WITHIN GROUP`'s
 * key moved into the call): SQLite would name such a column by the reordered text.
 */
export function reordered(toks: Token[], s: number, e: number): boolean {
  let last = -1;
  for (let k = s; k < e; k++) {
    if (toks[k].pos === SYNTHETIC) continue;
    if (toks[k].pos < last) return true;
    last = toks[k].pos;
  }
  return false;
}

/**
 * Whether tokens `s`..`e` differ from their text before the rewrite: reordered, or holding a token
 * made up for it (`a[1]` is `array_element(a, 1)` by then), so SQLite would name the column by text
 * the user never wrote.
 */
export function madeUp(toks: Token[], s: number, e: number): boolean {
  return reordered(toks, s, e) || toks.slice(s, e).some((t) => t.pos === SYNTHETIC);
}

/** The source text of a token range (synthetic tokens skipped). */
export function originalText(sql: string, toks: Token[], s: number, e: number): string {
  const real = toks.slice(s, e).filter((t) => t.pos !== SYNTHETIC);
  if (real.length === 0) return "";
  // a typed literal's tokens are reordered into a CAST (`TIMESTAMP 'x'` → CAST('x' AS TIMESTAMP))
  const from = Math.min(...real.map((t) => t.pos));
  const to = Math.max(...real.map((t) => t.pos + t.text.length));
  return sql.slice(from, to);
}
