/**
 * CTEs are rewritten on their own, as derived tables and views are, so that their output columns'
 * types are known to the query that names them: `WITH c AS (SELECT max(ts) AS last FROM m) SELECT *
 * FROM c` types `last` as the time index's timestamp, as the CTE's query alone does (SQLite reports
 * no type for an expression, and the query around it sees only its name). A subquery rewritten on
 * its own (a derived table, a later CTE) sees the CTEs before it: they come with its env, and reading
 * its columns prefixes their definitions.
 */
import { isKeyword, isOp, type Token, tokenize } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import { originalText, SYNTHETIC } from "../query_tokens.ts";
import type { Rewritten } from "../rewrite.ts";
import { quoteIdent } from "../../storage/table.ts";
import type { PlannedCte, RewriteEnv } from "./context.ts";
import type { TableRefs } from "./tables.ts";
import { addToScope, outputColumns, type PlannedView, type ViewScope } from "./views.ts";

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

/** The lowercased name a token gives (quoted names keep their case). */
function nameOf(t: Token): string | undefined {
  if (t.kind === "qident") return t.value;
  return t.kind === "ident" ? t.value.toLowerCase() : undefined;
}

/**
 * `sql` with the definitions of the CTEs it names (and those before them, which they may name) in
 * front, so that it prepares on its own.
 */
export function withCtes(ctes: readonly PlannedCte[], toks: readonly Token[], sql: string): string {
  const names = new Set(toks.map(nameOf));
  let last = -1;
  ctes.forEach((c, i) => names.has(c.name) && (last = i));
  if (last < 0) return sql;
  const defs = ctes.slice(0, last + 1).map((c) => c.definition).join(", ");
  // a query with a WITH of its own is put in a subquery: one WITH clause takes no second one
  return /^\s*WITH\b/i.test(sql) ? `WITH ${defs} SELECT * FROM (${sql})` : `WITH ${defs} ${sql}`;
}

/**
 * Rewrites the subquery in the brackets at `open` on its own (seeing the CTEs of the env) and reads
 * its output columns; undefined if it has no text of its own. Its tokens keep their places in the
 * request's text, so its output names and error positions are the request's.
 */
export function planSubquery(
  q: QueryTokens,
  open: number,
  env: RewriteEnv,
  rewrite: Rewrite,
): PlannedView | undefined {
  const sql = originalText(env.sql, q.toks, open + 1, q.match[open]);
  if (sql === "") return undefined;
  const offset = Math.min(
    ...q.toks.slice(open + 1, q.match[open]).flatMap((t) => t.pos === SYNTHETIC ? [] : [t.pos]),
  );
  const toks = tokenize(sql).map((t) => ({ ...t, pos: t.pos + offset }));
  const query = rewrite(toks, {
    storage: env.storage,
    db: env.db,
    sql: env.sql,
    timezone: env.timezone,
    ...(env.defaultUnit ? { defaultUnit: env.defaultUnit } : {}),
    ...(env.views ? { views: env.views } : {}),
    ...(env.ctes?.length ? { ctes: env.ctes } : {}),
  });
  const columns = outputColumns(env.storage, { ...query, sql: withCtes(env.ctes ?? [], toks, query.sql) });
  return { query, columns, sql: `(${query.sql})` };
}

/** One CTE of a WITH clause: its name token, column names and the brackets of its query. */
interface CteSpan {
  nameAt: number;
  columns: string[];
  open: number;
  close: number;
}

/** The CTEs of the query's own WITH clause (the one before its outermost SELECT), in order. */
function ownCtes(q: QueryTokens): CteSpan[] {
  const { toks, match, parent } = q;
  const at = toks.findIndex((t, i) => isKeyword(t, "WITH") && parent[i] === -1);
  if (at < 0) return [];
  const out: CteSpan[] = [];
  let i = isKeyword(toks[at + 1], "RECURSIVE") ? at + 2 : at + 1;
  while (toks[i] && nameOf(toks[i]) !== undefined) {
    const nameAt = i;
    const columns: string[] = [];
    i++;
    if (isOp(toks[i], "(")) {
      for (let k = i + 1; k < match[i]; k++) if (toks[k].kind !== "op") columns.push(toks[k].value);
      i = match[i] + 1;
    }
    if (!isKeyword(toks[i], "AS") || !isOp(toks[i + 1], "(") || !(match[i + 1] > i + 1)) break;
    out.push({ nameAt, columns, open: i + 1, close: match[i + 1] });
    i = match[i + 1] + 1;
    if (!isOp(toks[i], ",")) break;
    i++;
  }
  return out;
}

/**
 * Rewrites each CTE of the query's WITH clause on its own and puts it in place; its typed columns
 * join the scope. The CTEs of the queries around this one that it names join the scope too. A
 * recursive CTE (or one naming it) stays in the query's own rewrite: on its own it would not see
 * itself. Returns every CTE a subquery of this query may name, and the names of those left in place.
 */
export function planCtes(
  q: QueryTokens,
  refs: TableRefs,
  scope: ViewScope,
  env: RewriteEnv,
  rewrite: Rewrite,
): { ctes: PlannedCte[]; unplanned: Set<string>; spans: Array<[number, number]> } {
  let ctes = [...(env.ctes ?? [])];
  for (const c of ctes) if (refs.cteRefs.includes(c.name)) addToScope(scope, refs, c.planned, c.name);
  const unplanned = new Set<string>();
  const spans: Array<[number, number]> = [];
  for (const cte of ownCtes(q)) {
    const name = q.lower(q.toks[cte.nameAt]);
    const body = q.toks.slice(cte.open + 1, cte.close).map(nameOf);
    const recursive = body.includes(name) || body.some((n) => n !== undefined && unplanned.has(n));
    const planned = recursive ? undefined : planSubquery(q, cte.open, { ...env, ctes }, rewrite);
    if (!planned) {
      unplanned.add(name);
      continue;
    }
    if (cte.columns.length > 0) {
      planned.columns = planned.columns.map((c, i) => ({ ...c, name: cte.columns[i] ?? c.name }));
    }
    // a CTE of this query hides one of the same name around it
    ctes = ctes.filter((c) => c.name !== name);
    const head = quoteIdent(name) + (cte.columns.length ? `(${cte.columns.map(quoteIdent).join(", ")})` : "");
    ctes.push({ name, definition: `${head} AS ${planned.sql}`, planned });
    refs.replacements.set(cte.open, { end: cte.close + 1, text: planned.sql });
    spans.push([cte.open, cte.close]);
    addToScope(scope, refs, planned, name);
  }
  return { ctes, unplanned, spans };
}
