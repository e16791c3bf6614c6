/**
 * The metric engine's series-first copy of closed time windows, for reads that select a few series
 * over a long range (PromQL, remote read). The samples table stays as it is (time-first, so ingest
 * appends, and SQL reads it through the views); once an hour-long window has closed, its samples are
 * also stored per series as Prometheus XOR chunks:
 * - `__petrel_chunks_n(series_id, start_ts, end_ts, data)`, `PRIMARY KEY (series_id, start_ts)`:
 *   a series over a range is a seek plus a few rows; an index on `start_ts` serves window rewrites
 *   and the ttl sweep;
 * - `__petrel_compaction_n`: `upto`, the end of the compacted windows (every sample before it is in
 *   chunks, except late ones), and the windows that took late samples since (`dirty`), which are
 *   compacted again.
 */
import type { DatabaseHandle } from "./database.ts";
import { SeriesBuffer } from "./metric_buffer.ts";
import { samplesTable } from "./metric_layout.ts";
import { quoteIdent, type TableMeta } from "./table.ts";

/** The length of a compaction window. */
export const WINDOW_MS = 3_600_000;

/** The chunks table of a physical table. */
export function chunksTable(physical: TableMeta): string {
  return `${quoteIdent(physical.schema)}.${quoteIdent(`__petrel_chunks_${physical.id}`)}`;
}

/** The compaction state table of a physical table. */
export function compactionTable(physical: TableMeta): string {
  return `${quoteIdent(physical.schema)}.${quoteIdent(`__petrel_compaction_${physical.id}`)}`;
}

/** DDL of the chunk tables (idempotent: physical tables created before chunks existed get them too). */
export function createChunkSql(physical: TableMeta): string[] {
  const bare = (s: string) => quoteIdent(`__petrel_${s}_${physical.id}`);
  return [
    `CREATE TABLE IF NOT EXISTS ${chunksTable(physical)} (series_id INTEGER NOT NULL, ` +
    `start_ts INTEGER NOT NULL, end_ts INTEGER NOT NULL, data BLOB NOT NULL, ` +
    `PRIMARY KEY (series_id, start_ts)) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS ${quoteIdent(physical.schema)}.${bare("chunks_start")} ON ${
      bare("chunks")
    } (start_ts)`,
    `CREATE TABLE IF NOT EXISTS ${compactionTable(physical)} (kind TEXT NOT NULL, at INTEGER NOT NULL, ` +
    `PRIMARY KEY (kind, at)) WITHOUT ROWID`,
  ];
}

/** DDL dropping the chunk tables (with the physical table). */
export function dropChunkSql(physical: TableMeta): string[] {
  return [
    `DROP TABLE IF EXISTS ${chunksTable(physical)}`,
    `DROP TABLE IF EXISTS ${compactionTable(physical)}`,
  ];
}

/** What compaction has done for a physical table. */
export interface CompactionState {
  /** Every sample before this time is in chunks, but for late ones (-Infinity: nothing compacted). */
  upto: number;
  /** Starts of compacted windows that took late samples since. */
  dirty: Set<number>;
}

/** Reads the compaction state. */
export function loadCompactionState(handle: DatabaseHandle, physical: TableMeta): CompactionState {
  const rows = handle.conn.prepare(`SELECT kind, at FROM ${compactionTable(physical)}`).all() as Array<
    { kind: string; at: number }
  >;
  const state: CompactionState = { upto: -Infinity, dirty: new Set() };
  for (const r of rows) {
    if (r.kind === "upto") state.upto = r.at;
    else if (r.kind === "dirty") state.dirty.add(r.at);
  }
  return state;
}

/** Records that the window starting at `start` took a late sample (inside the caller's transaction). */
export function markDirty(handle: DatabaseHandle, physical: TableMeta, start: number): void {
  handle.conn.prepare(`INSERT OR IGNORE INTO ${compactionTable(physical)} (kind, at) VALUES ('dirty', ?)`)
    .run(start);
}

/** The start of the window holding time `t`. */
export function windowOf(t: number): number {
  return Math.floor(t / WINDOW_MS) * WINDOW_MS;
}

/** Adds the samples of `[from, to)` in the samples table to per-series buffers (of `only`'s series). */
export function readSlice(
  handle: DatabaseHandle,
  physical: TableMeta,
  from: number,
  to: number,
  into: Map<number, SeriesBuffer>,
  only?: Set<number>,
): void {
  const lo = Number.isFinite(from) ? from : Number.MIN_SAFE_INTEGER;
  let cursor: PageCursor | null = { ts: lo - 1, id: Number.MAX_SAFE_INTEGER };
  while (cursor !== null) cursor = readPage(handle, physical, cursor, to, READ_PAGE_ROWS, into, only);
}

/** Rows per page of a long read: `all()` is ~4× faster per row than `iterate()`, paging bounds its memory. */
const READ_PAGE_ROWS = 50_000;

/** Where a paged read of the samples table stopped: the last (ts, series_id) read. */
export interface PageCursor {
  ts: number;
  id: number;
}

/**
 * Adds up to `limit` samples after `after` (in key order) and before `to` to per-series buffers;
 * returns where it stopped, or null when `[after, to)` is exhausted. Pages by rows, so a step of
 * compaction costs the same however many series share the window.
 */
export function readPage(
  handle: DatabaseHandle,
  physical: TableMeta,
  after: PageCursor,
  to: number,
  limit: number,
  into: Map<number, SeriesBuffer>,
  only?: Set<number>,
): PageCursor | null {
  // The series are picked in SQLite: a row handed to JS costs far more than one skipped in C (a query
  // of a few series reads the time span of all of them).
  const pick = only === undefined ? "" : "AND series_id IN (SELECT value FROM json_each(?)) ";
  const stmt = handle.conn.prepare(
    `SELECT series_id, ts, value FROM ${samplesTable(physical)} ` +
      `WHERE (ts, series_id) > (?, ?) AND ts < ? ${pick}ORDER BY ts, series_id LIMIT ?`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const args = only === undefined
    ? [after.ts, after.id, to, limit]
    : [after.ts, after.id, to, JSON.stringify([...only]), limit];
  const rows = stmt.all(...args) as unknown as [
    number,
    number,
    number | string | null,
  ][];
  let buf: SeriesBuffer | undefined, bufId = -1;
  // Indexed, not `for (const [id, ts, v] of rows)`: until the loop is optimized (a worker's first
  // window, a query worker's first read) each destructuring runs the iterator protocol.
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i], id = row[0], ts = row[1], v = row[2];
    if (only !== undefined && !only.has(id)) continue;
    if (id !== bufId) {
      buf = into.get(bufId = id);
      if (buf === undefined) into.set(id, buf = new SeriesBuffer());
    }
    // A stale marker is stored as NULL; any other NaN as text.
    buf!.add(ts, typeof v === "number" ? v : NaN, v === null);
  }
  if (rows.length < limit) return null;
  const last = rows[rows.length - 1];
  return { ts: last[1], id: last[0] };
}

/** The chunks of one window: chunk `k` is of series `ids[k]`, its bytes `bytes[offsets[k], offsets[k+1])`. */
export interface EncodedWindow {
  ids: Float64Array<ArrayBuffer>;
  /** The times of each chunk's first and last sample. */
  starts: Float64Array<ArrayBuffer>;
  ends: Float64Array<ArrayBuffer>;
  offsets: Uint32Array<ArrayBuffer>;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Replaces the chunks of one window with the given ones (`metric_window.ts`) and records the new state, in
 * one transaction: a window compacted for the first time moves `upto` to its end; a dirty one is
 * clean, unless `stillDirty` (a write reached it while it was read). Returns the windows before it
 * that took samples while it was read (see below), marked dirty.
 */
export function writeWindow(
  handle: DatabaseHandle,
  physical: TableMeta,
  start: number,
  encoded: EncodedWindow,
  state: CompactionState,
  stillDirty: boolean,
): number[] {
  const chunks = chunksTable(physical);
  return handle.transaction(() => {
    handle.conn.prepare(`DELETE FROM ${chunks} WHERE start_ts >= ? AND start_ts < ?`).run(
      start,
      start + WINDOW_MS,
    );
    const insert = handle.conn.prepare(
      `INSERT OR REPLACE INTO ${chunks} (series_id, start_ts, end_ts, data) VALUES (?, ?, ?, ?)`,
    );
    const { ids, starts, ends, offsets, bytes } = encoded;
    for (let k = 0; k < ids.length; k++) {
      insert.run(ids[k], starts[k], ends[k], bytes.subarray(offsets[k], offsets[k + 1]));
    }
    const table = compactionTable(physical), gaps: number[] = [];
    if (start + WINDOW_MS > state.upto) {
      // The job took the first window with samples from `upto` on; a write before it since (a
      // backfill: not late, being past `upto`) would fall below the new `upto` without chunks and
      // unread: its windows are compacted again, as dirty ones.
      for (let w = nextWindowWithSamples(handle, physical, state.upto); w !== null && w < start;) {
        gaps.push(w);
        markDirty(handle, physical, w);
        w = nextWindowWithSamples(handle, physical, w + WINDOW_MS);
      }
      handle.conn.prepare(`DELETE FROM ${table} WHERE kind = 'upto'`).run();
      handle.conn.prepare(`INSERT INTO ${table} (kind, at) VALUES ('upto', ?)`).run(start + WINDOW_MS);
    }
    if (stillDirty) markDirty(handle, physical, start);
    else handle.conn.prepare(`DELETE FROM ${table} WHERE kind = 'dirty' AND at = ?`).run(start);
    return gaps;
  });
}

/** A stored chunk: the start of its first sample, and its XOR bytes. */
export interface StoredChunk {
  start: number;
  data: Uint8Array;
}

/** The chunks of the given series overlapping `[from, to]`, per series in time order. */
export function readChunks(
  handle: DatabaseHandle,
  physical: TableMeta,
  ids: number[],
  from: number,
  to: number,
): Map<number, StoredChunk[]> {
  const stmt = handle.conn.prepare(
    `SELECT series_id, start_ts, data FROM ${
      chunksTable(physical)
    } WHERE series_id IN (SELECT value FROM json_each(?)) ` +
      `AND start_ts > ? AND start_ts <= ? AND end_ts >= ? ORDER BY series_id, start_ts`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const rows = stmt.all(JSON.stringify(ids), from - WINDOW_MS, to, from) as unknown as [
    number,
    number,
    Uint8Array,
  ][];
  const out = new Map<number, StoredChunk[]>();
  for (const [id, start, data] of rows) {
    const list = out.get(id);
    if (list === undefined) out.set(id, [{ start, data }]);
    else list.push({ start, data });
  }
  return out;
}

/**
 * Which of the given series have a chunk overlapping `[from, to]` outside the `dirty` windows (as
 * {@link readChunks} would return them): SQLite answers each series once, so the metadata endpoints
 * do not pull every chunk of the range into JS to learn that. Every stored chunk holds a sample.
 */
export function seriesWithChunks(
  handle: DatabaseHandle,
  physical: TableMeta,
  ids: number[],
  from: number,
  to: number,
  dirty: number[],
): Set<number> {
  const stmt = handle.conn.prepare(
    `SELECT DISTINCT series_id FROM ${
      chunksTable(physical)
    } WHERE series_id IN (SELECT value FROM json_each(?)) ` +
      `AND start_ts > ? AND start_ts <= ? AND end_ts >= ? AND NOT EXISTS (SELECT 1 FROM json_each(?) AS d ` +
      `WHERE start_ts >= d.value AND start_ts < d.value + ${WINDOW_MS})`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const rows = stmt.all(
    JSON.stringify(ids),
    from - WINDOW_MS,
    to,
    from,
    JSON.stringify(dirty),
  ) as unknown as [
    number,
  ][];
  return new Set(rows.map((r) => r[0]));
}

/** The start of the oldest window at or after `from` holding samples, or null. */
export function nextWindowWithSamples(
  handle: DatabaseHandle,
  physical: TableMeta,
  from: number,
): number | null {
  const lo = Number.isFinite(from) ? from : Number.MIN_SAFE_INTEGER;
  const row = handle.conn.prepare(`SELECT min(ts) AS t FROM ${samplesTable(physical)} WHERE ts >= ?`).get(
    lo,
  ) as
    | { t: number | null }
    | undefined;
  return row?.t === null || row?.t === undefined ? null : windowOf(row.t);
}

/** Deletes the chunks wholly before `cutoff` (ms) of the given series, or of all (`ids` null). */
export function sweepChunks(
  handle: DatabaseHandle,
  physical: TableMeta,
  cutoff: number,
  ids: number[] | null,
): void {
  const chunks = chunksTable(physical);
  if (ids === null) {
    handle.conn.prepare(`DELETE FROM ${chunks} WHERE start_ts < ? AND end_ts < ?`).run(cutoff, cutoff);
    return;
  }
  handle.conn.prepare(
    `DELETE FROM ${chunks} WHERE series_id IN (SELECT value FROM json_each(?)) AND end_ts < ?`,
  ).run(JSON.stringify(ids), cutoff);
}
