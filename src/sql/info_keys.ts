/**
 * `information_schema.key_column_usage` and `table_constraints`, as GreptimeDB derives them from a
 * table's schema: the time index is the `TIME INDEX` constraint, the primary key `PRIMARY`, and a
 * column's inverted, fulltext and skipping indexes join its key row (`SHOW INDEX` reads these rows).
 */
import type { DataType, Value } from "../common/rows.ts";
import type { TableMeta } from "../storage/mod.ts";
import { type InfoTable, strings, userTables } from "./info_table.ts";

/** The index type GreptimeDB names for each kind of key or index (`greptime_index_type`). */
const INDEX_TYPE = {
  primary: "greptime-primary-key-v1",
  inverted: "greptime-inverted-index-v1",
  fulltextTantivy: "greptime-fulltext-index-v1",
  fulltextBloom: "greptime-fulltext-index-bloom",
  skipping: "greptime-bloom-filter-v1",
};

/** One key row of a table: its constraint names, column, 1-based position and index types. */
export interface KeyUsage {
  constraint: string;
  column: string;
  ordinal: number;
  indexType: string;
}

/**
 * A table's key rows, in column order: the time index (ordinal always 1, no index type), then for
 * each other keyed or indexed column one row whose ordinal is its position in the table.
 */
export function keyUsages(t: TableMeta): KeyUsage[] {
  const rows: KeyUsage[] = [];
  t.columns.forEach((c, i) => {
    if (c.name === t.timeIndex) {
      rows.push({ constraint: "TIME INDEX", column: c.name, ordinal: 1, indexType: "" });
    }
    const names: string[] = [];
    const types: string[] = [];
    if (t.primaryKey.includes(c.name)) names.push("PRIMARY"), types.push(INDEX_TYPE.primary);
    if (c.index?.kind === "inverted") names.push("INVERTED INDEX"), types.push(INDEX_TYPE.inverted);
    if (c.index?.kind === "fulltext") {
      names.push("FULLTEXT INDEX");
      types.push(
        c.index.options.backend === "tantivy" ? INDEX_TYPE.fulltextTantivy : INDEX_TYPE.fulltextBloom,
      );
    }
    if (c.index?.kind === "skipping") names.push("SKIPPING INDEX"), types.push(INDEX_TYPE.skipping);
    if (names.length > 0) {
      rows.push({
        constraint: names.join(", "),
        column: c.name,
        ordinal: i + 1,
        indexType: types.join(", "),
      });
    }
  });
  return rows;
}

const keyColumnUsage: InfoTable = {
  columns: [
    ...strings(
      "constraint_catalog",
      "constraint_schema",
      "constraint_name",
      "table_catalog",
      "real_table_catalog",
      "table_schema",
      "table_name",
      "column_name",
    ),
    ["ordinal_position", "UInt32"],
    ["position_in_unique_constraint", "UInt32"],
    ...strings("referenced_table_schema", "referenced_table_name", "referenced_column_name"),
    ["greptime_index_type", "String"],
  ] as Array<[string, DataType]>,
  rows: (storage) =>
    userTables(storage).flatMap((t) =>
      keyUsages(t).map((k): Value[] => [
        "def",
        t.db,
        k.constraint,
        "def",
        "greptime",
        t.db,
        t.name,
        k.column,
        k.ordinal,
        null,
        null,
        null,
        null,
        k.indexType,
      ])
    ),
};

const tableConstraints: InfoTable = {
  columns: strings(
    "constraint_catalog",
    "constraint_schema",
    "constraint_name",
    "table_schema",
    "table_name",
    "constraint_type",
    "enforced",
  ),
  rows: (storage) =>
    userTables(storage).flatMap((t) => {
      const rows: Value[][] = [["def", t.db, "TIME INDEX", t.db, t.name, "TIME INDEX", "YES"]];
      if (t.primaryKey.length > 0) rows.push(["def", t.db, "PRIMARY", t.db, t.name, "PRIMARY KEY", "YES"]);
      return rows;
    }),
};

/** The key tables, by name. */
export const KEY_INFO_TABLES: Record<string, InfoTable> = {
  key_column_usage: keyColumnUsage,
  table_constraints: tableConstraints,
};
