/**
 * A compound nested in an expression's subquery (`ts IN (SELECT … UNION SELECT …)`, a scalar
 * subquery, EXISTS) meets in its members' common types as the outermost one does
 * (`union_types.ts`): each member's items of another type are cast where they stand (timestamps
 * rescaled to the coarsest unit). CTEs, derived tables and views are rewritten on their own, and
 * type their compounds as outermost ones.
 */
import { isKeyword, isOp } from "../lexer.ts";
import { columnRefName, type OutputContext } from "../output_columns.ts";
import { NOT_ALIAS } from "../query_tokens.ts";
import { compoundItems } from "../select_list.ts";
import { quoteIdent } from "../../storage/table.ts";
import type { LazyRewrite } from "./time_compare.ts";
import { compoundTypes } from "./union_types.ts";

/**
 * The casts of the members' items of every compound in a subquery (`skip`: the brackets of those
 * another rewrite rescales).
 */
export function nestedCompoundCasts(
  c: OutputContext,
  emit: (a: number, b: number) => string,
  skip: ReadonlySet<number>,
): LazyRewrite[] {
  const { toks } = c.q;
  const out: LazyRewrite[] = [];
  for (let open = 0; open < toks.length; open++) {
    if (!isOp(toks[open], "(") || !isKeyword(toks[open + 1], "SELECT", "WITH") || skip.has(open)) continue;
    const { casts } = compoundTypes(c, open);
    if (casts.size === 0) continue;
    const first = new Set((compoundItems(c.q, open)[0] ?? []).map(([s]) => s));
    for (const [s, cast] of casts) {
      const column = columnRefName(c.q, [s, cast.end]);
      // the first member names the columns: a cast column keeps its name
      const next = toks[cast.end];
      const aliased = isKeyword(next, "AS") || next?.kind === "qident" ||
        (next?.kind === "ident" && !NOT_ALIAS.has(next.text.toUpperCase()));
      const named = first.has(s) && column !== undefined && !aliased;
      out.push({
        start: s,
        end: cast.end,
        render: () =>
          cast.sql(emit(s, cast.end).trim()) + (named ? ` AS ${quoteIdent(toks[cast.end - 1].value)}` : ""),
      });
    }
  }
  return out;
}
