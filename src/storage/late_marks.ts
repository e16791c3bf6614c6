/**
 * Late-write marks for downsampling (`src/downsample/`). A rule computes each window of its source
 * once; a write that lands below the rule's watermark (in a window already computed) records the
 * window here, in the same transaction and the same schema file as the rows, so the mark commits or
 * rolls back with them and survives a restart. The downsampler recomputes the marked windows and
 * clears their marks (`takeLateMarks`, `clearLateMarks`). A flow without a window key (`whole`) is
 * marked by any write or delete once it has run, as window 0: it recomputes its whole query.
 *
 * Only tables that are the source of a rule are watched: any other write pays one map lookup per
 * batch. A watched write finds its oldest row (~2 ns a row, `deno task bench downsample`) and stops
 * when it is above every watermark; only late rows cost more: one `INSERT OR IGNORE` per distinct
 * window per write.
 */
import { msToUnit, type TimeUnit, toEpochMs } from "../common/time_unit.ts";
import type { DatabaseHandle } from "./database.ts";
import { quoteIdent, type TableMeta, timeUnit } from "./table.ts";

/** One rule watching its source table for late writes. */
export interface LateWatch {
  /** The rule's key (its watermark's key). */
  rule: string;
  /** The rule's window (ms). */
  interval: number;
  /** Writes older than this (ms before now) are not marked; 0 marks none. */
  maxLateness: number;
  /** The rule's watermark (ms), kept current by the downsampler; null while nothing is computed. */
  upto: number | null;
  /** The table the rule writes (its target, or a flow's sink). */
  target?: { database: string; table: string };
  /**
   * Set for a flow without a window key, recomputed whole: once it has run (`upto` set), any write
   * or delete marks window 0, at any time.
   */
  whole?: boolean;
}

/** Rules watching their sources, by database and table name (lower case). */
export class LateWatches {
  private readonly byDb = new Map<string, Map<string, LateWatch[]>>();
  /** Tables written by rules that watch no source (TQL flows), by rule key: kept for {@link rulesOn}. */
  private readonly sinks = new Map<string, { database: string; table: string }>();

  /** Watches a source table for a rule. */
  add(db: string, table: string, watch: LateWatch): void {
    let tables = this.byDb.get(db);
    if (tables === undefined) this.byDb.set(db, tables = new Map());
    const key = table.toLowerCase();
    tables.set(key, [...(tables.get(key) ?? []), watch]);
  }

  /** Stops watching a source table for a rule (a dropped flow). */
  remove(db: string, table: string, rule: string): void {
    const tables = this.byDb.get(db);
    const key = table.toLowerCase();
    const kept = (tables?.get(key) ?? []).filter((w) => w.rule !== rule);
    if (kept.length > 0) tables!.set(key, kept);
    else tables?.delete(key);
    if (tables?.size === 0) this.byDb.delete(db);
  }

  /** Records the table a rule without a watched source writes (a TQL flow's sink), so it is not renamed. */
  addSink(rule: string, target: { database: string; table: string }): void {
    this.sinks.set(rule, target);
  }

  /** Forgets a rule's sink recorded by {@link addSink} (a dropped flow). */
  removeSink(rule: string): void {
    this.sinks.delete(rule);
  }

  /** How each rule that reads or writes the table does (`reads` / `writes`), by rule key. */
  rulesOn(db: string, table: string): Array<{ rule: string; how: "reads" | "writes" }> {
    const key = table.toLowerCase();
    const out: Array<{ rule: string; how: "reads" | "writes" }> = [];
    for (const [source, tables] of this.byDb) {
      for (const [name, watches] of tables) {
        for (const w of watches) {
          if (source === db && name === key) out.push({ rule: w.rule, how: "reads" });
          else if (w.target?.database === db && w.target.table.toLowerCase() === key) {
            out.push({ rule: w.rule, how: "writes" });
          }
        }
      }
    }
    for (const [rule, target] of this.sinks) {
      if (target.database === db && target.table.toLowerCase() === key) out.push({ rule, how: "writes" });
    }
    return out;
  }

  /** The watched tables of a database, or undefined when none is (the common case). */
  of(db: string): ReadonlyMap<string, LateWatch[]> | undefined {
    return this.byDb.get(db);
  }
}

const MARKS = "__petrel_downsample_late";
const SCHEMAS = ["main", "nowal"] as const;
/** Schemas known to hold the marks table, as of a catalog load (a rollback may have undone its creation). */
const ready = new WeakMap<DatabaseHandle, { loads: number; schemas: Set<string> }>();

function readySchemas(handle: DatabaseHandle): Set<string> {
  let r = ready.get(handle);
  if (r === undefined || r.loads !== handle.catalogLoads) {
    ready.set(handle, r = { loads: handle.catalogLoads, schemas: new Set() });
  }
  return r.schemas;
}

function marks(schema: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(MARKS)}`;
}

function ensure(handle: DatabaseHandle, schema: string): void {
  const schemas = readySchemas(handle);
  if (schemas.has(schema)) return;
  handle.conn.exec(
    `CREATE TABLE IF NOT EXISTS ${marks(schema)} (rule TEXT NOT NULL, at INTEGER NOT NULL, ` +
      `PRIMARY KEY (rule, at)) WITHOUT ROWID`,
  );
  schemas.add(schema);
}

/**
 * Marks the windows of the late rows of a write (inside its transaction). `timeMs(i)` is row i's
 * time in ms; `lowestMs` is the oldest row's (a write wholly above the watermarks returns at once).
 */
export function markLate(
  handle: DatabaseHandle,
  schema: string,
  watches: readonly LateWatch[],
  n: number,
  timeMs: (i: number) => number,
  lowestMs: number,
): void {
  if (n > 0) markWhole(handle, schema, watches);
  // A row can be late only below the highest watermark of the rules that mark.
  let highest = -Infinity;
  for (const w of watches) {
    if (w.upto !== null && w.maxLateness > 0 && w.upto > highest && w.whole !== true) highest = w.upto;
  }
  if (highest === -Infinity || lowestMs >= highest) return;
  const now = Date.now();
  let seen: Set<string> | null = null;
  for (let i = 0; i < n; i++) {
    const t = timeMs(i);
    if (t >= highest) continue;
    for (const w of watches) {
      if (w.whole === true || w.upto === null || w.maxLateness === 0 || t >= w.upto) continue;
      if (t < now - w.maxLateness) continue;
      const at = Math.floor(t / w.interval) * w.interval;
      const key = `${w.rule}\u0001${at}`;
      if (seen?.has(key)) continue;
      (seen ??= new Set()).add(key);
      ensure(handle, schema);
      insertMark(handle, schema).run(w.rule, at);
    }
  }
}

/** {@link markLate} for an ordinary table's write of `n` rows with these times. */
export function markLateRows(
  handle: DatabaseHandle,
  table: TableMeta,
  watches: readonly LateWatch[],
  times: ArrayLike<number | bigint>,
  n: number,
): void {
  if (n === 0) return;
  const unit = timeUnit(table);
  // The oldest row first, in a tight loop: a write wholly above the watermarks stops there.
  let lo = times[0];
  for (let i = 1; i < n; i++) if (times[i] < lo) lo = times[i];
  const timeMs = (i: number) => toEpochMs(times[i], unit);
  markLate(handle, table.schema, watches, n, timeMs, toEpochMs(lo, unit));
}

/**
 * Marks the windows of rows about to be deleted (inside the delete's transaction, before it runs),
 * as a late write into them would: a recomputed window keeps only what the source still has, and
 * one left without rows loses its target rows. `from` is an SQL relation holding the table's rows
 * (`FROM …`), `where` the condition picking the deleted ones ("" for all). Only rows a late write
 * would mark are read (the index narrows them to the lateness horizon below the watermarks), one
 * row per window. TTL expiry and size retention do not call this: outliving raw data is what
 * downsampling is for.
 */
export function markDeleted(
  handle: DatabaseHandle,
  table: TableMeta,
  watches: readonly LateWatch[],
  from: string,
  where: string,
): void {
  markWhole(handle, table.schema, watches);
  const live = watches.filter((w) => w.upto !== null && w.maxLateness > 0 && w.whole !== true);
  if (live.length === 0) return;
  const now = Date.now(), unit = timeUnit(table);
  // windows of every rule are unions of buckets of the intervals' gcd: one row per bucket suffices
  const g = live.map((w) => w.interval).reduce(gcd);
  const lo = msToUnit(now - Math.max(...live.map((w) => w.maxLateness)), unit) - 1n;
  const hi = msToUnit(Math.max(...live.map((w) => w.upto!)), unit) + 1n;
  const ts = quoteIdent(table.timeIndex);
  const cond = where === "" ? "" : ` AND (${where})`;
  const rows = handle.conn.prepare(
    `SELECT DISTINCT ${floorTo("__ms", g)} AS w FROM (SELECT ${msOf(ts, unit)} AS __ms ${from} ` +
      `WHERE ${ts} >= ? AND ${ts} < ?${cond})`,
  ).all(lo, hi) as Array<{ w: number }>;
  if (rows.length === 0) return;
  const times = rows.map((r) => Number(r.w));
  markLate(handle, table.schema, live, times.length, (i) => times[i], Math.min(...times));
}

/** Marks the whole-recomputed rules among `watches` that have run (one mark each, window 0). */
function markWhole(handle: DatabaseHandle, schema: string, watches: readonly LateWatch[]): void {
  for (const w of watches) {
    if (w.whole !== true || w.upto === null) continue;
    ensure(handle, schema);
    insertMark(handle, schema).run(w.rule, 0);
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** SQL flooring an integer expression to a multiple of `d` (SQLite's `/` and `%` truncate toward 0). */
function floorTo(x: string, d: number): string {
  return `(${x} - (((${x} % ${d}) + ${d}) % ${d}))`;
}

/** SQL of a time column's value in ms (floored). */
function msOf(ts: string, unit: TimeUnit): string {
  const per = { s: 0, ms: 1, us: 1000, ns: 1_000_000 }[unit];
  if (per === 0) return `${ts} * 1000`;
  return per === 1 ? ts : `${floorTo(ts, per)} / ${per}`;
}

/** The oldest of a write's times (ms). */
export function oldest(ts: readonly number[]): number {
  let lo = Infinity;
  for (let i = 0; i < ts.length; i++) if (ts[i] < lo) lo = ts[i];
  return lo;
}

function insertMark(handle: DatabaseHandle, schema: string) {
  const key = `late\u0001${schema}`;
  // names no catalog table: dropped on every schema change (a rollback may undo the marks table)
  return handle.statements.obtain(
    null,
    key,
    "late",
    () => handle.conn.prepare(`INSERT OR IGNORE INTO ${marks(schema)} (rule, at) VALUES (?, ?)`),
  );
}

function present(handle: DatabaseHandle, schema: string): boolean {
  if (readySchemas(handle).has(schema)) return true;
  const row = handle.conn.prepare(
    `SELECT 1 AS x FROM ${quoteIdent(schema)}.sqlite_master WHERE type = 'table' AND name = ?`,
  ).get(MARKS);
  return row !== undefined;
}

/** The oldest `limit` marked windows of a rule (ms, ascending), from every schema of the database. */
export function takeLateMarks(handle: DatabaseHandle, rule: string, limit: number): number[] {
  const out = new Set<number>();
  for (const schema of SCHEMAS) {
    if (!present(handle, schema)) continue;
    const rows = handle.conn.prepare(`SELECT at FROM ${marks(schema)} WHERE rule = ? ORDER BY at LIMIT ?`)
      .all(rule, limit) as Array<{ at: number }>;
    for (const r of rows) out.add(Number(r.at));
  }
  return [...out].sort((a, b) => a - b).slice(0, limit);
}

/** Clears a rule's marks of the given windows (inside the caller's transaction, if any). */
export function clearLateMarks(handle: DatabaseHandle, rule: string, windows: number[]): void {
  for (const schema of SCHEMAS) {
    if (!present(handle, schema)) continue;
    const stmt = handle.conn.prepare(`DELETE FROM ${marks(schema)} WHERE rule = ? AND at = ?`);
    for (const at of windows) stmt.run(rule, at);
  }
}

/** Clears every mark of the rules not in `keep` (rules removed or changed), in each schema. */
export function clearOtherRules(handle: DatabaseHandle, keep: string[]): void {
  for (const schema of SCHEMAS) {
    if (!present(handle, schema)) continue;
    handle.conn.prepare(
      `DELETE FROM ${marks(schema)} WHERE rule NOT IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(keep));
  }
}

/** Clears every mark of one rule (a dropped flow), in each schema. */
export function clearRuleMarks(handle: DatabaseHandle, rule: string): void {
  for (const schema of SCHEMAS) {
    if (!present(handle, schema)) continue;
    handle.conn.prepare(`DELETE FROM ${marks(schema)} WHERE rule = ?`).run(rule);
  }
}
