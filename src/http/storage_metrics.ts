/**
 * `/metrics` series of the storage's disk use: bytes per table (as `information_schema.tables`
 * shows them) and what size retention dropped. Measuring walks every page of every database, so a
 * measurement is reused by the scrapes of the next `DISK_CACHE_MS`.
 */
import client from "prom-client";

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
  new client.Gauge({
    name: "petrel_table_disk_bytes",
    help: "Bytes on disk of a table's data and indexes (SQLite b-tree pages; refreshed at most every 30s)",
    labelNames: ["database", "table"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [database, table, bytes] of measure()) this.set({ database, table }, bytes);
    },
  });
  const counter = (name: string, help: string, pick: (d: Dropped) => number) =>
    new client.Counter({
      name,
      help,
      labelNames: ["database", "table"],
      registers: [registry],
      collect() {
        this.reset();
        for (const d of storage.retentionDropped()) {
          this.inc({ database: d.database, table: d.table }, pick(d));
        }
      },
    });
  counter(
    "petrel_retention_dropped_windows_total",
    "Time windows dropped because a table or database was over max_disk_size",
    (d) => d.windows,
  );
  counter(
    "petrel_retention_dropped_rows_total",
    "Rows dropped because a table or database was over max_disk_size",
    (d) => d.rows,
  );
}
