/**
 * `information_schema.columns`: a row per column of every user table, and, as GreptimeDB, of
 * information_schema's own tables too (SQL tools autocomplete from them), read off the same
 * definitions that create those tables.
 */
import type { DataType, SemanticType, Value } from "../common/rows.ts";
import { decimalSpec } from "../common/decimal.ts";
import { infoSchemaTypeName, sqlTypeName } from "../storage/datatypes.ts";
import { INFORMATION_SCHEMA, type Storage, type TableMeta } from "../storage/mod.ts";
import { listViews, type ViewMeta } from "../storage/views.ts";

/** What a columns row tells of one column. */
interface ColumnFacts {
  name: string;
  type: DataType;
  semantic: SemanticType;
  /** `PRI`, `TIME INDEX` or "". */
  key: string;
  default: string | null;
  nullable: boolean;
  comment: string;
}

/** A view's output columns (name, type, nullable); the SQL layer plans the view to tell them. */
export type ViewColumnsOf = (
  view: ViewMeta,
) => ReadonlyArray<{ name: string; type: string; nullable: boolean }>;

/** An information_schema table's columns, (name, type) in order. */
export type InfoColumns = ReadonlyArray<readonly [string, DataType]>;

const TIME_PRECISION: Partial<Record<DataType, number>> = {
  TimestampSecond: 0,
  TimestampMillisecond: 3,
  TimestampMicrosecond: 6,
};

function columnRow(db: string, table: string, ordinal: number, c: ColumnFacts): Value[] {
  const isString = c.type === "String";
  const decimal = decimalSpec(c.type);
  return [
    "greptime",
    db,
    table,
    c.name,
    ordinal,
    isString ? 2147483647 : null,
    isString ? 2147483647 : null,
    decimal?.precision ?? (/Int|Float/.test(c.type) ? (c.type.includes("64") ? 19 : 10) : null),
    decimal?.scale ?? (/Int/.test(c.type) ? 0 : null),
    c.type.startsWith("Timestamp") ? TIME_PRECISION[c.type] ?? 9 : null,
    isString ? "utf8" : null,
    isString ? "utf8_bin" : null,
    c.key,
    "",
    "select,insert",
    "",
    c.type,
    infoSchemaTypeName(c.type),
    c.semantic,
    c.default,
    c.nullable ? "Yes" : "No",
    sqlTypeName(c.type).toLowerCase(),
    c.comment,
  ];
}

function columnKey(t: TableMeta, name: string): string {
  if (name === t.timeIndex) return "TIME INDEX";
  return t.primaryKey.includes(name) ? "PRI" : "";
}

/**
 * The rows of every user table's columns, database by database, then of its views' (as GreptimeDB,
 * whose views carry their query's schema: FIELDs without a key) when `viewColumns` is given.
 */
export function userColumnRows(storage: Storage, viewColumns?: ViewColumnsOf): Value[][] {
  const rows: Value[][] = [];
  for (const db of storage.listDatabases()) {
    if (db === INFORMATION_SCHEMA) continue;
    for (const t of storage.listTables(db)) {
      t.columns.forEach((c, i) => {
        rows.push(columnRow(db, t.name, i + 1, {
          name: c.name,
          type: c.type,
          semantic: c.semantic,
          key: columnKey(t, c.name),
          default: c.default ?? null,
          nullable: c.nullable && c.name !== t.timeIndex,
          comment: c.comment ?? "",
        }));
      });
    }
    if (viewColumns) rows.push(...viewColumnRows(storage, db, viewColumns));
  }
  return rows;
}

function viewColumnRows(storage: Storage, db: string, viewColumns: ViewColumnsOf): Value[][] {
  const rows: Value[][] = [];
  for (const view of listViews(storage.database(db))) {
    let columns;
    try {
      columns = viewColumns(view);
    } catch {
      // a view whose source table was dropped or altered away has no columns to list
      continue;
    }
    columns.forEach((c, i) => {
      rows.push(columnRow(db, view.name, i + 1, {
        name: c.name,
        type: c.type as DataType,
        semantic: "FIELD",
        key: "",
        default: null,
        nullable: c.nullable,
        comment: "",
      }));
    });
  }
  return rows;
}

/**
 * The rows of information_schema's own tables' columns (`tables`: name → columns): FIELD columns
 * without a key, all nullable (Petrel's tables do not tell which are not).
 */
export function infoSchemaColumnRows(tables: Readonly<Record<string, InfoColumns>>): Value[][] {
  return Object.keys(tables).sort().flatMap((table) =>
    tables[table].map(([name, type], i) =>
      columnRow(INFORMATION_SCHEMA, table, i + 1, {
        name,
        type,
        semantic: "FIELD",
        key: "",
        default: null,
        nullable: true,
        comment: "",
      })
    )
  );
}
