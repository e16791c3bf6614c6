/**
 * The enrichment tables of this process (Vector's `TableRegistry`): loaded once at start from the
 * configuration, read by the enrichment functions when a program compiles (the table must exist) and
 * when it runs.
 */

import type { EnrichmentTableConfig } from "../../../src/config/enrichment_tables.ts";
import type { EnrichmentTable } from "./table.ts";

let tables = new Map<string, EnrichmentTable>();

/** Loads the configured tables and makes them the process's tables; throws an Error naming a bad one. */
export async function loadEnrichmentTables(configs: EnrichmentTableConfig[]): Promise<void> {
  if (configs.length === 0) return setEnrichmentTables([]);
  // The CSV reader loads only on hosts that configure a table.
  const { loadFileTable } = await import("./file.ts");
  const loaded = await Promise.all(configs.map(loadFileTable));
  setEnrichmentTables(loaded);
}

/** Replaces the process's tables (tests, and `loadEnrichmentTables`). */
export function setEnrichmentTables(list: EnrichmentTable[]): void {
  tables = new Map(list.map((t) => [t.name, t]));
}

/** The table of that name, if configured. */
export function enrichmentTable(name: string): EnrichmentTable | undefined {
  return tables.get(name);
}

/** The configured table names, sorted. */
export function enrichmentTableNames(): string[] {
  return [...tables.keys()].sort();
}
