/**
 * Subqueries in FROM (derived tables) are rewritten on their own, as views are (`views.ts`), so that
 * their output columns' types are known to the query around them: `SELECT * FROM (SELECT max(ts)
 * AS last FROM m GROUP BY host)` types `last` as the time index's timestamp, as the inner query
 * alone does (SQLite reports no type for an expression, and the outer query sees only its name).
 * A derived table sees the query's CTEs (`ctes.ts`), and may stand anywhere in a FROM list.
 */
import { isKeyword } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import type { Rewritten } from "../rewrite.ts";
import type { RewriteEnv } from "./context.ts";
import { planSubquery } from "./ctes.ts";
import type { TableRefs } from "./tables.ts";
import { addToScope, type ViewScope } from "./views.ts";
import type { Token } from "../lexer.ts";

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

/**
 * The brackets of the derived tables of the query that are not inside another one nor inside a
 * span already rewritten on its own (a CTE). One that names a CTE left in the query (a recursive
 * one) is left to the query's own rewrite too (on its own it would not see the CTE).
 */
function derivedTables(
  q: QueryTokens,
  refs: TableRefs,
  unplanned: ReadonlySet<string>,
  done: ReadonlyArray<[number, number]>,
): Array<[number, number]> {
  const { toks, match } = q;
  const out: Array<[number, number]> = [];
  for (const open of [...refs.derived].sort((a, b) => a - b)) {
    if (!isKeyword(toks[open + 1], "SELECT", "WITH")) continue;
    const close = match[open];
    if ([...done, ...out].some(([a, b]) => open > a && open < b)) continue;
    const namesCte = unplanned.size > 0 &&
      toks.slice(open + 1, close).some((t) =>
        (t.kind === "ident" || t.kind === "qident") && unplanned.has(q.lower(t))
      );
    if (!namesCte) out.push([open, close]);
  }
  return out;
}

/** Rewrites each derived table on its own and puts it in place; its typed columns join the scope. */
export function inlineDerivedTables(
  q: QueryTokens,
  refs: TableRefs,
  scope: ViewScope,
  env: RewriteEnv,
  unplanned: ReadonlySet<string>,
  done: ReadonlyArray<[number, number]>,
  rewrite: Rewrite,
): void {
  for (const [open, close] of derivedTables(q, refs, unplanned, done)) {
    const planned = planSubquery(q, open, env, rewrite);
    if (!planned) continue;
    refs.replacements.set(open, { end: close + 1, text: planned.sql });
    addToScope(scope, refs, planned, open);
  }
}
