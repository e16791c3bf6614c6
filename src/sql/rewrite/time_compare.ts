/**
 * A comparison of two time columns of different units (`a.ts = b.ts`, milliseconds and
 * nanoseconds; `ts IN (SELECT ts FROM …)` too) compares in the coarser unit, as DataFusion coerces it (`timeunit_coercion`): the
 * finer column's values are divided to it, truncated as arrow's cast does. SQLite would compare the
 * raw integers, which never meet.
 */
import { coarsestUnit, type TimeUnit } from "../../common/time_unit.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { CMP_OPS, type QueryTokens } from "../query_tokens.ts";
import { aliasOf, findTopSelect } from "../select_list.ts";
import { unitChange } from "./casts.ts";
import type { TimeScope } from "./context.ts";

/** A plain column reference (`col`, `rel.col`) as a comparison operand: its range and unit. */
interface TimeOperand {
  start: number;
  end: number;
  unit: TimeUnit;
}

/** The replacements dividing the finer column of each such comparison, by first token. */
export function timeComparisons(
  q: QueryTokens,
  time: TimeScope,
  emit: (a: number, b: number) => string,
): Map<number, { end: number; text: string }> {
  const { toks } = q;
  const out = new Map<number, { end: number; text: string }>();
  // an operand that is the whole side: no operator binds it to more (`x + a.ts = b.ts`)
  const alone = (k: number) => !toks[k] || toks[k].kind !== "op" || isOp(toks[k], "(", ")", ",");
  // `outer`: the token on the operand's other side than the comparison
  const operand = (start: number, end: number, outer: number): TimeOperand | undefined => {
    const unit = time.isTsColumn(end - 1);
    return unit && alone(outer) ? { start, end, unit } : undefined;
  };
  const meet = (left: TimeOperand | undefined, right: TimeOperand | undefined) => {
    if (!left || !right || left.unit === right.unit) return;
    const unit = coarsestUnit([left.unit, right.unit]);
    const finer = left.unit === unit ? right : left;
    out.set(finer.start, {
      end: finer.end,
      text: unitChange(emit(finer.start, finer.end).trim(), finer.unit, unit),
    });
  };
  for (let k = 1; k < toks.length - 1; k++) {
    const compares = isOp(toks[k], ...CMP_OPS);
    // `ts [NOT] IN (SELECT ts FROM …)`: the subquery's one column meets the operand
    const inSubquery = isKeyword(toks[k], "IN") && isOp(toks[k + 1], "(") &&
      isKeyword(toks[k + 2], "SELECT");
    if (!compares && !inSubquery) continue;
    const opStart = inSubquery && isKeyword(toks[k - 1], "NOT") ? k - 1 : k;
    const leftStart = isOp(toks[opStart - 2], ".") ? opStart - 3 : opStart - 1;
    const left = operand(leftStart, opStart, leftStart - 1);
    if (compares) {
      const rightEnd = isOp(toks[k + 2], ".") ? k + 4 : k + 2;
      meet(left, operand(k + 1, rightEnd, rightEnd));
      continue;
    }
    const items = findTopSelect(toks, q.match, k + 2, q.match[k + 1])?.items ?? [];
    if (items.length !== 1) continue;
    const [s, e] = items[0];
    const end = aliasOf(toks, s, e).exprEnd;
    if (end - s === 1 || (end - s === 3 && isOp(toks[s + 1], "."))) meet(left, operand(s, end, end));
  }
  return out;
}
