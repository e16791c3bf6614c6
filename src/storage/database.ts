/**
 * One Petrel database: a SQLite connection to `<db>.sqlite` (WAL) with the durability-skipping
 * `<db>.nowal.sqlite` attached as schema `nowal`, and the catalog table that describes its tables.
 */
import { DatabaseSync } from "node:sqlite";
import { PetrelError, StatusCode, tableNotFound } from "../common/errors.ts";
import type { TableMeta } from "./table.ts";
import type { TableOptions } from "../common/rows.ts";
import {
  appendIndexName,
  checkColumnCount,
  createAppendIndexSql,
  createTableSql,
  isAppendMode,
  qualifiedName,
  quoteIdent,
} from "./table.ts";
import { flushGroupCommit } from "./group_commit.ts";
import { mendNulText } from "./nul_mend.ts";
import { mendMetricViews, mendPlainMetricTables } from "./metric_create.ts";
import { Logger } from "../common/log.ts";
import {
  clearTraceMap,
  createTraceMapSql,
  dropTraceMapSql,
  ensureTraceMaps,
  renameTraceMapSql,
} from "./trace_map.ts";
import { viewMap } from "./views.ts";
import { StatementCache } from "./statement_cache.ts";

const log = new Logger("petrel::storage");

const CATALOG = "__petrel_catalog";
let instances = 0;
const OPTIONS = "__petrel_database_options";

/** Page size of database files Petrel creates (existing files keep theirs). */
const PAGE_SIZE = 16384;
/** Where a database's files live; `null` keeps everything in memory. */
export interface DatabaseFiles {
  main: string | null;
  nowal: string | null;
}

/**
 * The table id sequence of a data dir. GreptimeDB's table ids are global (one sequence for every
 * database), so region ids and `ADMIN flush_region` name one table; Petrel keeps no counter on disk:
 * the next id is above every id in use in any open database (an older data dir's repeated ids stay).
 */
export class TableIds {
  private next = 1;

  /** Marks an id as in use: later ids come after it. */
  note(id: number): void {
    if (id >= this.next) this.next = id + 1;
  }

  /** A fresh id. */
  allocate(): number {
    return this.next++;
  }
}

/** A database connection plus its catalog, cached in memory. */
export class DatabaseHandle {
  readonly name: string;
  readonly conn: DatabaseSync;
  readonly files: DatabaseFiles;
  private tables = new Map<string, TableMeta>();
  /** Database options (`CREATE DATABASE … WITH (ttl = …)`). */
  readonly options: TableOptions = {};
  private nowalAttached = false;
  /** Shared by the databases of a data dir (a read-only opening never allocates: it keeps its own). */
  private readonly ids: TableIds;
  /** Prepared statements of the writer and readers, by table; a schema change drops its table's. */
  readonly statements = new StatementCache();
  /** Bumped on every schema change so callers can drop their own caches. */
  schemaVersion = 0;
  /** Distinguishes this opening of the database from a dropped and recreated one of the same name. */
  readonly instance = ++instances;
  /**
   * How often the catalog was (re)loaded: every rollback reloads it, so caches of what is on disk
   * (the metric head) compare it to know they may be ahead of the disk.
   */
  catalogLoads = 0;
  /**
   * Bumped whenever the series indexes are dropped (`forgetSeries`): a series id may then be
   * reused, so a reader on another thread reloads its indexes.
   */
  seriesResets = 0;
  /** A query worker's view of the files another thread writes: it never writes nor creates anything. */
  readonly readOnly: boolean;

  constructor(name: string, files: DatabaseFiles, opts: { readOnly?: boolean; ids?: TableIds } = {}) {
    this.name = name;
    this.files = files;
    this.ids = opts.ids ?? new TableIds();
    this.readOnly = opts.readOnly === true;
    if (this.readOnly) {
      this.conn = new DatabaseSync(files.main!, { readOnly: true });
      this.conn.exec("PRAGMA busy_timeout=5000");
      this.loadOptions();
      this.loadCatalog();
      // a read-only connection attaches read-only too
      this.conn.prepare("ATTACH DATABASE ? AS nowal").run(files.nowal);
      this.nowalAttached = true;
      return;
    }
    this.conn = new DatabaseSync(files.main ?? ":memory:");
    // The busy timeout comes first: the journal_mode change already waits out another connection
    // that holds the file a moment (e.g. one recovering or closing the WAL) instead of failing with
    // "database is locked". page_size only takes on a new file; 16 KiB pages write a batch as ~4×
    // fewer WAL frames and make ingestion ~6 % cheaper than SQLite's 4 KiB default.
    this.conn.exec(
      `PRAGMA busy_timeout=5000; PRAGMA page_size=${PAGE_SIZE}; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL`,
    );
    this.conn.exec(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(CATALOG)} (name TEXT PRIMARY KEY, meta TEXT NOT NULL)`,
    );
    this.conn.exec(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(OPTIONS)} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    );
    this.loadOptions();
    mendNulText(this.conn, "main");
    this.loadCatalog();
    // views share the table id sequence: read them before any table takes an id
    viewMap(this);
    // ATTACH is impossible inside a transaction, and a write may create the first skip_wal table
    this.attachNowal();
    ensureTraceMaps(this);
    mendPlainMetricTables(this);
    mendMetricViews(this);
  }

  private loadOptions(): void {
    const rows = this.conn.prepare(`SELECT key, value FROM ${quoteIdent(OPTIONS)}`).all() as Array<
      { key: string; value: string }
    >;
    for (const r of rows) this.options[r.key] = r.value;
  }

  /** Re-reads the catalog, e.g. after a rolled-back transaction left the cache ahead of the disk. */
  loadCatalog(): void {
    this.catalogLoads++;
    const before = new Map([...this.tables.values()].map((t) => [t.name, storedMeta(t)]));
    this.tables.clear();
    const rows = this.conn.prepare(`SELECT meta FROM ${quoteIdent(CATALOG)}`).all() as Array<
      { meta: string }
    >;
    for (const r of rows) {
      const t = JSON.parse(r.meta) as TableMeta;
      t.db = this.name;
      t.databaseTtl = this.options.ttl;
      this.tables.set(t.name, t);
      this.ids.note(t.id);
    }
    // a rollback undid the changes of its transaction: the tables whose metadata now differs
    const changed = new Set([...before.keys(), ...this.tables.keys()]);
    for (const [name, meta] of before) {
      const t = this.tables.get(name);
      if (t !== undefined && storedMeta(t) === meta) changed.delete(name);
    }
    this.invalidate(changed);
  }

  /** Drops the cached statements of the named tables (of all tables when none are named). */
  private invalidate(tables?: Iterable<string>): void {
    if (tables === undefined) this.statements.clear();
    else this.statements.dropTables(tables);
    this.schemaVersion++;
  }

  /** The `nowal` schema: synchronous=OFF, for `skip_wal` tables (a crash of the OS may lose recent writes). */
  attachNowal(): void {
    if (this.nowalAttached) return;
    this.conn.prepare("ATTACH DATABASE ? AS nowal").run(this.files.nowal ?? ":memory:");
    this.conn.exec(
      `PRAGMA nowal.page_size=${PAGE_SIZE}; PRAGMA nowal.journal_mode=WAL; PRAGMA nowal.synchronous=OFF`,
    );
    mendNulText(this.conn, "nowal");
    this.nowalAttached = true;
  }

  /** A table's metadata, if it exists (exact name first, then SQLite's case-insensitive match). */
  getTable(name: string): TableMeta | undefined {
    const exact = this.tables.get(name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    for (const t of this.tables.values()) if (t.name.toLowerCase() === lower) return t;
    return undefined;
  }

  /** A table's metadata or a 4001 error. */
  requireTable(name: string): TableMeta {
    const t = this.getTable(name);
    if (!t) throw tableNotFound(`greptime.${this.name}.${name}`);
    return t;
  }

  /** All tables, by name. */
  listTables(): TableMeta[] {
    return [...this.tables.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A fresh table id, unique across the data dir's databases. */
  allocateId(): number {
    return this.ids.allocate();
  }

  /** Marks an id (a view's) as in use, so no new table or view takes it. */
  noteId(id: number): void {
    this.ids.note(id);
  }

  /** Creates a table (inside the caller's transaction, if any). */
  createTable(t: TableMeta): void {
    if (this.getTable(t.name)) {
      throw new PetrelError(
        StatusCode.TableAlreadyExists,
        `Table already exists: \`greptime.${this.name}.${t.name}\``,
      );
    }
    checkColumnCount(t.name, t.columns.length);
    for (const sql of [...createTableSql(t), ...createTraceMapSql(t)]) this.conn.exec(sql);
    this.saveMeta(t);
  }

  /** Persists a table's metadata and refreshes the cache. */
  saveMeta(t: TableMeta): void {
    t.databaseTtl = this.options.ttl;
    this.conn.prepare(`INSERT OR REPLACE INTO ${quoteIdent(CATALOG)} (name, meta) VALUES (?, ?)`).run(
      t.name,
      storedMeta(t),
    );
    this.tables.set(t.name, t);
    this.invalidate([t.name]);
  }

  /** Drops a table and its catalog entry. */
  dropTable(name: string): void {
    const t = this.requireTable(name);
    this.conn.exec(`DROP TABLE IF EXISTS ${qualifiedName(t)}`);
    for (const sql of dropTraceMapSql(t)) this.conn.exec(sql);
    this.conn.prepare(`DELETE FROM ${quoteIdent(CATALOG)} WHERE name = ?`).run(t.name);
    this.tables.delete(t.name);
    this.invalidate([t.name]);
  }

  /**
   * Gives a table a new name (inside the caller's transaction): its SQLite table, the append index
   * and the trace map named after it, and its catalog entry; id, columns and rows stay.
   */
  renameTable(t: TableMeta, name: string): TableMeta {
    const next: TableMeta = { ...t, name };
    // the index keeps its name through SQLite's RENAME, and Petrel finds it by the table's
    if (isAppendMode(t)) this.conn.exec(`DROP INDEX IF EXISTS ${this.appendIndex(t)}`);
    this.conn.exec(`ALTER TABLE ${qualifiedName(t)} RENAME TO ${quoteIdent(name)}`);
    if (isAppendMode(t)) this.conn.exec(createAppendIndexSql(next));
    for (const sql of renameTraceMapSql(t, name)) this.conn.exec(sql);
    this.conn.prepare(`DELETE FROM ${quoteIdent(CATALOG)} WHERE name = ?`).run(t.name);
    this.tables.delete(t.name);
    this.invalidate([t.name]);
    this.saveMeta(next);
    return next;
  }

  /** Deletes every row of a table. */
  truncateTable(name: string): void {
    const t = this.requireTable(name);
    this.conn.exec(`DELETE FROM ${qualifiedName(t)}`);
    clearTraceMap(this, t);
  }

  /** Runs `fn` in one write transaction; on failure rolls back and reloads the catalog. */
  transaction<T>(fn: () => T): T {
    // Pending skip_wal rows commit first, so a durable change never nests inside their open group.
    flushGroupCommit(this);
    if (this.conn.isTransaction) return fn();
    this.conn.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      this.conn.exec("COMMIT");
      return out;
    } catch (e) {
      if (this.conn.isTransaction) this.conn.exec("ROLLBACK");
      this.loadCatalog();
      throw e;
    }
  }

  /** Index name used by append-mode tables (exposed for schema evolution). */
  appendIndex(t: TableMeta): string {
    return `${quoteIdent(t.schema)}.${quoteIdent(appendIndexName(t))}`;
  }

  /** Replaces the database options; tables without a ttl of their own follow the database ttl. */
  setOptions(options: TableOptions): void {
    flushGroupCommit(this);
    this.conn.exec("BEGIN IMMEDIATE");
    try {
      this.conn.exec(`DELETE FROM ${quoteIdent(OPTIONS)}`);
      const ins = this.conn.prepare(`INSERT INTO ${quoteIdent(OPTIONS)} (key, value) VALUES (?, ?)`);
      for (const [k, v] of Object.entries(options)) ins.run(k, v);
      this.conn.exec("COMMIT");
    } catch (e) {
      this.conn.exec("ROLLBACK");
      throw e;
    }
    for (const k of Object.keys(this.options)) delete this.options[k];
    Object.assign(this.options, options);
    for (const t of this.tables.values()) t.databaseTtl = options.ttl;
    // rare, and every table without a ttl of its own follows it
    this.invalidate();
  }

  /** Sets the automatic checkpoint threshold in WAL bytes, null for SQLite's default (`checkpointer.ts`). */
  setAutoCheckpoint(bytes: number | null): void {
    if (!this.conn.isOpen) return;
    const pageSize = Number(this.conn.prepare("PRAGMA main.page_size").get()?.page_size ?? PAGE_SIZE);
    const pages = bytes === null ? 1000 : Math.max(1, Math.ceil(bytes / pageSize));
    this.conn.exec(`PRAGMA wal_autocheckpoint=${pages}`);
  }

  /** Checkpoints the WAL and closes the connection. */
  close(): void {
    try {
      flushGroupCommit(this);
    } catch (e) {
      log.error("group commit failed on close", { db: this.name, error: String(e) });
    }
    try {
      this.conn.exec("PRAGMA main.wal_checkpoint(TRUNCATE)");
      if (this.nowalAttached) this.conn.exec("PRAGMA nowal.wal_checkpoint(TRUNCATE)");
    } catch {
      // a checkpoint is an optimisation of the next open; closing must still happen
    }
    this.conn.close();
  }
}

/** A table's catalog entry: its metadata without what the database gives it. */
function storedMeta(t: TableMeta): string {
  const { db: _db, databaseTtl: _ttl, ...rest } = t;
  return JSON.stringify(rest);
}
