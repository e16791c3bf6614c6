/**
 * Resolving table names of a query against the catalog, and the `information_schema` tables that
 * are materialized on demand into an attached in-memory schema.
 */
import type { DatabaseSync } from "node:sqlite";
import { tableNotFound } from "../common/errors.ts";
import type { Storage, TableDiskUsage, TableMeta } from "../storage/mod.ts";
import { INFORMATION_SCHEMA } from "../storage/mod.ts";
import { sqliteDeclType } from "../storage/datatypes.ts";
import { nullTagColumns, qualifiedName, quoteIdent, ttlCutoff } from "../storage/table.ts";
import { isLogicalTable } from "../storage/metric_layout.ts";
import type { DataType, Value } from "../common/rows.ts";
import { renderCreateOptions, shownOptions } from "./show.ts";
import { FLOW_COLUMNS, FLOW_TYPES, flowRows } from "./info_flows.ts";
import { getView, type ViewMeta } from "../storage/views.ts";
import { VIEW_COLUMNS, VIEW_TYPES, viewRows, viewTableRows } from "./info_views.ts";
import type { InfoTable } from "./info_table.ts";
import { KEY_INFO_TABLES } from "./info_keys.ts";
import { countRows, REGION_INFO_TABLES } from "./info_regions.ts";
import { SERVER_INFO_TABLES } from "./info_server.ts";
import { PROCESS_INFO_TABLES } from "./info_process.ts";
import { MYSQL_INFO_TABLES } from "./info_mysql.ts";
import {
  type InfoColumns,
  infoSchemaColumnRows,
  userColumnRows,
  type ViewColumnsOf,
} from "./info_columns.ts";

/** The tables whose modules carry their own columns, types and rows. */
const MODULE_TABLES: Record<string, InfoTable> = {
  ...KEY_INFO_TABLES,
  ...REGION_INFO_TABLES,
  ...SERVER_INFO_TABLES,
  ...PROCESS_INFO_TABLES,
  ...MYSQL_INFO_TABLES,
};

/** Columns of the information_schema tables Petrel provides. */
const INFO_TABLES: Record<string, string[]> = {
  tables: [
    "table_catalog",
    "table_schema",
    "table_name",
    "table_type",
    "table_id",
    "data_length",
    "max_data_length",
    "index_length",
    "max_index_length",
    "avg_row_length",
    "engine",
    "version",
    "row_format",
    "table_rows",
    "data_free",
    "auto_increment",
    "create_time",
    "update_time",
    "check_time",
    "table_collation",
    "checksum",
    "create_options",
    "table_comment",
    "temporary",
  ],
  columns: [
    "table_catalog",
    "table_schema",
    "table_name",
    "column_name",
    "ordinal_position",
    "character_maximum_length",
    "character_octet_length",
    "numeric_precision",
    "numeric_scale",
    "datetime_precision",
    "character_set_name",
    "collation_name",
    "column_key",
    "extra",
    "privileges",
    "generation_expression",
    "greptime_data_type",
    "data_type",
    "semantic_type",
    "column_default",
    "is_nullable",
    "column_type",
    "column_comment",
  ],
  schemata: [
    "catalog_name",
    "schema_name",
    "default_character_set_name",
    "default_collation_name",
    "sql_path",
    "options",
  ],
  flows: FLOW_COLUMNS,
  views: VIEW_COLUMNS,
  ...Object.fromEntries(Object.entries(MODULE_TABLES).map(([name, t]) => [name, t.columns.map(([c]) => c)])),
};

/** GreptimeDB's types of the non-String information_schema columns (declared so empty results keep them). */
const INFO_TYPES: Record<string, DataType> = {
  table_id: "UInt32",
  data_length: "UInt64",
  max_data_length: "UInt64",
  index_length: "UInt64",
  max_index_length: "UInt64",
  avg_row_length: "UInt64",
  version: "UInt64",
  table_rows: "UInt64",
  data_free: "UInt64",
  auto_increment: "UInt64",
  checksum: "UInt64",
  ordinal_position: "Int64",
  character_maximum_length: "Int64",
  character_octet_length: "Int64",
  numeric_precision: "Int64",
  numeric_scale: "Int64",
  datetime_precision: "Int64",
  ...FLOW_TYPES,
  ...VIEW_TYPES,
};

/** A column's type: the table module's own, else the shared one by name. */
function infoColumnType(table: string, column: string): DataType {
  return MODULE_TABLES[table]?.columns.find(([c]) => c === column)?.[1] ?? INFO_TYPES[column] ?? "String";
}

let infoColumnsTable: Record<string, InfoColumns> | undefined;

/**
 * Every information_schema table's columns, (name, type) in order: what its SQLite table is made of.
 * Built at the first use, not at start: its ~500 lookups had V8 compile them with Maglev in every
 * start, whose code then stays resident in an idle server (--trace-opt; ~0.3 MB RSS, measured).
 */
function infoColumns(): Record<string, InfoColumns> {
  if (infoColumnsTable) return infoColumnsTable;
  infoColumnsTable = {};
  for (const [name, cols] of Object.entries(INFO_TABLES)) {
    infoColumnsTable[name] = cols.map((c) => [c, infoColumnType(name, c)] as const);
  }
  return infoColumnsTable;
}

/** Whether a name is one of the information_schema tables. */
export function isInfoTable(name: string): boolean {
  return name.toLowerCase() in INFO_TABLES;
}

/** The names of the information_schema tables, sorted. */
export function infoTableNames(): string[] {
  return Object.keys(INFO_TABLES).sort();
}

function tableRows(storage: Storage, sizes: boolean): Value[][] {
  const rows: Value[][] = [];
  for (const db of storage.listDatabases()) {
    if (db === INFORMATION_SCHEMA) {
      for (const t of Object.keys(INFO_TABLES)) {
        rows.push([
          "greptime",
          db,
          t,
          "LOCAL TEMPORARY",
          0,
          0,
          0,
          0,
          0,
          0,
          null,
          11,
          "Fixed",
          0,
          0,
          0,
          null,
          null,
          null,
          "utf8_bin",
          0,
          "",
          "",
          "Y",
        ]);
      }
      continue;
    }
    if (db === "public") {
      rows.push([
        "greptime",
        db,
        "numbers",
        "LOCAL TEMPORARY",
        2,
        0,
        0,
        0,
        0,
        0,
        "test_engine",
        11,
        "Fixed",
        0,
        0,
        0,
        null,
        null,
        null,
        "utf8_bin",
        0,
        "",
        "",
        "Y",
      ]);
    }
    // bytes on disk read every page of the file: only for a query that reads them
    const usage = sizes ? storage.diskUsage(db) : new Map<string, TableDiskUsage>();
    for (const t of storage.listTables(db)) {
      const created = new Date(t.createdAt).toISOString().replace("T", " ").replace("Z", "");
      const bytes = usage.get(t.name);
      // as GreptimeDB sums its regions' statistics: a logical table's rows are its physical table's
      const count = sizes && !isLogicalTable(t) ? countRows(storage, t) : 0;
      rows.push([
        "greptime",
        db,
        t.name,
        "BASE TABLE",
        t.id + 1023,
        bytes?.data ?? 0,
        0,
        bytes?.index ?? 0,
        0,
        count > 0 ? Math.floor((bytes?.data ?? 0) / count) : 0,
        t.engine,
        11,
        "Fixed",
        count,
        0,
        0,
        created,
        null,
        null,
        "utf8_bin",
        0,
        renderCreateOptions(t),
        t.options.comment ?? "",
        "N",
      ]);
    }
    rows.push(...viewTableRows(storage, db));
  }
  return rows;
}

const attached = new WeakSet<DatabaseSync>();

/**
 * Fills the attached `information_schema` schema of a connection with the current catalog; `columns`
 * lists views' columns only with `viewColumns` (planning a view needs the SQL layer).
 */
export function refreshInformationSchema(
  conn: DatabaseSync,
  storage: Storage,
  need: InfoSchemaUse = { tables: Object.keys(INFO_TABLES), sizes: true },
  viewColumns?: ViewColumnsOf,
): void {
  if (!attached.has(conn)) {
    conn.exec(`ATTACH DATABASE ':memory:' AS ${INFORMATION_SCHEMA}`);
    for (const [name, cols] of Object.entries(infoColumns())) {
      conn.exec(
        `CREATE TABLE ${INFORMATION_SCHEMA}.${quoteIdent(name)} (${
          cols.map(([c, type]) => `${quoteIdent(c)} ${sqliteDeclType(type)}`).join(", ")
        })`,
      );
    }
    // information_schema's own columns never change: written once, as rowids 1..n, and kept
    insertRows(conn, "columns", infoSchemaColumnRows(infoColumns()));
    attached.add(conn);
  }
  const build: Record<string, () => Value[][]> = {
    tables: () => tableRows(storage, need.sizes),
    columns: () => userColumnRows(storage, viewColumns),
    flows: () => flowRows(storage),
    views: () => viewRows(storage),
    schemata: () =>
      storage.listDatabases().map((db) => [
        "greptime",
        db,
        "utf8",
        "utf8_bin",
        null,
        shownOptions(storage.databaseOptions(db)).map(([k, v]) => `${k}='${v}'`).join(" "),
      ]),
  };
  for (const [name, t] of Object.entries(MODULE_TABLES)) build[name] = () => t.rows(storage, need);
  const data = Object.fromEntries(need.tables.filter((t) => t in build).map((t) => [t, build[t]()]));
  for (const [name, rows] of Object.entries(data)) {
    // columns keeps information_schema's own rows (the first rowids): a query filtering them out
    // costs nothing more than before they were there
    const keep = name === "columns" ? ` WHERE rowid > ${infoSchemaColumnCount()}` : "";
    conn.exec(`DELETE FROM ${INFORMATION_SCHEMA}.${quoteIdent(name)}${keep}`);
    insertRows(conn, name, rows);
  }
}

/** How many rows information_schema's own columns take in `columns`. */
function infoSchemaColumnCount(): number {
  return Object.values(infoColumns()).reduce((n, cols) => n + cols.length, 0);
}

function insertRows(conn: DatabaseSync, name: string, rows: Value[][]): void {
  const width = INFO_TABLES[name].length;
  const stmt = conn.prepare(
    `INSERT INTO ${INFORMATION_SCHEMA}.${quoteIdent(name)} VALUES (${new Array(width).fill("?").join(", ")})`,
  );
  for (const r of rows) stmt.run(...(r as Array<string | number | null>));
}

/** Which information_schema tables a query reads, and whether it may read their bytes on disk. */
export interface InfoSchemaUse {
  tables: string[];
  /** Whether `tables.data_length`/`index_length` must be measured (a walk of every page). */
  sizes: boolean;
}

/** What a table reference in a query resolved to. */
export type ResolvedTable =
  | { kind: "table"; table: TableMeta }
  | { kind: "info"; name: string }
  | { kind: "numbers" }
  | { kind: "view"; view: ViewMeta };

/**
 * A metric-engine logical table without a ttl of its own keeps its samples as long as its physical
 * table does: the copy handed to the query carries the physical table's ttl.
 */
function withPhysicalTtl(storage: Storage, t: TableMeta): TableMeta {
  if (!isLogicalTable(t) || t.options.ttl !== undefined) return t;
  const ttl = storage.getTable(t.db, t.options.on_physical_table)?.options.ttl;
  return ttl === undefined ? t : { ...t, options: { ...t.options, ttl } };
}

/** Resolves `name`, `db.name` or `greptime.db.name` for a query running in `db`. */
export function resolveTableRef(storage: Storage, db: string, parts: string[]): ResolvedTable {
  let schema = db;
  let name = parts[parts.length - 1];
  if (parts.length === 3) {
    if (parts[0].toLowerCase() !== "greptime") throw tableNotFound(parts.join("."));
    schema = parts[1];
  } else if (parts.length === 2) schema = parts[0];
  else if (parts.length > 3) throw tableNotFound(parts.join("."));
  if (schema.toLowerCase() === INFORMATION_SCHEMA) {
    name = name.toLowerCase();
    if (isInfoTable(name)) return { kind: "info", name };
    throw tableNotFound(`greptime.${INFORMATION_SCHEMA}.${name}`);
  }
  if (!storage.hasDatabase(schema)) throw tableNotFound(`greptime.${schema}.${name}`);
  const t = storage.getTable(schema, name);
  if (t) return { kind: "table", table: withPhysicalTtl(storage, t) };
  if (name.toLowerCase() === "numbers" && schema === "public") return { kind: "numbers" };
  const view = getView(storage.database(schema), name);
  if (view) return { kind: "view", view };
  throw tableNotFound(`greptime.${schema}.${name}`);
}

/** The SQLite text a resolved table reference becomes; expired rows are filtered out here. */
export function tableRefSql(
  r: Exclude<ResolvedTable, { kind: "view" }>,
  alias: string | undefined,
  limit?: number,
): string {
  if (r.kind === "info") {
    return `${INFORMATION_SCHEMA}.${quoteIdent(r.name)}${alias ? "" : ` AS ${quoteIdent(r.name)}`}`;
  }
  if (r.kind === "numbers") {
    const n = Math.max(0, Math.min(limit ?? 100, 10_000_000));
    return `(WITH RECURSIVE __petrel_n(number) AS (SELECT 0 UNION ALL SELECT number + 1 FROM __petrel_n WHERE number + 1 < ${n}) SELECT CAST(number AS UInt32) AS number FROM __petrel_n WHERE ${n} > 0)${
      alias ? "" : ' AS "numbers"'
    }`;
  }
  const t = r.table;
  const cutoff = ttlCutoff(t);
  const nullTags = nullTagColumns(t);
  if (cutoff === undefined && nullTags.length === 0) return qualifiedName(t);
  // null tags are stored as X'' (a key column cannot hold NULL): read them back as NULL
  const cols = nullTags.length === 0
    ? "*"
    : t.columns.map((c) =>
      nullTags.includes(c)
        ? `NULLIF(${quoteIdent(c.name)}, X'') AS ${quoteIdent(c.name)}`
        : quoteIdent(c.name)
    ).join(", ");
  const where = cutoff === undefined ? "" : ` WHERE ${quoteIdent(t.timeIndex)} >= ${cutoff}`;
  return `(SELECT ${cols} FROM ${qualifiedName(t)}${where})${alias ? "" : ` AS ${quoteIdent(t.name)}`}`;
}
