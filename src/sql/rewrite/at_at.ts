/**
 * GreptimeDB's `@@` operator, its shorthand for `matches_term`: `message @@ 'error'` is rebuilt as
 * `matches_term(message, 'error')` in the SQL text before the usual rewrite reads it (as
 * `unnest.ts` does), so the call's typing, full-text pre-filter and names apply unchanged.
 *
 * The operands follow sqlparser's precedence for `@@` (PgOther): looser than comparisons,
 * arithmetic, `||`, LIKE and IS, tighter than NOT, AND and OR, and left-associative.
 */
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { type Brackets, brackets, sourceText } from "./select_parts.ts";

/** Words an operand cannot reach back past (they end the expression before it). */
const LEFT_STOPS = [
  "AND",
  "OR",
  "NOT",
  "WHERE",
  "SELECT",
  "HAVING",
  "ON",
  "WHEN",
  "THEN",
  "ELSE",
  "CASE",
  "DISTINCT",
  "ALL",
  "BY",
  "QUALIFY",
];

/** Words that end an operand after it. */
const RIGHT_STOPS = [
  "AND",
  "OR",
  "THEN",
  "WHEN",
  "ELSE",
  "END",
  "FROM",
  "WHERE",
  "GROUP",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "HAVING",
  "AS",
  "ASC",
  "DESC",
  "NULLS",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "WINDOW",
  "QUALIFY",
];

/** Words inside an operand that bind tighter than `@@` (so are not an alias after it). */
const OPERAND_WORDS = ["IS", "NOT", "NULL", "TRUE", "FALSE", "LIKE", "ILIKE", "IN", "BETWEEN", "ESCAPE"];

/** The query with its first `@@` rebuilt as a `matches_term` call; undefined when it has none. */
export function rebuildAtAt(toks: Token[], sql: string): string | undefined {
  const at = toks.findIndex((t) => isOp(t, "@@"));
  if (at < 0) return undefined;
  const b = brackets(toks);
  if (!b) return undefined;
  const s = operandStart(b, at);
  const e = operandEnd(b, at);
  // a missing operand is left for SQLite to refuse as the syntax error it is
  if (s === at || e === at + 1) return undefined;
  return `${sourceText(sql, toks, 0, s)} matches_term(${sourceText(sql, toks, s, at)}, ${
    sourceText(sql, toks, at + 1, e)
  }) ${sourceText(sql, toks, e, toks.length)}`;
}

function operandStart(b: Brackets, at: number): number {
  const { toks, match, parent } = b;
  let k = at - 1;
  while (k > parent[at]) {
    const t = toks[k];
    if (isOp(t, ",", ";", "@@") || isKeyword(t, ...LEFT_STOPS)) break;
    k = isOp(t, ")") ? match[k] - 1 : k - 1;
  }
  return k + 1;
}

function operandEnd(b: Brackets, at: number): number {
  const { toks, match, parent } = b;
  let k = at + 1;
  while (k < toks.length && parent[k] === parent[at]) {
    const t = toks[k];
    if (isOp(t, ")", ",", ";", "@@") || isKeyword(t, ...RIGHT_STOPS)) break;
    // a bare word right after a whole operand is its alias
    if (k > at + 1 && t.kind === "ident" && endsOperand(toks[k - 1]) && !isKeyword(t, ...OPERAND_WORDS)) {
      break;
    }
    k = isOp(t, "(") ? match[k] + 1 : k + 1;
  }
  return k;
}

function endsOperand(t: Token): boolean {
  return t.kind === "string" || t.kind === "number" || t.kind === "qident" || isOp(t, ")") ||
    (t.kind === "ident" && !isKeyword(t, ...OPERAND_WORDS));
}
