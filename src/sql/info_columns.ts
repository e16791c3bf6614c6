/**
 * `information_schema.columns`: a row per column of every user table, and, as GreptimeDB, of
 * information_schema's own tables too (SQL tools autocomplete from them), read off the same
 * definitions that create those tables.
 */
import type { DataType, SemanticType, Value } from "../common/rows.ts";
import { decimalSpec } from "../common/decimal.ts";
import { infoSchemaTypeName, sqlTypeName } from "../storage/datatypes.ts";
import { INFORMATION_SCHEMA, type Storage, type TableMeta } from "../storage/mod.ts";

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

/** The rows of every user table's columns, database by database. */
export function userColumnRows(storage: Storage): Value[][] {
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
