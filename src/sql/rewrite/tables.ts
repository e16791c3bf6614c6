/** Table references (FROM and JOIN) resolved through the catalog, and the columns they bring. */
import type { DataType } from "../../common/rows.ts";
import type { TableMeta } from "../../storage/mod.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { resolveTableRef, tableRefSql } from "../catalog_view.ts";
import { NOT_ALIAS, type QueryTokens } from "../query_tokens.ts";
import type { RewriteEnv } from "./context.ts";
import { isTraceTable, type TraceRef } from "./trace_bound.ts";
import type { ViewRef } from "./views.ts";
import { isSeriesFunction, type SeriesRef } from "./series.ts";
import { isMetricRef, type MetricRef } from "./metric_series.ts";

/** The tables a query names and how their references are rewritten. */
export interface TableRefs {
  /** The SQL replacing each reference, keyed by its first token, up to token `end`. */
  replacements: Map<number, { end: number; text: string }>;
  /** Storage tables in scope (the env's extra tables first). */
  tables: TableMeta[];
  usesInfoSchema: boolean;
  /** The information_schema tables named. */
  infoTables: string[];
  /** Whether the built-in `numbers` table is used. */
  usesNumbers: boolean;
  /** The relations (alias or table name) of the outermost FROM clause. */
  relations: string[];
  /** The relations of each FROM clause, by the bracket around it (-1: the outermost), with their tables. */
  scopes: Map<number, FromRelation[]>;
  /** References to trace tables (which may take a time bound from their trace map). */
  traceRefs: TraceRef[];
  /** References to metric-engine logical tables (which may read only the series a tag picks). */
  metricRefs: MetricRef[];
  /** References to views (their replacements come from `views.ts`). */
  views: ViewRef[];
  /** The CTE names referenced (lowercased). */
  cteRefs: string[];
  /** The opening bracket of each subquery in a FROM list or after JOIN (a derived table). */
  derived: number[];
  /** Table functions generating series (`generate_series(…)`, `range(…)`; rendered by `series.ts`). */
  series: SeriesRef[];
  /** Every relation a FROM or JOIN names (derived tables, CTEs and series too), where it stands. */
  sources: SourceRelation[];
}

/** A relation named in a FROM clause at token `at` (a derived table's opening bracket). */
export interface SourceRelation {
  at: number;
  /** Its alias or table name (none for a derived table without an alias). */
  name?: string;
  /** The storage table it reads, if it is one. */
  table?: TableMeta;
  /** The CTE it names (lowercased), if it names one. */
  cte?: string;
}

/** A relation a FROM clause names, and its storage table if it is one. */
export interface FromRelation {
  name: string;
  table?: TableMeta;
}

// Functions whose argument syntax uses FROM without naming a table.
const FROM_FUNCTIONS = ["extract", "substring", "trim", "position", "overlay"];

/** Finds and resolves every table reference of the query. */
export function resolveTableRefs(
  q: QueryTokens,
  env: RewriteEnv,
  ctes: ReadonlySet<string>,
  limit: number | undefined,
): TableRefs {
  const { toks, parent, funcOf } = q;
  const refs: TableRefs = {
    replacements: new Map(),
    tables: [...(env.extraTables ?? [])],
    usesInfoSchema: false,
    infoTables: [],
    usesNumbers: false,
    relations: [],
    scopes: new Map(),
    traceRefs: [],
    metricRefs: [],
    views: [],
    cteRefs: [],
    derived: [],
    series: [],
    sources: [],
  };
  for (let i = 0; i < toks.length; i++) {
    if (isKeyword(toks[i], "FROM")) {
      if (isKeyword(toks[i - 1], "DISTINCT")) continue;
      const p = parent[i];
      if (p >= 0 && FROM_FUNCTIONS.includes(funcOf(p) ?? "")) continue;
      parseRef(q, env, ctes, limit, refs, i + 1, true);
    } else if (isKeyword(toks[i], "JOIN")) parseRef(q, env, ctes, limit, refs, i + 1, false);
  }
  return refs;
}

/** Reads the reference at `start` (and the rest of a comma list when `inList`). */
function parseRef(
  q: QueryTokens,
  env: RewriteEnv,
  ctes: ReadonlySet<string>,
  limit: number | undefined,
  refs: TableRefs,
  start: number,
  inList: boolean,
): void {
  // a loop, not recursion: a list of thousands of references overflowed the stack
  for (let at: number | undefined = start; at !== undefined;) {
    const next = parseOneRef(q, env, ctes, limit, refs, at);
    at = inList ? next : undefined;
  }
}

/** Reads the reference at `start`; the token after the comma that follows it, if one does. */
function parseOneRef(
  q: QueryTokens,
  env: RewriteEnv,
  ctes: ReadonlySet<string>,
  limit: number | undefined,
  refs: TableRefs,
  start: number,
): number | undefined {
  const { toks, parent, lower, match } = q;
  let j = start;
  if (isOp(toks[j], "(") && match[j] > j) {
    refs.derived.push(j);
    // `FROM (SELECT …) AS d, t`: the list goes on after the subquery's alias
    const aliased = aliasAt(q, match[j] + 1);
    refs.sources.push({ at: j, name: aliased.alias });
    let after = aliased.after;
    if (isOp(toks[after], "(") && match[after] > after) after = match[after] + 1;
    return isOp(toks[after], ",") ? after + 1 : undefined;
  }
  if (!toks[j] || (toks[j].kind !== "ident" && toks[j].kind !== "qident")) return undefined;
  if (isKeyword(toks[j], "LATERAL", "UNNEST")) return undefined;
  const parts = [lower(toks[j])];
  j++;
  while (
    isOp(toks[j], ".") && toks[j + 1] && (toks[j + 1].kind === "ident" || toks[j + 1].kind === "qident")
  ) {
    parts.push(lower(toks[j + 1]));
    j += 2;
  }
  if (isOp(toks[j], "(")) {
    if (parts.length !== 1 || !isSeriesFunction(parts[0])) return undefined;
    refs.series.push({ name: parts[0], start });
    const { alias, after } = aliasAt(q, q.match[j] + 1);
    refs.sources.push({ at: start, name: alias ?? parts[0] });
    if (parent[start] === -1) refs.relations.push(alias ?? parts[0]);
    return isOp(toks[after], ",") ? after + 1 : undefined;
  }
  const { alias, after } = aliasAt(q, j);
  const isCte = parts.length === 1 && ctes.has(parts[0]);
  if (isCte) refs.cteRefs.push(parts[0]);
  // a compound's output columns are named by its first SELECT: only its FROM names them
  if (parent[start] === -1 && !afterSetOperator(q, start)) {
    refs.relations.push(alias ?? parts[parts.length - 1]);
  }
  if (isCte) refs.sources.push({ at: start, name: alias ?? parts[0], cte: parts[0] });
  else {
    const resolved = resolveTableRef(env.storage, env.db, parts);
    if (resolved.kind === "table") refs.tables.push(resolved.table);
    refs.sources.push({
      at: start,
      name: alias ?? parts[parts.length - 1],
      table: resolved.kind === "table" ? resolved.table : undefined,
    });
    const scope = refs.scopes.get(parent[start]) ?? [];
    scope.push({
      name: alias ?? parts[parts.length - 1],
      table: resolved.kind === "table" ? resolved.table : undefined,
    });
    refs.scopes.set(parent[start], scope);
    if (resolved.kind === "table" && isTraceTable(resolved.table)) {
      const names = [(alias ?? parts[parts.length - 1]).toLowerCase()];
      refs.traceRefs.push({ table: resolved.table, start, after, names });
    }
    if (resolved.kind === "table" && isMetricRef(resolved.table)) {
      const names = [(alias ?? parts[parts.length - 1]).toLowerCase()];
      refs.metricRefs.push({ table: resolved.table, start, after, names, end: j, alias });
    }
    if (resolved.kind === "info") refs.usesInfoSchema = true, refs.infoTables.push(resolved.name);
    if (resolved.kind === "numbers") refs.usesNumbers = true;
    if (resolved.kind === "view") refs.views.push({ view: resolved.view, start, end: j, alias });
    else refs.replacements.set(start, { end: j, text: tableRefSql(resolved, alias, limit) });
  }
  return isOp(toks[after], ",") ? after + 1 : undefined;
}

/** The alias of a table reference whose name ends before token `j`, and the token after it. */
function aliasAt(q: QueryTokens, j: number): { alias?: string; after: number } {
  const t = q.toks[j];
  // normalized as DataFusion does (an unquoted alias lowercased): it qualifies output column names
  if (isKeyword(t, "AS") && q.toks[j + 1]) return { alias: q.lower(q.toks[j + 1]), after: j + 2 };
  if (t && (t.kind === "qident" || (t.kind === "ident" && !NOT_ALIAS.has(t.text.toUpperCase())))) {
    return { alias: q.lower(t), after: j + 1 };
  }
  return { after: j };
}

/** A relation's columns, as typing needs them (a table's, or a view's of known type). */
export interface Relation {
  columns: ReadonlyArray<{ name: string; type: DataType }>;
}

/** Types of the columns of every table (and view) in scope, by lowercased name (the first wins). */
export function columnTypes(refs: TableRefs, views: readonly Relation[] = []): Map<string, DataType> {
  const colTypes = new Map<string, DataType>();
  if (refs.usesNumbers) colTypes.set("number", "UInt32");
  for (const t of [...refs.tables, ...views]) {
    for (const c of t.columns) {
      if (!colTypes.has(c.name.toLowerCase())) colTypes.set(c.name.toLowerCase(), c.type);
    }
  }
  return colTypes;
}

/** Each query's first UNION, EXCEPT or INTERSECT at the top level (Infinity: none). */
const firstSetOperators = new WeakMap<QueryTokens, number>();

/** Whether a UNION, EXCEPT or INTERSECT at the top level comes before token `i`. */
function afterSetOperator(q: QueryTokens, i: number): boolean {
  let first = firstSetOperators.get(q);
  if (first === undefined) {
    // found once: a statement may have thousands of top-level references to ask about
    first = Infinity;
    for (let k = 0; k < q.toks.length; k++) {
      if (isOp(q.toks[k], "(")) k = q.match[k];
      else if (isKeyword(q.toks[k], "UNION", "EXCEPT", "INTERSECT")) {
        first = k;
        break;
      }
    }
    firstSetOperators.set(q, first);
  }
  return first < i;
}
