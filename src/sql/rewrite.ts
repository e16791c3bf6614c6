/**
 * Rewrites a GreptimeDB-dialect query into SQLite SQL: table names are resolved through the catalog
 * (quoted, ttl-filtered), `::` casts, `interval '…'`, timestamp strings compared with time columns
 * and time functions become integers or user functions in the unit of the time column they meet.
 *
 * The parts live in `rewrite/`: query-wide checks (`scan`), table references (`tables`), the unit of
 * each expression segment (`time_scope`), token rewrites (`tokens`), the call table (`functions`)
 * and rendering (`emit`).
 */
import type { DataType, ResultType } from "../common/rows.ts";
import { unsupported } from "../common/errors.ts";
import type { TableMeta } from "../storage/mod.ts";
import { nullTagColumns, quoteOutputName } from "../storage/table.ts";
import type { Token } from "./lexer.ts";
import { isOp, tokenize } from "./lexer.ts";
import type { OutputContext } from "./output_columns.ts";
import { columnRefName, itemHint, outputName } from "./output_columns.ts";
import { unitOfType } from "../common/time_unit.ts";
import { nestedCompoundCasts } from "./rewrite/nested_compounds.ts";
import { branchUnits } from "./rewrite/branch_units.ts";
import { madeUp, originalText, QueryTokens } from "./query_tokens.ts";
import { aliasOf, findTopSelect, subqueryItems } from "./select_list.ts";
import { Cursor } from "./cursor.ts";
import { expandArrayBrackets } from "./array_brackets.ts";
import { expandWithinGroup } from "./within_group.ts";
import type { InfoSchemaUse } from "./catalog_view.ts";
import type { RewriteEnv } from "./rewrite/context.ts";
import { Emitter } from "./rewrite/emit.ts";
import { cteNames, scanLimitAndPlaceholders } from "./rewrite/scan.ts";
import { columnTypes, type FromRelation, resolveTableRefs, type TableRefs } from "./rewrite/tables.ts";
import { timeScope } from "./rewrite/time_scope.ts";
import { columnResolver } from "./rewrite/column_scope.ts";
import { checkGroupedColumns } from "./rewrite/grouped_columns.ts";
import { traceBounds } from "./rewrite/trace_bound.ts";
import { metricSeriesFilters } from "./rewrite/metric_series.ts";
import { timeComparisons } from "./rewrite/time_compare.ts";
import { parseRangeQuery } from "./rewrite/range_parse.ts";
import { renderRangeQuery } from "./rewrite/range_select.ts";
import { rangeSource } from "./rewrite/range_source.ts";
import { inlineViews, outputColumns } from "./rewrite/views.ts";
import { recursionGuards } from "./rewrite/recursion_guard.ts";
import { valuesColumnAliases } from "./rewrite/values_alias.ts";
import { inlineDerivedTables } from "./rewrite/derived_tables.ts";
import { planCtes, withCtes } from "./rewrite/ctes.ts";
import { compoundTypes } from "./rewrite/union_types.ts";
import { seriesTables } from "./rewrite/series.ts";
import { INTERVAL_TYPE, intervalNs } from "./rewrite/interval_arith.ts";
import { expandGroupingSets } from "./rewrite/grouping_sets.ts";
import { qualifyAsSubquery } from "./rewrite/qualify.ts";
import { rebuildUnnest } from "./rewrite/unnest.ts";
import { rebuildAtAt } from "./rewrite/at_at.ts";
import { nestedDistinctOn, renderDistinctOn, type RenderedItem } from "./rewrite/distinct_on.ts";

export type { RewriteEnv } from "./rewrite/context.ts";

/** A rewritten query. */
export interface Rewritten {
  sql: string;
  /** Data types of output columns that SQLite cannot report (time functions), by position. */
  hints: Array<ResultType | undefined>;
  /** The database whose connection must run the query (all its tables live there). */
  database: string;
  /** Types of columns that reach the result through an expression (null-tag mapping), by name. */
  nameTypes: Map<string, DataType>;
  usesInfoSchema: boolean;
  /** The information_schema tables to fill before the query runs. */
  infoSchema: InfoSchemaUse;
  /** The storage tables the query reads (through its views too). */
  tables: TableMeta[];
}

/** Columns that only a walk of every page of the file (or a count of a table's rows) can fill. */
const SIZE_COLUMNS = new Set([
  "data_length",
  "table_rows",
  "avg_row_length",
  "index_length",
  "region_rows",
  "disk_size",
  "sst_size",
  "index_size",
]);

/** Rewrites the tokens of one query (or of a DELETE's WHERE clause). */
export function rewriteQuery(tokensIn: Token[], env: RewriteEnv): Rewritten {
  // rebuilt as new SQL text, which is rewritten again (until no grouping set, QUALIFY, unnest or @@ is left)
  const rebuilt = expandGroupingSets(tokensIn, env.sql) ?? qualifyAsSubquery(tokensIn, env, rewriteQuery) ??
    rebuildUnnest(tokensIn, env.sql) ?? rebuildAtAt(tokensIn, env.sql);
  if (rebuilt !== undefined) return rewriteQuery(tokenize(rebuilt), { ...env, sql: rebuilt });
  const cursor = new Cursor(tokensIn, env.sql);
  const q = new QueryTokens(expandWithinGroup(expandArrayBrackets(tokensIn, cursor), cursor), cursor);
  const ctes = cteNames(q);
  for (const c of env.ctes ?? []) ctes.add(c.name);
  const limit = scanLimitAndPlaceholders(q);
  const refs = resolveTableRefs(q, env, ctes, limit);
  const views = inlineViews(refs, refs.views, env, rewriteQuery);
  const planned = planCtes(q, refs, views, env, rewriteQuery);
  const inner = { ...env, ctes: planned.ctes };
  inlineDerivedTables(q, refs, views, inner, planned.unplanned, planned.spans, rewriteQuery);
  const resolve = columnResolver(q, refs.sources, (s) => views.columnsOf.get(s.cte ?? s.at));
  const scoped = (i: number) => resolve(i)?.type;
  const colTypes = columnTypes(refs, views.relations);
  let subItems: Map<number, number> | undefined;
  // a scalar subquery's unit (a segment's when it names no time column) is its output type's
  const typing: OutputContext = {
    q,
    relations: refs.relations,
    colTypes,
    scopedType: scoped,
    // the relation an unqualified column reads, which DataFusion names it by inside an expression
    qualifierAt: (pos) => {
      const i = q.toks.findIndex((t) => t.pos === pos);
      return i < 0 ? undefined : resolve(i)?.relation.name;
    },
    columnTypeAt: (i) => time.columnTypeAt(i),
    isTsColumn: (i) => time.isTsColumn(i),
    unitAt: (i) => time.unitAt(i),
    viewTypes: views.columnTypes,
    compoundTypesAt: (open) => compoundTypes(typing, open).types,
    isSubqueryItem: (s, e) => (subItems ??= subqueryItems(q)).get(s) === e,
  };
  const range = parseRangeQuery(q);
  // a range query's own check of its items is range_parse's
  if (!range) checkGroupedColumns({ q, sql: env.sql, sources: refs.sources, resolve, naming: typing });
  const time = timeScope(
    q,
    env,
    [...refs.tables, ...views.relations],
    colTypes,
    scoped,
    (open) => unitOfType(itemHint(typing, open, q.match[open] + 1) ?? ""),
  );
  for (const extra of [recursionGuards(q), valuesColumnAliases(q)]) {
    // all of a rewrite's pieces or none: half of one would break the statement
    if ([...extra.keys()].some((k) => refs.replacements.has(k))) continue;
    for (const [k, r] of extra) refs.replacements.set(k, r);
  }
  const emitter = new Emitter(q, env, time, refs.replacements);
  // the emitter reads the replacements as it renders: the bounds render their literals through it
  for (const [at, r] of traceBounds(q, refs.traceRefs, emitter.emit)) refs.replacements.set(at, r);
  for (const [at, r] of metricSeriesFilters(q, refs.metricRefs, env.storage, emitter.emit)) {
    refs.replacements.set(at, r);
  }
  const series = seriesTables(emitter.ctx, refs.series);
  for (const [at, r] of series.replacements) refs.replacements.set(at, r);
  const outCtx: OutputContext = {
    ...typing,
    viewTypes: series.replacements.size > 0 && !views.columnTypes.has("value")
      ? new Map([...views.columnTypes, ["value", series.valueType]])
      : views.columnTypes,
    compoundTypesAt: (open) => compoundTypes(outCtx, open).types,
  };
  // timestamps of different units meeting in a comparison, a subquery's compound, a CASE
  const compared = timeComparisons(outCtx, emitter.emit);
  for (
    const r of [
      ...compared.rewrites,
      ...nestedCompoundCasts(outCtx, emitter.emit, compared.inSubqueries),
      ...branchUnits(outCtx, emitter.emit),
    ]
  ) emitter.addLazy(r.start, r.end, r.render);
  // a derived table rewritten on its own (inlineDerivedTables) already holds its DISTINCT ON
  const replaced = [...refs.replacements];
  nestedDistinctOn(
    { q, emit: emitter.emit, scopes: refs.scopes },
    (at) => replaced.some(([from, r]) => from < at && at < r.end),
    (at, end, text) => refs.replacements.set(at, { end, text }),
  );
  const { sql, hints } = range
    ? renderRangeQuery(range, {
      env,
      emitter,
      replacements: refs.replacements,
      outCtx,
      ...rangeSource(q, range, env, ctes, rewriteQuery),
    })
    : renderQuery(
      q,
      env,
      emitter,
      outCtx,
      refs.replacements,
      refs.scopes,
      (sql) =>
        outputColumns(env.storage, {
          // a CTE planned on its own reads the CTEs before it
          sql: withCtes(env.ctes ?? [], q.toks, sql),
          hints: [],
          nameTypes: new Map(),
          database: queryDatabase([...refs.tables, ...views.tables], env),
          usesInfoSchema: refs.usesInfoSchema,
          infoSchema: { tables: refs.infoTables, sizes: false },
          tables: [],
        }).map((c) => c.name),
    );
  const tables = [...refs.tables, ...views.tables];
  const types = nameTypes(refs);
  for (const [name, type] of views.nameTypes) if (!types.has(name)) types.set(name, type);
  // a series' column keeps its type when no row tells it
  if (refs.series.length > 0 && !types.has("value")) types.set("value", series.valueType);
  return {
    sql,
    hints,
    database: queryDatabase(tables, env),
    nameTypes: types,
    usesInfoSchema: refs.usesInfoSchema,
    infoSchema: {
      tables: refs.infoTables,
      // a `*` may be a select-all (or a product): measured then, to be safe
      sizes: views.infoSizes || refs.usesInfoSchema &&
          q.toks.some((t) =>
            isOp(t, "*") || ((t.kind === "ident" || t.kind === "qident") && SIZE_COLUMNS.has(q.lower(t)))
          ),
    },
    tables,
  };
}

/**
 * The whole query rewritten; the outermost select list also gets output types SQLite cannot see,
 * and names for rewritten expressions (GreptimeDB names a column after its original text).
 */
function renderQuery(
  q: QueryTokens,
  env: RewriteEnv,
  emitter: Emitter,
  outCtx: OutputContext,
  replacements: TableRefs["replacements"],
  scopes: ReadonlyMap<number, readonly FromRelation[]>,
  columnsOf: (sql: string) => string[],
): { sql: string; hints: Array<ResultType | undefined> } {
  const { toks, match } = q;
  const { emit, gap, tokenText } = emitter;
  const hints: Array<ResultType | undefined> = [];
  const top = findTopSelect(toks, match);
  if (!top) return { sql: emit(0, toks.length), hints };
  const compound = compoundTypes(outCtx);
  // the later SELECTs' columns are cast where they stand; the first's below, keeping their names
  const first = new Set(top.items.map(([s]) => s));
  for (const [s, cast] of compound.casts) {
    if (!first.has(s)) {
      replacements.set(s, { end: cast.end, text: cast.sql(emit(s, cast.end).trim()) });
    }
  }
  const items: RenderedItem[] = top.items.map(([s, e], idx) => {
    const { exprEnd, hasAlias } = aliasOf(toks, s, e);
    const original = originalText(env.sql, toks, s, exprEnd);
    const rewritten = emit(s, exprEnd).trim();
    const plain = toks.slice(s, exprEnd).map((t, k) => (k === 0 ? "" : gap(s + k)) + tokenText(t)).join("");
    const name = hasAlias || isOp(toks[e - 1], "*")
      ? undefined
      : outputName(outCtx, s, exprEnd, original, rewritten !== plain || madeUp(toks, s, exprEnd));
    return { range: [s, e], name, hint: compound.types[idx] ?? itemHint(outCtx, s, exprEnd) };
  });
  if (top.distinctOn !== undefined) {
    const env = { q, emit, scopes, columnsOf };
    const { sql, end, hints } = renderDistinctOn(env, top, items, emit(0, top.select));
    return { sql: sql + emit(end, toks.length), hints };
  }
  let out = emit(0, top.items[0][0]);
  let starSeen = false;
  items.forEach(({ range: [s, e], name, hint }, idx) => {
    if (idx > 0) out += emit(top.items[idx - 1][1], s);
    const { exprEnd, hasAlias } = aliasOf(toks, s, e);
    // `*` and `t.*` expand to columns the hints cannot count; `a * 2` is one column
    if (isOp(toks[e - 1], "*") && (e - s === 1 || isOp(toks[e - 2], "."))) starSeen = true;
    if (!starSeen) hints[idx] = hint;
    const cast = compound.casts.get(s);
    if (cast) {
      // a cast item keeps its name: a column reference's is its column's, an expression's its text
      const own = columnRefName(q, [s, exprEnd]) !== undefined
        ? toks[exprEnd - 1].value
        : originalText(env.sql, toks, s, exprEnd);
      out += `${gap(s)}${cast.sql(emit(s, exprEnd).trim())}` +
        (hasAlias ? emit(exprEnd, e) : ` AS ${quoteOutputName(name ?? own)}`);
      return;
    }
    const item = hint === INTERVAL_TYPE
      ? `${gap(s)}${intervalNs(q, s, exprEnd)}${emit(exprEnd, e)}`
      : emit(s, e);
    out += item + (name !== undefined ? ` AS ${quoteOutputName(name)}` : "");
  });
  out += emit(top.items[top.items.length - 1][1], toks.length);
  return { sql: out, hints };
}

/** Types of null-tag columns (and `numbers.number`) that reach the result through an expression. */
function nameTypes(refs: TableRefs): Map<string, DataType> {
  const types = new Map<string, DataType>();
  if (refs.usesNumbers) types.set("number", "UInt32");
  for (const t of refs.tables) {
    for (const c of nullTagColumns(t)) if (!types.has(c.name)) types.set(c.name, c.type);
  }
  return types;
}

/** The one database whose connection runs the query. */
function queryDatabase(tables: readonly TableMeta[], env: RewriteEnv): string {
  const dbs = new Set(tables.map((t) => t.db));
  if (dbs.size > 1) {
    throw unsupported(`A query cannot join tables of different databases (${[...dbs].sort().join(", ")})`);
  }
  return [...dbs][0] ?? (env.db === "information_schema" ? "public" : env.db);
}
