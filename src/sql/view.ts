/**
 * The view statements: `CREATE [OR REPLACE] VIEW [IF NOT EXISTS]`, `DROP VIEW [IF EXISTS]`,
 * `SHOW CREATE VIEW`, `DESC VIEW` (`SHOW VIEWS` and the table statements that also see views live
 * with SHOW TABLES in `mod.ts`). Views are stored per database (`storage/views.ts`); a query naming
 * one runs the view's query as a subquery (`rewrite/views.ts`).
 */
import type { DatabaseSync } from "node:sqlite";
import { invalidArguments, PetrelError, StatusCode, tableNotFound } from "../common/errors.ts";
import type { QueryOutput, Value } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { allocateViewId, deleteView, getView, saveView, type ViewMeta } from "../storage/views.ts";
import { Cursor } from "./cursor.ts";
import { type Session, tableName } from "./ddl.ts";
import { isKeyword, isOp, type Token } from "./lexer.ts";
import { runQuery } from "./results.ts";
import { withDeadline } from "./functions/registry.ts";
import { rewriteQuery, type Rewritten } from "./rewrite.ts";
import { refreshInformationSchema } from "./catalog_view.ts";
import { planView } from "./rewrite/views.ts";
import { stringRecords } from "./show.ts";

/** Whether a statement is one of the view statements of this module. */
export function isViewStatement(tokens: Token[]): boolean {
  const [a, b, c, d] = tokens;
  if (isKeyword(a, "CREATE")) return isKeyword(b, "VIEW") || isKeyword(b, "OR") && isKeyword(d, "VIEW");
  if (isKeyword(a, "DROP")) return isKeyword(b, "VIEW");
  if (isKeyword(a, "SHOW")) return isKeyword(b, "CREATE") && isKeyword(c, "VIEW");
  return isKeyword(a, "DESC", "DESCRIBE") && isKeyword(b, "VIEW");
}

/** Runs a view statement. */
export function executeViewStatement(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
): QueryOutput {
  const cur = new Cursor(tokens, sql);
  if (cur.acceptKw("CREATE")) return createView(storage, cur, session);
  if (cur.acceptKw("DROP", "VIEW")) {
    const ifExists = cur.acceptKw("IF", "EXISTS");
    const names: Array<{ db: string; table: string }> = [];
    do names.push(tableName(cur.objectName(), session)); while (cur.acceptOp(","));
    cur.expectEnd();
    for (const { db, table } of names) dropView(storage, db, table, ifExists);
    return { kind: "affected", rows: 0 };
  }
  if (cur.acceptKw("SHOW", "CREATE", "VIEW")) {
    const parts = cur.objectName();
    cur.expectEnd();
    return showCreateView(storage, parts, session);
  }
  cur.next();
  cur.expectKw("VIEW");
  const parts = cur.objectName();
  cur.expectEnd();
  const { db, table } = tableName(parts, session);
  const view = getView(storage.database(db), table);
  if (!view) throw viewNotFound(parts);
  return describeView(storage, view, session);
}

function viewNotFound(parts: string[]): PetrelError {
  return new PetrelError(StatusCode.TableNotFound, `View not found: ${parts.join(".")}`);
}

function createView(storage: Storage, cur: Cursor, session: Session): QueryOutput {
  const orReplace = cur.acceptKw("OR", "REPLACE");
  cur.expectKw("VIEW");
  const ifNotExists = cur.acceptKw("IF", "NOT", "EXISTS");
  const { db, table: name } = tableName(cur.objectName(), session);
  const columns: string[] = [];
  if (cur.acceptOp("(")) {
    do columns.push(cur.ident("a column name")); while (cur.acceptOp(","));
    cur.expectOp(")");
  }
  cur.expectKw("AS");
  const first = cur.peek();
  if (!isKeyword(first, "SELECT", "WITH", "VALUES") && !isOp(first, "(")) {
    throw cur.error(`Expected: SELECT, VALUES, or a subquery in the query body, found: ${cur.describe()}`);
  }
  if (orReplace && ifNotExists) {
    throw invalidArguments(
      "Invalid SQL, error: syntax error Create Or Replace and If Not Exist cannot be used together",
    );
  }
  const handle = storage.database(db);
  const qualified = `greptime.${db}.${name}`;
  if (handle.getTable(name)) {
    throw new PetrelError(StatusCode.TableAlreadyExists, `Table already exists: \`${qualified}\``);
  }
  const existing = getView(handle, name);
  if (existing && ifNotExists) return { kind: "affected", rows: 0 };
  if (existing && !orReplace) {
    throw new PetrelError(StatusCode.TableAlreadyExists, `View already exists: \`${qualified}\``);
  }
  const tokens = cur.tokens;
  const last = tokens[tokens.length - 1];
  const view: ViewMeta = {
    name: existing?.name ?? name,
    db,
    id: existing?.id ?? allocateViewId(handle),
    definition: cur.sql.slice(tokens[0].pos, last.pos + last.text.length),
    query: cur.sql.slice(first!.pos, last.pos + last.text.length),
    columns,
    orReplace,
    ifNotExists,
    createdAt: existing?.createdAt ?? Date.now(),
  };
  // planned now so a missing table or column fails the CREATE; `views` catches a view naming itself
  planView(view, { storage, db, sql: view.query, timezone: session.timezone }, rewriteQuery);
  saveView(handle, view);
  return { kind: "affected", rows: 0 };
}

function dropView(storage: Storage, db: string, name: string, ifExists: boolean): void {
  const handle = storage.database(db);
  if (deleteView(handle, name)) return;
  if (handle.getTable(name)) {
    throw invalidArguments(`Invalid view "greptime.${db}.${name}": not a view`);
  }
  if (!ifExists) throw tableNotFound(`greptime.${db}.${name}`);
}

/** GreptimeDB's `SHOW CREATE VIEW` text: the statement rebuilt around the query as written. */
export function renderCreateView(view: ViewMeta, shownName: string): string {
  const head = `CREATE ${view.orReplace ? "OR REPLACE " : ""}VIEW ${
    view.ifNotExists ? "IF NOT EXISTS " : ""
  }`;
  const cols = view.columns.length > 0 ? `(${view.columns.join(", ")}) ` : "";
  return `${head}${shownName} ${cols}AS ${view.query}`;
}

/** `SHOW CREATE VIEW` (and `SHOW CREATE TABLE` naming a view): columns `View`, `Create View`. */
export function showCreateView(storage: Storage, parts: string[], session: Session): QueryOutput {
  const { db, table } = tableName(parts, session);
  const view = getView(storage.database(db), table);
  if (!view) throw viewNotFound(parts);
  const shown = parts.join(".");
  return stringRecords(["View", "Create View"], [[shown, renderCreateView(view, shown)]]);
}

/** One output column of a view, as DESC VIEW and information_schema.columns show it. */
export interface ViewColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/** How long the reads of a view's rows (for its column types) may take, a recursive CTE's growth too. */
const PROBE_MS = 1000;

/** How many of a view's rows those reads look at (information_schema.columns types every view). */
const PROBE_ROWS = 1000;

/**
 * A view's output columns. A type SQLite cannot tell before the query runs (an arithmetic
 * expression) is read from the view's first row (of its first {@link PROBE_ROWS}) where that column
 * is not NULL, as a result set would show it (GreptimeDB types it from the plan, so a NULL first row
 * must not make it Null); a column is not null when it is a source table's time index or NOT NULL
 * column.
 */
export function viewColumns(storage: Storage, view: ViewMeta, timezone?: string): ViewColumn[] {
  const env = { storage, db: view.db, sql: view.query, timezone };
  const planned = planView(view, env, rewriteQuery);
  let types = planned.columns.map((c) => c.type as string | undefined);
  if (types.some((t) => t === undefined)) {
    const handle = storage.database(planned.query.database);
    // a view over an endless recursive CTE (or many NULL rows) would hold the thread (the server's)
    types = withDeadline(PROBE_MS, () => probeTypes(handle.conn, planned.sql, types));
  }
  return planned.columns.map((c, i) => {
    const table = c.origin &&
      planned.query.tables.find((t) => t.columns.some((x) => x.name === c.origin!.column));
    const col = table?.columns.find((x) => x.name === c.origin!.column);
    const notNull = col !== undefined && (col.name === table!.timeIndex || !col.nullable);
    return { name: c.name, type: types[i] ?? "Null", nullable: !notNull };
  });
}

/**
 * Types the untyped columns of the view query `from` off its rows: each round reads the first row
 * where one of the columns still untyped is not NULL, until all are typed, no row is left or the
 * deadline passes (`__petrel_alive()` then lets the next row through, ending the rounds).
 */
function probeTypes(
  conn: DatabaseSync,
  from: string,
  types: Array<string | undefined>,
): Array<string | undefined> {
  const out = [...types];
  const names = out.map((_, i) => `__c${i}`);
  const source = `WITH __petrel_probe(${
    names.join(", ")
  }) AS (SELECT * FROM ${from} AS __petrel_from LIMIT ${PROBE_ROWS})`;
  for (;;) {
    const open = out.flatMap((t, i) => t === undefined ? [i] : []);
    if (open.length === 0) return out;
    const picked = open.map((i) => names[i]);
    const found = runQuery(
      conn,
      `${source} SELECT ${picked.join(", ")} FROM __petrel_probe ` +
        `WHERE ${picked.map((n) => `${n} IS NOT NULL`).join(" OR ")} OR __petrel_alive() = 0 LIMIT 1`,
    );
    if (found.kind !== "records" || found.rows.length === 0) return out;
    const typed = open.filter((i, k) => {
      const t = found.columns[k]?.data_type;
      if (t === undefined || t === "Null") return false;
      out[i] = t;
      return true;
    });
    if (typed.length === 0) return out;
  }
}

/** `DESC VIEW`: the view's output columns, all FIELDs without a key. */
export function describeView(storage: Storage, view: ViewMeta, session: Session): QueryOutput {
  const rows = viewColumns(storage, view, session.timezone).map((c): Value[] => [
    c.name,
    c.type,
    "",
    c.nullable ? "YES" : "NO",
    "",
    "FIELD",
  ]);
  return stringRecords(["Column", "Type", "Key", "Null", "Default", "Semantic Type"], rows);
}

/** Fills the information_schema tables a rewritten query reads, views' columns typed in `timezone`. */
export function refreshInfoSchemaFor(
  conn: DatabaseSync,
  storage: Storage,
  q: Rewritten,
  timezone?: string,
): void {
  if (!q.usesInfoSchema) return;
  refreshInformationSchema(conn, storage, q.infoSchema, (v) => viewColumns(storage, v, timezone));
}
