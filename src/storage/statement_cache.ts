/**
 * A connection's prepared statements, grouped by the catalog table they read or write, so that a
 * schema change to one table drops only that table's statements. The writer's multi-row INSERTs
 * hold ~0.5 MB of SQLite memory each that V8 does not see until a full GC: dropping every table's
 * statements on any catalog save (a new column or table from line protocol, OTLP, a pipeline)
 * re-prepared them all, again and again, under a load where tables keep appearing.
 */
import type { StatementSync } from "node:sqlite";

/**
 * Tables whose statements are kept (beyond it the least recently used table's go). With no schema
 * change to drop them, a table written with varied batch sizes keeps ~1 MB of statements: tables
 * written once (auto-created by a write) would otherwise keep theirs for as long as they exist.
 */
export const CACHED_TABLES = 256;

/** What a statement is for, counted apart in {@link StatementCacheStats}. */
export type StatementKind = "insert" | "scan" | "metric" | "trace" | "late";

/** Prepares and drops so far, by kind, and the statements cached now. */
export interface StatementCacheStats {
  prepares: Record<StatementKind, number>;
  /** Statements dropped by a schema change (evictions by a caller's own bound are not counted). */
  invalidated: number;
  /** Statements dropped with the least recently used table beyond {@link CACHED_TABLES}. */
  evicted: number;
  cached: number;
  /** Tables with cached statements. */
  tables: number;
}

/**
 * The statement cache of one database connection. `table` is the catalog name of the table a
 * statement reads or writes (its series, samples, trace-map tables included); `null` for one that
 * names no catalog table, which every schema change drops.
 */
export class StatementCache {
  /** Least recently used table first (a Map keeps insertion order). */
  private readonly byTable = new Map<string | null, Map<string, StatementSync>>();
  /** The table used last: already at the end of `byTable` (most uses follow one on the same table). */
  private last: string | null | undefined = undefined;
  private readonly prepares: Record<StatementKind, number> = {
    insert: 0,
    scan: 0,
    metric: 0,
    trace: 0,
    late: 0,
  };
  private invalidated = 0;
  private evicted = 0;

  /** The statement cached under `key`, if any (its table counts as just used). */
  get(table: string | null, key: string): StatementSync | undefined {
    return this.touch(table)?.get(key);
  }

  /** The statement under `key`, prepared by `prepare` (and counted) when not cached. */
  obtain(
    table: string | null,
    key: string,
    kind: StatementKind,
    prepare: () => StatementSync,
  ): StatementSync {
    let keyed = this.touch(table);
    let stmt = keyed?.get(key);
    if (stmt === undefined) {
      stmt = prepare();
      this.prepares[kind]++;
      if (keyed === undefined) {
        this.byTable.set(table, keyed = new Map());
        this.last = table;
        if (this.byTable.size > CACHED_TABLES) this.evictOldest();
      }
      keyed.set(key, stmt);
    }
    return stmt;
  }

  /** Drops one statement (an eviction, or one that failed mid-read). */
  delete(table: string | null, key: string): void {
    const keyed = this.byTable.get(table);
    if (keyed === undefined) return;
    keyed.delete(key);
    if (keyed.size === 0) this.drop(table);
  }

  /** Drops the statements of the named tables, and those that name no table. */
  dropTables(names: Iterable<string>): void {
    for (const name of [...names, null]) {
      const keyed = this.byTable.get(name);
      if (keyed === undefined) continue;
      this.invalidated += keyed.size;
      this.drop(name);
    }
  }

  /** Drops every statement. */
  clear(): void {
    for (const keyed of this.byTable.values()) this.invalidated += keyed.size;
    this.byTable.clear();
    this.last = undefined;
  }

  /** Every cached key (of all tables). */
  *keys(): Generator<string> {
    for (const keyed of this.byTable.values()) yield* keyed.keys();
  }

  /** Counters for tests and measurements. */
  stats(): StatementCacheStats {
    let cached = 0;
    for (const keyed of this.byTable.values()) cached += keyed.size;
    return {
      prepares: { ...this.prepares },
      invalidated: this.invalidated,
      evicted: this.evicted,
      cached,
      tables: this.byTable.size,
    };
  }

  /** A table's statements, moved to the most recently used end. */
  private touch(table: string | null): Map<string, StatementSync> | undefined {
    const keyed = this.byTable.get(table);
    if (keyed !== undefined && table !== this.last) {
      this.byTable.delete(table);
      this.byTable.set(table, keyed);
      this.last = table;
    }
    return keyed;
  }

  private drop(table: string | null): void {
    this.byTable.delete(table);
    if (table === this.last) this.last = undefined;
  }

  private evictOldest(): void {
    const [oldest, keyed] = this.byTable.entries().next().value!;
    this.evicted += keyed.size;
    this.drop(oldest);
  }
}
