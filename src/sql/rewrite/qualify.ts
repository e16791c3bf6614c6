/**
 * `QUALIFY cond` filters rows on window-function results, which SQLite allows only in the select
 * list: the SELECT becomes a derived table that computes the condition (and each ORDER BY term) as
 * hidden columns, and the query around it keeps the visible columns, filters and orders:
 *
 *   SELECT "ts", "host" FROM (SELECT ts, host, (row_number() OVER (…) = 1) AS "__petrel_qualify"
 *   FROM t) AS "__petrel_qualified" WHERE "__petrel_qualify"
 *
 * The visible columns are named as the SELECT alone names them (it is prepared once to learn them),
 * and keep its types through the derived table's typing (`derived_tables.ts`).
 */
import { unsupported } from "../../common/errors.ts";
import { quoteIdent } from "../../storage/table.ts";
import { isKeyword, isOp, type Token, tokenize } from "../lexer.ts";
import type { Rewritten } from "../rewrite.ts";
import type { RewriteEnv } from "./context.ts";
import { outputColumns } from "./views.ts";
import {
  type Brackets,
  brackets,
  clauseEnd,
  type Hole,
  orderTerms,
  selectBefore,
  type SelectParts,
  selectParts,
  sourceText,
  spliceText,
  tailStart,
} from "./select_parts.ts";

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

const CONDITION = quoteIdent("__petrel_qualify");
const orderColumn = (n: number) => quoteIdent(`__petrel_order_${n}`);

/**
 * The query as new SQL text with its first QUALIFY turned into a filtered derived table (the caller
 * rewrites that text again), or undefined when it has none.
 */
export function qualifyAsSubquery(toks: Token[], env: RewriteEnv, rewrite: Rewrite): string | undefined {
  if (!toks.some((t) => isKeyword(t, "QUALIFY"))) return undefined;
  const b = brackets(toks);
  if (!b) return undefined;
  for (let i = 0; i < toks.length; i++) {
    if (!isKeyword(toks[i], "QUALIFY")) continue;
    const sel = selectBefore(b, i);
    if (sel < 0) continue;
    const p = selectParts(b, sel);
    if (p.clauses.get("QUALIFY") !== i) continue;
    if (p.compound) throw unsupported("QUALIFY in a member of UNION, EXCEPT or INTERSECT is not supported");
    if (isKeyword(toks[sel + 1], "DISTINCT")) {
      throw unsupported("QUALIFY with SELECT DISTINCT is not supported");
    }
    const sql = env.sql;
    const outer = qualified(b, sql, p, i, (inner, hidden) => {
      // the CTEs of a leading WITH are in scope of the SELECT they precede
      const withText = b.parent[sel] < 0 ? sourceText(sql, toks, 0, sel) : "";
      const prep = `${withText} ${inner}`;
      const columns = outputColumns(
        env.storage,
        rewrite(tokenize(prep), {
          storage: env.storage,
          db: env.db,
          sql: prep,
          timezone: env.timezone,
          ...(env.defaultUnit ? { defaultUnit: env.defaultUnit } : {}),
          ...(env.views ? { views: env.views } : {}),
        }),
      );
      return columns.slice(0, columns.length - hidden).map((c) => c.name);
    });
    return `${sourceText(sql, toks, 0, sel)} ${outer} ${sourceText(sql, toks, p.end, toks.length)}`;
  }
  return undefined;
}

/** The SELECT of `p` with its QUALIFY (at `at`) as a filter around it. */
function qualified(
  b: Brackets,
  sql: string,
  p: SelectParts,
  at: number,
  visibleNames: (inner: string, hidden: number) => string[],
): string {
  const { toks } = b;
  const text = (s: number, e: number) => sourceText(sql, toks, s, e);
  const withAliases = aliasExpander(b, sql, p);
  const condEnd = clauseEnd(p, at);
  const hidden = [`(${withAliases(at + 1, condEnd)}) AS ${CONDITION}`];
  const tail = tailStart(p);
  const order = p.clauses.get("ORDER");
  const orderEnd = order === undefined ? tail : clauseEnd(p, order);
  const terms = orderTerms(b, p).map(({ s, exprEnd, e }) => {
    // a column number keeps its meaning: the visible columns keep their places
    if (exprEnd - s === 1 && toks[s].kind === "number") return text(s, e);
    hidden.push(`(${withAliases(s, exprEnd)}) AS ${orderColumn(hidden.length)}`);
    return `${orderColumn(hidden.length - 1)} ${text(exprEnd, e)}`;
  });
  const inner = `${text(p.sel, p.itemsEnd)}, ${hidden.join(", ")} ${text(p.itemsEnd, at)} ` +
    text(condEnd, tail);
  const names = visibleNames(inner, hidden.length);
  return `SELECT ${names.map(quoteIdent).join(", ")} FROM (${inner}) AS ${
    quoteIdent("__petrel_qualified")
  } ` +
    `WHERE ${CONDITION}${terms.length ? ` ORDER BY ${terms.join(", ")}` : ""} ${text(orderEnd, p.end)}`;
}

/**
 * The text of a range with each select-list alias it names written as the aliased expression: the
 * hidden columns sit in the same select list, where SQLite does not see its aliases.
 */
function aliasExpander(b: Brackets, sql: string, p: SelectParts): (s: number, e: number) => string {
  const { toks } = b;
  const aliased = new Map<string, string>();
  for (const it of p.items) {
    if (it.alias !== undefined) aliased.set(it.alias, sourceText(sql, toks, it.s, it.exprEnd));
  }
  return (s, e) => {
    const holes: Hole[] = [];
    for (let k = s; k < e; k++) {
      const t = toks[k];
      if (t.kind !== "ident" && t.kind !== "qident") continue;
      if (isOp(toks[k - 1], ".") || isOp(toks[k + 1], ".") || isOp(toks[k + 1], "(")) continue;
      const expr = aliased.get(t.kind === "qident" ? t.value : t.value.toLowerCase());
      if (expr !== undefined) holes.push({ s: k, e: k + 1, text: `(${expr})` });
    }
    return spliceText(sql, toks, s, e, holes);
  };
}
