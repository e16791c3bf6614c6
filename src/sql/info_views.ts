/** `information_schema.views` (GreptimeDB's columns) and the `VIEW` rows of `information_schema.tables`. */
import type { DataType, Value } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { INFORMATION_SCHEMA } from "../storage/mod.ts";
import { listViews } from "../storage/views.ts";

/** The columns of information_schema.views, in GreptimeDB's order. */
export const VIEW_COLUMNS = [
  "table_catalog",
  "table_schema",
  "table_name",
  "view_definition",
  "check_option",
  "is_updatable",
  "definer",
  "security_type",
  "character_set_client",
  "collation_connection",
];

/** The non-String columns' types. */
export const VIEW_TYPES: Record<string, DataType> = { is_updatable: "Boolean" };

/** Every view of every database, as `(db, view)` pairs. */
function allViews(storage: Storage) {
  return storage.listDatabases().filter((db) => db !== INFORMATION_SCHEMA).flatMap((db) =>
    listViews(storage.database(db))
  );
}

/** One row per view; a view is never updatable, and Petrel keeps no definer or security type. */
export function viewRows(storage: Storage): Value[][] {
  return allViews(storage).map((v) => [
    "greptime",
    v.db,
    v.name,
    v.definition,
    null,
    0, // is_updatable (Boolean): false
    null,
    null,
    "utf8",
    "utf8_bin",
  ]);
}

/** The rows of information_schema.tables for views (table_type `VIEW`), in its column order. */
export function viewTableRows(storage: Storage, db: string): Value[][] {
  return listViews(storage.database(db)).map((v) => {
    const created = new Date(v.createdAt).toISOString().replace("T", " ").replace("Z", "");
    return [
      "greptime",
      db,
      v.name,
      "VIEW",
      v.id + 1023,
      0,
      0,
      0,
      0,
      0,
      "",
      11,
      "Fixed",
      0,
      0,
      0,
      created,
      null,
      null,
      "utf8_bin",
      0,
      "",
      "",
      "N",
    ];
  });
}
