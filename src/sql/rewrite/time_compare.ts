/**
 * A comparison of two time columns of different units (`a.ts = b.ts`, milliseconds and
 * nanoseconds) compares in the coarser unit, as DataFusion coerces it (`timeunit_coercion`): the
 * finer column's values are divided to it, truncated as arrow's cast does. SQLite would compare the
 * raw integers, which never meet.
 */
import { coarsestUnit } from "../../common/time_unit.ts";
import { isOp } from "../lexer.ts";
import { CMP_OPS, type QueryTokens } from "../query_tokens.ts";
import { unitChange } from "./casts.ts";
import type { TimeScope } from "./context.ts";

/** A plain column reference (`col`, `rel.col`) as a comparison operand: its range and unit. */
interface TimeOperand {
  start: number;
  end: number;
  unit: NonNullable<ReturnType<TimeScope["isTsColumn"]>>;
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
  for (let k = 1; k < toks.length - 1; k++) {
    if (!isOp(toks[k], ...CMP_OPS)) continue;
    const leftStart = isOp(toks[k - 2], ".") ? k - 3 : k - 1;
    const rightEnd = isOp(toks[k + 2], ".") ? k + 4 : k + 2;
    const left = operand(leftStart, k, leftStart - 1);
    const right = operand(k + 1, rightEnd, rightEnd);
    if (!left || !right || left.unit === right.unit) continue;
    const unit = coarsestUnit([left.unit, right.unit]);
    const finer = left.unit === unit ? right : left;
    out.set(finer.start, {
      end: finer.end,
      text: unitChange(emit(finer.start, finer.end).trim(), finer.unit, unit),
    });
  }
  return out;
}
