/**
 * DDL statements: CREATE/DROP DATABASE, CREATE/DROP/TRUNCATE TABLE, parsed from tokens and applied
 * through the storage catalog; ALTER is `alter.ts`, COMMENT ON `comment.ts`.
 */
import { invalidArguments, PetrelError, StatusCode, unsupported } from "../common/errors.ts";
import type { Storage } from "../storage/mod.ts";
import type { ColumnMeta } from "../storage/table.ts";
import type { QueryOutput, TableOptions } from "../common/rows.ts";
import { createTable } from "../storage/ddl.ts";
import type { TableSpec } from "../storage/ddl.ts";
import { Cursor } from "./cursor.ts";
import { unsupportedKeyword } from "./format_check.ts";
import { isOp } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { getView } from "../storage/views.ts";
import { isLogicalTable, isPhysicalTable } from "../storage/metric_layout.ts";
import { alterStatement } from "./alter.ts";
import { commentStatement } from "./comment.ts";
import { affected, notATable, parseColumnDef, parseOptions, type Session, tableName } from "./ddl_syntax.ts";

export { parseOptions, tableName } from "./ddl_syntax.ts";
export type { Session } from "./ddl_syntax.ts";

function skipBalanced(cur: Cursor): void {
  let depth = 0;
  do {
    const t = cur.next();
    if (isOp(t, "(")) depth++;
    else if (isOp(t, ")")) depth--;
  } while (depth > 0);
}

function parseNameList(cur: Cursor): string[] {
  const out: string[] = [];
  cur.expectOp("(");
  if (cur.acceptOp(")")) return out;
  do out.push(cur.ident("a column name")); while (cur.acceptOp(","));
  cur.expectOp(")");
  return out;
}

function createTableStatement(storage: Storage, cur: Cursor, session: Session): QueryOutput {
  const ifNotExists = cur.acceptKw("IF", "NOT", "EXISTS");
  const { db, table } = tableName(cur.objectName(), session);
  if (cur.acceptKw("LIKE")) return createTableLike(storage, cur, session, db, table, ifNotExists);
  const columns: ColumnMeta[] = [];
  let timeIndex: string | undefined;
  let primaryKey: string[] = [];
  cur.expectOp("(");
  do {
    if (cur.acceptKw("TIME", "INDEX")) {
      const names = parseNameList(cur);
      if (names.length !== 1) throw invalidArguments("TIME INDEX must name exactly one column");
      if (timeIndex !== undefined && timeIndex !== names[0]) throw cur.error("Expected: only one TIME INDEX");
      timeIndex = names[0];
    } else if (cur.acceptKw("PRIMARY", "KEY")) primaryKey = parseNameList(cur);
    else {
      const def = parseColumnDef(cur);
      columns.push(def.col);
      if (def.timeIndex) {
        if (timeIndex !== undefined) throw cur.error("Expected: only one TIME INDEX");
        timeIndex = def.col.name;
      }
      if (def.primaryKey) primaryKey.push(def.col.name);
    }
  } while (cur.acceptOp(","));
  cur.expectOp(")");
  let engine = "mito";
  let options: TableOptions = {};
  while (!cur.atEnd) {
    if (cur.acceptKw("PARTITION", "ON", "COLUMNS")) {
      skipBalanced(cur);
      skipBalanced(cur);
    } else if (cur.acceptKw("ENGINE")) {
      cur.expectOp("=");
      engine = cur.ident("an engine name");
      if (engine !== "mito" && engine !== "metric") throw invalidArguments(`Unsupported engine: ${engine}`);
    } else if (cur.acceptKw("WITH")) options = { ...options, ...parseOptions(cur) };
    else throw cur.error(`Expected: ENGINE or WITH, found: ${cur.describe()}`);
  }
  if (!timeIndex) throw invalidArguments(`Missing time index constraint in table ${table}`);
  const spec: TableSpec = { name: table, columns, timeIndex, primaryKey, options, engine };
  if (getView(storage.database(db), table)) {
    if (ifNotExists) return affected(0);
    throw new PetrelError(StatusCode.TableAlreadyExists, `Table already exists: \`greptime.${db}.${table}\``);
  }
  createTable(storage.database(db), spec, ifNotExists);
  return affected(0);
}

/**
 * `CREATE TABLE [IF NOT EXISTS] t LIKE source` (after LIKE): an empty table with the source's columns,
 * keys, engine and options, as GreptimeDB's. Metric-engine tables are refused: a copy would be another
 * physical table or another metric on the same physical table, not what the statement reads as.
 */
function createTableLike(
  storage: Storage,
  cur: Cursor,
  session: Session,
  db: string,
  table: string,
  ifNotExists: boolean,
): QueryOutput {
  const from = tableName(cur.objectName(), session);
  cur.expectEnd();
  const source = storage.database(from.db).requireTable(from.table);
  if (isPhysicalTable(source) || isLogicalTable(source)) {
    throw unsupported(`CREATE TABLE … LIKE a metric-engine table (${source.name}) is not supported`);
  }
  const spec: TableSpec = {
    name: table,
    columns: structuredClone(source.columns),
    timeIndex: source.timeIndex,
    primaryKey: [...source.primaryKey],
    options: { ...source.options },
    engine: source.engine,
  };
  if (getView(storage.database(db), table)) {
    if (ifNotExists) return affected(0);
    throw new PetrelError(StatusCode.TableAlreadyExists, `Table already exists: \`greptime.${db}.${table}\``);
  }
  createTable(storage.database(db), spec, ifNotExists);
  return affected(0);
}

/** Runs CREATE/DROP/ALTER/TRUNCATE/COMMENT statements; undefined if the statement is not DDL. */
export function executeDdl(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
): QueryOutput | undefined {
  const cur = new Cursor(tokens, sql);
  if (cur.acceptKw("CREATE")) {
    if (cur.acceptKw("DATABASE") || cur.acceptKw("SCHEMA")) {
      const ifNotExists = cur.acceptKw("IF", "NOT", "EXISTS");
      const name = cur.ident("a database name");
      const options = cur.acceptKw("WITH") ? parseOptions(cur) : {};
      cur.expectEnd();
      storage.createDatabase(name, ifNotExists, options);
      // GreptimeDB answers 1 even when IF NOT EXISTS found the database
      return affected(1);
    }
    if (cur.acceptKw("TABLE")) return createTableStatement(storage, cur, session);
    if (cur.acceptKw("EXTERNAL") || cur.acceptKw("VIEW") || cur.acceptKw("FLOW") || cur.acceptKw("OR")) {
      throw unsupported(`Unsupported statement: CREATE ${cur.tokens[1].text.toUpperCase()}`);
    }
    throw unsupportedKeyword(cur.describe());
  }
  if (cur.acceptKw("DROP")) {
    if (cur.acceptKw("DATABASE") || cur.acceptKw("SCHEMA")) {
      const ifExists = cur.acceptKw("IF", "EXISTS");
      const name = cur.ident("a database name");
      cur.expectEnd();
      if (!storage.hasDatabase(name)) {
        if (ifExists) return affected(0);
        throw new PetrelError(StatusCode.DatabaseNotFound, `Database not found: ${name}`);
      }
      storage.dropDatabase(name);
      return affected(0);
    }
    if (cur.acceptKw("TABLE")) {
      const ifExists = cur.acceptKw("IF", "EXISTS");
      const names: Array<{ db: string; table: string }> = [];
      do names.push(tableName(cur.objectName(), session)); while (cur.acceptOp(","));
      cur.expectEnd();
      for (const { db, table } of names) {
        const handle = storage.database(db);
        if (!handle.getTable(table)) {
          if (ifExists && !getView(handle, table)) continue;
          throw notATable(handle, db, table, "drop it with DROP VIEW");
        }
        storage.dropTable(db, table);
      }
      return affected(0);
    }
    throw unsupportedKeyword(cur.describe());
  }
  if (cur.acceptKw("ALTER")) return alterStatement(storage, cur, session);
  if (cur.acceptKw("COMMENT")) return commentStatement(storage, cur, session);
  if (cur.acceptKw("TRUNCATE")) {
    cur.acceptKw("TABLE");
    const { db, table } = tableName(cur.objectName(), session);
    cur.expectEnd();
    const handle = storage.database(db);
    if (!handle.getTable(table)) throw notATable(handle, db, table, "a view has no rows of its own");
    storage.truncateTable(db, table);
    return affected(0);
  }
  return undefined;
}
