/**
 * GreptimeDB's parser error for a query SQLite's parser refused after the syntax check of
 * `format_check.ts` passed it. The check sees only what holds in every statement; SQLite knows the
 * grammar and names the token it stopped at (`near "garbage": syntax error`), which is where
 * sqlparser stops too when a word or a number follows a whole operand: outside brackets the query
 * ended there and GreptimeDB's statement loop refuses the token left over (1001 `SQL statement is
 * not supported, keyword: garbage`); inside brackets sqlparser wanted the closing one.
 * A query left unfinished (`incomplete input`) says what sqlparser wanted when that is plain: the
 * `END` of a CASE, the `AND` of a BETWEEN. Other refusals keep SQLite's words.
 */
import type { PetrelError } from "../common/errors.ts";
import { isKeyword, isOp, type Token } from "./lexer.ts";
import { endsHere, expected, isQualified, isWildcard } from "./format_check.ts";
import { isSqlKeyword } from "./format.ts";

/** Statements whose SQL SQLite parses (Petrel parses the others itself, or their start). */
const QUERY_STARTS = ["SELECT", "WITH", "VALUES", "INSERT", "DELETE"];

/** Keywords that end an operand or an ORDER BY term: after them sqlparser takes no alias. */
const ENDING_KEYWORDS = ["ASC", "DESC", "FIRST", "LAST"];

/**
 * GreptimeDB's error for SQLite's syntax error `message` on a query of `tokens` (of `sql`), or
 * undefined where sqlparser's answer is not plain from SQLite's.
 */
export function greptimeSyntaxError(message: string, tokens: Token[], sql: string): PetrelError | undefined {
  if (!isKeyword(tokens[0], ...QUERY_STARTS) && !isOp(tokens[0], "(")) return undefined;
  const near = /near "(.+?)": syntax error/.exec(message)?.[1];
  if (near !== undefined) return strayToken(near, tokens, sql);
  if (!/incomplete input/.test(message)) return undefined;
  const end = tokens.length;
  if (count(tokens, "CASE") > count(tokens, "END")) {
    return expected("Invalid SQL syntax: ", sql, "END", tokens, end);
  }
  const between = tokens.findLastIndex((t, i) => isKeyword(t, "BETWEEN") && !isQualified(tokens, i));
  if (between >= 0 && !tokens.slice(between).some((t) => isKeyword(t, "AND"))) {
    return expected("Invalid SQL syntax: ", sql, "AND", tokens, end);
  }
  return undefined;
}

/** The error for the first token named `near` that follows a whole operand, if one does. */
function strayToken(near: string, tokens: Token[], sql: string): PetrelError | undefined {
  const open: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isOp(t, "(", "[")) open.push(t.text);
    else if (isOp(t, ")", "]")) open.pop();
    else if (
      t.text.toLowerCase() === near.toLowerCase() && ["ident", "qident", "number"].includes(t.kind) &&
      endsOperand(tokens, i - 1)
    ) {
      return endsHere("Invalid SQL syntax: ", sql, tokens, i, open);
    }
  }
  return undefined;
}

/**
 * Whether the token at `k` ends an operand after which sqlparser takes no word but an alias: a
 * literal, a quoted name, a closing bracket, a wildcard, ASC or DESC, or a word that is no keyword (a
 * name, an alias: a second word after it cannot be another alias).
 */
function endsOperand(tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if (t === undefined) return false;
  if (t.kind === "number" || t.kind === "string" || t.kind === "qident") return true;
  if (t.kind === "op") return isOp(t, ")", "]") || isWildcard(tokens, k);
  return t.kind === "ident" &&
    (!isSqlKeyword(t) || isKeyword(t, ...ENDING_KEYWORDS) || isQualified(tokens, k));
}

function count(tokens: Token[], word: string): number {
  return tokens.filter((t, i) => isKeyword(t, word) && !isQualified(tokens, i)).length;
}
