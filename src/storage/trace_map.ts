/**
 * The trace map of a trace table (GreptimeDB's trace models): a hidden table `__petrel_tracemap_<t>`
 * holding, per trace id, the earliest and latest time index of its spans. Jaeger reads a trace by id
 * by looking its range up here and scanning the table's time index over that range only.
 *
 * Why not an index on `trace_id`: trace ids are random, so such an index dirties a page of its own
 * for nearly every span (+70 % trace ingest CPU, `bench otlp_traces`). The map takes a row per
 * distinct trace of a write batch (a trace's spans mostly arrive together), a tenth as many as the
 * spans.
 *
 * Why a log beside it: upserting a batch's traces straight into the id-ordered map dirtied a map
 * page per trace, ~370 of its pages per 5000-span commit (12 % of trace ingest CPU). So a write
 * appends its ranges to `__petrel_tracelog_<t>`, a rowid table (sequential pages), in its own
 * transaction, and once the log has taken FOLD_AT rows the write that crossed it folds the log into
 * the map (sorted, one pass) and empties it, in that same transaction. A range is thus always in
 * the map or the log, durably: lookups read both, and the log stays small enough to scan. Nothing
 * is held in memory, so the SQL workers' connections read the same answer.
 *
 * The map may hold more than the table (never less): a DELETE leaves ranges that are now too wide
 * or name traces that are gone, which only costs a scan over that range finding nothing. The ttl
 * sweep and size retention delete entries whose whole range they expired, and a DELETE those older
 * than the oldest span left, so it stays bounded; TRUNCATE empties it and DROP TABLE drops it. A
 * rebuild of the table (a widened column) keeps it: same rows, same name; a RENAME renames it too. Tables from before the
 * map get it built on open (one scan of the table, ~0.4 s per 200k spans), and lose the `trace_id`
 * index an earlier version gave them.
 */
import { Logger } from "../common/log.ts";
import type { StatementSync } from "node:sqlite";
import type { DatabaseHandle } from "./database.ts";
import { sqliteDeclType } from "./datatypes.ts";
import { storedText } from "./nul_text.ts";
import { qualifiedName, quoteIdent, type TableMeta } from "./table.ts";
import type { SqlValue } from "./writer_values.ts";

const log = new Logger("petrel::storage");

const TRACE_MODELS = new Set(["greptime_trace_v1", "greptime_trace_v0"]);
/** Traces per insert statement (3 variables each). */
const MAX_TRACES_PER_STATEMENT = 512;
/**
 * Rows the log takes before a write folds it into the map: a fold touches each map page about once
 * instead of once per commit, and a lookup's scan of the log stays well under a millisecond.
 */
const FOLD_AT = 4096;

/** Whether the table is a trace table, which has a trace map. */
export function hasTraceMap(t: TableMeta): boolean {
  return TRACE_MODELS.has(t.options.table_data_model ?? "");
}

/** The SQLite name of a table's trace map. */
export function traceMapName(t: TableMeta): string {
  return `__petrel_tracemap_${t.name}`;
}

/** The SQLite name of a table's trace log (the ranges of recent writes, not yet in the map). */
export function traceLogName(t: TableMeta): string {
  return `__petrel_tracelog_${t.name}`;
}

/** The trace map's name in SQL (schema-qualified, quoted). */
function mapTable(t: TableMeta): string {
  return `${quoteIdent(t.schema)}.${quoteIdent(traceMapName(t))}`;
}

/** The trace log's name in SQL (schema-qualified, quoted). */
function logTable(t: TableMeta): string {
  return `${quoteIdent(t.schema)}.${quoteIdent(traceLogName(t))}`;
}

/** The table a SQLite table of a trace map or log belongs to, or undefined when it is none. */
export function traceMapOwner(sqliteTable: string): string | undefined {
  for (const prefix of ["__petrel_tracemap_", "__petrel_tracelog_"]) {
    if (sqliteTable.startsWith(prefix)) return sqliteTable.slice(prefix.length);
  }
  return undefined;
}

/**
 * A scalar SQL expression: the earliest (`lo`) or latest (`hi`) span of the trace whose stored id
 * is the SQL `id`, from the map and the log; NULL when neither knows the trace.
 */
export function traceBoundSql(t: TableMeta, bound: "lo" | "hi", id: string): string {
  const agg = bound === "lo" ? "min" : "max";
  return `(SELECT ${agg}(${bound}) FROM (SELECT ${bound} FROM ${mapTable(t)} WHERE trace_id = ${id} ` +
    `UNION ALL SELECT ${bound} FROM ${logTable(t)} WHERE trace_id = ${id}))`;
}

/**
 * `CREATE TABLE` of a trace table's map (none for other tables). `trace_id` takes the declared type
 * of the table's column, so a lookup compares as the table would.
 */
export function createTraceMapSql(t: TableMeta): string[] {
  if (!hasTraceMap(t)) return [];
  return [
    `CREATE TABLE ${mapTable(t)} (trace_id ${
      traceIdDecl(t)
    } PRIMARY KEY, lo INTEGER NOT NULL, hi INTEGER NOT NULL) WITHOUT ROWID`,
    createTraceLogSql(t),
  ];
}

function createTraceLogSql(t: TableMeta): string {
  return `CREATE TABLE ${logTable(t)} (trace_id ${traceIdDecl(t)}, lo INTEGER NOT NULL, hi INTEGER NOT NULL)`;
}

function traceIdDecl(t: TableMeta): string {
  return sqliteDeclType(t.columns.find((c) => c.name === "trace_id")?.type ?? "String");
}

/** Statements dropping a table's trace map and log, if it has them (run with the table's DROP). */
export function dropTraceMapSql(t: TableMeta): string[] {
  return hasTraceMap(t) ? [`DROP TABLE IF EXISTS ${mapTable(t)}`, `DROP TABLE IF EXISTS ${logTable(t)}`] : [];
}

/** Statements renaming a table's trace map and log after the table (run with the table's RENAME). */
export function renameTraceMapSql(t: TableMeta, name: string): string[] {
  const next = { ...t, name };
  return hasTraceMap(t)
    ? [
      `ALTER TABLE ${mapTable(t)} RENAME TO ${quoteIdent(traceMapName(next))}`,
      `ALTER TABLE ${logTable(t)} RENAME TO ${quoteIdent(traceLogName(next))}`,
    ]
    : [];
}

/** Empties a table's trace map and log (TRUNCATE). */
export function clearTraceMap(handle: DatabaseHandle, t: TableMeta): void {
  if (!hasTraceMap(t)) return;
  handle.conn.exec(`DELETE FROM ${mapTable(t)}`);
  handle.conn.exec(`DELETE FROM ${logTable(t)}`);
}

/**
 * Forgets the traces whose every span is before `cutoff` (the table's unit), after the ttl sweep or
 * size retention deleted those spans; returns how many entries (map and log).
 */
export function forgetTracesBefore(handle: DatabaseHandle, t: TableMeta, cutoff: bigint | number): number {
  if (!hasTraceMap(t)) return 0;
  const forget = (table: string) =>
    Number(handle.conn.prepare(`DELETE FROM ${table} WHERE hi < ?`).run(cutoff).changes);
  return forget(mapTable(t)) + forget(logTable(t));
}

/**
 * After a DELETE of any rows: forgets the traces whose every span is older than the table's oldest
 * (all of them once it is empty), so old spans deleted by hand, as a retention job does, leave no
 * entries behind; other entries it left only widen a range. Returns how many entries (map and log).
 */
export function forgetTracesBeforeOldest(handle: DatabaseHandle, t: TableMeta): number {
  if (!hasTraceMap(t)) return 0;
  const table = qualifiedName(t);
  const forget = (from: string) =>
    Number(
      handle.conn.prepare(
        `DELETE FROM ${from} WHERE NOT EXISTS (SELECT 1 FROM ${table}) OR hi < (SELECT min(${
          quoteIdent(t.timeIndex)
        }) FROM ${table})`,
      ).run().changes,
    );
  return forget(mapTable(t)) + forget(logTable(t));
}

/**
 * The time range (the table's unit, inclusive) holding every span of a trace: null when the map
 * knows no such trace, undefined when the table has no map (readers then scan all of it).
 */
export function traceTimeRange(
  handle: DatabaseHandle,
  t: TableMeta,
  traceId: string,
): [bigint, bigint] | null | undefined {
  if (!hasTraceMap(t)) return undefined;
  const key = `tracemap-get\u0001${t.name}`;
  const stmt = handle.statements.obtain(t.name, key, "trace", () => {
    const stmt = handle.conn.prepare(
      `SELECT ${traceBoundSql(t, "lo", "?1")} AS lo, ${traceBoundSql(t, "hi", "?1")} AS hi`,
    );
    stmt.setReadBigInts(true);
    return stmt;
  });
  const row = stmt.get(storedText(traceId)) as { lo: bigint | null; hi: bigint | null };
  return row.lo === null || row.hi === null ? null : [row.lo, row.hi];
}

/** One trace's range in a batch: its id as stored, its earliest and latest span. */
type Range = [SqlValue, number | bigint, number | bigint];

/**
 * Records the traces of `n` rows just inserted (their stored ids and times): a range per
 * distinct trace id, in the log. Runs inside the writer's transaction.
 */
export function recordTraces(
  handle: DatabaseHandle,
  t: TableMeta,
  ids: ArrayLike<SqlValue>,
  times: ArrayLike<number | bigint>,
  n: number,
): void {
  const ranges = new Map<unknown, Range>();
  let last: Range | undefined;
  for (let k = 0; k < n; k++) {
    const id = ids[k];
    if (id === null) continue;
    const ts = times[k];
    // a trace's spans mostly come one after another: the range just used, without a lookup
    let r = last !== undefined && last[0] === id ? last : undefined;
    if (r === undefined) {
      // a blob id (a string holding NUL) is keyed by its bytes; strings and numbers by themselves
      const key = id instanceof Uint8Array ? `\0${id.join(",")}` : id;
      r = ranges.get(key);
      if (r === undefined) {
        ranges.set(key, last = [id, ts, ts]);
        continue;
      }
      last = r;
    }
    if (ts < r[1]) r[1] = ts;
    else if (ts > r[2]) r[2] = ts;
  }
  // appended to the log (sequential pages); the write that fills it folds it into the map
  const all = [...ranges.values()];
  let lastRow = 0;
  for (let from = 0; from < all.length;) {
    const size = statementSize(all.length - from);
    const args: SqlValue[] = [];
    for (let i = from; i < from + size; i++) args.push(all[i][0], all[i][1], all[i][2]);
    lastRow = Number(appendStatement(handle, t, size).run(...args).lastInsertRowid);
    from += size;
  }
  // the log's last rowid counts its rows since it was last emptied (no state kept in memory)
  if (lastRow >= FOLD_AT) foldTraceLog(handle, t);
}

/** Rows of the next statement: the most a statement takes, else a power of two (few shapes get prepared). */
function statementSize(rest: number): number {
  if (rest >= MAX_TRACES_PER_STATEMENT) return MAX_TRACES_PER_STATEMENT;
  let size = 1;
  while (size * 2 <= rest) size *= 2;
  return size;
}

function appendStatement(handle: DatabaseHandle, t: TableMeta, rows: number): StatementSync {
  const key = `tracelog\u0001${t.name}\u0001${rows}`;
  return handle.statements.obtain(t.name, key, "trace", () =>
    handle.conn.prepare(
      `INSERT INTO ${logTable(t)} (trace_id, lo, hi) VALUES ${new Array(rows).fill("(?, ?, ?)").join(", ")}`,
    ));
}

/**
 * Moves the log's ranges into the map (inside the caller's transaction): one upsert per trace, in
 * key order so each seek lands next to the one before; a range inside the known one writes nothing.
 */
export function foldTraceLog(handle: DatabaseHandle, t: TableMeta): void {
  const key = `tracefold\u0001${t.name}`;
  const stmt = handle.statements.obtain(t.name, key, "trace", () =>
    // `WHERE true`: an upsert's SELECT needs a WHERE for SQLite to parse ON CONFLICT as the upsert's
    handle.conn.prepare(
      `INSERT INTO ${mapTable(t)} (trace_id, lo, hi) SELECT trace_id, min(lo), max(hi) FROM ${
        logTable(t)
      } WHERE true GROUP BY trace_id ORDER BY trace_id ` +
        `ON CONFLICT (trace_id) DO UPDATE SET lo = min(lo, excluded.lo), hi = max(hi, excluded.hi) ` +
        `WHERE excluded.lo < lo OR excluded.hi > hi`,
    ));
  stmt.run();
  handle.conn.exec(`DELETE FROM ${logTable(t)}`);
}

/**
 * Gives every trace table of the database its map, on open: a table from before the map (none in
 * its schema) gets one built from a scan of its spans, and the `trace_id` index an earlier version
 * made (`__petrel_trace_<t>`) is dropped once the map stands in for it. A map from before the log
 * gets an empty log.
 */
export function ensureTraceMaps(handle: DatabaseHandle): void {
  for (const t of handle.listTables()) {
    if (!hasTraceMap(t)) continue;
    const exists = (name: string) =>
      handle.conn.prepare(
        `SELECT 1 AS x FROM ${quoteIdent(t.schema)}.sqlite_master WHERE type = 'table' AND name = ?`,
      ).get(name) !== undefined;
    if (exists(traceMapName(t))) {
      if (!exists(traceLogName(t))) handle.conn.exec(createTraceLogSql(t));
      continue;
    }
    const started = performance.now();
    const traces = handle.transaction(() => {
      // the scan below gives the map every trace, so a log left beside no map has nothing to add
      handle.conn.exec(`DROP TABLE IF EXISTS ${logTable(t)}`);
      for (const sql of createTraceMapSql(t)) handle.conn.exec(sql);
      const ts = quoteIdent(t.timeIndex);
      const filled = t.columns.some((c) => c.name === "trace_id")
        ? Number(
          handle.conn.prepare(
            `INSERT INTO ${mapTable(t)} (trace_id, lo, hi) SELECT trace_id, min(${ts}), max(${ts}) FROM ${
              qualifiedName(t)
            } WHERE trace_id IS NOT NULL GROUP BY trace_id`,
          ).run().changes,
        )
        : 0;
      handle.conn.exec(
        `DROP INDEX IF EXISTS ${quoteIdent(t.schema)}.${quoteIdent(`__petrel_trace_${t.name}`)}`,
      );
      return filled;
    });
    log.info("built the trace map of a trace table", {
      db: handle.name,
      table: t.name,
      traces,
      ms: Math.round(performance.now() - started),
    });
  }
}
