/**
 * Table metadata (the catalog's truth) and the SQLite DDL that realises it. Since layout 2, WITHOUT
 * ROWID tables keyed by (time index, tags…) for dedup and rowid tables with an index on the time
 * index for append mode: ingestion arrives roughly in time order, so a time-first key appends to the
 * end of the B-tree instead of dirtying one page per series (measured ~8× faster inserts). Tables
 * created before keep layout 1, keyed (tags…, time index), and stay that way until a rebuild.
 */
import type { ColumnSchema, TableOptions } from "../common/rows.ts";
import { isTimestampType, NULL_TAG, sqliteDeclType } from "./datatypes.ts";
import { parseTtl } from "./options.ts";
import { msToUnit, type TimeUnit, unitOf } from "../common/time_unit.ts";
import { invalidArguments } from "../common/errors.ts";
import { vectorDim, vectorValueFor } from "../common/vector.ts";

/** A column as the catalog keeps it. */
export interface ColumnMeta extends ColumnSchema {
  nullable: boolean;
  /** Default as SQL text (`0`, `'x'`, `current_timestamp()`), shown by DESC and SHOW CREATE TABLE. */
  default?: string;
  comment?: string;
  /** A tag of a keyed table that has stored the null-tag stand-in; readers must map it back to NULL. */
  nullTags?: boolean;
}

/** Which attached SQLite file holds the table: the WAL file or the one that skips durability work. */
export type TableSchemaName = "main" | "nowal";

/** Everything known about a table. */
export interface TableMeta {
  db: string;
  name: string;
  id: number;
  columns: ColumnMeta[];
  timeIndex: string;
  /** Tag column names, in primary-key order. */
  primaryKey: string[];
  options: TableOptions;
  engine: string;
  createdAt: number;
  schema: TableSchemaName;
  /** The database's ttl, which applies when the table has none of its own (not persisted with the table). */
  databaseTtl?: string;
  /**
   * Physical layout version; absent means 1 (tables created before versions were recorded): key
   * (tags…, time index), append index on (tags…, time index). 2: key (time index, tags…), append
   * index on the time index only.
   */
  layout?: number;
}

/** The layout new tables get. */
export const CURRENT_LAYOUT = 2;

/** The table's physical layout version. */
export function layoutOf(t: TableMeta): number {
  return t.layout ?? 1;
}

/** The columns of the table's physical key (dedup) or append index, in clustering order. */
export function keyColumns(t: TableMeta): string[] {
  if (layoutOf(t) >= 2) return isAppendMode(t) ? [t.timeIndex] : [t.timeIndex, ...t.primaryKey];
  return [...t.primaryKey, t.timeIndex];
}

/**
 * The longest table or column name (characters). Names are repeated in every statement, catalog
 * entry and query rewrite (a table reference expands to its column list), so a megabyte-long column
 * name a client slipped in made each query that named its table megabytes long (a fuzzed query took
 * 51 s of the event loop). PostgreSQL stops at 63 bytes; 1024 leaves room for any real label.
 */
export const MAX_NAME_LENGTH = 1024;

/**
 * Double-quotes an identifier for SQLite; the only way Petrel puts a name into SQL. SQLite cannot
 * hold a NUL in a name (it ends the statement's text), so such a name, like an overlong one, is the
 * client's error (400).
 */
export function quoteIdent(name: string): string {
  if (name.length > MAX_NAME_LENGTH) {
    throw invalidArguments(
      `Invalid name ${JSON.stringify(name.slice(0, 40) + "…")}: longer than ${MAX_NAME_LENGTH} characters`,
    );
  }
  return quoteOutputName(name);
}

/**
 * Double-quotes the name of a query's output column that names no stored one: an unaliased
 * expression's text, as GreptimeDB names it (`Int64(1) IN ([Int64(1), …])`). It is as long as the
 * expression, so {@link MAX_NAME_LENGTH} does not apply (a SELECT of a 150-item IN list was refused).
 */
export function quoteOutputName(name: string): string {
  if (name.includes("\0")) {
    throw invalidArguments(`Invalid name ${JSON.stringify(name)}: it contains a NUL character`);
  }
  return `"${name.replaceAll('"', '""')}"`;
}

/** Single-quotes a string literal for SQLite. */
export function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** The qualified SQLite name of a table. */
export function qualifiedName(t: TableMeta): string {
  return `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
}

/** Whether rows of the table are all kept (no dedup). */
export function isAppendMode(t: TableMeta): boolean {
  return t.options.append_mode === "true";
}

/** The table's merge mode for dedup. */
export function mergeMode(t: TableMeta): "last_row" | "last_non_null" {
  return t.options.merge_mode === "last_non_null" ? "last_non_null" : "last_row";
}

/** The ttl in milliseconds; null for forever, 0 for instant. */
export function ttlMs(t: TableMeta): number | null {
  const ttl = t.options.ttl ?? t.databaseTtl;
  return ttl === undefined ? null : parseTtl(ttl);
}

/** The unit of the table's time index. */
export function timeUnit(t: TableMeta): TimeUnit {
  const col = t.columns.find((c) => c.name === t.timeIndex);
  return unitOf(col?.type ?? "TimestampMillisecond");
}

/** The oldest time-index value still alive, in the table's unit; undefined when nothing expires. */
export function ttlCutoff(t: TableMeta, nowMs = Date.now()): bigint | undefined {
  const ttl = ttlMs(t);
  if (ttl === null) return undefined;
  const cutoffMs = ttl === 0 ? Number.MAX_SAFE_INTEGER : nowMs - ttl;
  return msToUnit(cutoffMs, timeUnit(t));
}

/** Whether the table keeps null tags as the NULL_TAG stand-in (its key cannot hold NULL). */
export function usesNullTag(t: TableMeta): boolean {
  return !isAppendMode(t);
}

function defaultClause(c: ColumnMeta): string {
  if (c.default === undefined) return "";
  const d = c.default.trim();
  if (/^current_timestamp(\(\))?$|^now\(\)$/i.test(d) && isTimestampType(c.type)) {
    const per = ({ s: "1", ms: "1000", us: "1000000", ns: "1000000000" })[unitOf(c.type)];
    return ` DEFAULT (CAST(unixepoch('subsec') * ${per} AS INTEGER))`;
  }
  const dim = vectorDim(c.type);
  if (dim !== undefined && !/^null$/i.test(d)) {
    if (!/^'.*'$/s.test(d)) {
      throw invalidArguments(
        `Invalid default ${d} for column ${c.name} of type VECTOR(${dim}): expected '[…]'`,
      );
    }
    // a vector default is stored as the vector's bytes, as an inserted value is
    const bytes = vectorValueFor(d.slice(1, -1).replaceAll("''", "'"), dim, c.name);
    return ` DEFAULT X'${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}'`;
  }
  return ` DEFAULT ${d}`;
}

function columnDef(t: TableMeta, c: ColumnMeta): string {
  const isKey = c.name === t.timeIndex || (usesNullTag(t) && t.primaryKey.includes(c.name));
  const notNull = isKey || !c.nullable ? " NOT NULL" : "";
  const def = t.primaryKey.includes(c.name) && usesNullTag(t) && c.default === undefined
    ? " DEFAULT X''"
    : defaultClause(c);
  return `${quoteIdent(c.name)} ${sqliteDeclType(c.type)}${notNull}${def}`;
}

/**
 * `CREATE TABLE` statements realising the table, under a given physical name. A table without a
 * layout is being created (or rebuilt) now, so it gets the current layout stamped on its metadata,
 * which the caller then persists; old tables keep theirs because they are never re-created.
 */
export function createTableSql(t: TableMeta, physicalName = t.name): string[] {
  t.layout ??= CURRENT_LAYOUT;
  const target = `${quoteIdent(t.schema)}.${quoteIdent(physicalName)}`;
  const cols = t.columns.map((c) => columnDef(t, c));
  if (isAppendMode(t)) {
    return [
      `CREATE TABLE ${target} (${cols.join(", ")})`,
      createAppendIndexSql(t),
    ];
  }
  const key = keyColumns(t).map(quoteIdent).join(", ");
  return [`CREATE TABLE ${target} (${cols.join(", ")}, PRIMARY KEY (${key})) WITHOUT ROWID`];
}

/** The name of the index of an append-mode table. */
export function appendIndexName(t: TableMeta): string {
  return `__petrel_idx_${t.name}`;
}

/** The index of an append-mode table: time ranges (layout 2) or (tags, time) lookups (layout 1). */
export function createAppendIndexSql(t: TableMeta): string {
  const key = keyColumns(t).map(quoteIdent).join(", ");
  return `CREATE INDEX ${quoteIdent(t.schema)}.${quoteIdent(appendIndexName(t))} ON ${
    quoteIdent(t.name)
  } (${key})`;
}

/** The most columns SQLite holds in one table (its SQLITE_MAX_COLUMN, as node:sqlite builds it). */
export const MAX_TABLE_COLUMNS = 2000;

/**
 * Refuses a table that would have more columns than SQLite holds, naming it: SQLite's own failure
 * ("too many columns on sqlite_altertab_…") came out as a 500 after a giant label or field count.
 */
export function checkColumnCount(
  table: string,
  columns: number,
  limit = MAX_TABLE_COLUMNS,
  what = "columns",
): void {
  if (columns > limit) {
    throw invalidArguments(
      `Too many ${what}: table ${table} would have ${columns}, at most ${limit} are supported`,
    );
  }
}

/** `ALTER TABLE … ADD COLUMN` for a new field column. */
export function addColumnSql(t: TableMeta, c: ColumnMeta): string {
  return `ALTER TABLE ${qualifiedName(t)} ADD COLUMN ${columnDef(t, c)}`;
}

/**
 * Statements that rebuild a WITHOUT ROWID table whose primary key changed (a new tag): SQLite cannot
 * alter a key, so rows are copied into a table with the new key, old rows getting a null tag.
 */
export function rebuildTableSql(before: TableMeta, after: TableMeta): string[] {
  const tmp = `__petrel_rebuild_${after.name}`;
  const oldCols = before.columns.map((c) => quoteIdent(c.name));
  const added = after.columns.filter((c) => !before.columns.some((o) => o.name === c.name));
  const addedValues = added.map((c) => (after.primaryKey.includes(c.name) ? "X''" : "NULL"));
  const stmts = createTableSql(after, tmp);
  // copying in the new key's order appends to the new B-tree instead of scattering over it
  const order = keyColumns(after).filter((k) => before.columns.some((c) => c.name === k)).map(quoteIdent);
  stmts.push(
    `INSERT INTO ${quoteIdent(after.schema)}.${quoteIdent(tmp)} (${
      [...oldCols, ...added.map((c) => quoteIdent(c.name))].join(", ")
    }) SELECT ${[...oldCols, ...addedValues].join(", ")} FROM ${qualifiedName(before)}${
      order.length > 0 ? ` ORDER BY ${order.join(", ")}` : ""
    }`,
    `DROP TABLE ${qualifiedName(before)}`,
    `ALTER TABLE ${quoteIdent(after.schema)}.${quoteIdent(tmp)} RENAME TO ${quoteIdent(after.name)}`,
  );
  return stmts;
}

/** Tag columns whose stored null-tag stand-ins readers must turn back into NULL. */
export function nullTagColumns(t: TableMeta): ColumnMeta[] {
  return usesNullTag(t) ? t.columns.filter((c) => c.nullTags && t.primaryKey.includes(c.name)) : [];
}

/** The stand-in stored for a null tag. */
export { NULL_TAG };

const RESERVED_PREFIXES = ["__petrel", "sqlite_"];

/** Rejects table names SQLite or Petrel reserve. */
export function validateTableName(name: string): void {
  if (typeof name !== "string" || name.length === 0) throw invalidArguments("Table name must not be empty");
  const lower = name.toLowerCase();
  if (RESERVED_PREFIXES.some((p) => lower.startsWith(p))) {
    throw invalidArguments(`Invalid table name: ${name}`);
  }
}
