/**
 * DDL statements: CREATE/DROP DATABASE, CREATE/DROP/ALTER/TRUNCATE TABLE, parsed from tokens and
 * applied through the storage catalog.
 */
import { invalidArguments, PetrelError, StatusCode, tableNotFound, unsupported } from "../common/errors.ts";
import type { Storage } from "../storage/mod.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import { isMetricTable } from "../storage/metric_layout.ts";
import type { ColumnMeta } from "../storage/table.ts";
import { modifyColumnType } from "./retype.ts";
import type { ColumnIndex, DataType, QueryOutput, TableOptions } from "../common/rows.ts";
import { isDecimalWord, parseSqlType } from "../storage/datatypes.ts";
import { indexOptions } from "../storage/column_index.ts";
import { addColumns, alterOptions, createTable, dropColumn, setColumnIndex } from "../storage/ddl.ts";
import type { TableSpec } from "../storage/ddl.ts";
import { Cursor } from "./cursor.ts";
import { isKeyword, isOp } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { getView } from "../storage/views.ts";

/** Session state a statement may read or change (`USE`, `SET time_zone`). */
export interface Session {
  db: string;
  timezone?: string;
  /** The server's default timezone (`default_timezone`), which `timezone` falls back to. */
  systemTimezone?: string;
}

const affected = (rows: number): QueryOutput => ({ kind: "affected", rows });

/** Resolves `[catalog.][db.]table` against the session. */
export function tableName(parts: string[], session: Session): { db: string; table: string } {
  if (parts.length === 1) return { db: session.db, table: parts[0] };
  if (parts.length === 2) return { db: parts[0], table: parts[1] };
  if (parts.length === 3 && parts[0] === "greptime") return { db: parts[1], table: parts[2] };
  throw invalidArguments(`Invalid table name: ${parts.join(".")}`);
}

/** Reads `(k = v, …)` options; keys may be 'quoted', dotted or bare, values strings, numbers or words. */
export function parseOptions(cur: Cursor): TableOptions {
  const out: TableOptions = {};
  cur.expectOp("(");
  if (cur.acceptOp(")")) return out;
  do {
    const k = cur.next();
    let key = k.kind === "string" || k.kind === "qident" ? k.value : k.text;
    while (cur.acceptOp(".")) key += "." + cur.next().text;
    cur.expectOp("=");
    const v = cur.next();
    if (v.kind === "op" && v.text === "-") out[key.toLowerCase()] = "-" + cur.next().text;
    else out[key.toLowerCase()] = v.kind === "string" || v.kind === "qident" ? v.value : v.text;
  } while (cur.acceptOp(","));
  cur.expectOp(")");
  return out;
}

function parseDataType(cur: Cursor): DataType {
  const word = cur.next();
  if (word.kind !== "ident" && word.kind !== "qident") {
    throw cur.error(`Expected: a data type, found: ${word.text}`);
  }
  const params: number[] = [];
  if (cur.acceptOp("(")) {
    do params.push(Number(cur.next().text)); while (cur.acceptOp(","));
    cur.expectOp(")");
  }
  const unsigned = cur.acceptKw("UNSIGNED");
  if (isDecimalWord(word.value) && !unsigned) return parseSqlType(word.value, params[0], false, params[1]);
  try {
    return parseSqlType(word.value, params[0], unsigned);
  } catch (e) {
    if (e instanceof PetrelError) throw cur.error(`Unsupported data type: ${word.value}`);
    throw e;
  }
}

function skipBalanced(cur: Cursor): void {
  let depth = 0;
  do {
    const t = cur.next();
    if (isOp(t, "(")) depth++;
    else if (isOp(t, ")")) depth--;
  } while (depth > 0);
}

const COLUMN_OPTION_STOP = [
  "NULL",
  "NOT",
  "DEFAULT",
  "COMMENT",
  "TIME",
  "PRIMARY",
  "FULLTEXT",
  "SKIPPING",
  "INVERTED",
  "INDEX",
];

/** A column definition; flags whether it declared itself time index or primary key. */
function parseColumnDef(cur: Cursor): { col: ColumnMeta; timeIndex: boolean; primaryKey: boolean } {
  const name = cur.ident("a column name");
  const type = parseDataType(cur);
  const col: ColumnMeta = { name, type, semantic: "FIELD", nullable: true };
  let timeIndex = false, primaryKey = false;
  for (;;) {
    if (cur.acceptKw("NOT", "NULL")) col.nullable = false;
    else if (cur.acceptKw("NULL")) col.nullable = true;
    else if (cur.acceptKw("DEFAULT")) {
      const start = cur.i;
      let depth = 0;
      while (!cur.atEnd) {
        const t = cur.peek()!;
        if (depth === 0 && (isOp(t, ",") || isOp(t, ")") || isKeyword(t, ...COLUMN_OPTION_STOP))) break;
        if (isOp(t, "(")) depth++;
        if (isOp(t, ")")) depth--;
        cur.i++;
      }
      if (cur.i === start) throw cur.error("Expected: a default value");
      col.default = cur.tokens.slice(start, cur.i).map((
        t,
      ) => (t.kind === "string" ? `'${t.value.replaceAll("'", "''")}'` : t.text)).join("");
      if (
        !/^('([^']|'')*'|-?[\d.eE+-]+|null|true|false|current_timestamp(\(\))?|now\(\))$/i.test(col.default)
      ) {
        throw invalidArguments(`Unsupported default value: ${col.default}`);
      }
      // GreptimeDB shows the function default in one spelling
      if (/^(current_timestamp(\(\))?|now\(\))$/i.test(col.default)) col.default = "current_timestamp()";
    } else if (cur.acceptKw("COMMENT")) {
      const t = cur.next();
      col.comment = t.value;
    } else if (cur.acceptKw("TIME", "INDEX")) timeIndex = true;
    else if (cur.acceptKw("PRIMARY", "KEY")) primaryKey = true;
    else if (cur.acceptKw("INVERTED", "INDEX")) col.index = { kind: "inverted", options: {} };
    else if (cur.acceptKw("FULLTEXT", "INDEX") || cur.acceptKw("SKIPPING", "INDEX")) {
      const kind = cur.tokens[cur.i - 2].text.toLowerCase() as "fulltext" | "skipping";
      const given = cur.acceptKw("WITH") ? parseOptions(cur) : {};
      if (kind === "fulltext" && type !== "String") {
        throw invalidArguments(`FULLTEXT index only supports string type, column ${name} is ${type}`);
      }
      try {
        col.index = { kind, options: indexOptions(kind, given) };
      } catch (e) {
        throw invalidArguments((e as Error).message);
      }
    } else break;
  }
  return { col, timeIndex, primaryKey };
}

function parseNameList(cur: Cursor): string[] {
  const out: string[] = [];
  cur.expectOp("(");
  if (cur.acceptOp(")")) return out;
  do out.push(cur.ident("a column name")); while (cur.acceptOp(","));
  cur.expectOp(")");
  return out;
}

/** `SET 'k' = 'v', …` or `UNSET 'k', …` of ALTER TABLE / ALTER DATABASE. */
function parseSetUnset(cur: Cursor): { set: TableOptions; unset: string[] } {
  const set: TableOptions = {};
  const unset: string[] = [];
  const key = (): string => {
    let k = cur.next().value;
    while (cur.acceptOp(".")) k += "." + cur.next().text;
    return k.toLowerCase();
  };
  if (cur.acceptKw("SET")) {
    do {
      const k = key();
      cur.expectOp("=");
      set[k] = cur.next().value;
    } while (cur.acceptOp(","));
  } else {
    cur.expectKw("UNSET");
    do unset.push(key()); while (cur.acceptOp(","));
  }
  cur.expectEnd();
  return { set, unset };
}

function createTableStatement(storage: Storage, cur: Cursor, session: Session): QueryOutput {
  const ifNotExists = cur.acceptKw("IF", "NOT", "EXISTS");
  const { db, table } = tableName(cur.objectName(), session);
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

/** The error for a table that is not there: a view of that name says it is one (and `why` not). */
function notATable(handle: DatabaseHandle, db: string, table: string, why: string): PetrelError {
  if (getView(handle, table)) return invalidArguments(`${db}.${table} is a view: ${why}`);
  return tableNotFound(`greptime.${db}.${table}`);
}

function alterTableStatement(storage: Storage, cur: Cursor, session: Session): QueryOutput {
  const { db, table } = tableName(cur.objectName(), session);
  const handle = storage.database(db);
  const meta = handle.getTable(table);
  if (!meta) throw notATable(handle, db, table, "replace it with CREATE OR REPLACE VIEW");
  if (cur.acceptKw("RENAME")) {
    cur.acceptKw("TO");
    const target = tableName(cur.objectName(), session);
    cur.expectEnd();
    if (target.db !== db) {
      throw invalidArguments(`Cannot rename ${table} into another database (${target.db})`);
    }
    storage.renameTable(db, meta.name, target.table);
    return affected(0);
  }
  if (isMetricTable(meta) && !isKeyword(cur.peek(), "SET", "UNSET")) {
    // columns of metric-engine tables follow the labels written; only options can change
    throw unsupported(
      `ALTER TABLE ${meta.name}: only SET/UNSET options are supported on metric engine tables`,
    );
  }
  if (cur.acceptKw("ADD")) {
    cur.acceptKw("COLUMN");
    const ifNotExists = cur.acceptKw("IF", "NOT", "EXISTS");
    const added: ColumnMeta[] = [];
    do {
      const def = parseColumnDef(cur);
      if (def.timeIndex) throw invalidArguments("Cannot add a time index column");
      def.col.semantic = def.primaryKey ? "TAG" : "FIELD";
      if (cur.acceptKw("FIRST") || cur.acceptKw("AFTER")) {
        throw unsupported("ADD COLUMN ... FIRST/AFTER is not supported");
      }
      added.push(def.col);
    } while (cur.acceptOp(",") && (cur.acceptKw("ADD") ? (cur.acceptKw("COLUMN"), true) : true));
    cur.expectEnd();
    const fresh = ifNotExists ? added.filter((c) => !meta.columns.some((o) => o.name === c.name)) : added;
    if (fresh.length > 0) handle.transaction(() => addColumns(handle, meta, fresh));
    return affected(0);
  }
  if (cur.acceptKw("DROP")) {
    cur.acceptKw("COLUMN");
    const name = cur.ident("a column name");
    cur.expectEnd();
    dropColumn(handle, meta, name);
    return affected(0);
  }
  if (isKeyword(cur.peek(), "SET", "UNSET")) {
    const { set, unset } = parseSetUnset(cur);
    alterOptions(handle, meta, set, unset);
    return affected(0);
  }
  if (cur.acceptKw("MODIFY", "COLUMN")) {
    const name = cur.ident("a column name");
    if (isKeyword(cur.peek(), "SET", "UNSET")) {
      setColumnIndex(handle, meta, name, parseIndexChange(cur));
      return affected(0);
    }
    const type = parseDataType(cur);
    cur.expectEnd();
    modifyColumnType(handle, meta, name, type);
    return affected(0);
  }
  throw unsupported(`Unsupported ALTER TABLE operation: ${cur.describe()}`);
}

/**
 * `SET FULLTEXT|SKIPPING INDEX [WITH (…)]`, `SET INVERTED INDEX` or `UNSET <kind> INDEX` after
 * `MODIFY COLUMN c`: the index the column is to have, or `{ unset: kind }`.
 */
function parseIndexChange(cur: Cursor): ColumnIndex | { unset: ColumnIndex["kind"] } {
  const unset = cur.acceptKw("UNSET");
  if (!unset) cur.expectKw("SET");
  const word = cur.next();
  const kind = isKeyword(word, "FULLTEXT", "SKIPPING", "INVERTED")
    ? word.text.toLowerCase() as ColumnIndex["kind"]
    : undefined;
  if (kind === undefined) throw cur.error(`Expected: FULLTEXT, SKIPPING or INVERTED, found: ${word.text}`);
  cur.expectKw("INDEX");
  if (unset) {
    cur.expectEnd();
    return { unset: kind };
  }
  const given = kind !== "inverted" && cur.acceptKw("WITH") ? parseOptions(cur) : {};
  cur.expectEnd();
  if (kind === "inverted") return { kind, options: {} };
  try {
    return { kind, options: indexOptions(kind, given) };
  } catch (e) {
    throw invalidArguments((e as Error).message);
  }
}

/** Runs CREATE/DROP/ALTER/TRUNCATE statements; undefined if the statement is not DDL. */
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
    throw cur.error(`Expected: DATABASE or TABLE after CREATE, found: ${cur.describe()}`);
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
    throw unsupported(`Unsupported statement: DROP ${cur.describe().toUpperCase()}`);
  }
  if (cur.acceptKw("ALTER")) {
    if (cur.acceptKw("TABLE")) return alterTableStatement(storage, cur, session);
    if (cur.acceptKw("DATABASE") || cur.acceptKw("SCHEMA")) {
      const name = cur.ident("a database name");
      if (!storage.hasDatabase(name)) {
        throw new PetrelError(StatusCode.DatabaseNotFound, `Database not found: ${name}`);
      }
      const { set, unset } = parseSetUnset(cur);
      storage.alterDatabase(name, set, unset);
      return affected(0);
    }
    throw unsupported(`Unsupported statement: ALTER ${cur.describe().toUpperCase()}`);
  }
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
