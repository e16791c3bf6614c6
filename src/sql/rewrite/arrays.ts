/**
 * DataFusion's array constructor in SQLite: `make_array(a, b)` (and the `[a, b]` it is spelled as,
 * src/sql/array_brackets.ts) becomes `json_array(a, b)`, so an array is JSON text inside SQLite. An
 * element that is itself an array is wrapped in `json(…)`, so it nests instead of becoming a string.
 * `||` with an array operand concatenates arrays.
 */
import { unsupported } from "../../common/errors.ts";
import { isListType } from "../../common/list_type.ts";
import { isOp } from "../lexer.ts";
import { argType } from "../array_types.ts";
import { itemHint } from "../output_columns.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import type { OperatorRewrite } from "./at_time_zone.ts";

/** `make_array(…)` with the argument ranges `args`, closing at `close`. */
export function makeArray(c: RewriteCtx, args: Array<[number, number]>, close: number): TokenRewrite {
  const typing = { q: c.q, relations: [], ...c.time };
  const hint = (s: number, e: number) => itemHint(typing, s, e);
  const elements = args.map((range) => {
    const sql = c.emit(...range).trim();
    const type = argType(typing, range, hint);
    return type !== undefined && isListType(type) ? `json(${sql})` : sql;
  });
  return { text: `json_array(${elements.join(", ")})`, next: close + 1 };
}

/**
 * `a || b` where an operand is an array: DataFusion's array_concat (both arrays), array_append or
 * array_prepend (an array and an element), not SQLite's string concatenation of the JSON texts.
 */
export function arrayConcatenations(c: RewriteCtx): OperatorRewrite[] {
  const { toks, q } = c;
  const typing = { q, relations: [], ...c.time };
  const hint = (s: number, e: number) => itemHint(typing, s, e);
  const isList = (s: number, e: number) => e > s && isListType(argType(typing, [s, e], hint) ?? "");
  const out: OperatorRewrite[] = [];
  for (let k = 1; k < toks.length; k++) {
    if (!isOp(toks[k], "||")) continue;
    const start = q.primaryStart(k), end = q.primaryEnd(k + 1);
    const left = isList(start, k), right = isList(k + 1, end);
    if (!left && !right) continue;
    if (start === k || end === k + 1 || isOp(toks[start - 1], "||") || isOp(toks[end], "||")) {
      throw unsupported("|| over arrays takes two plain operands here: use array_concat(a, b, …)");
    }
    const fn = left && right ? "array_concat" : left ? "array_append" : "array_prepend";
    out.push({
      start,
      end,
      render: () => `${fn}(${c.emit(start, k).trim()}, ${c.emit(k + 1, end).trim()})`,
    });
  }
  return out;
}
