/**
 * Where the operands of an operator begin and end, read from tokens: a comparison's two sides and
 * the terms of a sum, brackets and `CASE … END` counting as one unit each.
 */
import { isKeyword, isOp } from "./lexer.ts";
import { CMP_OPS, isOperandEnd, type QueryTokens, SEPARATORS } from "./query_tokens.ts";

/** Words a comparison's operand stops at: clauses, logical operators, other predicates. */
const STOP_WORDS = new Set([
  ...SEPARATORS,
  "NOT",
  "IS",
  "IN",
  "LIKE",
  "ILIKE",
  "SIMILAR",
  "BETWEEN",
  "EXISTS",
  "AS",
  "ASC",
  "DESC",
  "NULLS",
  "DISTINCT",
  "ALL",
  "ANY",
  "SOME",
  "RETURNING",
  "REGEXP",
  "GLOB",
  // a range query's clauses
  "ALIGN",
  "RANGE",
  "FILL",
  "TO",
]);

/** The END closing the CASE at `k` (CASEs nest), or -1. */
export function caseEnd(q: QueryTokens, k: number): number {
  const { toks, match } = q;
  let depth = 0;
  for (let i = k; i < toks.length; i++) {
    if (isOp(toks[i], "(")) i = match[i];
    else if (isOp(toks[i], ")")) return -1;
    else if (isKeyword(toks[i], "CASE")) depth++;
    else if (isKeyword(toks[i], "END") && --depth === 0) return i;
  }
  return -1;
}

/** The CASE the END at `k` closes, or -1. */
function caseStart(q: QueryTokens, k: number): number {
  const { toks, match } = q;
  let depth = 0;
  for (let i = k; i >= 0; i--) {
    if (isOp(toks[i], ")")) i = match[i];
    else if (isOp(toks[i], "(")) return -1;
    else if (isKeyword(toks[i], "END")) depth++;
    else if (isKeyword(toks[i], "CASE") && --depth === 0) return i;
  }
  return -1;
}

/**
 * Whether token `k` ends a comparison's operand (a word, bracket or operator it cannot hold); with
 * `terms`, a sum's term (a binary `+` or `-` too).
 */
function stops(q: QueryTokens, k: number, terms: boolean): boolean {
  const t = q.toks[k];
  if (!t || isOp(t, ",", ";", ...CMP_OPS)) return true;
  if (terms && k > 0 && isOp(t, "+", "-") && isOperandEnd(q.toks[k - 1])) return true;
  return t.kind === "ident" && STOP_WORDS.has(t.text.toUpperCase());
}

/** The operand left of the operator at `op`, `[start, op)`. */
export function leftOperand(q: QueryTokens, op: number): [number, number] {
  const { toks, match } = q;
  let j = op - 1;
  while (j >= 0 && !isOp(toks[j], "(")) {
    if (isOp(toks[j], ")")) j = match[j] - 1;
    else if (isKeyword(toks[j], "END") && caseStart(q, j) >= 0) j = caseStart(q, j) - 1;
    else if (stops(q, j, false)) break;
    else j--;
  }
  return [j + 1, op];
}

/** The operand right of the operator ending before `from`, `[from, end)` (with `terms`, the term). */
export function rightOperand(q: QueryTokens, from: number, terms = false): [number, number] {
  const { toks, match } = q;
  let j = from;
  while (j < toks.length && !isOp(toks[j], ")")) {
    if (isOp(toks[j], "(")) j = match[j] + 1;
    else if (isKeyword(toks[j], "CASE") && caseEnd(q, j) >= 0) j = caseEnd(q, j) + 1;
    else if (j > from && stops(q, j, terms)) break;
    else if (j === from && stops(q, j, false)) break;
    else j++;
  }
  return [from, j];
}

/** The `+` and `-` operators joining the terms of `[s, e)` (not those inside brackets or a CASE). */
export function additiveOps(q: QueryTokens, s: number, e: number): number[] {
  const { toks, match } = q;
  const out: number[] = [];
  for (let k = s; k < e; k++) {
    if (isOp(toks[k], "(")) k = match[k];
    else if (isKeyword(toks[k], "CASE") && caseEnd(q, k) >= 0) k = caseEnd(q, k);
    else if (k > s && isOp(toks[k], "+", "-") && isOperandEnd(toks[k - 1])) out.push(k);
  }
  return out;
}
