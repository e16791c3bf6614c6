/**
 * What a range query reads: one table, or one CTE, view or derived table that keeps a table's time
 * index (GreptimeDB takes any input whose schema still has one). The slots are placed by that time
 * index, and without `BY (…)` the rows are grouped by the table's tags that the source keeps.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { DataType } from "../../common/rows.ts";
import type { TableMeta } from "../../storage/mod.ts";
import { resolveTableRef } from "../catalog_view.ts";
import { isKeyword, isOp, type Token, tokenize } from "../lexer.ts";
import { NOT_ALIAS, originalText, type QueryTokens } from "../query_tokens.ts";
import type { Rewritten } from "../rewrite.ts";
import type { RewriteEnv } from "./context.ts";
import type { RangeQuery } from "./range_parse.ts";
import type { RangeTable } from "./range_select.ts";
import { outputColumns, type ViewColumn } from "./views.ts";
import { withCtes } from "./ctes.ts";

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

/** A range query's source: its columns, its relation name, and an alias its FROM clause needs. */
export interface RangeSource {
  table: RangeTable;
  relation: string;
  fromAlias?: string;
}

/** Relation name given to a derived table without an alias. */
const DERIVED_ALIAS = "__petrel_src";

function oneRelation(): Error {
  return invalidArguments(
    "Range Query: a range query reads exactly one table, view, CTE or subquery (no joins in FROM)",
  );
}

/** Finds what the range query's FROM clause reads and the columns that place and group its rows. */
export function rangeSource(
  q: QueryTokens,
  rq: RangeQuery,
  env: RewriteEnv,
  ctes: ReadonlySet<string>,
  rewrite: Rewrite,
): RangeSource {
  const { toks, match, lower } = q;
  const start = rq.from + 1;
  const end = rq.where ?? rq.align;
  for (let i = start; i < end; i++) {
    if (isOp(toks[i], "(")) i = match[i];
    else if (isOp(toks[i], ",") || isKeyword(toks[i], "JOIN")) throw oneRelation();
  }
  // the name (`a.b.c`) or the derived table, then an optional alias up to the end of FROM
  let j = start;
  const parts: string[] = [];
  if (isOp(toks[j], "(")) j = match[j] + 1;
  else {
    while (toks[j] && (toks[j].kind === "ident" || toks[j].kind === "qident")) {
      parts.push(lower(toks[j]));
      j++;
      if (!isOp(toks[j], ".")) break;
      j++;
    }
  }
  let alias: string | undefined;
  if (isKeyword(toks[j], "AS") && toks[j + 1]) alias = toks[j + 1].value, j += 2;
  else if (
    toks[j]?.kind === "qident" || (toks[j]?.kind === "ident" && !NOT_ALIAS.has(toks[j].text.toUpperCase()))
  ) {
    alias = toks[j].value, j++;
  }
  if (j !== end || (parts.length === 0 && !isOp(toks[start], "("))) throw oneRelation();

  if (parts.length > 0 && !(parts.length === 1 && ctes.has(parts[0]))) {
    const resolved = resolveTableRef(env.storage, env.db, parts);
    if (resolved.kind === "table") {
      return { table: resolved.table, relation: alias ?? parts[parts.length - 1] };
    }
    if (resolved.kind !== "view") throw oneRelation();
  }
  const relation = alias ?? (parts.length ? parts[parts.length - 1] : DERIVED_ALIAS);
  // the source's columns, read by preparing `[WITH …] SELECT * FROM <source>` on its own
  const withText = rq.ctes ? originalText(env.sql, toks, 0, rq.ctes[1]) + " " : "";
  const sql = `${withText}SELECT * FROM ${originalText(env.sql, toks, start, end)}`;
  const tokens = tokenize(sql);
  const query = rewrite(tokens, {
    storage: env.storage,
    db: env.db,
    sql,
    timezone: env.timezone,
    ...(env.defaultUnit ? { defaultUnit: env.defaultUnit } : {}),
    ...(env.views ? { views: env.views } : {}),
    // a range query nested in a subquery reads the CTEs of the query around it
    ...(env.ctes?.length ? { ctes: env.ctes } : {}),
  });
  const shown = alias ?? (parts.length ? parts.join(".") : "the subquery in FROM");
  const prepared = { ...query, sql: withCtes(env.ctes ?? [], tokens, query.sql) };
  const table = keptTimeIndex(outputColumns(env.storage, prepared), query.tables, shown);
  return {
    table,
    relation,
    ...(alias === undefined && parts.length === 0 ? { fromAlias: DERIVED_ALIAS } : {}),
  };
}

/**
 * The source's time index: the column that copies a table's time index (by SQLite's column origin,
 * or by name and timestamp type where an expression such as a nested range query made it).
 */
function keptTimeIndex(columns: ViewColumn[], tables: TableMeta[], shown: string): RangeTable {
  const copies = (c: ViewColumn, t: TableMeta, column: string) =>
    c.origin ? c.origin.table === t.name && c.origin.column === column : c.name === column;
  for (const t of tables) {
    const ts = columns.find((c) => copies(c, t, t.timeIndex) && c.type?.startsWith("Timestamp"));
    if (!ts) continue;
    const typed = columns.flatMap((c) => c.type ? [{ name: c.name, type: c.type as DataType }] : []);
    return {
      timeIndex: ts.name,
      primaryKey: t.primaryKey.flatMap((k) => columns.find((c) => copies(c, t, k))?.name ?? []),
      columns: typed,
    };
  }
  throw invalidArguments(
    `Range Query: ${shown} has no time index column (a range query places rows by a table's time index)`,
  );
}
