/**
 * Subqueries in FROM (derived tables) are rewritten on their own, as views are (`views.ts`), so that
 * their output columns' types are known to the query around them: `SELECT * FROM (SELECT max(ts)
 * AS last FROM m GROUP BY host)` types `last` as the time index's timestamp, as the inner query
 * alone does (SQLite reports no type for an expression, and the outer query sees only its name).
 */
import { isKeyword, isOp } from "../lexer.ts";
import { tokenize } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import { originalText } from "../query_tokens.ts";
import type { Rewritten } from "../rewrite.ts";
import type { RewriteEnv } from "./context.ts";
import type { TableRefs } from "./tables.ts";
import { addToScope, outputColumns, type ViewScope } from "./views.ts";
import type { Token } from "../lexer.ts";

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

/**
 * The brackets of the derived tables after FROM or JOIN that are not inside another one. One that
 * names a CTE of the query is left to the query's own rewrite (on its own it would not see the CTE).
 */
function derivedTables(q: QueryTokens, ctes: ReadonlySet<string>): Array<[number, number]> {
  const { toks, match } = q;
  const out: Array<[number, number]> = [];
  for (let i = 1; i < toks.length; i++) {
    if (!isOp(toks[i], "(") || !isKeyword(toks[i + 1], "SELECT") || !isKeyword(toks[i - 1], "FROM", "JOIN")) {
      continue;
    }
    const close = match[i];
    if (close === undefined || close < 0) continue;
    if (out.some(([a, b]) => i > a && i < b)) continue;
    const namesCte = ctes.size > 0 &&
      toks.slice(i + 1, close).some((t) =>
        (t.kind === "ident" || t.kind === "qident") && ctes.has(q.lower(t))
      );
    if (!namesCte) out.push([i, close]);
  }
  return out;
}

/** Rewrites each derived table on its own and puts it in place; its typed columns join the scope. */
export function inlineDerivedTables(
  q: QueryTokens,
  refs: TableRefs,
  scope: ViewScope,
  env: RewriteEnv,
  ctes: ReadonlySet<string>,
  rewrite: Rewrite,
): void {
  for (const [open, close] of derivedTables(q, ctes)) {
    const sql = originalText(env.sql, q.toks, open + 1, close);
    if (sql === "") continue;
    const query = rewrite(tokenize(sql), {
      storage: env.storage,
      db: env.db,
      sql,
      timezone: env.timezone,
      ...(env.defaultUnit ? { defaultUnit: env.defaultUnit } : {}),
      ...(env.views ? { views: env.views } : {}),
    });
    const columns = outputColumns(env.storage, query);
    refs.replacements.set(open, { end: close + 1, text: `(${query.sql})` });
    addToScope(scope, refs, { query, columns, sql: `(${query.sql})` });
  }
}
