/**
 * `SHOW INDEX`, `SHOW TABLE STATUS`, `SHOW [FULL] COLUMNS`, `SHOW FULL DATABASES`,
 * `SHOW [FULL] PROCESSLIST`, `SHOW REGION`, `SHOW CHARACTER SET`, `SHOW COLLATION` and `SHOW STATUS`: as in
 * GreptimeDB, each is a query of an information_schema table (`key_column_usage`, `tables`, `columns`,
 * `schemata`, `process_list`, `region_peers`, `character_sets`, `collations`, `session_status`) under
 * MySQL's column names,
 * so `LIKE` and `WHERE` filter it as they would the table, and the types are the table's.
 */
import { databaseNotFound, tableNotFound } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import { INFORMATION_SCHEMA, type Storage } from "../storage/mod.ts";
import { quoteIdent } from "../storage/table.ts";
import { getView } from "../storage/views.ts";
import type { Cursor } from "./cursor.ts";
import { type Session, tableName } from "./ddl.ts";

/** Runs a SELECT in the session (the caller's, so this module needs no query runner of its own). */
export type RunSelect = (sql: string) => QueryOutput;

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** `[expression, output name]` pairs as a select list. */
function project(columns: ReadonlyArray<readonly [string, string]>): string {
  return columns.map(([expr, name]) => `${expr} AS ${quoteIdent(name)}`).join(", ");
}

/**
 * Wraps a query in the statement's filter: `LIKE 'p'` on `likeColumn`, or `WHERE expr` on the output
 * names (the expression's text is taken as written), then orders it.
 */
function filtered(cur: Cursor, inner: string, likeColumn: string, orderBy: string): string {
  let where = "";
  if (cur.acceptKw("LIKE")) {
    const p = cur.next();
    if (p.kind !== "string") throw cur.error(`Expected: a string after LIKE, found: ${p.text}`);
    where = ` WHERE ${quoteIdent(likeColumn)} LIKE ${literal(p.value)}`;
  } else if (cur.acceptKw("WHERE")) {
    const first = cur.peek();
    if (first === undefined) throw cur.error("Expected: an expression after WHERE, found: EOF");
    const last = cur.tokens[cur.tokens.length - 1];
    where = ` WHERE ${cur.sql.slice(first.pos, last.pos + last.text.length)}`;
    cur.i = cur.tokens.length;
  }
  cur.expectEnd();
  return `SELECT * FROM (${inner}) AS __petrel_show${where} ORDER BY ${orderBy}`;
}

/** `FROM|IN db`, or the session's database; the database must exist. */
function databaseClause(storage: Storage, cur: Cursor, session: Session): string {
  const db = cur.acceptKw("FROM") || cur.acceptKw("IN") ? cur.ident("a database name") : session.db;
  if (!storage.hasDatabase(db)) throw databaseNotFound(db);
  return db;
}

const INDEX_COLUMNS: Array<[string, string]> = [
  ["table_name", "Table"],
  ["1", "Non_unique"],
  ["constraint_name", "Key_name"],
  ["ordinal_position", "Seq_in_index"],
  ["column_name", "Column_name"],
  ["'A'", "Collation"],
  ["NULL", "Cardinality"],
  ["NULL", "Sub_part"],
  ["NULL", "Packed"],
  ["CASE WHEN constraint_name = 'TIME INDEX' THEN 'NO' ELSE 'YES' END", "Null"],
  ["greptime_index_type", "Index_type"],
  ["''", "Comment"],
  ["''", "Index_comment"],
  ["'YES'", "Visible"],
  ["NULL", "Expression"],
];

/** `SHOW INDEX|INDEXES|KEYS FROM t [FROM db] [LIKE 'p' | WHERE expr]` (after the keyword). */
function showIndex(storage: Storage, cur: Cursor, session: Session, run: RunSelect): QueryOutput {
  if (!cur.acceptKw("FROM") && !cur.acceptKw("IN")) {
    throw cur.error(`Expected: FROM or IN, found: ${cur.describe()}`);
  }
  const parts = cur.objectName();
  let { db, table } = tableName(parts, session);
  if (cur.acceptKw("FROM") || cur.acceptKw("IN")) db = cur.ident("a database name");
  storage.database(db).requireTable(table);
  const inner = `SELECT ${project(INDEX_COLUMNS)} FROM information_schema.key_column_usage ` +
    `WHERE table_schema = ${literal(db)} AND table_name = ${literal(table)}`;
  return run(filtered(cur, inner, "Column_name", `"Key_name", "Seq_in_index", "Column_name"`));
}

/** `SHOW REGION FROM t [FROM|IN db] [LIKE 'p' | WHERE expr]`: the table's regions from region_peers. */
function showRegion(storage: Storage, cur: Cursor, session: Session, run: RunSelect): QueryOutput {
  if (!cur.acceptKw("FROM") && !cur.acceptKw("IN")) {
    throw cur.error(`Expected: FROM or IN, found: ${cur.describe()}`);
  }
  let { db, table } = tableName(cur.objectName(), session);
  if (cur.acceptKw("FROM") || cur.acceptKw("IN")) db = cur.ident("a database name");
  storage.database(db).requireTable(table);
  const inner = `SELECT ${project(REGION_COLUMNS)} FROM information_schema.region_peers ` +
    `WHERE table_schema = ${literal(db)} AND table_name = ${literal(table)}`;
  return run(filtered(cur, inner, "Region", `"Region", "Peer"`));
}

const REGION_COLUMNS: Array<[string, string]> = [
  ["table_name", "Table"],
  ["region_id", "Region"],
  ["peer_id", "Peer"],
  ["is_leader", "Leader"],
];

const STATUS_COLUMNS: Array<[string, string]> = [
  ["table_name", "Name"],
  ["engine", "Engine"],
  ["version", "Version"],
  ["row_format", "Row_format"],
  ["table_rows", "Rows"],
  ["avg_row_length", "Avg_row_length"],
  ["data_length", "Data_length"],
  ["max_data_length", "Max_data_length"],
  ["index_length", "Index_length"],
  ["data_free", "Data_free"],
  ["auto_increment", "Auto_increment"],
  ["create_time", "Create_time"],
  ["update_time", "Update_time"],
  ["check_time", "Check_time"],
  ["table_collation", "Collation"],
  ["checksum", "Checksum"],
  ["create_options", "Create_options"],
  ["table_comment", "Comment"],
];

/** `SHOW TABLE STATUS [FROM db] [LIKE 'p' | WHERE expr]` (after `TABLE STATUS`). */
function showTableStatus(storage: Storage, cur: Cursor, session: Session, run: RunSelect): QueryOutput {
  const db = databaseClause(storage, cur, session);
  const inner = `SELECT ${project(STATUS_COLUMNS)} FROM information_schema.tables WHERE table_schema = ${
    literal(db)
  }`;
  return run(filtered(cur, inner, "Name", `"Name"`));
}

/** `SHOW [FULL] PROCESSLIST` (after `PROCESSLIST`): GreptimeDB's short or full column set. */
function showProcessList(cur: Cursor, full: boolean, run: RunSelect): QueryOutput {
  cur.expectEnd();
  const columns: Array<[string, string]> = full
    ? [
      ["id", "Id"],
      ["catalog", "Catalog"],
      ["schemas", "Schema"],
      ["client", "Client"],
      ["frontend", "Frontend"],
      ["start_timestamp", "Start Time"],
      ["elapsed_time", "Elapsed Time"],
      ["query", "Query"],
    ]
    : [["id", "Id"], ["catalog", "Catalog"], ["query", "Query"], ["elapsed_time", "Elapsed Time"]];
  return run(`SELECT ${project(columns)} FROM information_schema.process_list ORDER BY start_timestamp, id`);
}

/** GreptimeDB's `SHOW COLUMNS` output names over information_schema.columns; FULL adds the marked ones. */
const COLUMNS_COLUMNS: Array<[string, string, boolean]> = [
  ["column_name", "Field", false],
  ["data_type", "Type", false],
  ["collation_name", "Collation", true],
  ["is_nullable", "Null", false],
  ["column_key", "Key", false],
  ["column_default", "Default", false],
  ["column_comment", "Comment", true],
  ["privileges", "Privileges", true],
  ["extra", "Extra", false],
  ["greptime_data_type", "Greptime_type", false],
];

/**
 * `SHOW [FULL] COLUMNS|FIELDS FROM|IN t [FROM|IN db] [LIKE 'p' | WHERE expr]` (after the keyword),
 * ordered by column name as GreptimeDB's; a view's are its query's, as information_schema.columns lists them.
 */
function showColumns(
  storage: Storage,
  cur: Cursor,
  session: Session,
  full: boolean,
  run: RunSelect,
): QueryOutput {
  if (!cur.acceptKw("FROM") && !cur.acceptKw("IN")) {
    throw cur.error(`Expected: FROM or IN, found: ${cur.describe()}`);
  }
  let { db, table } = tableName(cur.objectName(), session);
  if (cur.acceptKw("FROM") || cur.acceptKw("IN")) db = cur.ident("a database name");
  if (db === INFORMATION_SCHEMA) table = table.toLowerCase();
  else {
    const handle = storage.database(db);
    if (!getView(handle, table)) table = handle.requireTable(table).name;
  }
  const columns = COLUMNS_COLUMNS.filter(([, , onlyFull]) => full || !onlyFull).map(([e, n]) =>
    [e, n] as const
  );
  const inner = `SELECT ${project(columns)} FROM information_schema.columns ` +
    `WHERE table_schema = ${literal(db)} AND table_name = ${literal(table)}`;
  return run(filtered(cur, inner, "Field", `"Field"`));
}

/**
 * `DESC [TABLE] information_schema.t`: its columns as DESC shows a table's (all nullable fields),
 * from information_schema.columns; 4001 when there is no such table.
 */
export function describeInformationSchema(table: string, run: RunSelect): QueryOutput {
  const out = run(
    `SELECT column_name AS "Column", greptime_data_type AS "Type", column_key AS "Key", ` +
      `upper(is_nullable) AS "Null", coalesce(column_default, '') AS "Default", ` +
      `semantic_type AS "Semantic Type" FROM information_schema.columns WHERE table_schema = ` +
      `${literal(INFORMATION_SCHEMA)} AND table_name = ${
        literal(table.toLowerCase())
      } ORDER BY ordinal_position`,
  );
  if (out.kind === "records" && out.rows.length === 0) {
    throw tableNotFound(`greptime.${INFORMATION_SCHEMA}.${table}`);
  }
  return out;
}

/**
 * The SHOW statements answered from information_schema, with the cursor after `SHOW [FULL]`;
 * undefined when the statement is none of them.
 */
export function showFromInfoSchema(
  storage: Storage,
  cur: Cursor,
  session: Session,
  full: boolean,
  run: RunSelect,
): QueryOutput | undefined {
  if (cur.acceptKw("PROCESSLIST")) return showProcessList(cur, full, run);
  if (cur.acceptKw("COLUMNS") || cur.acceptKw("FIELDS")) return showColumns(storage, cur, session, full, run);
  if (full && (cur.acceptKw("DATABASES") || cur.acceptKw("SCHEMAS"))) {
    // GreptimeDB's SHOW FULL DATABASES: the names and options of information_schema.schemata
    const inner = `SELECT schema_name AS "Database", options AS "Options" FROM information_schema.schemata`;
    return run(filtered(cur, inner, "Database", `"Database"`));
  }
  if (full) return undefined;
  if (cur.acceptKw("INDEX") || cur.acceptKw("INDEXES") || cur.acceptKw("KEYS")) {
    return showIndex(storage, cur, session, run);
  }
  if (cur.acceptKw("TABLE", "STATUS")) return showTableStatus(storage, cur, session, run);
  if (cur.acceptKw("REGION") || cur.acceptKw("REGIONS")) return showRegion(storage, cur, session, run);
  if (cur.acceptKw("CHARACTER", "SET") || cur.acceptKw("CHARSET")) {
    return run(
      filtered(
        cur,
        `SELECT ${project(CHARSET_COLUMNS)} FROM information_schema.character_sets`,
        "Charset",
        `"Charset"`,
      ),
    );
  }
  if (cur.acceptKw("COLLATION")) {
    return run(
      filtered(
        cur,
        `SELECT ${project(COLLATION_COLUMNS)} FROM information_schema.collations`,
        "Collation",
        `"Collation"`,
      ),
    );
  }
  // MySQL clients ask for status variables; GreptimeDB answers none
  if (cur.acceptKw("STATUS") || cur.acceptKw("SESSION", "STATUS") || cur.acceptKw("GLOBAL", "STATUS")) {
    const inner =
      `SELECT variable_name AS "Variable_name", variable_value AS "Value" FROM information_schema.session_status`;
    return run(filtered(cur, inner, "Variable_name", `"Variable_name"`));
  }
  return undefined;
}

/** MySQL's `SHOW CHARACTER SET` columns over information_schema.character_sets. */
const CHARSET_COLUMNS: Array<[string, string]> = [
  ["character_set_name", "Charset"],
  ["description", "Description"],
  ["default_collate_name", "Default collation"],
  ["maxlen", "Maxlen"],
];

/** MySQL's `SHOW COLLATION` columns over information_schema.collations. */
const COLLATION_COLUMNS: Array<[string, string]> = [
  ["collation_name", "Collation"],
  ["character_set_name", "Charset"],
  ["id", "Id"],
  ["is_default", "Default"],
  ["is_compiled", "Compiled"],
  ["sortlen", "Sortlen"],
];
