/**
 * A query worker's read-only view of the databases the main thread writes: the same reads as
 * {@link Storage}'s for metrics (catalog, series, samples), on read-only connections of their own.
 * Writes are acknowledged only after they commit, so such a connection sees every acknowledged
 * sample; each query reads inside one read transaction per database, so the compaction state, the
 * chunks and the samples it reads are of one moment.
 */
import { databaseNotFound, invalidArguments } from "../common/errors.ts";
import type { LabelMatcher } from "../common/label_matcher.ts";
import type { Value } from "../common/rows.ts";
import type { ColumnarSeries } from "../common/series.ts";
import { DatabaseHandle } from "./database.ts";
import { forgetHeads } from "./metric_head.ts";
import { isMetricTable } from "./metric_layout.ts";
import { selectColumnsOf } from "./metric_read.ts";
import { forgetSeries } from "./metric_series.ts";
import type { Storage } from "./mod.ts";
import { INFORMATION_SCHEMA } from "./mod.ts";
import { scanTable, type TableScan } from "./scan.ts";
import type { TableMeta } from "./table.ts";

/** What metric reads take from storage: {@link Storage}, or a worker's {@link ReadOnlyDatabases}. */
export type SeriesStore = Pick<
  Storage,
  "hasDatabase" | "listTables" | "getTable" | "selectColumns" | "scanTable"
>;

/** A database as the writer has it now, for a reader to catch up with. */
export interface DatabaseRef {
  name: string;
  /** The writer's opening of it (a database dropped and created again is another). */
  instance: number;
  main: string;
  nowal: string;
  /** The writer's catalog state: a change makes the reader reload its catalog. */
  schemaVersion: number;
  catalogLoads: number;
  seriesResets: number;
}

/** The refs of every file-backed database of `storage` (none for an in-memory one). */
export function databaseRefs(storage: Storage): DatabaseRef[] {
  const refs: DatabaseRef[] = [];
  for (const h of storage.databaseHandles()) {
    if (!h.files.main || !h.files.nowal) continue;
    refs.push({
      name: h.name,
      instance: h.instance,
      main: h.files.main,
      nowal: h.files.nowal,
      schemaVersion: h.schemaVersion,
      catalogLoads: h.catalogLoads,
      seriesResets: h.seriesResets,
    });
  }
  return refs;
}

interface Opened {
  ref: DatabaseRef;
  handle: DatabaseHandle;
}

/** Read-only handles of the writer's databases, kept between queries. */
export class ReadOnlyDatabases implements SeriesStore {
  private readonly dbs = new Map<string, Opened>();

  /** Catches up with the writer: opens new databases, closes dropped ones, reloads changed catalogs. */
  sync(refs: DatabaseRef[]): void {
    const names = new Set(refs.map((r) => r.name));
    for (const [name, o] of this.dbs) {
      if (!names.has(name)) this.close(name, o);
    }
    for (const ref of refs) {
      let o = this.dbs.get(ref.name);
      if (o !== undefined && o.ref.instance !== ref.instance) {
        this.close(ref.name, o);
        o = undefined;
      }
      if (o === undefined) {
        const handle = new DatabaseHandle(ref.name, { main: ref.main, nowal: ref.nowal }, { readOnly: true });
        this.dbs.set(ref.name, { ref, handle });
        continue;
      }
      if (o.ref.seriesResets !== ref.seriesResets) forgetSeries(o.handle);
      if (o.ref.schemaVersion !== ref.schemaVersion || o.ref.catalogLoads !== ref.catalogLoads) {
        o.handle.loadCatalog();
      }
      o.ref = ref;
    }
  }

  /** Runs `read` inside one read transaction per database, with heads loaded afresh. */
  async snapshot<T>(read: () => Promise<T>): Promise<T> {
    for (const { handle } of this.dbs.values()) {
      forgetHeads(handle);
      handle.conn.exec("BEGIN");
    }
    try {
      return await read();
    } finally {
      for (const { handle } of this.dbs.values()) if (handle.conn.isTransaction) handle.conn.exec("COMMIT");
    }
  }

  private close(name: string, o: Opened): void {
    this.dbs.delete(name);
    o.handle.conn.close();
  }

  private database(db: string): DatabaseHandle {
    const o = this.dbs.get(db);
    if (o === undefined) throw databaseNotFound(db);
    return o.handle;
  }

  /** Whether a database exists (`information_schema` always does). */
  hasDatabase(db: string): boolean {
    return db === INFORMATION_SCHEMA || this.dbs.has(db);
  }

  /** All tables of a database. */
  listTables(db: string): TableMeta[] {
    return this.database(db).listTables();
  }

  /** A table's metadata. */
  getTable(db: string, table: string): TableMeta | undefined {
    return this.dbs.get(db)?.handle.getTable(table);
  }

  /** As {@link Storage.selectColumns}. */
  selectColumns(
    db: string,
    metric: string,
    matchers: LabelMatcher[],
    startMs: number,
    endMs: number,
    reserve?: (samples: number) => void,
  ): ColumnarSeries[] | undefined {
    return selectColumnsOf(this.database(db), metric, matchers, startMs, endMs, reserve);
  }

  /** As {@link Storage.scanTable}. */
  scanTable(db: string, table: string, scan: TableScan): Value[][] {
    const h = this.database(db);
    const t = h.requireTable(table);
    if (isMetricTable(t)) throw invalidArguments(`Table ${table} is a metric-engine table`);
    return scanTable(h, t, scan);
  }
}
