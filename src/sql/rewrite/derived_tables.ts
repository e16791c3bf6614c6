/**
 * Subqueries in FROM (derived tables) are rewritten on their own, as views are (`views.ts`), so that
 * their output columns' types are known to the query around them: `SELECT * FROM (SELECT max(ts)
 * AS last FROM m GROUP BY host)` types `last` as the time index's timestamp, as the inner query
 * alone does (SQLite reports no type for an expression, and the outer query sees only its name).
 *
 * A range query (its own WITH and all) only renders as a whole statement, so one nested in a CTE's
 * body, or in a derived table that reads a CTE, is rewritten on its own too, after the CTEs it sees.
 */
import { isKeyword, isOp } from "../lexer.ts";
import { tokenize } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import { originalText } from "../query_tokens.ts";
import type { Rewritten } from "../rewrite.ts";
import { isRangeAggregateKeyword } from "../dialect_rules.ts";
import type { RewriteEnv } from "./context.ts";
import type { TableRefs } from "./tables.ts";
import { addToScope, outputColumns, type ViewScope } from "./views.ts";
import type { Token } from "../lexer.ts";

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

/** A subquery rewritten on its own: its brackets, and the `WITH …` text of the CTEs it reads. */
interface Nested {
  open: number;
  close: number;
  with?: string;
}

/** One definition of the leading WITH clause: its name token and its body's brackets. */
interface CteDef {
  start: number;
  open: number;
  close: number;
}

/** The definitions of a leading `WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (…), …`. */
function cteDefs(q: QueryTokens): CteDef[] {
  const { toks, match } = q;
  const defs: CteDef[] = [];
  if (!isKeyword(toks[0], "WITH")) return defs;
  let i = isKeyword(toks[1], "RECURSIVE") ? 2 : 1;
  while (toks[i] && (toks[i].kind === "ident" || toks[i].kind === "qident")) {
    let j = i + 1;
    if (isOp(toks[j], "(")) j = match[j] + 1;
    if (!isKeyword(toks[j], "AS")) break;
    j++;
    while (isKeyword(toks[j], "NOT", "MATERIALIZED")) j++;
    if (!isOp(toks[j], "(") || !(match[j] > j)) break;
    defs.push({ start: i, open: j, close: match[j] });
    if (!isOp(toks[match[j] + 1], ",")) break;
    i = match[j] + 2;
  }
  return defs;
}

/** Whether the query in brackets `[open, close]` is a range query (RANGE after an aggregate). */
function isRangeQuery(q: QueryTokens, open: number, close: number): boolean {
  for (let k = open + 1; k < close; k++) {
    if (q.parent[k] === open && isRangeAggregateKeyword(q.toks, k)) return true;
  }
  return false;
}

/**
 * The subqueries rewritten on their own: range queries in CTE bodies, then the derived tables after
 * FROM or JOIN not inside another one. A derived table that names a CTE is left to the query's own
 * rewrite (on its own it would not see the CTE), unless it is a range query: that one gets the CTEs
 * defined before it.
 */
function nestedQueries(q: QueryTokens, env: RewriteEnv, ctes: ReadonlySet<string>): Nested[] {
  const { toks, match } = q;
  const defs = cteDefs(q);
  const withBefore = (at: number): string | undefined => {
    const seen = defs.filter((d) => d.close < at);
    if (seen.length === 0) return undefined;
    const recursive = isKeyword(toks[1], "RECURSIVE") ? "RECURSIVE " : "";
    return `WITH ${recursive}${originalText(env.sql, toks, seen[0].start, seen[seen.length - 1].close + 1)} `;
  };
  const out: Nested[] = defs.flatMap((d) =>
    isRangeQuery(q, d.open, d.close) ? [{ open: d.open, close: d.close, with: withBefore(d.open) }] : []
  );
  for (let i = 1; i < toks.length; i++) {
    if (!isOp(toks[i], "(") || !isKeyword(toks[i + 1], "SELECT") || !isKeyword(toks[i - 1], "FROM", "JOIN")) {
      continue;
    }
    const close = match[i];
    if (close === undefined || close < 0) continue;
    if (out.some((n) => i > n.open && i < n.close)) continue;
    const namesCte = ctes.size > 0 &&
      toks.slice(i + 1, close).some((t) =>
        (t.kind === "ident" || t.kind === "qident") && ctes.has(q.lower(t))
      );
    if (!namesCte) out.push({ open: i, close });
    else if (isRangeQuery(q, i, close)) out.push({ open: i, close, with: withBefore(i) });
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
  for (const { open, close, with: withText } of nestedQueries(q, env, ctes)) {
    const body = originalText(env.sql, q.toks, open + 1, close);
    if (body === "") continue;
    const sql = (withText ?? "") + body;
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
