/**
 * Petrel's storage: databases (one SQLite file each under `<data_home>/data/`), their catalogs,
 * the one writer API, and the ttl sweeper.
 *
 * ```ts
 * const storage = Storage.open({ dataHome: ":memory:" });
 * storage.write("public", [{ table: "cpu", columns, rows }]);
 * ```
 *
 * Layout and guarantees:
 * - `<db>.sqlite` (WAL, synchronous=NORMAL) holds the catalog table `__petrel_catalog` and the
 *   tables; a write call is acknowledged after its one transaction commits, so it survives a crash
 *   of the process (an OS crash or power loss may lose the last commits before a checkpoint).
 * - `<db>.nowal.sqlite` (attached as `nowal`, WAL, synchronous=OFF) holds `skip_wal='true'` tables:
 *   no fsync ever, and writes touching only these tables are group-committed: acknowledged before
 *   their commit, which follows within 20 ms (`group_commit.ts`), so a process crash may lose those
 *   last 20 ms and an OS crash everything since the last checkpoint (a clean `close()` commits and
 *   checkpoints both files). About twice as fast for small writes.
 * - Tables with dedup are `WITHOUT ROWID` keyed time-first by (time index, tags…) (layout 2; tables
 *   of layout 1 keep (tags…, time index)); a NULL tag is stored as the empty blob `X''` (a key
 *   column cannot hold NULL) and read back as NULL: the SQL layer maps it once a table has stored
 *   one (`ColumnMeta.nullTags`). Append-mode tables are rowid tables with an index on the time
 *   index and store NULL as is.
 * - Declared SQLite column types carry the GreptimeDB type (`Float64`, `TimestampMillisecond_INT`),
 *   so result sets report it; UInt64 values above 2^63-1 are stored as their two's complement.
 * - Metric-engine tables (`metric_*.ts`): physical tables hold series and samples, logical tables are
 *   per-metric views of them, each with its own catalog entry.
 */
import { join } from "node:path";
import { databaseNotFound, invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import { type TableDiskUsage, tableDiskUsage } from "./disk_usage.ts";
import type { RetentionDrop } from "./size_retention.ts";
import { Upkeep } from "./upkeep.ts";
import { DatabaseHandle, TableIds } from "./database.ts";
import { databaseFiles, databasesOnDisk, isDatabaseName, removeDatabaseFiles } from "./data_dir.ts";
import { normalizeDatabaseOptions } from "./options.ts";
import type { TableMeta } from "./table.ts";
import { isAppendMode, mergeMode, qualifiedName, quoteIdent, timeUnit, ttlCutoff, ttlMs } from "./table.ts";
import type { TableOptions, Value, WriteBatch } from "../common/rows.ts";
import { iterateTable, scanTable, type TableScan } from "./scan.ts";
import type { WriteOptions } from "./writer.ts";
import type { LabelMatcher } from "../common/label_matcher.ts";
import type { MetricWrite } from "./metric_engine.ts";
import { isLogicalTable, isMetricTable } from "./metric_layout.ts";
import { matchSeries, matchSeriesInRange, selectColumnsOf, selectMetricSeries } from "./metric_read.ts";
import { type Forwarding, routeMetricWrites, routeWrite, type WriteRouting } from "./write_route.ts";
import type { ColumnarSeries, Series } from "../common/series.ts";
import { dropMetricTable, truncateMetricTable } from "./metric_tables.ts";
import { renameTable } from "./ddl.ts";
import { LateWatches } from "./late_marks.ts";
import { markTruncated } from "./delete_range.ts";

export type { ColumnMeta, TableMeta } from "./table.ts";
export type { WriteOptions } from "./writer.ts";
export type { TableScan } from "./scan.ts";
export type { RetentionDrop } from "./size_retention.ts";
export type { TableDiskUsage } from "./disk_usage.ts";
export { batchFromRecords } from "./writer.ts";
export { isAppendMode, mergeMode, qualifiedName, quoteIdent, timeUnit, ttlCutoff, ttlMs };
export type { MetricSampleInput, MetricSeriesInput, MetricWrite } from "./metric_engine.ts";
export { MetricPoints } from "./metric_points.ts";
export {
  DEFAULT_PHYSICAL_TABLE,
  isLogicalTable,
  isMetricTable,
  isPhysicalTable,
  metricValueColumn,
} from "./metric_layout.ts";

/** Options of {@link Storage.open}. */
export interface StorageOptions {
  /** Directory holding `data/<db>.sqlite`; `":memory:"` keeps everything in memory, no files at all. */
  dataHome: string;
  /** Whether writes may create missing tables (GreptimeDB's default: true). */
  autoCreateTable?: boolean;
  /** `max_disk_size` of databases without their own, in bytes (0: unbounded). */
  maxDiskSize?: number;
}

/** Databases that always exist. */
const DEFAULT_DATABASES = ["public", "greptime_private"];
/** The virtual database of metadata tables. */
export const INFORMATION_SCHEMA = "information_schema";

function addPrepares(into: Record<string, number>, h: DatabaseHandle): void {
  for (const [kind, n] of Object.entries(h.statements.stats().prepares)) into[kind] = (into[kind] ?? 0) + n;
}

/** The storage engine: one instance per process. */
export class Storage {
  readonly dataHome: string;
  readonly autoCreateTable: boolean;
  private readonly dataDir: string | null;
  private readonly dbs = new Map<string, DatabaseHandle>();
  /** One table id sequence for every database, as GreptimeDB's. */
  private readonly tableIds = new TableIds();
  private readonly closeHooks = new Set<() => void>();
  /** Prepares counted by dropped databases' caches, so the exported counter never goes back. */
  private readonly droppedPrepares: Record<string, number> = {};
  private readonly upkeep: Upkeep;
  /** Set by the forwarder (`src/forward/`): stamps metric writes with a seq, and may refuse writes. */
  forwarding: Forwarding | null = null;
  /** Source tables of downsampling rules, whose late writes are marked (`late_marks.ts`). */
  readonly lateWatches = new LateWatches();

  private constructor(opts: StorageOptions) {
    this.dataHome = opts.dataHome;
    this.autoCreateTable = opts.autoCreateTable ?? true;
    this.upkeep = new Upkeep(() => this.dbs.values(), opts.maxDiskSize ?? 0);
    this.dataDir = opts.dataHome === ":memory:" ? null : join(opts.dataHome, "data");
  }

  /** Opens (or creates) the storage under `dataHome`; `public` always exists afterwards. */
  static open(opts: StorageOptions): Storage {
    const s = new Storage(opts);
    if (s.dataDir) { for (const db of databasesOnDisk(s.dataDir)) s.openHandle(db); }
    for (const db of DEFAULT_DATABASES) if (!s.dbs.has(db)) s.openHandle(db);
    return s;
  }

  private openHandle(db: string): DatabaseHandle {
    const h = new DatabaseHandle(db, databaseFiles(this.dataDir, db), { ids: this.tableIds });
    this.dbs.set(db, h);
    return h;
  }

  /** Whether a database exists (`information_schema` always does). */
  hasDatabase(db: string): boolean {
    return db === INFORMATION_SCHEMA || this.dbs.has(db);
  }

  /**
   * Creates a database; `false` if it existed and `ifNotExists` was set. Options (`ttl`) apply to
   * its tables that have none of their own.
   */
  createDatabase(db: string, ifNotExists = false, options: TableOptions = {}): boolean {
    if (this.hasDatabase(db)) {
      if (ifNotExists) return false;
      throw new PetrelError(StatusCode.DatabaseAlreadyExists, `Schema ${db} already exists`);
    }
    if (!isDatabaseName(db)) throw invalidArguments(`Invalid database name: ${db}`);
    const normalized = normalizeDatabaseOptions(options);
    const h = this.openHandle(db);
    if (Object.keys(normalized).length > 0) h.setOptions(normalized);
    return true;
  }

  /** Sets and unsets options of a database. */
  alterDatabase(db: string, set: TableOptions, unset: string[] = []): void {
    const h = this.database(db);
    const next = { ...h.options, ...normalizeDatabaseOptions(set) };
    for (const k of unset) delete next[k.toLowerCase()];
    h.setOptions(next);
  }

  /** A database's options (empty for `information_schema`). */
  databaseOptions(db: string): TableOptions {
    return { ...(this.dbs.get(db)?.options ?? {}) };
  }

  /** Drops a database and its files. */
  dropDatabase(db: string): void {
    if (db === INFORMATION_SCHEMA) throw invalidArguments(`Cannot drop database ${db}`);
    const h = this.database(db);
    this.upkeep.forget(h);
    addPrepares(this.droppedPrepares, h);
    h.close();
    this.dbs.delete(db);
    removeDatabaseFiles(h.files);
  }

  /** Names of all databases, sorted (including `information_schema`). */
  listDatabases(): string[] {
    return [...this.dbs.keys(), INFORMATION_SCHEMA].sort();
  }

  /** The handles of every open database. */
  databaseHandles(): Iterable<DatabaseHandle> {
    return this.dbs.values();
  }

  /** Statements prepared so far by the open databases' caches, by kind (`statement_cache.ts`). */
  statementPrepares(): Record<string, number> {
    const out: Record<string, number> = { ...this.droppedPrepares };
    for (const h of this.dbs.values()) addPrepares(out, h);
    return out;
  }

  /** The handle of a database or a 4004 error. */
  database(db: string): DatabaseHandle {
    const h = this.dbs.get(db);
    if (!h) throw databaseNotFound(db);
    return h;
  }

  /** A table's metadata (columns with DataType and semantic type, time index, primary key, options). */
  getTable(db: string, table: string): TableMeta | undefined {
    return this.dbs.get(db)?.getTable(table);
  }

  /** All tables of a database. */
  listTables(db: string): TableMeta[] {
    return this.database(db).listTables();
  }

  /**
   * The one writer API: validates, auto-creates tables, evolves schemas, and commits all batches in
   * one transaction before returning the number of rows written. Batches for metric-engine tables
   * (and missing tables with `createType: "logical"`, created on the `physical_table` hint's
   * physical table) go through the metric engine.
   */
  write(db: string, batches: WriteBatch[], opts: WriteOptions & { hints?: TableOptions } = {}): number {
    const h = this.database(db);
    const rows = routeWrite(h, batches, opts, this.routing());
    this.upkeep.wrote(h);
    return rows;
  }

  /**
   * Writes metrics into metric-engine logical tables (created on demand on their physical table),
   * in one transaction; returns the samples written.
   */
  writeMetrics(db: string, writes: MetricWrite[], opts: { hints?: TableOptions } = {}): number {
    const h = this.database(db);
    const samples = routeMetricWrites(h, writes, opts.hints, this.routing());
    this.upkeep.wrote(h);
    return samples;
  }

  /** What a write takes from this storage, as of now (the forwarder may come and go). */
  private routing(): WriteRouting {
    return {
      autoCreateTable: this.autoCreateTable,
      forwarding: this.forwarding,
      lateWatches: this.lateWatches,
      beforeMetricWrite: () => this.upkeep.wroteMetrics(),
    };
  }

  /**
   * Series of a metric-engine logical table matching Prometheus label matchers (`__name__`
   * included), with their samples in [startMs, endMs], sorted by label set; undefined when the
   * table does not exist or is not a metric-engine logical table.
   */
  selectSeries(
    db: string,
    metric: string,
    matchers: LabelMatcher[],
    startMs: number,
    endMs: number,
  ): Series[] | undefined {
    const h = this.database(db);
    const t = h.getTable(metric);
    if (t === undefined || !isLogicalTable(t)) return undefined;
    return selectMetricSeries(h, t, matchers, startMs, endMs);
  }

  /** {@link Storage.selectSeries} with samples in columns (the PromQL read path). */
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

  /**
   * Label sets (with `__name__`) of a metric-engine logical table's series matching the matchers,
   * sorted: every one in the series index, or with a time range those holding samples in it (see
   * `matchSeriesInRange`); undefined when the table is not a metric-engine logical table.
   */
  listSeries(
    db: string,
    metric: string,
    matchers: LabelMatcher[],
    range?: { startMs: number; endMs: number },
  ): Array<Record<string, string>> | undefined {
    const h = this.database(db);
    const t = h.getTable(metric);
    if (t === undefined || !isLogicalTable(t)) return undefined;
    const found = range === undefined
      ? matchSeries(h, t, matchers)
      : matchSeriesInRange(h, t, matchers, range.startMs, range.endMs);
    return found.map((m) => ({ ...m.labels }));
  }

  /** Rows of a plain table's range scan (see {@link TableScan}); a metric-engine table → 400. */
  scanTable(db: string, table: string, scan: TableScan): Value[][] {
    const h = this.database(db);
    const t = h.requireTable(table);
    if (isMetricTable(t)) throw invalidArguments(`Table ${table} is a metric-engine table`);
    return scanTable(h, t, scan);
  }

  /** {@link scanTable}'s rows one at a time, read only as far as the caller takes them. */
  iterateTable(db: string, table: string, scan: TableScan): Generator<Value[]> {
    const h = this.database(db);
    const t = h.requireTable(table);
    if (isMetricTable(t)) throw invalidArguments(`Table ${table} is a metric-engine table`);
    return iterateTable(h, t, scan);
  }

  /** Drops a table of any engine (a physical metric table only once no logical table uses it). */
  dropTable(db: string, table: string): void {
    const h = this.database(db);
    const t = h.requireTable(table);
    if (isMetricTable(t)) dropMetricTable(h, t);
    else h.transaction(() => h.dropTable(t.name));
  }

  /**
   * Renames a table. Refused (400) for metric-engine tables, whose physical and logical tables name
   * each other, and for a table a downsampling rule or flow reads or writes, which would lose it.
   */
  renameTable(db: string, table: string, name: string): void {
    const h = this.database(db);
    const t = h.requireTable(table);
    if (isMetricTable(t)) throw invalidArguments(`Cannot rename ${t.name}: it is a metric engine table`);
    const rules = this.lateWatches.rulesOn(db, t.name);
    if (rules.length > 0) {
      const { rule, how } = rules[0];
      const what = rule.startsWith("flow ") ? rule : `downsampling rule ${rule}`;
      throw invalidArguments(`Cannot rename ${t.name}: ${what} ${how} it`);
    }
    renameTable(h, t, name);
  }

  /** Deletes every row of a table of any engine: a rule's source has its windows recomputed, as by a DELETE. */
  truncateTable(db: string, table: string): void {
    const h = this.database(db);
    const t = h.requireTable(table);
    h.transaction(() => {
      markTruncated(h, t, this.lateWatches.of(db));
      if (isMetricTable(t)) truncateMetricTable(h, t);
      else h.truncateTable(t.name);
    });
  }

  /**
   * Deletes expired rows of every table with a ttl; returns the rows deleted. Reads already hide
   * expired rows, so this only reclaims space: a table is swept again only after a tenth of its ttl
   * (a sweep scans the whole table, since its key starts with the tags).
   */
  sweepExpired(nowMs = Date.now()): number {
    return this.upkeep.sweepExpired(nowMs);
  }

  /** Drops the oldest time windows of tables and databases over their `max_disk_size` (counted for `/metrics`). */
  enforceDiskSize(): RetentionDrop[] {
    return this.upkeep.enforceDiskSize();
  }

  /** Windows and rows dropped by size retention since start, per table. */
  retentionDropped(): RetentionDrop[] {
    return this.upkeep.retentionDropped();
  }

  /** Starts the background sweeper: expired rows, then size bounds, every `intervalMs`. */
  startTtlSweeper(intervalMs: number): void {
    this.upkeep.startSweeper(intervalMs);
  }

  /** Stops the ttl sweeper. */
  stopTtlSweeper(): void {
    this.upkeep.stopSweeper();
  }

  /** Starts compacting closed windows of metric tables into per-series chunks in the background. */
  startCompactor(): void {
    this.upkeep.startCompactor();
  }

  /**
   * Stops background compaction for good (tests that compact and enforce size bounds themselves:
   * size retention skips a table while a compaction job reads it).
   */
  stopCompactor(): void {
    this.upkeep.stopCompactor();
  }

  /** Bytes on disk of each table of a database (reads every page: for `information_schema`). */
  diskUsage(db: string): Map<string, TableDiskUsage> {
    return tableDiskUsage(this.database(db));
  }

  /** Windows of metric tables compacted in the background since start. */
  compactedWindows(): number {
    return this.upkeep.compactedWindows();
  }

  /** Compacts every closed window of every metric table now (tests, benchmarks); returns how many. */
  compactMetrics(nowMs = Date.now()): number {
    return this.upkeep.compactMetrics(nowMs);
  }

  /**
   * Compacts every closed window of every metric table now as the background compactor does (read
   * and encoded on its worker thread where one can run); returns how many, and how many on the worker.
   */
  compactMetricsDue(): Promise<{ windows: number; onWorker: number }> {
    return this.upkeep.compactMetricsDue();
  }

  /** Registers work to do when the storage closes (e.g. stopping query workers that read its files). */
  onClose(fn: () => void): void {
    this.closeHooks.add(fn);
  }

  /** Stops the sweeper, checkpoints every WAL and closes every database. */
  close(): void {
    this.upkeep.stop();
    for (const fn of this.closeHooks) fn();
    this.closeHooks.clear();
    for (const h of this.dbs.values()) h.close();
    this.dbs.clear();
  }
}
