/**
 * Retention by size (`max_disk_size`, a table option, a database option, or `[storage]
 * max_disk_size` for databases without their own): when a table's or database's bytes on disk
 * (`disk_usage.ts`, the same numbers as `information_schema.tables`) exceed the bound, its oldest
 * time windows are deleted, oldest first across the tables of a database, until the estimate of
 * freed bytes covers the excess; then it is measured again. The newest window of a table is never
 * dropped, so a table is never emptied by this. Freed pages are reused by later writes; the files
 * do not shrink.
 */
import { parseSize } from "../common/humantime.ts";
import { Logger } from "../common/log.ts";
import type { DatabaseHandle } from "./database.ts";
import { type TableDiskUsage, tableDiskUsage } from "./disk_usage.ts";
import { windowed, type WindowedTable, windowStart } from "./time_windows.ts";

const log = new Logger("petrel::storage::retention");

/** Measure-and-drop rounds per table or database per sweep (the next sweep goes on). */
const ROUNDS = 4;
/** The database the config default never applies to: it holds pipelines, not time series. */
const SYSTEM_DATABASE = "greptime_private";

/** Windows and rows a sweep dropped from one table. */
export interface RetentionDrop {
  database: string;
  table: string;
  windows: number;
  rows: number;
}

/** A table's bound in bytes, or 0 when it has none. */
function boundOf(text: string | undefined): number {
  return text === undefined ? 0 : parseSize(text) ?? 0;
}

/** Enforces every size bound of the databases; returns what was dropped. */
export function enforceDiskLimits(
  handles: Iterable<DatabaseHandle>,
  defaultMaxBytes: number,
): RetentionDrop[] {
  const drops: RetentionDrop[] = [];
  for (const h of handles) {
    if (!h.conn.isOpen) continue;
    const tables = h.listTables().flatMap((t) => windowed(h, t) ?? []);
    const dbBound = h.options.max_disk_size !== undefined
      ? boundOf(h.options.max_disk_size)
      : h.name === SYSTEM_DATABASE
      ? 0
      : defaultMaxBytes;
    const bounded = tables.filter((w) => boundOf(w.table.options.max_disk_size) > 0);
    if (dbBound <= 0 && bounded.length === 0) continue; // no dbstat walk unless something is bounded
    const record = (w: WindowedTable, rows: number) => {
      let d = drops.find((x) => x.database === h.name && x.table === w.table.name);
      if (d === undefined) drops.push(d = { database: h.name, table: w.table.name, windows: 0, rows: 0 });
      d.windows++;
      d.rows += rows;
    };
    // One walk of the file decides; shrinking tables measures again as it goes.
    let usage: Map<string, TableDiskUsage> | undefined = tableDiskUsage(h);
    for (const w of bounded) {
      const bound = boundOf(w.table.options.max_disk_size);
      if (total(usage?.get(w.table.name)) <= bound) continue;
      shrink(h, [w], bound, record);
      usage = undefined;
    }
    if (dbBound > 0) shrink(h, tables, dbBound, record, usage);
  }
  for (const d of drops) {
    log.info("size retention dropped old windows", { ...d });
  }
  return drops;
}

/** Drops the oldest windows of `tables` until their bytes fit in `bound` (or only newest windows remain). */
function shrink(
  h: DatabaseHandle,
  tables: WindowedTable[],
  bound: number,
  record: (w: WindowedTable, rows: number) => void,
  measured?: Map<string, TableDiskUsage>,
): void {
  for (let round = 0; round < ROUNDS; round++) {
    const usage = round === 0 && measured !== undefined ? measured : tableDiskUsage(h);
    const bytes = (w: WindowedTable) => total(usage.get(w.table.name));
    const used = tables.reduce((n, w) => n + bytes(w), 0);
    if (used <= bound) return;
    let freed = 0;
    let dropped = false;
    const rowsOf = new Map(tables.map((w) => [w, w.rows()]));
    while (freed < used - bound) {
      const next = oldestDroppable(tables);
      if (next === null) break;
      const rows = next.w.dropBefore(next.start + next.w.windowMs);
      if (rows === null) {
        tables = tables.filter((w) => w !== next.w); // busy: its turn comes next sweep
        continue;
      }
      dropped = true;
      record(next.w, rows);
      const all = rowsOf.get(next.w) ?? 0;
      if (all > 0) freed += bytes(next.w) * Math.min(1, rows / all);
    }
    if (!dropped) {
      log.warn("over max_disk_size, but only the newest windows are left", {
        database: h.name,
        tables: tables.map((w) => w.table.name).join(","),
        used,
        bound,
      });
      return;
    }
  }
}

/** The table whose oldest window is the oldest of all, if that window is not its newest. */
function oldestDroppable(tables: WindowedTable[]): { w: WindowedTable; start: number } | null {
  let best: { w: WindowedTable; start: number } | null = null;
  for (const w of tables) {
    const span = w.span();
    if (span === null) continue;
    const start = windowStart(span.oldest, w.windowMs);
    if (start >= windowStart(span.newest, w.windowMs)) continue;
    if (best === null || start < best.start) best = { w, start };
  }
  return best;
}

function total(u: TableDiskUsage | undefined): number {
  return u === undefined ? 0 : u.data + u.index;
}

/** Windows and rows dropped since start, per table (for `/metrics`). */
export class RetentionCounters {
  private readonly byTable = new Map<string, RetentionDrop>();

  /** Adds a sweep's drops. */
  add(drops: RetentionDrop[]): void {
    for (const d of drops) {
      const key = `${d.database}\u0000${d.table}`;
      const sum = this.byTable.get(key) ?? { database: d.database, table: d.table, windows: 0, rows: 0 };
      sum.windows += d.windows;
      sum.rows += d.rows;
      this.byTable.set(key, sum);
    }
  }

  /** The totals per table. */
  totals(): RetentionDrop[] {
    return [...this.byTable.values()].map((d) => ({ ...d }));
  }
}
