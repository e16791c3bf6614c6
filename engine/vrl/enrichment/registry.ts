/**
 * The enrichment tables of this process (Vector's `TableRegistry`): loaded once at start from the
 * configuration, read by the enrichment functions when a program compiles (the table must exist) and
 * when it runs.
 */

import type { EnrichmentTableConfig } from "../../../src/config/enrichment_tables.ts";
import type { LookupTable } from "./table.ts";

let tables = new Map<string, LookupTable>();

/** Loads the configured tables and makes them the process's tables; throws an Error naming a bad one. */
export async function loadEnrichmentTables(configs: EnrichmentTableConfig[]): Promise<void> {
  if (configs.length === 0) return setEnrichmentTables([]);
  // The CSV and MMDB readers load only on hosts that configure such a table.
  const loaded = await Promise.all(configs.map(async (c): Promise<LookupTable> => {
    if (c.type === "file") return (await import("./file.ts")).loadFileTable(c);
    return (await import("./mmdb.ts")).MmdbTable.open(c);
  }));
  setEnrichmentTables(loaded);
}

/** Replaces the process's tables (tests, and `loadEnrichmentTables`). */
export function setEnrichmentTables(list: LookupTable[]): void {
  tables = new Map(list.map((t) => [t.name, t]));
}

/** The table of that name, if configured. */
export function enrichmentTable(name: string): LookupTable | undefined {
  return tables.get(name);
}

/** The configured table names, sorted. */
export function enrichmentTableNames(): string[] {
  return [...tables.keys()].sort();
}
