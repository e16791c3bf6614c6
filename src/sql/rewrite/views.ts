/**
 * Views named in a query become subqueries: the view's query is rewritten in the view's database
 * (so its own tables, time literals and output names follow the usual rules) and put in place of the
 * name, `(<query>) AS v`, for SQLite to plan with the rest. Its output columns and their types are
 * read by preparing that query, so the outer query's typing and time literals see them.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { DataType } from "../../common/rows.ts";
import type { Storage, TableMeta } from "../../storage/mod.ts";
import { quoteIdent } from "../../storage/table.ts";
import type { ViewMeta } from "../../storage/views.ts";
import { refreshInformationSchema } from "../catalog_view.ts";
import { registerSqlFunctions } from "../functions/registry.ts";
import { type Token, tokenize } from "../lexer.ts";
import { knownTypes, mapSqliteError } from "../results.ts";
import type { Rewritten } from "../rewrite.ts";
import type { RewriteEnv } from "./context.ts";
import type { TableRefs } from "./tables.ts";

/** A view named in a query: tokens `[start, end)` name it. */
export interface ViewRef {
  view: ViewMeta;
  start: number;
  end: number;
  alias?: string;
}

/** One output column of a view's query. */
export interface ViewColumn {
  name: string;
  /** Its GreptimeDB type, when known before the query runs. */
  type?: DataType;
  /** The table column it is a plain copy of (SQLite's origin), if any. */
  origin?: { table: string; column: string };
}

/** A view's query rewritten, with its output columns. */
export interface PlannedView {
  query: Rewritten;
  columns: ViewColumn[];
  /** The SQLite text that replaces the view's name (without an alias). */
  sql: string;
}

/** What the views of a query bring to it. */
export interface ViewScope {
  /** The views' columns of known type, as relations for time scope and output typing. */
  relations: Array<{ columns: Array<{ name: string; type: DataType }> }>;
  /** The storage tables the views read (they decide the connection that runs the query). */
  tables: TableMeta[];
  /** Types of the views' columns by name (for columns that reach the result through `*`). */
  nameTypes: Map<string, DataType>;
  /** The same by lowercased name (for output columns naming one). */
  columnTypes: Map<string, DataType>;
  /** Whether a view reads information_schema's sizes. */
  infoSizes: boolean;
  /**
   * Each planned subquery's output columns, by the token of its reference (a view's name, a derived
   * table's bracket) or by its lowercased name (a CTE): scoped column lookups read them.
   */
  columnsOf: Map<number | string, readonly ViewColumn[]>;
}

type Rewrite = (tokens: Token[], env: RewriteEnv) => Rewritten;

/** Views nest at most this deep (a guard besides the cycle check). */
const MAX_DEPTH = 32;

/** Rewrites a view's query in its database and reads its output columns. */
export function planView(view: ViewMeta, env: RewriteEnv, rewrite: Rewrite): PlannedView {
  const path = env.views ?? [];
  const qualified = `greptime.${view.db}.${view.name}`;
  if (path.includes(qualified) || path.length >= MAX_DEPTH) {
    throw invalidArguments(
      `Invalid view "${qualified}": it refers to itself (${[...path, qualified].join(" -> ")})`,
    );
  }
  const query = rewrite(tokenize(view.query), {
    storage: env.storage,
    db: view.db,
    sql: view.query,
    timezone: env.timezone,
    views: [...path, qualified],
  });
  const read = outputColumns(env.storage, query);
  if (view.columns.length > 0 && view.columns.length !== read.length) {
    throw invalidArguments(
      `Invalid view "${qualified}": it names ${view.columns.length} columns but its query has ${read.length}`,
    );
  }
  const columns = view.columns.length === 0 ? read : read.map((c, i) => ({ ...c, name: view.columns[i] }));
  const sql = view.columns.length === 0
    ? `(${query.sql})`
    : `(WITH __petrel_view(${
      view.columns.map(quoteIdent).join(", ")
    }) AS (${query.sql}) SELECT * FROM __petrel_view)`;
  return { query, columns, sql };
}

/** The output columns of a rewritten query, read by preparing it (nothing runs). */
export function outputColumns(storage: Storage, q: Rewritten): ViewColumn[] {
  const handle = storage.database(q.database);
  registerSqlFunctions(handle.conn);
  try {
    // only attaches the schema: preparing needs its tables to exist, not their rows
    if (q.usesInfoSchema) refreshInformationSchema(handle.conn, storage, { tables: [], sizes: false });
    const stmt = handle.conn.prepare(q.sql);
    const types = knownTypes(stmt, q.hints, q.nameTypes);
    return stmt.columns().map((c, i) => ({
      name: c.name,
      // an interval is no column type: a view's interval column is read as its nanoseconds
      ...(types[i] !== undefined && types[i] !== "IntervalMonthDayNano"
        ? { type: types[i] as DataType }
        : {}),
      ...(c.table !== null && c.column !== null ? { origin: { table: c.table, column: c.column } } : {}),
    }));
  } catch (e) {
    throw mapSqliteError(e, q.database);
  }
}

/** Puts every view the query names in place as a subquery; returns what the views bring. */
export function inlineViews(
  refs: TableRefs,
  viewRefs: ViewRef[],
  env: RewriteEnv,
  rewrite: Rewrite,
): ViewScope {
  const scope: ViewScope = {
    relations: [],
    tables: [],
    nameTypes: new Map(),
    columnTypes: new Map(),
    infoSizes: false,
    columnsOf: new Map(),
  };
  for (const ref of viewRefs) {
    const planned = planView(ref.view, env, rewrite);
    const alias = ref.alias ? "" : ` AS ${quoteIdent(ref.view.name)}`;
    refs.replacements.set(ref.start, { end: ref.end, text: planned.sql + alias });
    addToScope(scope, refs, planned, ref.start);
  }
  return scope;
}

/**
 * Adds a planned subquery's typed columns and tables to the scope of the query around it (`key`:
 * where it is named, as in {@link ViewScope.columnsOf}).
 */
export function addToScope(
  scope: ViewScope,
  refs: TableRefs,
  planned: PlannedView,
  key: number | string,
): void {
  scope.columnsOf.set(key, planned.columns);
  const typed = planned.columns.flatMap((c) => (c.type ? [{ name: c.name, type: c.type }] : []));
  scope.relations.push({ columns: typed });
  for (const c of typed) {
    if (!scope.nameTypes.has(c.name)) scope.nameTypes.set(c.name, c.type);
    const lower = c.name.toLowerCase();
    if (!scope.columnTypes.has(lower)) scope.columnTypes.set(lower, c.type);
  }
  scope.tables.push(...planned.query.tables);
  const info = planned.query.infoSchema;
  if (planned.query.usesInfoSchema) {
    refs.usesInfoSchema = true;
    for (const t of info.tables) if (!refs.infoTables.includes(t)) refs.infoTables.push(t);
    scope.infoSizes ||= info.sizes;
  }
}
