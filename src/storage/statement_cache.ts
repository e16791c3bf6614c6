/**
 * A connection's prepared statements, grouped by the catalog table they read or write, so that a
 * schema change to one table drops only that table's statements. The writer's multi-row INSERTs
 * hold ~0.5 MB of SQLite memory each that V8 does not see until a full GC: dropping every table's
 * statements on any catalog save (a new column or table from line protocol, OTLP, a pipeline)
 * re-prepared them all, again and again, under a load where tables keep appearing. Each kind of
 * statement is also bounded as a whole ({@link KIND_LIMITS}): keys hold what a write brings.
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

/**
 * SQLite's memory for a prepared statement, estimated from its text: ~1 KB, and ~28 bytes a
 * character (measured on multi-row INSERTs: 3.7 KB for 4 rows of 3 parameters, 290 KB for 512 rows
 * of 6, 606 KB for 512 rows of 14).
 */
export function statementBytes(sql: string): number {
  return 1024 + 28 * sql.length;
}

/** How much of a kind's statements a connection keeps, and what one counts for. */
export interface KindLimit {
  most: number;
  cost(sql: string): number;
}

/**
 * The most a connection keeps of a kind's statements, the least recently used going beyond it.
 * Scans count statements; writes count {@link statementBytes}, as their keys hold the column or
 * label names a write brings (any subset of a table's columns: nothing but the table bound would
 * hold them) and a big multi-row INSERT holds ~0.5 MB. A kind not named here is bounded only by
 * {@link CACHED_TABLES}.
 */
export const KIND_LIMITS: Partial<Record<StatementKind, KindLimit>> = {
  scan: { most: 128, cost: () => 1 },
  insert: { most: 16 * 2 ** 20, cost: statementBytes },
  metric: { most: 8 * 2 ** 20, cost: statementBytes },
};

/** A kind not in {@link KIND_LIMITS}: its statements are counted, not bounded. */
const UNLIMITED: KindLimit = { most: Infinity, cost: () => 1 };

/** A kind's statements, least recently used first, with their table and cost. */
interface OfKind extends KindLimit {
  used: number;
  keys: Map<string, { table: string | null; cost: number }>;
}

/** Prepares and drops so far, by kind, and the statements cached now. */
export interface StatementCacheStats {
  prepares: Record<StatementKind, number>;
  /** Statements dropped by a schema change (evictions are counted apart). */
  invalidated: number;
  /** Statements dropped with the least recently used table beyond {@link CACHED_TABLES}. */
  evicted: number;
  /** Statements dropped as the least recently used of their kind beyond its {@link KIND_LIMITS}. */
  overLimit: number;
  /** What each bounded kind's statements count for now (compare with {@link KIND_LIMITS}). */
  used: Partial<Record<StatementKind, number>>;
  /** Statements cached now, by kind. */
  byKind: Record<StatementKind, number>;
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
  private overLimit = 0;
  /** Counts schema changes: a statement borrowed before one is not given back. */
  private epoch = 0;
  private readonly kinds = new Map<StatementKind, OfKind>(
    (Object.keys(this.prepares) as StatementKind[]).map((kind) => [
      kind,
      { ...(KIND_LIMITS[kind] ?? UNLIMITED), used: 0, keys: new Map() },
    ]),
  );

  /** The statement cached under `key`, if any (its table counts as just used). */
  get(table: string | null, key: string): StatementSync | undefined {
    return this.touch(table)?.get(key);
  }

  /**
   * The statement under `key`, prepared by `prepare` (and counted) when not cached; the least
   * recently used of its kind go beyond the kind's {@link KIND_LIMITS}.
   */
  obtain(
    table: string | null,
    key: string,
    kind: StatementKind,
    prepare: () => StatementSync,
  ): StatementSync {
    let keyed = this.touch(table);
    let stmt = keyed?.get(key);
    const ofKind = this.kinds.get(kind)!;
    if (stmt !== undefined) {
      const entry = ofKind.keys.get(key);
      if (entry !== undefined) {
        ofKind.keys.delete(key);
        ofKind.keys.set(key, entry);
      }
      return stmt;
    }
    stmt = prepare();
    this.prepares[kind]++;
    if (keyed === undefined) {
      this.byTable.set(table, keyed = new Map());
      this.last = table;
      if (this.byTable.size > CACHED_TABLES) this.evictOldest();
    }
    keyed.set(key, stmt);
    this.charge(ofKind, table, key, ofKind.cost(stmt.sourceSQL));
    return stmt;
  }

  /**
   * The statement under `key` for a caller that may hold it part way through a read (an
   * iteration), taken out of the cache so that no other use resets it; `giveBack` puts it back. A
   * statement not given back (an iteration dropped unfinished, or a second one of the same shape
   * meanwhile getting its own) is collected like an uncached one, and so is one whose table's
   * schema changed meanwhile.
   */
  borrow(
    table: string | null,
    key: string,
    kind: StatementKind,
    prepare: () => StatementSync,
  ): { stmt: StatementSync; giveBack(): void } {
    const stmt = this.obtain(table, key, kind, prepare);
    const epoch = this.epoch;
    this.delete(table, key);
    return {
      stmt,
      giveBack: () => {
        if (this.epoch !== epoch || this.touch(table)?.has(key)) return;
        this.obtain(table, key, kind, () => stmt);
        this.prepares[kind]--; // put back, not prepared
      },
    };
  }

  /** Drops one statement (an eviction, or one that failed mid-read). */
  delete(table: string | null, key: string): void {
    const keyed = this.byTable.get(table);
    if (keyed === undefined) return;
    keyed.delete(key);
    this.uncharge(key);
    if (keyed.size === 0) this.drop(table);
  }

  /** Drops the statements of the named tables, and those that name no table. */
  dropTables(names: Iterable<string>): void {
    this.epoch++;
    for (const name of [...names, null]) {
      const keyed = this.byTable.get(name);
      if (keyed === undefined) continue;
      this.invalidated += keyed.size;
      this.drop(name);
    }
  }

  /** Drops every statement. */
  clear(): void {
    this.epoch++;
    for (const keyed of this.byTable.values()) this.invalidated += keyed.size;
    this.byTable.clear();
    this.last = undefined;
    for (const b of this.kinds.values()) {
      b.keys.clear();
      b.used = 0;
    }
  }

  /** Every cached key (of all tables). */
  *keys(): Generator<string> {
    for (const keyed of this.byTable.values()) yield* keyed.keys();
  }

  /** Counters for tests and measurements. */
  stats(): StatementCacheStats {
    let cached = 0;
    for (const keyed of this.byTable.values()) cached += keyed.size;
    const used: Partial<Record<StatementKind, number>> = {};
    const byKind: Partial<Record<StatementKind, number>> = {};
    for (const [kind, b] of this.kinds) {
      byKind[kind] = b.keys.size;
      if (KIND_LIMITS[kind] !== undefined) used[kind] = b.used;
    }
    return {
      prepares: { ...this.prepares },
      invalidated: this.invalidated,
      evicted: this.evicted,
      overLimit: this.overLimit,
      used,
      byKind: byKind as Record<StatementKind, number>,
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
    const keyed = this.byTable.get(table);
    if (keyed !== undefined) { for (const key of keyed.keys()) this.uncharge(key); }
    this.byTable.delete(table);
    if (table === this.last) this.last = undefined;
  }

  /** Counts a new statement against its kind's limit; drops the least recently used beyond it. */
  private charge(b: OfKind, table: string | null, key: string, cost: number): void {
    b.keys.set(key, { table, cost });
    b.used += cost;
    while (b.used > b.most && b.keys.size > 1) {
      const [oldest, of] = b.keys.entries().next().value!;
      this.overLimit++;
      this.delete(of.table, oldest);
    }
  }

  /** Takes a dropped statement off its kind's count. */
  private uncharge(key: string): void {
    for (const b of this.kinds.values()) {
      const entry = b.keys.get(key);
      if (entry === undefined) continue;
      b.keys.delete(key);
      b.used -= entry.cost;
      return;
    }
  }

  private evictOldest(): void {
    const [oldest, keyed] = this.byTable.entries().next().value!;
    this.evicted += keyed.size;
    this.drop(oldest);
  }
}
