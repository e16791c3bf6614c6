/**
 * What CREATE, ALTER, DROP and TRUNCATE share: table names resolved against the session, column
 * definitions and data types, `WITH (…)` options, and the error for a name that is not a table.
 */
import { invalidArguments, PetrelError, tableNotFound } from "../common/errors.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import type { ColumnMeta } from "../storage/table.ts";
import type { DataType, QueryOutput, TableOptions } from "../common/rows.ts";
import { isDecimalWord, isVectorWord, parseSqlType } from "../storage/datatypes.ts";
import { indexOptions } from "../storage/column_index.ts";
import type { Cursor } from "./cursor.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { getView } from "../storage/views.ts";

/** The answer of a statement that changed `rows` rows (0 for most DDL). */
export const affected = (rows: number): QueryOutput => ({ kind: "affected", rows });

/** Session state a statement may read or change (`USE`, `SET time_zone`). */
export interface Session {
  db: string;
  timezone?: string;
  /** The server's default timezone (`default_timezone`), which `timezone` falls back to. */
  systemTimezone?: string;
  /** Postgres' DateStyle after `SET DATESTYLE` (`ISO, MDY` when unset), as `SHOW VARIABLES` shows it. */
  datestyle?: string;
  /** `SET READ_PREFERENCE` (`leader` when unset): standalone reads go to the one region whatever it is. */
  readPreference?: string;
}

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

/** A data type with its `(p, s)` parameters and UNSIGNED. */
export function parseDataType(cur: Cursor): DataType {
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
  if (isVectorWord(word.value) && !unsigned && params.length <= 1) return parseSqlType(word.value, params[0]);
  try {
    return parseSqlType(word.value, params[0], unsigned);
  } catch (e) {
    if (e instanceof PetrelError) throw cur.error(`Unsupported data type: ${word.value}`);
    throw e;
  }
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
  // ALTER TABLE … ADD COLUMN's place
  "FIRST",
  "AFTER",
];

/**
 * A column default after `DEFAULT` (up to the next column option, `,` or `)`) as the SQL text SHOW
 * CREATE TABLE shows: a literal or the current time (`current_timestamp()`); anything else is refused.
 */
export function parseDefault(cur: Cursor, type: DataType, column: string): string {
  // NULL is also a column option word; as the default it is the whole value
  if (cur.acceptKw("NULL")) return "NULL";
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
  const text = cur.tokens.slice(start, cur.i).map((
    t,
  ) => (t.kind === "string" ? `'${t.value.replaceAll("'", "''")}'` : t.text)).join("");
  if (!/^('([^']|'')*'|-?[\d.eE+-]+|null|true|false|current_timestamp(\(\))?|now\(\))$/i.test(text)) {
    throw invalidArguments(`Unsupported default value: ${text}`);
  }
  // GreptimeDB shows the function default in one spelling
  if (/^(current_timestamp(\(\))?|now\(\))$/i.test(text)) return "current_timestamp()";
  // a numeric or boolean column takes a value of its kind (SQLite would store any text as it is)
  const value = /^'.*'$/s.test(text) ? text.slice(1, -1).replaceAll("''", "'").trim() : text;
  const fits = /^null$/i.test(text) ||
    (/^(U?Int|Float|Decimal)/.test(type) ? value !== "" && Number.isFinite(Number(value)) : true) &&
      (type === "Boolean" ? /^(true|false)$/i.test(value) : true);
  if (!fits) throw invalidArguments(`Invalid default value ${text} for column ${column} of type ${type}`);
  return text;
}

/** A column definition; flags whether it declared itself time index or primary key. */
export function parseColumnDef(cur: Cursor): { col: ColumnMeta; timeIndex: boolean; primaryKey: boolean } {
  const name = cur.ident("a column name");
  const type = parseDataType(cur);
  const col: ColumnMeta = { name, type, semantic: "FIELD", nullable: true };
  let timeIndex = false, primaryKey = false;
  for (;;) {
    if (cur.acceptKw("NOT", "NULL")) col.nullable = false;
    else if (cur.acceptKw("NULL")) col.nullable = true;
    else if (cur.acceptKw("DEFAULT")) col.default = parseDefault(cur, type, name);
    else if (cur.acceptKw("COMMENT")) {
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

/** The error for a table that is not there: a view of that name says it is one (and `why` not). */
export function notATable(handle: DatabaseHandle, db: string, table: string, why: string): PetrelError {
  if (getView(handle, table)) return invalidArguments(`${db}.${table} is a view: ${why}`);
  return tableNotFound(`greptime.${db}.${table}`);
}
