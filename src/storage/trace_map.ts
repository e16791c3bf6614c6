/**
 * The trace map of a trace table (GreptimeDB's trace models): a hidden table `__petrel_tracemap_<t>`
 * holding, per trace id, the earliest and latest time index of its spans. Jaeger reads a trace by id
 * by looking its range up here and scanning the table's time index over that range only.
 *
 * Why not an index on `trace_id`: trace ids are random, so such an index dirties a page of its own
 * for nearly every span (+70 % trace ingest CPU, `bench otlp_traces`). The map takes one upsert per
 * distinct trace of a write batch (a trace's spans mostly arrive together), and its rows are a
 * tenth as many as the spans.
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
/** Traces per upsert statement (3 variables each). */
const MAX_TRACES_PER_STATEMENT = 512;

/** Whether the table is a trace table, which has a trace map. */
export function hasTraceMap(t: TableMeta): boolean {
  return TRACE_MODELS.has(t.options.table_data_model ?? "");
}

/** The SQLite name of a table's trace map. */
export function traceMapName(t: TableMeta): string {
  return `__petrel_tracemap_${t.name}`;
}

/** The trace map's name in SQL (schema-qualified, quoted). */
function mapTable(t: TableMeta): string {
  return `${quoteIdent(t.schema)}.${quoteIdent(traceMapName(t))}`;
}

/** The table a SQLite table of a trace map belongs to, or undefined when it is none. */
export function traceMapOwner(sqliteTable: string): string | undefined {
  return sqliteTable.startsWith("__petrel_tracemap_") ? sqliteTable.slice(18) : undefined;
}

/**
 * `CREATE TABLE` of a trace table's map (none for other tables). `trace_id` takes the declared type
 * of the table's column, so a lookup compares as the table would.
 */
export function createTraceMapSql(t: TableMeta): string[] {
  if (!hasTraceMap(t)) return [];
  const col = t.columns.find((c) => c.name === "trace_id");
  const decl = sqliteDeclType(col?.type ?? "String");
  return [
    `CREATE TABLE ${
      mapTable(t)
    } (trace_id ${decl} PRIMARY KEY, lo INTEGER NOT NULL, hi INTEGER NOT NULL) WITHOUT ROWID`,
  ];
}

/** Statements dropping a table's trace map, if it has one (run with the table's DROP). */
export function dropTraceMapSql(t: TableMeta): string[] {
  return hasTraceMap(t) ? [`DROP TABLE IF EXISTS ${mapTable(t)}`] : [];
}

/** Statements renaming a table's trace map after the table (run with the table's RENAME). */
export function renameTraceMapSql(t: TableMeta, name: string): string[] {
  return hasTraceMap(t)
    ? [`ALTER TABLE ${mapTable(t)} RENAME TO ${quoteIdent(traceMapName({ ...t, name }))}`]
    : [];
}

/** Empties a table's trace map (TRUNCATE). */
export function clearTraceMap(handle: DatabaseHandle, t: TableMeta): void {
  if (hasTraceMap(t)) handle.conn.exec(`DELETE FROM ${mapTable(t)}`);
}

/**
 * Forgets the traces whose every span is before `cutoff` (the table's unit), after the ttl sweep or
 * size retention deleted those spans; returns how many.
 */
export function forgetTracesBefore(handle: DatabaseHandle, t: TableMeta, cutoff: bigint | number): number {
  if (!hasTraceMap(t)) return 0;
  return Number(handle.conn.prepare(`DELETE FROM ${mapTable(t)} WHERE hi < ?`).run(cutoff).changes);
}

/**
 * After a DELETE of any rows: forgets the traces whose every span is older than the table's oldest
 * (all of them once it is empty), so old spans deleted by hand, as a retention job does, leave no
 * entries behind; other entries it left only widen a range. Returns how many.
 */
export function forgetTracesBeforeOldest(handle: DatabaseHandle, t: TableMeta): number {
  if (!hasTraceMap(t)) return 0;
  const table = qualifiedName(t);
  const sql = `DELETE FROM ${mapTable(t)} WHERE NOT EXISTS (SELECT 1 FROM ${table}) OR hi < (SELECT min(${
    quoteIdent(t.timeIndex)
  }) FROM ${table})`;
  return Number(handle.conn.prepare(sql).run().changes);
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
  let stmt = handle.statements.get(key);
  if (stmt === undefined) {
    stmt = handle.conn.prepare(`SELECT lo, hi FROM ${mapTable(t)} WHERE trace_id = ?`);
    stmt.setReadBigInts(true);
    handle.statements.set(key, stmt);
  }
  const row = stmt.get(storedText(traceId)) as { lo: bigint; hi: bigint } | undefined;
  return row === undefined ? null : [row.lo, row.hi];
}

/** One trace's range in a batch: its id as stored, its earliest and latest span. */
type Range = [SqlValue, number | bigint, number | bigint];

/**
 * Records the traces of `n` rows just inserted (their stored ids and times): one upsert row per
 * distinct trace id, widening a known trace's range. Runs inside the writer's transaction.
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
  // in key order, so each upsert's seek lands next to the one before (text ids; other ids first)
  const all = [...ranges.values()].sort(byTextId);
  for (let from = 0; from < all.length;) {
    const size = statementSize(all.length - from);
    const args: SqlValue[] = [];
    for (let i = from; i < from + size; i++) args.push(all[i][0], all[i][1], all[i][2]);
    upsertStatement(handle, t, size).run(...args);
    from += size;
  }
}

function byTextId(a: Range, b: Range): number {
  const x = a[0], y = b[0];
  if (typeof x !== "string" || typeof y !== "string") {
    return Number(typeof x === "string") - Number(typeof y === "string");
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rows of the next statement: the most a statement takes, else a power of two (few shapes get prepared). */
function statementSize(rest: number): number {
  if (rest >= MAX_TRACES_PER_STATEMENT) return MAX_TRACES_PER_STATEMENT;
  let size = 1;
  while (size * 2 <= rest) size *= 2;
  return size;
}

function upsertStatement(handle: DatabaseHandle, t: TableMeta, rows: number): StatementSync {
  const key = `tracemap\u0001${t.name}\u0001${rows}`;
  let stmt = handle.statements.get(key);
  if (stmt === undefined) {
    // a batch that only adds spans inside a known range leaves the row as it is (no page written)
    const sql =
      `INSERT INTO ${mapTable(t)} (trace_id, lo, hi) VALUES ${
        new Array(rows).fill("(?, ?, ?)").join(", ")
      } ON CONFLICT (trace_id) DO UPDATE SET lo = min(lo, excluded.lo), hi = max(hi, excluded.hi) ` +
      `WHERE excluded.lo < lo OR excluded.hi > hi`;
    stmt = handle.conn.prepare(sql);
    handle.statements.set(key, stmt);
  }
  return stmt;
}

/**
 * Gives every trace table of the database its map, on open: a table from before the map (none in
 * its schema) gets one built from a scan of its spans, and the `trace_id` index an earlier version
 * made (`__petrel_trace_<t>`) is dropped once the map stands in for it.
 */
export function ensureTraceMaps(handle: DatabaseHandle): void {
  for (const t of handle.listTables()) {
    if (!hasTraceMap(t)) continue;
    const exists = handle.conn.prepare(
      `SELECT 1 AS x FROM ${quoteIdent(t.schema)}.sqlite_master WHERE type = 'table' AND name = ?`,
    ).get(traceMapName(t));
    if (exists !== undefined) continue;
    const started = performance.now();
    const traces = handle.transaction(() => {
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
