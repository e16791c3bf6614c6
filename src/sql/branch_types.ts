/**
 * The type of an expression that answers one of several values: `CASE … THEN x ELSE y END` and
 * `coalesce(x, y)` (and ifnull, nvl, greatest, least) take their values' common type, as DataFusion
 * coerces them (`common_type.ts`): two timestamps of different units meet in the coarser.
 */
import type { DataType } from "../common/rows.ts";
import { commonType, literalType } from "./common_type.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { caseEnd } from "./operand_bounds.ts";
import type { QueryTokens } from "./query_tokens.ts";

/** Calls answering one of their arguments. */
const COALESCING = new Set(["coalesce", "ifnull", "nvl", "greatest", "least"]);

/** The value ranges of `[s, e)` when it is a whole CASE or a whole coalescing call. */
export function branchesOf(q: QueryTokens, s: number, e: number): Array<[number, number]> | undefined {
  const { toks, match } = q;
  const t = toks[s];
  if (t?.kind === "ident" && COALESCING.has(t.text.toLowerCase()) && isOp(toks[s + 1], "(")) {
    return match[s + 1] === e - 1 ? q.args(s + 1) : undefined;
  }
  if (!isKeyword(t, "CASE") || caseEnd(q, s) !== e - 1) return undefined;
  const out: Array<[number, number]> = [];
  let from = -1;
  for (let k = s + 1; k < e; k++) {
    if (isOp(toks[k], "(")) k = match[k];
    else if (isKeyword(toks[k], "CASE")) k = caseEnd(q, k);
    else if (isKeyword(toks[k], "WHEN", "ELSE", "END")) {
      if (from >= 0) out.push([from, k]);
      from = isKeyword(toks[k], "ELSE") ? k + 1 : -1;
    } else if (isKeyword(toks[k], "THEN")) from = k + 1;
  }
  return out.length > 0 ? out : undefined;
}

/** The common type of a CASE's or coalescing call's values (`typeOf` types each one). */
export function branchType(
  q: QueryTokens,
  s: number,
  e: number,
  typeOf: (a: number, b: number) => string | undefined,
): DataType | undefined {
  const branches = branchesOf(q, s, e);
  if (!branches) return undefined;
  return commonType(branches.map((b) => literalType(q, b) ?? typeOf(b[0], b[1]) as DataType | undefined));
}
