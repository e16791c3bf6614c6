/** The shape every `information_schema` table module hands the catalog view (`catalog_view.ts`). */
import type { DataType, Value } from "../common/rows.ts";
import { INFORMATION_SCHEMA, type Storage, type TableMeta } from "../storage/mod.ts";

/** What a table's rows may cost: `sizes` is true when the query may read bytes or row counts. */
export interface InfoNeed {
  sizes: boolean;
}

/** One information_schema table: GreptimeDB's columns (name, type) in order, and its current rows. */
export interface InfoTable {
  columns: ReadonlyArray<readonly [string, DataType]>;
  rows(storage: Storage, need: InfoNeed): Value[][];
}

/** A table that is always empty (MySQL compatibility): only its columns. */
export function emptyTable(columns: ReadonlyArray<readonly [string, DataType]>): InfoTable {
  return { columns, rows: () => [] };
}

/** String columns, by name. */
export function strings(...names: string[]): Array<[string, DataType]> {
  return names.map((n) => [n, "String"]);
}

/** Every user table of every database (information_schema itself has none). */
export function userTables(storage: Storage): TableMeta[] {
  return storage.listDatabases().filter((db) => db !== INFORMATION_SCHEMA).flatMap((db) =>
    storage.listTables(db)
  );
}

/** The table id GreptimeDB would show: user table ids start at 1024. */
export function greptimeTableId(t: { id: number }): number {
  return t.id + 1023;
}
