/**
 * `SELECT DISTINCT ON (exprs) …` (DataFusion's, after PostgreSQL): one row per distinct value of the ON
 * expressions, the first by the query's ORDER BY. SQLite has no such clause, so the outermost SELECT
 * becomes a row_number() filter:
 *
 * ```sql
 * SELECT c0 AS "host", c1 AS "ts" FROM (SELECT host AS c0, ts AS c1,
 *   row_number() OVER (PARTITION BY host ORDER BY host NULLS LAST, ts DESC NULLS FIRST) AS rn, host AS k0
 *   FROM cpu) WHERE rn = 1 ORDER BY k0 NULLS LAST
 * ```
 *
 * (the helper columns are `__petrel_`-prefixed). The output keeps the names and types the plain SELECT
 * would have: every column is named explicitly, and SQLite reports declared types through the subquery.
 */
import { PetrelError, StatusCode, unsupported } from "../../common/errors.ts";
import type { ResultType } from "../../common/rows.ts";
import { quoteIdent } from "../../storage/table.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { type QueryTokens } from "../query_tokens.ts";
import { aliasOf, selectList, type TopSelect } from "../select_list.ts";
import type { FromRelation } from "./tables.ts";
import { AGGREGATE_NAMES } from "./range_parse.ts";

/** One output column of the plain SELECT, as `renderQuery` rendered it. */
export interface RenderedItem {
  /** The item's token range (alias included). */
  range: [number, number];
  /** The name `renderQuery` gave it (`AS …`), if any. */
  name?: string;
  hint?: ResultType;
}

/** What the DISTINCT ON rendering needs from the rewrite. */
export interface DistinctOnEnv {
  q: QueryTokens;
  emit(a: number, b: number): string;
  /** The relations of each FROM clause, by the bracket around it (`*` is spelled out from them). */
  scopes: ReadonlyMap<number, readonly FromRelation[]>;
  /**
   * The output column names of a query (SQLite prepares it), for a `*` over views, CTEs and subqueries
   * of the outermost SELECT; absent for nested ones (their CTEs are not rendered yet).
   */
  columnsOf?: (sql: string) => string[];
}

/**
 * Renders each DISTINCT ON select inside brackets (a CTE's body, a subquery) that is not in a range
 * `replaced` already, innermost first, and hands its rendering to `replace` (the outer ones then
 * render through it).
 */
export function nestedDistinctOn(
  env: DistinctOnEnv,
  replaced: (at: number) => boolean,
  replace: (at: number, end: number, text: string) => void,
): void {
  const { toks, match, parent } = env.q;
  const selects: TopSelect[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (!isKeyword(toks[i], "SELECT") || parent[i] < 0 || !isKeyword(toks[i + 1], "DISTINCT")) continue;
    if (replaced(i)) continue;
    const select = selectList(toks, match, i);
    if (select?.distinctOn !== undefined) selects.push(select);
  }
  const depth = (i: number) => {
    let d = 0;
    for (let p = parent[i]; p >= 0; p = parent[p]) d++;
    return d;
  };
  selects.sort((a, b) => depth(b.select) - depth(a.select));
  for (const select of selects) {
    const items = select.items.map(([s, e]): RenderedItem => ({ range: [s, e] }));
    const { sql, end } = renderDistinctOn(env, select, items);
    replace(select.select, end, sql);
  }
}

const PLANNING = "Failed to plan SQL: Error during planning: ";

/** An ORDER BY item: its expression, direction and NULLS placement. */
interface OrderItem {
  range: [number, number];
  exprEnd: number;
  desc: boolean;
  nullsFirst: boolean;
}

/**
 * A SELECT with DISTINCT ON rendered for SQLite, from its SELECT keyword up to `end` (the end of its
 * clauses), with the hints of its columns.
 */
export function renderDistinctOn(
  env: DistinctOnEnv,
  top: TopSelect,
  items: RenderedItem[],
  prefix = "",
): { sql: string; end: number; hints: Array<ResultType | undefined> } {
  const { q, emit } = env;
  const { parent } = q;
  const open = top.distinctOn!;
  const on = q.args(open);
  if (on.length === 0) {
    throw new PetrelError(StatusCode.PlanQuery, `${PLANNING}No \`ON\` expressions provided`);
  }
  const depth = parent[top.select];
  const clauses = clauseStarts(q, top.items[top.items.length - 1][1], depth);
  refuseAggregation(q, top, clauses);
  const order = clauses.orderBy === undefined ? [] : orderItems(q, clauses.orderBy + 2, clauses.orderEnd);
  const keyOf = (range: [number, number]) => exprKey(q, resolveOrdinal(q, top, range));
  if (
    order.length > 0 &&
    (order.length < on.length ||
      on.some((r, j) => exprKey(q, r) !== keyOf([order[j].range[0], order[j].exprEnd])))
  ) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `${PLANNING}SELECT DISTINCT ON expressions must match initial ORDER BY expressions`,
    );
  }
  const sourceEnd = clauses.orderBy ?? clauses.tailStart;
  const source = emit(top.items[top.items.length - 1][1], sourceEnd);
  const relations = env.scopes.get(depth) ?? [];
  // a `*` over relations of unknown columns is read by preparing it, and the helper columns are then
  // named by position (a CTE's column list), so SQLite's names of the `*` columns need not be known
  let starOf: ((item: [number, number]) => string[]) | undefined;
  if (env.columnsOf && items.some((item) => isStar(q, item.range) && !starTables(q, relations, item.range))) {
    const columnsOf = env.columnsOf;
    starOf = ([a, b]) => columnsOf(`${prefix}SELECT ${emit(a, b).trim()}${source}`);
  }
  const columns: OutputColumn[] = [];
  for (const item of items) columns.push(...outputColumns(env, relations, item, starOf));
  const windowOrder = order.map((o) => {
    const expr = resolveOrdinal(q, top, [o.range[0], o.exprEnd]);
    if (expr[0] === o.range[0]) return emit(o.range[0], o.range[1]).trim();
    return `${emit(expr[0], expr[1]).trim()}${o.desc ? " DESC" : ""} NULLS ${
      o.nullsFirst ? "FIRST" : "LAST"
    }`;
  });
  const partition = on.map(([a, b]) => emit(a, b).trim()).join(", ");
  const rowNumber = `row_number() OVER (PARTITION BY ${partition}${
    windowOrder.length ? ` ORDER BY ${windowOrder.join(", ")}` : ""
  })`;
  // the output is sorted by the ON expressions only (DataFusion's plan): one row per value, so no ties
  const keys = order.length ? on.map(([a, b]) => emit(a, b).trim()) : [];
  const helpers = [`${rowNumber} AS __petrel_rn`, ...keys.map((k, j) => `${k} AS __petrel_k${j}`)];
  const outerOrder = order.length
    ? ` ORDER BY ${
      on.map((_, j) =>
        `__petrel_k${j}${order[j].desc ? " DESC" : ""} NULLS ${order[j].nullsFirst ? "FIRST" : "LAST"}`
      ).join(", ")
    }`
    : "";
  const select = emit(top.select, top.select + 1).trim();
  const names = columns.map((c, i) => `__petrel_c${i} AS ${quoteIdent(c.name)}`).join(", ");
  const filter = ` WHERE __petrel_rn = 1${outerOrder}${emit(clauses.tailStart, clauses.end)}`;
  const hints = columns.map((c) => c.hint);
  if (!starOf) {
    const inner = columns.map((c, i) => `${c.sql} AS __petrel_c${i}`);
    const sql = `${prefix}${select} ${names} FROM (SELECT ${
      [...inner, ...helpers].join(", ")
    }${source})${filter}`;
    return { sql, end: clauses.end, hints };
  }
  const list = [
    ...columns.map((_, i) => `__petrel_c${i}`),
    "__petrel_rn",
    ...keys.map((_, j) => `__petrel_k${j}`),
  ];
  const exprs = items.map((item) =>
    isStar(q, item.range) ? emit(...item.range).trim() : columnsSql(env, item)
  );
  const cte = `__petrel_d(${list.join(", ")}) AS (SELECT ${[...exprs, ...helpers].join(", ")}${source})`;
  const withText = prefix.trim() === "" ? `WITH ${cte} ` : `${prefix.trimEnd()}, ${cte} `;
  return { sql: `${withText}${select} ${names} FROM __petrel_d${filter}`, end: clauses.end, hints };
}

/** Where the clauses after the select list start, at the SELECT's own depth. */
function clauseStarts(
  q: QueryTokens,
  from: number,
  depth: number,
): { orderBy?: number; orderEnd: number; tailStart: number; groupBy?: number; end: number } {
  const { toks, match, parent } = q;
  let orderBy: number | undefined, groupBy: number | undefined, tailStart: number | undefined;
  let k = from;
  for (; k < toks.length; k++) {
    if (isOp(toks[k], "(")) {
      k = match[k];
      continue;
    }
    if (parent[k] !== depth || isOp(toks[k], ")")) break;
    const t = toks[k];
    if (isKeyword(t, "UNION", "EXCEPT", "INTERSECT")) {
      throw unsupported("DISTINCT ON cannot be combined with UNION, EXCEPT or INTERSECT here");
    }
    if (isKeyword(t, "ORDER") && isKeyword(toks[k + 1], "BY") && orderBy === undefined) orderBy = k;
    if ((isKeyword(t, "GROUP") && isKeyword(toks[k + 1], "BY")) || isKeyword(t, "HAVING")) groupBy ??= k;
    if (isKeyword(t, "LIMIT", "OFFSET", "FETCH") && tailStart === undefined) tailStart = k;
  }
  tailStart ??= k;
  return { orderBy, orderEnd: tailStart, tailStart, groupBy, end: k };
}

/** DataFusion refuses DISTINCT ON beside GROUP BY, aggregates and window functions (not in subqueries). */
function refuseAggregation(q: QueryTokens, top: TopSelect, clauses: { groupBy?: number }): void {
  const { toks, match } = q;
  let aggregated = clauses.groupBy !== undefined;
  for (let k = top.items[0][0]; k < top.items[top.items.length - 1][1] && !aggregated; k++) {
    const t = toks[k];
    if (isOp(t, "(") && isKeyword(toks[k + 1], "SELECT")) k = match[k];
    else if (isKeyword(t, "OVER")) aggregated = true;
    else if (t.kind === "ident" && isOp(toks[k + 1], "(")) {
      aggregated = AGGREGATE_NAMES.has(t.text.toLowerCase());
    }
  }
  if (aggregated) {
    throw new PetrelError(
      StatusCode.Unsupported,
      "Failed to plan SQL: This feature is not implemented: DISTINCT ON expressions with GROUP BY, " +
        "aggregation or window functions are not supported ",
    );
  }
}

/** The items of an ORDER BY list from `s` to `e`. */
function orderItems(q: QueryTokens, s: number, e: number): OrderItem[] {
  const { toks } = q;
  const out: OrderItem[] = [];
  for (const [a, b] of splitTopLevel(q, s, e)) {
    let exprEnd = b;
    let nulls: boolean | undefined;
    if (isKeyword(toks[exprEnd - 2], "NULLS") && isKeyword(toks[exprEnd - 1], "FIRST", "LAST")) {
      nulls = isKeyword(toks[exprEnd - 1], "FIRST");
      exprEnd -= 2;
    }
    const desc = isKeyword(toks[exprEnd - 1], "DESC");
    if (isKeyword(toks[exprEnd - 1], "ASC", "DESC")) exprEnd--;
    out.push({ range: [a, b], exprEnd, desc, nullsFirst: nulls ?? desc });
  }
  return out;
}

/** The comma-separated ranges of `[s, e)` (brackets skipped). */
function splitTopLevel(q: QueryTokens, s: number, e: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = s;
  for (let k = s; k < e; k++) {
    if (isOp(q.toks[k], "(")) k = q.match[k];
    else if (isOp(q.toks[k], ",")) {
      out.push([start, k]);
      start = k + 1;
    }
  }
  if (e > start) out.push([start, e]);
  return out;
}

/** An ORDER BY expression that names a select item by position or alias: that item's expression. */
function resolveOrdinal(q: QueryTokens, top: TopSelect, [a, b]: [number, number]): [number, number] {
  const t = q.toks[a];
  if (b - a !== 1) return [a, b];
  if (t.kind === "number" && /^\d+$/.test(t.text)) {
    const item = top.items[Number(t.text) - 1];
    return item ? [item[0], aliasOf(q.toks, item[0], item[1]).exprEnd] : [a, b];
  }
  if (t.kind !== "ident" && t.kind !== "qident") return [a, b];
  for (const [s, e] of top.items) {
    const { exprEnd, hasAlias } = aliasOf(q.toks, s, e);
    if (hasAlias && q.lower(q.toks[e - 1]) === q.lower(t)) return [s, exprEnd];
  }
  return [a, b];
}

/** A comparable form of an expression: names lowercased as resolved, relation qualifiers dropped. */
function exprKey(q: QueryTokens, [a, b]: [number, number]): string {
  const { toks } = q;
  const parts: string[] = [];
  for (let k = a; k < b; k++) {
    const t = toks[k];
    const named = t.kind === "ident" || t.kind === "qident";
    if (named && isOp(toks[k + 1], ".") && !isOp(toks[k + 2], "*") && k + 2 < b) {
      k++;
      continue;
    }
    parts.push(
      named ? `n:${q.lower(t)}` : `${t.kind}:${t.kind === "string" ? t.value : t.text.toLowerCase()}`,
    );
  }
  return parts.join(" ");
}

/** One output column: its SQL, its name and its type when SQLite cannot tell it. */
interface OutputColumn {
  sql: string;
  name: string;
  hint?: ResultType;
}

/** Whether an item is `*` or `t.*`. */
function isStar(q: QueryTokens, [s, e]: [number, number]): boolean {
  return isOp(q.toks[e - 1], "*") && (e - s === 1 || (e - s === 3 && isOp(q.toks[s + 1], ".")));
}

/** The relations a `*` or `t.*` item spells out, when all are storage tables. */
function starTables(
  q: QueryTokens,
  scope: readonly FromRelation[],
  [s, e]: [number, number],
): readonly FromRelation[] | undefined {
  const named = e - s === 1
    ? scope
    : scope.filter((r) => r.name.toLowerCase() === q.toks[s].value.toLowerCase());
  return named.length > 0 && named.every((r) => r.table) ? named : undefined;
}

/** An item's expression as SQL. */
function columnsSql(env: DistinctOnEnv, item: RenderedItem): string {
  const [s, e] = item.range;
  return env.emit(s, aliasOf(env.q.toks, s, e).exprEnd).trim();
}

/**
 * The columns an item brings: its expression and the name SQLite would have given it (the `AS`
 * name, the column's own, or the expression's text); `*` and `t.*` are spelled out from the tables,
 * or named by `starOf`.
 */
function outputColumns(
  env: DistinctOnEnv,
  scope: readonly FromRelation[],
  item: RenderedItem,
  starOf?: (item: [number, number]) => string[],
): OutputColumn[] {
  const { q } = env;
  const { toks } = q;
  const [s, e] = item.range;
  if (isStar(q, item.range)) {
    const tables = starTables(q, scope, item.range);
    if (tables) {
      return tables.flatMap(({ name, table }) =>
        table!.columns.map((c) => ({ sql: `${quoteIdent(name)}.${quoteIdent(c.name)}`, name: c.name }))
      );
    }
    if (starOf) return starOf(item.range).map((name) => ({ sql: "", name }));
    const what = e - s === 1 ? "a view, CTE or subquery" : toks[s].value;
    throw unsupported(
      `DISTINCT ON with * in a subquery needs the columns of ${what}: name them (* is spelled out for tables)`,
    );
  }
  const { exprEnd, hasAlias } = aliasOf(toks, s, e);
  const sql = columnsSql(env, item);
  const last = toks[exprEnd - 1];
  const columnRef = (last.kind === "ident" || last.kind === "qident") &&
    (exprEnd - s === 1 || (isOp(toks[exprEnd - 2], ".") && isPath(toks, s, exprEnd)));
  const name = hasAlias ? toks[e - 1].value : item.name ?? (columnRef ? q.lower(last) : sql);
  return [{ sql, name, hint: item.hint }];
}

/** Whether `[s, e)` is a dotted name (`t.col`, `db.t.col`). */
function isPath(toks: Token[], s: number, e: number): boolean {
  for (let k = s; k < e; k++) {
    const named = toks[k].kind === "ident" || toks[k].kind === "qident";
    if ((k - s) % 2 === 0 ? !named : !isOp(toks[k], ".")) return false;
  }
  return (e - s) % 2 === 1;
}
