/**
 * Saved dashboard definitions (`/v1/dashboards/…`, reference §6.7): opaque text by name, kept in
 * `greptime_private.dashboards`. A name's row has a fixed time index, so posting it again replaces it
 * in one write (the table's last-row merge on its key).
 */
import type { ColumnSchema } from "../common/rows.ts";
import { executeSql } from "../sql/mod.ts";
import type { Storage } from "../storage/mod.ts";

const DB = "greptime_private";
const TABLE = "dashboards";
const COLUMNS: ColumnSchema[] = [
  { name: "name", type: "String", semantic: "TAG" },
  { name: "definition", type: "String", semantic: "FIELD" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
];

/** One saved dashboard. */
export interface DashboardDefinition {
  name: string;
  definition: string;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Saves (or replaces) a dashboard's definition; durable when it returns. */
export function saveDashboard(storage: Storage, name: string, definition: string): void {
  storage.write(DB, [{
    table: TABLE,
    columns: COLUMNS,
    rows: [[name, definition, 0]],
    createType: "physical",
    options: { ttl: "forever" },
  }]);
}

/** Every saved dashboard, by name. */
export function listDashboards(storage: Storage): DashboardDefinition[] {
  if (!storage.getTable(DB, TABLE)) return [];
  const [out] = executeSql(storage, `SELECT name, definition FROM ${TABLE} ORDER BY name`, { db: DB });
  if (out.kind !== "records") return [];
  return out.rows.map(([name, definition]) => ({ name: String(name), definition: String(definition ?? "") }));
}

/** Deletes a dashboard (nothing happens when there is none of that name). */
export function deleteDashboard(storage: Storage, name: string): void {
  if (!storage.getTable(DB, TABLE)) return;
  executeSql(storage, `DELETE FROM ${TABLE} WHERE name = ${quote(name)}`, { db: DB });
}
