/**
 * Table DDL on a database: create, drop, truncate, add or drop columns, change options. Used by the
 * SQL statements and by the writer's schema evolution.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { DatabaseHandle } from "./database.ts";
import { isTimestampType } from "./datatypes.ts";
import { normalizeOptions } from "./options.ts";
import { renameJournalTable } from "./forward_journal.ts";
import { getView } from "./views.ts";
import { createMetricTable } from "./metric_create.ts";
import type { ColumnMeta, TableMeta } from "./table.ts";
import {
  addColumnSql,
  checkColumnCount,
  createAppendIndexSql,
  createTableSql,
  isAppendMode,
  qualifiedName,
  quoteIdent,
  rebuildTableSql,
  validateTableName,
} from "./table.ts";
import type { ColumnIndex, DataType, TableOptions } from "../common/rows.ts";

/** What CREATE TABLE says about a table. */
export interface TableSpec {
  name: string;
  columns: ColumnMeta[];
  timeIndex: string;
  primaryKey: string[];
  options: TableOptions;
  engine?: string;
}

/** Creates a table from a spec; returns false when it existed and `ifNotExists` was set. */
export function createTable(handle: DatabaseHandle, spec: TableSpec, ifNotExists: boolean): boolean {
  validateTableName(spec.name);
  if (handle.getTable(spec.name)) {
    if (ifNotExists) return false;
    throw new PetrelError(
      StatusCode.TableAlreadyExists,
      `Table already exists: \`greptime.${handle.name}.${spec.name}\``,
    );
  }
  const names = new Set<string>();
  for (const c of spec.columns) {
    const key = c.name.toLowerCase();
    if (names.has(key)) throw invalidArguments(`Duplicate column name: ${c.name}`);
    if (key.startsWith("__petrel")) throw invalidArguments(`Invalid column name: ${c.name}`);
    names.add(key);
  }
  const ts = spec.columns.find((c) => c.name === spec.timeIndex);
  if (!ts) throw invalidArguments(`Missing time index column ${spec.timeIndex} in table ${spec.name}`);
  if (!isTimestampType(ts.type)) {
    throw invalidArguments(`Time index column ${ts.name} must be a timestamp, got ${ts.type}`);
  }
  for (const k of spec.primaryKey) {
    if (!spec.columns.some((c) => c.name === k)) {
      throw invalidArguments(`Primary key column ${k} not found in table ${spec.name}`);
    }
    if (k === spec.timeIndex) {
      throw invalidArguments(`Time index column ${k} cannot be part of the primary key`);
    }
  }
  const options = normalizeOptions(spec.options);
  const columns = spec.columns.map((c): ColumnMeta => ({
    ...c,
    semantic: c.name === spec.timeIndex ? "TIMESTAMP" : spec.primaryKey.includes(c.name) ? "TAG" : "FIELD",
    nullable: c.name === spec.timeIndex ? false : c.nullable,
  }));
  if (spec.engine === "metric") {
    createMetricTable(handle, { ...spec, columns, options });
    return true;
  }
  const t: TableMeta = {
    db: handle.name,
    name: spec.name,
    id: handle.allocateId(),
    columns,
    timeIndex: spec.timeIndex,
    primaryKey: spec.primaryKey,
    options,
    engine: spec.engine ?? "mito",
    createdAt: Date.now(),
    schema: options.skip_wal === "true" ? "nowal" : "main",
  };
  handle.transaction(() => handle.createTable(t));
  return true;
}

/** Adds columns (a new tag rebuilds a keyed table, since SQLite cannot change a primary key). */
export function addColumns(handle: DatabaseHandle, table: TableMeta, added: ColumnMeta[]): TableMeta {
  for (const c of added) {
    if (table.columns.some((o) => o.name.toLowerCase() === c.name.toLowerCase())) {
      throw new PetrelError(
        StatusCode.TableColumnExists,
        `Column ${c.name} already exists in table ${table.name}`,
      );
    }
    if (c.semantic === "TIMESTAMP") throw invalidArguments(`Table ${table.name} already has a time index`);
    if (c.name.toLowerCase().startsWith("__petrel")) throw invalidArguments(`Invalid column name: ${c.name}`);
  }
  const next: TableMeta = {
    ...table,
    // rows already stored get a null for a new tag
    columns: [...table.columns, ...added.map((c) => (c.semantic === "TAG" ? { ...c, nullTags: true } : c))],
    primaryKey: [...table.primaryKey, ...added.filter((c) => c.semantic === "TAG").map((c) => c.name)],
  };
  checkColumnCount(table.name, next.columns.length);
  const newTags = next.primaryKey.length !== table.primaryKey.length;
  if (newTags && !isAppendMode(table)) {
    for (const sql of rebuildTableSql(table, next)) handle.conn.exec(sql);
  } else {
    for (const c of added) handle.conn.exec(addColumnSql(next, c));
    if (newTags) {
      handle.conn.exec(`DROP INDEX IF EXISTS ${handle.appendIndex(table)}`);
      handle.conn.exec(createAppendIndexSql(next));
    }
  }
  handle.saveMeta(next);
  return next;
}

/**
 * Changes the type of field columns by rebuilding the table (SQLite cannot alter a column's declared
 * type, which carries the GreptimeDB type and the affinity): rows are copied under the new
 * affinity, so Int64 values become REAL in a Float64 column. An append table keeps its rowids,
 * which forwarding reads by. `convert` gives, per column, the SQL expression that computes its new
 * value from the old row (ALTER TABLE MODIFY COLUMN casts; without one the affinity converts). Runs
 * inside the caller's transaction.
 */
export function changeColumnTypes(
  handle: DatabaseHandle,
  table: TableMeta,
  types: ReadonlyMap<string, DataType>,
  convert: ReadonlyMap<string, string> = new Map(),
): TableMeta {
  const next: TableMeta = {
    ...table,
    columns: table.columns.map((c) => {
      const type = types.get(c.name);
      if (type === undefined || type === c.type) return c;
      if (c.semantic !== "FIELD") throw invalidArguments(`Cannot change the type of column ${c.name}`);
      return { ...c, type };
    }),
  };
  const tmp = `__petrel_retype_${table.name}`;
  const append = isAppendMode(table);
  const cols = table.columns.map((c) => quoteIdent(c.name));
  const copied = append ? ["rowid", ...cols] : cols;
  const values = table.columns.map((c) => convert.get(c.name) ?? quoteIdent(c.name));
  if (append) handle.conn.exec(`DROP INDEX IF EXISTS ${handle.appendIndex(table)}`);
  // an append table's index is made once the table has its name again (its SQL names the table)
  handle.conn.exec(createTableSql(next, tmp)[0]);
  handle.conn.exec(
    `INSERT INTO ${quoteIdent(next.schema)}.${quoteIdent(tmp)} (${copied.join(", ")}) SELECT ${
      (append ? ["rowid", ...values] : values).join(", ")
    } FROM ${qualifiedName(table)}`,
  );
  handle.conn.exec(`DROP TABLE ${qualifiedName(table)}`);
  handle.conn.exec(
    `ALTER TABLE ${quoteIdent(next.schema)}.${quoteIdent(tmp)} RENAME TO ${quoteIdent(next.name)}`,
  );
  if (append) handle.conn.exec(createAppendIndexSql(next));
  handle.saveMeta(next);
  return next;
}

/**
 * Sets column defaults (`ALTER TABLE … MODIFY COLUMN c SET DEFAULT x`; undefined for `DROP DEFAULT`).
 * SQLite fills omitted columns from its own DEFAULT clause and cannot change one, so the table is
 * rebuilt as `changeColumnTypes` rebuilds it (no type changes). Runs in its own transaction.
 */
export function setColumnDefaults(
  handle: DatabaseHandle,
  table: TableMeta,
  defaults: ReadonlyMap<string, string | undefined>,
): TableMeta {
  const changed = new Map<string, string | undefined>();
  for (const [name, value] of defaults) {
    const col = table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!col) {
      throw new PetrelError(
        StatusCode.TableColumnNotFound,
        `Column ${name} not exists in table ${table.name}`,
      );
    }
    if (value === undefined && (!col.nullable || col.name === table.timeIndex)) {
      throw invalidArguments(`Column ${col.name} is not nullable and \`default\` cannot be dropped`);
    }
    changed.set(col.name, value);
  }
  const columns = table.columns.map((c) => {
    if (!changed.has(c.name)) return c;
    const next: ColumnMeta = { ...c, default: changed.get(c.name) };
    if (next.default === undefined) delete next.default;
    return next;
  });
  return handle.transaction(() => changeColumnTypes(handle, { ...table, columns }, new Map()));
}

/**
 * Renames a table (`ALTER TABLE t RENAME new`): 4000 when the name is taken by a table or a view.
 * Forwarding's journal entries follow it, so rows written before are still forwarded (as the new name).
 */
export function renameTable(handle: DatabaseHandle, table: TableMeta, name: string): TableMeta {
  validateTableName(name);
  if (handle.getTable(name) || getView(handle, name)) {
    throw new PetrelError(
      StatusCode.TableAlreadyExists,
      `Table already exists: \`greptime.${handle.name}.${name}\``,
    );
  }
  return handle.transaction(() => {
    const next = handle.renameTable(table, name);
    renameJournalTable(handle, table.schema, table.name, name);
    return next;
  });
}

/** Drops a field column. */
export function dropColumn(handle: DatabaseHandle, table: TableMeta, name: string): void {
  const col = table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!col) {
    throw new PetrelError(StatusCode.TableColumnNotFound, `Column ${name} not exists in table ${table.name}`);
  }
  if (col.semantic !== "FIELD") {
    throw invalidArguments(`Not allowed to remove index column ${col.name} from table ${table.name}`);
  }
  handle.transaction(() => {
    handle.conn.exec(`ALTER TABLE ${qualifiedName(table)} DROP COLUMN ${quoteIdent(col.name)}`);
    handle.saveMeta({ ...table, columns: table.columns.filter((c) => c !== col) });
  });
}

/**
 * Gives a column a secondary index, or takes one away (`{ unset: kind }`; a kind the column lacks is
 * left as it is). Indexes are metadata here (SQLite scans), kept for SHOW CREATE TABLE and migration.
 */
export function setColumnIndex(
  handle: DatabaseHandle,
  table: TableMeta,
  name: string,
  change: ColumnIndex | { unset: ColumnIndex["kind"] },
): void {
  const col = table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!col) {
    throw new PetrelError(StatusCode.TableColumnNotFound, `Column ${name} not exists in table ${table.name}`);
  }
  if ("kind" in change && change.kind === "fulltext" && col.type !== "String") {
    throw invalidArguments(`FULLTEXT index only supports string type, column ${col.name} is ${col.type}`);
  }
  const next: ColumnMeta = { ...col };
  if ("kind" in change) next.index = change;
  else if (col.index?.kind === change.unset) delete next.index;
  else return;
  handle.transaction(() =>
    handle.saveMeta({ ...table, columns: table.columns.map((c) => c === col ? next : c) })
  );
}

const ALTERABLE = new Set([
  "ttl",
  "comment",
  "compaction.type",
  "compaction.twcs.time_window",
  "compaction.twcs.trigger_file_num",
  "compaction.twcs.max_output_file_size",
  "write_buffer_size",
  "max_disk_size",
]);

/** Sets and unsets table options (only those that need no physical change). */
export function alterOptions(
  handle: DatabaseHandle,
  table: TableMeta,
  set: TableOptions,
  unset: string[],
): void {
  const normalized = normalizeOptions(set);
  if (normalized.max_disk_size !== undefined) normalizeOptions({ ...table.options, ...normalized }, false);
  for (const k of [...Object.keys(normalized), ...unset.map((u) => u.toLowerCase())]) {
    if (!ALTERABLE.has(k)) {
      throw invalidArguments(`Invalid set table option request: altering ${k} is not supported`);
    }
  }
  const options = { ...table.options, ...normalized };
  for (const k of unset) delete options[k.toLowerCase()];
  handle.transaction(() => handle.saveMeta({ ...table, options }));
}
