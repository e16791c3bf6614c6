/**
 * The syntax check `/v1/sql/format` makes before printing, as GreptimeDB parses a statement before it
 * formats it. Petrel has no parser of GreptimeDB's whole dialect (statements are parsed as they run),
 * so this checks what holds in every statement: brackets that pair, an operator or a keyword that
 * needs an operand has one, no two commas or binary operators follow each other, no number follows
 * a literal or a bracket (`SELECT 1 2`: a number is no implicit alias), and ORDER or GROUP has its
 * BY. The messages are sqlparser's (`Expected: an expression, found: FROM at Line: 1, Column: 8`),
 * placed as Petrel's other syntax errors (EOF just after the last token), or GreptimeDB's for a token
 * left after a whole statement.
 */
import { invalidSyntax, type PetrelError, unsupported } from "../common/errors.ts";
import { isKeyword, isOp, lineColumn, type Token } from "./lexer.ts";

/** Operators that take an operand on each side (`-`, `+` may also be signs, `*` a wildcard). */
const BINARY = [
  "+",
  "-",
  "*",
  "/",
  "%",
  "=",
  "==",
  "<",
  ">",
  "<=",
  ">=",
  "<>",
  "!=",
  "||",
  "~",
  "!~",
  "~*",
  "!~*",
];

/** Keywords an operand or name must follow. */
const NEEDS_OPERAND = [
  "SELECT",
  "FROM",
  "WHERE",
  "HAVING",
  "LIMIT",
  "OFFSET",
  "BY",
  "ON",
  "JOIN",
  "INTO",
  "TABLE",
  "AND",
  "OR",
  "LIKE",
  "ILIKE",
  "BETWEEN",
  "IN",
  "WHEN",
  "THEN",
  "AS",
];

/** Names that take an object name, not an expression, after them (sqlparser's "identifier"). */
const NEEDS_NAME = ["FROM", "JOIN", "INTO", "TABLE"];

/** Keywords that start a clause, so they cannot start an operand. */
const CLAUSES = [
  "FROM",
  "WHERE",
  "GROUP",
  "ORDER",
  "HAVING",
  "LIMIT",
  "OFFSET",
  "UNION",
  "INTERSECT",
  "EXCEPT",
  "JOIN",
  "ON",
  "AND",
  "OR",
];

/** Words after which `*` is a wildcard (`SELECT *`, `count(DISTINCT *)`), not a product. */
const BEFORE_WILDCARD = ["SELECT", "DISTINCT", "ALL", "RETURNING"];

/**
 * Throws sqlparser's error for the first syntax error of one statement's tokens (`sql` holds them),
 * its message after `prefix` (/v1/sql/format shows GreptimeDB's wrapper, /v1/sql/parse does not).
 */
export function checkStatementSyntax(sql: string, tokens: Token[], prefix = "Invalid SQL syntax: "): void {
  checkBrackets(prefix, sql, tokens);
  const open: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i], next = tokens[i + 1];
    const binary = isOp(t, ...BINARY) && !isWildcard(tokens, i);
    if (isOp(t, "(", "[")) open.push(t.text);
    else if (isOp(t, ")", "]")) open.pop();
    if (t.kind === "number" && endsOperand(tokens[i - 1])) {
      // sqlparser takes only a word or a quoted string as an implicit alias: the item ends before
      // the number, and so does the statement (or the bracket around it)
      throw endsHere(prefix, sql, tokens, i, open);
    }
    if (isKeyword(t, "ORDER", "GROUP") && !isQualified(tokens, i)) {
      // sqlparser takes ORDER or GROUP only with BY (parse_keywords): the query ends before a lone
      // one. `WITHIN GROUP (ORDER BY …)` is the one GROUP without BY
      if (!isKeyword(next, "BY") && !(isKeyword(t, "GROUP") && isOp(next, "("))) {
        throw endsHere(prefix, sql, tokens, i, open);
      }
    } else if (binary || isKeyword(t, ...NEEDS_OPERAND) && !isQualified(tokens, i)) {
      if (!startsOperand(tokens, i + 1)) {
        throw expected(
          prefix,
          sql,
          isKeyword(t, ...NEEDS_NAME) ? "identifier" : "an expression",
          tokens,
          i + 1,
        );
      }
    } else if (isOp(t, ",") && (isOp(next, ",") || isOp(next, ...BINARY) && !isOp(next, "-", "+", "*"))) {
      throw expected(prefix, sql, "an expression", tokens, i + 1);
    }
  }
}

/**
 * The error for a statement that ends before token `i` (`open`: the brackets open there): the token
 * is left over, or sqlparser wanted the innermost bracket closed there.
 */
export function endsHere(
  prefix: string,
  sql: string,
  tokens: Token[],
  i: number,
  open: string[],
): PetrelError {
  const close = open[open.length - 1];
  if (close === undefined) return trailingToken(tokens[i]);
  return expected(prefix, sql, close === "(" ? ")" : "]", tokens, i);
}

/** `(`, `[` paired with `)`, `]`: sqlparser's error at the first one that is not. */
/**
 * sqlparser's default recursion limit (GreptimeDB's parser): each bracket level costs it at least one
 * recursion, so what it parses nests fewer brackets than this. Deeper is refused before the rewrite,
 * which plans each nested subquery on its own (~0.5 s at this depth, 7 s at 400: the server's one
 * thread, held) and overflowed the stack on deep expressions after seconds.
 */
export const MAX_BRACKET_DEPTH = 50;

function checkBrackets(prefix: string, sql: string, tokens: Token[]): void {
  const open: Token[] = [];
  tokens.forEach((t, i) => {
    if (isOp(t, "(", "[")) {
      if (open.push(t) >= MAX_BRACKET_DEPTH) {
        throw invalidSyntax(`${prefix}sql parser error: recursion limit exceeded`);
      }
    } else if (isOp(t, ")", "]")) {
      const o = open.pop();
      if (!o) throw trailingToken(t);
      if (o.text === "(" !== (t.text === ")")) {
        throw expected(prefix, sql, o.text === "(" ? ")" : "]", tokens, i);
      }
    }
  });
  if (open.length > 0) {
    throw expected(prefix, sql, open[open.length - 1].text === "(" ? ")" : "]", tokens, tokens.length);
  }
}

/** Whether `*` at `i` is a wildcard: after `(`, `,`, `.`, a word like SELECT, or `DISTINCT ON (…)`. */
export function isWildcard(tokens: Token[], i: number): boolean {
  if (!isOp(tokens[i], "*")) return false;
  const prev = tokens[i - 1];
  if (!prev || isOp(prev, "(", ",", ".") || isKeyword(prev, ...BEFORE_WILDCARD)) return true;
  // `SELECT DISTINCT ON (host) *`
  if (!isOp(prev, ")")) return false;
  let depth = 0, k = i - 1;
  for (; k >= 0; k--) {
    if (isOp(tokens[k], ")")) depth++;
    else if (isOp(tokens[k], "(") && --depth === 0) break;
  }
  return isKeyword(tokens[k - 1], "ON") && isKeyword(tokens[k - 2], "DISTINCT");
}

/** Whether the word at `i` is a qualified name's part (`t.from`), not a keyword. */
export function isQualified(tokens: Token[], i: number): boolean {
  return isOp(tokens[i - 1], ".") || isOp(tokens[i + 1], ".");
}

/** Whether `t` can only end an operand (a literal, a quoted name, a closing bracket), never a keyword. */
function endsOperand(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === "number" || t.kind === "string" || t.kind === "qident" ||
    isOp(t, ")", "]"));
}

/**
 * GreptimeDB's error for a token left after a whole statement: its parser loop wants a `;` there
 * and answers Unsupported with the token (not sqlparser's "Expected: end of statement").
 */
export function trailingToken(t: Token): PetrelError {
  return unsupportedKeyword(t.text);
}

/**
 * GreptimeDB's Unsupported error naming a token its parser takes no statement at: one left after a
 * whole statement, or the word after CREATE, DROP or SHOW that names no kind of statement it knows
 * (`DROP TABL t`); `EOF` at the end.
 */
export function unsupportedKeyword(text: string): PetrelError {
  return unsupported(`SQL statement is not supported, keyword: ${text}`);
}

/** Whether an operand (or a name, a subquery, a sign, a wildcard) can start at token `k`. */
function startsOperand(tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if (!t) return false;
  // an operator no operand can start with; others (`(`, a sign, `@@`, a placeholder) are the statement's
  if (t.kind === "op") {
    return !isOp(t, ")", "]", ",", ".", ...BINARY) || isOp(t, "-", "+") || isWildcard(tokens, k);
  }
  return !(isKeyword(t, ...CLAUSES) && !isQualified(tokens, k));
}

/** sqlparser's error for the token at `k` (past the end: EOF, placed after the last token). */
export function expected(prefix: string, sql: string, what: string, tokens: Token[], k: number): PetrelError {
  const found = tokens[k];
  const last = tokens[tokens.length - 1];
  const pos = found ? found.pos : last ? last.pos + last.text.length : 0;
  const { line, column } = lineColumn(sql, pos);
  return invalidSyntax(
    `${prefix}sql parser error: Expected: ${what}, found: ${
      found ? found.text : "EOF"
    } at Line: ${line}, Column: ${column}`,
  );
}
