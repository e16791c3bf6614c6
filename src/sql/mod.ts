/**
 * The SQL front: splits a request into statements and runs each on the storage, returning one
 * QueryOutput per statement.
 *
 * ```ts
 * const [out] = executeSql(storage, "SELECT host, avg(v) FROM cpu GROUP BY host", { db: "public" });
 * ```
 */
import { databaseNotFound, invalidArguments, unsupported } from "../common/errors.ts";
import type { Storage } from "../storage/mod.ts";
import { INFORMATION_SCHEMA } from "../storage/mod.ts";
import type { QueryOutput, Value } from "../common/rows.ts";
import { Cursor } from "./cursor.ts";
import { executeDdl, tableName } from "./ddl.ts";
import type { Session } from "./ddl.ts";
import { executeDelete, executeInsert } from "./dml.ts";
import { explainHere } from "./explain.ts";
import { registerSqlFunctions } from "./functions/registry.ts";
import { splitStatements } from "./lexer.ts";
import type { StatementText, Token } from "./lexer.ts";
import { infoTableNames } from "./catalog_view.ts";
import { mapSqliteError, runQuery } from "./results.ts";
import { rewriteQuery } from "./rewrite.ts";
import { statementError } from "./rewrite/unknown_field.ts";
import {
  DESC_COLUMNS,
  describeTable,
  renderCreateDatabase,
  renderCreateTable,
  stringRecords,
} from "./show.ts";
import { canonicalTimezone } from "./time.ts";
import { checkSyntax } from "./format.ts";
import { unsupportedKeyword } from "./format_check.ts";
import { setVariable, showVariable } from "./set_variable.ts";
import { describeInformationSchema, showFromInfoSchema } from "./show_info.ts";
import { getView, listViews } from "../storage/views.ts";
import {
  describeView,
  executeViewStatement,
  isViewStatement,
  refreshInfoSchemaFor,
  showCreateView,
} from "./view.ts";

export type { Session } from "./ddl.ts";

/** Request context of {@link executeSql}. */
export interface SqlContext {
  db: string;
  /** The request's `x-greptime-timezone`; absent means `systemTimezone`. */
  timezone?: string;
  /** The server's `default_timezone` (UTC when absent). */
  systemTimezone?: string;
}

const READ_STATEMENTS = ["SELECT", "WITH", "SHOW", "DESC", "DESCRIBE", "EXPLAIN", "VALUES", "TQL"];

/** GreptimeDB's `Statement::is_readonly`: SELECT/SHOW/DESC/EXPLAIN read, everything else writes. */
export function isReadOnlySql(sql: string): boolean {
  let statements: StatementText[];
  try {
    statements = splitStatements(sql);
  } catch {
    return false;
  }
  return statements.every((s) => {
    let i = 0;
    while (s.tokens[i]?.kind === "op" && s.tokens[i].text === "(") i++;
    const first = s.tokens[i];
    return first?.kind === "ident" && READ_STATEMENTS.includes(first.text.toUpperCase());
  });
}

/**
 * Runs every `;`-separated statement; the first failure throws a PetrelError. It runs synchronously,
 * so the rare function groups its statements use must be loaded before (`loadFunctionsFor`, or
 * `withLazyFunctions` around it, in `functions/registry.ts`); `executeSqlAsync` does both.
 */
export function executeSql(storage: Storage, sql: string, ctx: SqlContext): QueryOutput[] {
  const session = startSession(storage, sql, ctx);
  const outputs: QueryOutput[] = [];
  for (const stmt of parseStatements(sql)) outputs.push(executeStatement(storage, stmt.tokens, sql, session));
  return outputs;
}

/**
 * The statements of a request, each passed through the syntax check of `/v1/sql/format`: GreptimeDB
 * parses them all before it runs the first, so a mistake anywhere fails the request with its parser's
 * error, and runs nothing (`INSERT …; SELECT 1 2` inserts no row).
 */
export function parseStatements(sql: string): StatementText[] {
  const statements = splitStatements(sql);
  for (const s of statements) checkSyntax(sql, s);
  return statements;
}

/** Checks a request's sql, database and timezone, and starts its session. */
export function startSession(storage: Storage, sql: string, ctx: SqlContext): Session {
  if (typeof sql !== "string" || sql.trim() === "") throw invalidArguments("sql parameter is required.");
  if (!storage.hasDatabase(ctx.db)) throw databaseNotFound(ctx.db);
  const timezone = ctx.timezone ? canonicalTimezone(ctx.timezone) : ctx.systemTimezone;
  return { db: ctx.db, timezone, systemTimezone: ctx.systemTimezone };
}

function likeToRegExp(pattern: string): RegExp {
  const re = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("%", ".*").replaceAll("_", ".");
  return new RegExp(`^${re}$`, "s");
}

/** Applies `LIKE 'p'` or `WHERE expr` of a SHOW statement to its rows. */
export function filterShow(
  storage: Storage,
  cur: Cursor,
  session: Session,
  names: string[],
  rows: Value[][],
): Value[][] {
  if (cur.acceptKw("LIKE")) {
    const p = cur.next();
    if (p.kind !== "string") throw cur.error(`Expected: a string after LIKE, found: ${p.text}`);
    cur.expectEnd();
    const re = likeToRegExp(p.value);
    return rows.filter((r) => re.test(String(r[0])));
  }
  if (cur.acceptKw("WHERE")) {
    if (rows.length === 0) return rows;
    const where = cur.tokens.slice(cur.i);
    cur.i = cur.tokens.length;
    const handle = storage.database("public");
    const q = rewriteQuery(where, { storage, db: session.db, sql: cur.sql });
    const values = rows.map((r) =>
      `(${r.map((v) => (v === null ? "NULL" : `'${String(v).replaceAll("'", "''")}'`)).join(", ")})`
    );
    const cols = names.map((n) => `"${n.replaceAll('"', '""')}"`).join(", ");
    const sql = `WITH __petrel_show(${cols}) AS (VALUES ${
      values.join(", ")
    }) SELECT * FROM __petrel_show WHERE ${q.sql}`;
    try {
      const out = runQuery(handle.conn, sql);
      return out.kind === "records" ? out.rows : rows;
    } catch (e) {
      throw mapSqliteError(e, session.db);
    }
  }
  cur.expectEnd();
  return rows;
}

function showStatement(storage: Storage, cur: Cursor, session: Session): QueryOutput {
  if (cur.acceptKw("DATABASES") || cur.acceptKw("SCHEMAS")) {
    const rows = storage.listDatabases().map((d): Value[] => [d]);
    return stringRecords(["Database"], filterShow(storage, cur, session, ["Database"], rows));
  }
  const full = cur.acceptKw("FULL");
  if (cur.acceptKw("TABLES")) {
    let db = session.db;
    if (cur.acceptKw("FROM") || cur.acceptKw("IN")) db = cur.ident("a database name");
    if (!storage.hasDatabase(db)) throw databaseNotFound(db);
    let rows: Value[][];
    if (db === INFORMATION_SCHEMA) {
      rows = infoTableNames().map((t) => [t, "LOCAL TEMPORARY"]);
    } else {
      rows = storage.listTables(db).map((t): Value[] => [t.name, "BASE TABLE"]);
      for (const v of listViews(storage.database(db))) rows.push([v.name, "VIEW"]);
      if (db === "public") rows.push(["numbers", "LOCAL TEMPORARY"]);
      rows.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    }
    const names = full ? ["Tables", "Table_type"] : ["Tables"];
    if (!full) rows = rows.map((r) => [r[0]]);
    return stringRecords(names, filterShow(storage, cur, session, names, rows));
  }
  const answered = showFromInfoSchema(
    storage,
    cur,
    session,
    full,
    (text) => runSelect(storage, splitStatements(text)[0].tokens, text, session),
  );
  if (answered) return answered;
  if (full) throw cur.error(`Expected: TABLES after SHOW FULL, found: ${cur.describe()}`);
  if (cur.acceptKw("VIEWS")) {
    let db = session.db;
    if (cur.acceptKw("FROM") || cur.acceptKw("IN")) db = cur.ident("a database name");
    if (!storage.hasDatabase(db)) throw databaseNotFound(db);
    const views = db === INFORMATION_SCHEMA ? [] : listViews(storage.database(db));
    const rows = views.map((v): Value[] => [v.name]);
    return stringRecords(["Views"], filterShow(storage, cur, session, ["Views"], rows));
  }
  if (cur.acceptKw("CREATE", "DATABASE") || cur.acceptKw("CREATE", "SCHEMA")) {
    const db = cur.ident("a database name");
    cur.expectEnd();
    if (!storage.hasDatabase(db)) throw databaseNotFound(db);
    return stringRecords(["Database", "Create Database"], [[
      db,
      renderCreateDatabase(db, storage.databaseOptions(db)),
    ]]);
  }
  if (cur.acceptKw("CREATE", "TABLE")) {
    const parts = cur.objectName();
    const { db, table } = tableName(parts, session);
    cur.expectEnd();
    const handle = storage.database(db);
    if (!handle.getTable(table) && getView(handle, table)) return showCreateView(storage, parts, session);
    const t = handle.requireTable(table);
    return stringRecords(["Table", "Create Table"], [[t.name, renderCreateTable(t)]]);
  }
  if (cur.acceptKw("VARIABLES")) {
    const name = cur.ident("a variable name");
    cur.expectEnd();
    return showVariable(name, session);
  }
  throw unsupportedKeyword(cur.describe());
}

function runSelect(storage: Storage, tokens: Token[], sql: string, session: Session): QueryOutput {
  const q = rewriteQuery(tokens, { storage, db: session.db, sql, timezone: session.timezone });
  const handle = storage.database(q.database);
  registerSqlFunctions(handle.conn);
  try {
    refreshInfoSchemaFor(handle.conn, storage, q, session.timezone);
    return runQuery(handle.conn, q.sql, q.hints, q.nameTypes);
  } catch (e) {
    throw mapSqliteError(e, q.database);
  }
}

/** Runs one statement on the calling thread (the session carries USE and SET between statements). */
export function executeStatement(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
): QueryOutput {
  const cur = new Cursor(tokens, sql);
  const first = tokens[0];
  const word = first?.kind === "ident" ? first.text.toUpperCase() : first?.text ?? "";
  try {
    if (isViewStatement(tokens)) return executeViewStatement(storage, tokens, sql, session);
    switch (word) {
      case "SELECT":
      case "WITH":
      case "VALUES":
      case "(":
        return runSelect(storage, tokens, sql, session);
      case "INSERT":
        return executeInsert(storage, tokens, sql, session);
      case "DELETE":
        return executeDelete(storage, tokens, sql, session);
      case "SHOW":
        cur.next();
        return showStatement(storage, cur, session);
      case "DESC":
      case "DESCRIBE": {
        cur.next();
        if (cur.acceptKw("DATABASE")) throw unsupported("DESC DATABASE is not supported");
        cur.acceptKw("TABLE");
        const { db, table } = tableName(cur.objectName(), session);
        cur.expectEnd();
        if (db === INFORMATION_SCHEMA) {
          return describeInformationSchema(
            table,
            (text) => runSelect(storage, splitStatements(text)[0].tokens, text, session),
          );
        }
        const handle = storage.database(db);
        const view = handle.getTable(table) ? undefined : getView(handle, table);
        if (view) return describeView(storage, view, session);
        // GreptimeDB's built-in `numbers` table (SELECT and SHOW TABLES see it too): its one key column
        if (db === "public" && table.toLowerCase() === "numbers" && !handle.getTable(table)) {
          return stringRecords(DESC_COLUMNS, [["number", "UInt32", "PRI", "NO", "", "TAG"]]);
        }
        return describeTable(handle.requireTable(table));
      }
      case "USE": {
        cur.next();
        const db = cur.ident("a database name");
        cur.expectEnd();
        if (!storage.hasDatabase(db)) throw databaseNotFound(db);
        session.db = db;
        return { kind: "affected", rows: 0 };
      }
      case "SET":
        cur.next();
        return setVariable(cur, session);
      case "EXPLAIN":
        return explainHere(storage, tokens, sql, session);
      case "UPDATE":
        throw unsupported("UPDATE is not supported");
      case "COPY":
        throw unsupported("COPY is not available here: it runs through /v1/sql");
      case "TQL":
        throw unsupported("TQL is not available here: it needs the PromQL engine (use /v1/sql)");
      default: {
        const ddl = executeDdl(storage, tokens, sql, session);
        if (ddl) return ddl;
        throw cur.error(`Expected: an SQL statement, found: ${first?.text ?? "EOF"}`);
      }
    }
  } catch (e) {
    throw statementError(e, storage, session.db, tokens, sql);
  }
}
