/**
 * DataFusion's array constructor in SQLite: `make_array(a, b)` (and the `[a, b]` it is spelled as,
 * src/sql/array_brackets.ts) becomes `json_array(a, b)`, so an array is JSON text inside SQLite. An
 * element that is itself an array is wrapped in `json(…)`, so it nests instead of becoming a string.
 */
import { isListType } from "../../common/list_type.ts";
import { argType } from "../array_types.ts";
import { itemHint } from "../output_columns.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

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
