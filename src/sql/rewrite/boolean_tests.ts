/**
 * `x IS [NOT] UNKNOWN` and `x IS [NOT] TRUE | FALSE` need a Boolean `x`: DataFusion's type coercion
 * casts the operand to Boolean only where `x IS DISTINCT FROM true` would coerce, and refuses an
 * integer, float, decimal or string operand. SQLite would answer `5 IS TRUE` (true) and `5 IS NULL`.
 */
import { PetrelError, StatusCode } from "../../common/errors.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import type { TypingCtx } from "./decimal_arith.ts";
import { operandArrowName, operandStart } from "./interval_arith.ts";

/** Words after which an operand starts whole (`NOT x IS TRUE` tests `x`: NOT binds looser than IS). */
const OPERAND_STARTS = new Set(
  "SELECT WHERE HAVING AND OR NOT WHEN THEN ELSE ON BY DISTINCT ALL QUALIFY".split(" "),
);

/** The truth values an IS test names. */
const TRUTH_WORDS = ["UNKNOWN", "TRUE", "FALSE"];

const isName = (t: Token | undefined) => t?.kind === "ident" || t?.kind === "qident";

const startsOperand = (t: Token | undefined) =>
  t === undefined || isOp(t, "(", ",") || (t.kind === "ident" && OPERAND_STARTS.has(t.text.toUpperCase()));

/**
 * Refuses the truth test at `IS` token `i` whose operand is a single literal, column, cast or group
 * of a type DataFusion cannot coerce to Boolean; an operand whose type is not known here is accepted.
 */
export function refuseNonBooleanTest(t: TypingCtx, i: number): void {
  const { toks } = t.q;
  if (!isKeyword(toks[i], "IS")) return;
  const word = isKeyword(toks[i + 1], "NOT") ? i + 2 : i + 1;
  if (!isKeyword(toks[word], ...TRUTH_WORDS) || i === 0) return;
  let start = operandStart(t.q, i);
  // a qualified column (`t.n`, `db.t.n`)
  if (start === i - 1) {
    while (isName(toks[start]) && isOp(toks[start - 1], ".") && isName(toks[start - 2])) start -= 2;
  }
  if (start < 0 || !startsOperand(toks[start - 1])) return;
  const type = operandArrowName(t, start, i);
  if (type === undefined || type === "Boolean") return;
  throw new PetrelError(
    StatusCode.PlanQuery,
    "Failed to plan SQL: Error during planning: Cannot infer common argument type for comparison operation " +
      `${type} IS DISTINCT FROM Boolean`,
  );
}
