/**
 * `/metrics` series of the storage's disk use: bytes per table (as `information_schema.tables`
 * shows them) and what size retention dropped. Measuring walks every page of every database, so a
 * measurement is reused by the scrapes of the next `DISK_CACHE_MS`.
 */
import type client from "prom-client";
import { scrapedMetric } from "./scraped_metric.ts";

/** A table's bytes (the storage's `TableDiskUsage`; the HTTP layer does not import storage). */
interface TableBytes {
  data: number;
  index: number;
}

/** What size retention dropped from one table (the storage's `RetentionDrop`). */
interface Dropped {
  database: string;
  table: string;
  windows: number;
  rows: number;
}

/** How long one measurement of the disk serves scrapes. */
const DISK_CACHE_MS = 30_000;

/** What the series read from the storage. */
export interface DiskSource {
  listDatabases(): string[];
  hasDatabase(db: string): boolean;
  diskUsage(db: string): Map<string, TableBytes>;
  retentionDropped(): Dropped[];
}

/**
 * Registers `petrel_statement_prepares_total` and `petrel_statements_cached`: SQLite statements the
 * storage's caches prepared, and hold now, by kind.
 */
export function watchStatementPrepares(
  registry: client.Registry,
  storage: {
    statementPrepares(): Record<string, number>;
    databaseHandles(): Iterable<{ statements: { stats(): { byKind: Record<string, number> } } }>;
  },
): void {
  scrapedMetric(
    registry,
    "counter",
    "petrel_statement_prepares_total",
    "SQLite statements the storage's statement caches prepared (insert, scan, metric, trace, late) in the open databases",
    ["kind"],
    () => Object.entries(storage.statementPrepares()).map(([kind, n]) => [{ kind }, n]),
  );
  scrapedMetric(
    registry,
    "gauge",
    "petrel_statements_cached",
    "SQLite statements the storage's statement caches hold now in the open databases, by kind (each holds SQLite memory: ~10 KB, a big multi-row INSERT ~0.5 MB)",
    ["kind"],
    () => {
      const out: Record<string, number> = {};
      for (const h of storage.databaseHandles()) {
        for (const [kind, n] of Object.entries(h.statements.stats().byKind)) out[kind] = (out[kind] ?? 0) + n;
      }
      return Object.entries(out).map(([kind, n]) => [{ kind }, n]);
    },
  );
}

/** Registers `petrel_table_disk_bytes` and the retention counters on a registry. */
export function watchTableDisk(registry: client.Registry, storage: DiskSource): void {
  let cached: { at: number; rows: Array<[string, string, number]> } | null = null;
  const measure = (): Array<[string, string, number]> => {
    const now = Date.now();
    if (cached !== null && now - cached.at < DISK_CACHE_MS) return cached.rows;
    const rows: Array<[string, string, number]> = [];
    for (const db of storage.listDatabases()) {
      if (db === "information_schema") continue;
      for (const [table, u] of storage.diskUsage(db)) rows.push([db, table, u.data + u.index]);
    }
    cached = { at: now, rows };
    return rows;
  };
  scrapedMetric(
    registry,
    "gauge",
    "petrel_table_disk_bytes",
    "Bytes on disk of a table's data and indexes (SQLite b-tree pages; refreshed at most every 30s)",
    ["database", "table"],
    () => measure().map(([database, table, bytes]) => [{ database, table }, bytes]),
  );
  const dropped = (name: string, help: string, pick: (d: Dropped) => number) =>
    scrapedMetric(
      registry,
      "counter",
      name,
      help,
      ["database", "table"],
      () => storage.retentionDropped().map((d) => [{ database: d.database, table: d.table }, pick(d)]),
    );
  dropped(
    "petrel_retention_dropped_windows_total",
    "Time windows dropped because a table or database was over max_disk_size",
    (d) => d.windows,
  );
  dropped(
    "petrel_retention_dropped_rows_total",
    "Rows dropped because a table or database was over max_disk_size",
    (d) => d.rows,
  );
}
