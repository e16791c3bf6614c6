/**
 * ALTER TABLE (RENAME, ADD/DROP/MODIFY COLUMN, SET/UNSET options and column indexes) and ALTER
 * DATABASE, which shares its SET/UNSET grammar, applied through the storage catalog.
 */
import { invalidArguments, PetrelError, StatusCode, unsupported } from "../common/errors.ts";
import type { Storage } from "../storage/mod.ts";
import { isMetricTable } from "../storage/metric_layout.ts";
import type { ColumnMeta, TableMeta } from "../storage/table.ts";
import { modifyColumnType } from "./retype.ts";
import type { ColumnIndex, QueryOutput, TableOptions } from "../common/rows.ts";
import { indexOptions } from "../storage/column_index.ts";
import {
  addColumns,
  alterOptions,
  changeColumnTypes,
  dropColumn,
  setColumnDefaults,
  setColumnIndex,
} from "../storage/ddl.ts";
import type { Cursor } from "./cursor.ts";
import { isKeyword } from "./lexer.ts";
import {
  affected,
  notATable,
  parseColumnDef,
  parseDataType,
  parseDefault,
  parseOptions,
  type Session,
  tableName,
} from "./ddl_syntax.ts";

/** Runs the rest of an ALTER statement (the cursor is past `ALTER`). */
export function alterStatement(storage: Storage, cur: Cursor, session: Session): QueryOutput {
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
    const places = new Map<string, Place>();
    do {
      const def = parseColumnDef(cur);
      if (def.timeIndex) throw invalidArguments("Cannot add a time index column");
      def.col.semantic = def.primaryKey ? "TAG" : "FIELD";
      if (cur.acceptKw("FIRST")) places.set(def.col.name, { first: true });
      else if (cur.acceptKw("AFTER")) places.set(def.col.name, { after: cur.ident("a column name") });
      added.push(def.col);
    } while (cur.acceptOp(",") && (cur.acceptKw("ADD") ? (cur.acceptKw("COLUMN"), true) : true));
    cur.expectEnd();
    const fresh = ifNotExists ? added.filter((c) => !meta.columns.some((o) => o.name === c.name)) : added;
    if (fresh.length === 0) return affected(0);
    const order = placedColumns(meta.columns.map((c) => c.name), fresh, places);
    handle.transaction(() => {
      const next = addColumns(handle, meta, fresh);
      if (places.size === 0) return;
      // `SELECT *` reads SQLite's column order, so the table is rebuilt in the new order (a rebuild
      // that changes no type; rows copied by name, an append table's rowids kept)
      const byName = new Map(next.columns.map((c) => [c.name, c]));
      changeColumnTypes(handle, { ...next, columns: order.map((n) => byName.get(n)!) }, new Map());
    });
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
    if (cur.acceptKw("SET", "DEFAULT") || cur.acceptKw("DROP", "DEFAULT")) {
      setColumnDefaults(handle, meta, parseDefaultChanges(cur, meta, name));
      return affected(0);
    }
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
 * `SET DEFAULT x` / `DROP DEFAULT` (the cursor is past the first one's keywords) and any more
 * `, MODIFY COLUMN c SET DEFAULT x | DROP DEFAULT`, as GreptimeDB's parser takes them: column → new
 * default (undefined: dropped).
 */
function parseDefaultChanges(
  cur: Cursor,
  meta: TableMeta,
  first: string,
): Map<string, string | undefined> {
  const changes = new Map<string, string | undefined>();
  let name = first;
  for (;;) {
    const set = isKeyword(cur.tokens[cur.i - 2], "SET");
    // an unknown column is refused by setColumnDefaults, naming it
    const type = meta.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())?.type ?? "String";
    changes.set(name, set ? parseDefault(cur, type, name) : undefined);
    if (!cur.acceptOp(",")) break;
    cur.expectKw("MODIFY");
    cur.acceptKw("COLUMN");
    name = cur.ident("a column name");
    if (!cur.acceptKw("SET", "DEFAULT")) cur.expectKw("DROP", "DEFAULT");
  }
  cur.expectEnd();
  return changes;
}

/** Where `ADD COLUMN` puts a column: `FIRST` or `AFTER c` (without one, last). */
type Place = { first: true } | { after: string };

/** The column names in order once `added` are placed, each after the ones before it in the statement. */
function placedColumns(existing: string[], added: ColumnMeta[], places: Map<string, Place>): string[] {
  const order = [...existing];
  for (const c of added) {
    const place = places.get(c.name);
    if (place === undefined) order.push(c.name);
    else if ("first" in place) order.unshift(c.name);
    else {
      const at = order.findIndex((n) => n.toLowerCase() === place.after.toLowerCase());
      if (at < 0) {
        throw new PetrelError(
          StatusCode.TableColumnNotFound,
          `Column ${place.after} not found (ADD COLUMN … AFTER)`,
        );
      }
      order.splice(at + 1, 0, c.name);
    }
  }
  return order;
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
