/**
 * The insert sequence forwarding reads metric samples by (`src/forward/`). The samples table is keyed
 * `(ts, series_id)` WITHOUT ROWID, so neither time nor a rowid says what was written since a point:
 * a late sample lands below any time cursor, and a replaced sample keeps its key. So when forwarding
 * is on, every write stamps its samples with a `seq` (one value per write transaction, strictly
 * increasing per physical table), and an index on `(seq, ts, series_id)` lets a cursor walk them in
 * write order. A replaced sample gets the new write's seq, so it is forwarded again; a rolled-back
 * write's seq is simply never seen. Samples written while forwarding was off have no seq and are not
 * forwarded (forwarding starts when it is configured).
 *
 * The seq is `max(last + 1, now_ms * 1000)`: strictly increasing even across restarts (the last one
 * is read back from the index), and it tells how old the oldest unforwarded write is without a
 * separate clock column (`seq / 1000` is the write's time in ms).
 */
import type { DatabaseHandle } from "./database.ts";
import { samplesTable } from "./metric_layout.ts";
import { quoteIdent, type TableMeta } from "./table.ts";

/** A position in a physical table's write order: after every sample `<=` it in (seq, ts, series). */
export interface SeqCursor {
  seq: number;
  ts: number;
  seriesId: number;
  /**
   * Journal streams only (`src/forward/streams.ts`): the last primary key read of a keyed table's
   * entry (`forward_entry.ts`), which a page continues strictly after; null or absent otherwise.
   */
  key?: string | null;
}

/** The start of a table's write order. */
export const SEQ_START: SeqCursor = { seq: 0, ts: Number.MIN_SAFE_INTEGER, seriesId: 0 };

/** One sample in write order. */
export interface SeqSample {
  seq: number;
  ts: number;
  seriesId: number;
  /** A number, `'NaN'` (stored NaN), or null (a stale marker). */
  value: number | string | null;
}

interface SeqState {
  last: number;
  instance: number;
}

const states = new WeakMap<DatabaseHandle, Map<number, SeqState>>();

function hasSeqColumn(handle: DatabaseHandle, physical: TableMeta): boolean {
  const rows = handle.conn.prepare(
    `SELECT name FROM pragma_table_info(?, ?)`,
  ).all(`__petrel_samples_${physical.id}`, physical.schema) as Array<{ name: string }>;
  return rows.some((r) => r.name === "seq");
}

/** The next seq of a physical table's writes (its column and index created on first use). */
export function nextSeq(handle: DatabaseHandle, physical: TableMeta): number {
  let perDb = states.get(handle);
  if (perDb === undefined) states.set(handle, perDb = new Map());
  let state = perDb.get(physical.id);
  if (state === undefined || state.instance !== handle.instance) {
    ensureSeq(handle, physical);
    state = { last: maxSeq(handle, physical) ?? 0, instance: handle.instance };
    perDb.set(physical.id, state);
  }
  state.last = Math.max(state.last + 1, Date.now() * 1000);
  return state.last;
}

/** Adds the seq column and its index to a physical table's samples (idempotent). */
export function ensureSeq(handle: DatabaseHandle, physical: TableMeta): void {
  if (!hasSeqColumn(handle, physical)) {
    handle.conn.exec(`ALTER TABLE ${samplesTable(physical)} ADD COLUMN seq INTEGER`);
  }
  handle.conn.exec(
    `CREATE INDEX IF NOT EXISTS ${quoteIdent(physical.schema)}.${
      quoteIdent(`__petrel_samples_seq_${physical.id}`)
    } ON ${quoteIdent(`__petrel_samples_${physical.id}`)} (seq, ts, series_id) WHERE seq IS NOT NULL`,
  );
}

/** Forgets the cached seq of a database's tables (dropped or reopened). */
export function forgetSeq(handle: DatabaseHandle): void {
  states.delete(handle);
}

/** Up to `limit` samples after `after` in write order. */
export function readAfter(
  handle: DatabaseHandle,
  physical: TableMeta,
  after: SeqCursor,
  limit: number,
): SeqSample[] {
  if (!hasSeqColumn(handle, physical)) return [];
  const stmt = handle.conn.prepare(
    `SELECT seq, ts, series_id, value FROM ${samplesTable(physical)} ` +
      `WHERE seq IS NOT NULL AND (seq, ts, series_id) > (?, ?, ?) ORDER BY seq, ts, series_id LIMIT ?`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const rows = stmt.all(after.seq, after.ts, after.seriesId, limit) as unknown as [
    number,
    number,
    number,
    number | string | null,
  ][];
  return rows.map(([seq, ts, seriesId, value]) => ({ seq, ts, seriesId, value }));
}

function compare(a: SeqCursor, b: SeqCursor): number {
  return a.seq - b.seq || a.ts - b.ts || a.seriesId - b.seriesId;
}

/** The largest seq stored (through the partial index: without `IS NOT NULL` it is a full scan). */
function maxSeq(handle: DatabaseHandle, physical: TableMeta): number | null {
  const row = handle.conn.prepare(
    `SELECT max(seq) AS m FROM ${samplesTable(physical)} WHERE seq IS NOT NULL`,
  ).get() as { m: number | null } | undefined;
  return row?.m ?? null;
}

/** Rows counted exactly; past this the backlog is extrapolated (a count walks every row). */
const COUNT_CAP = 200_000;

/**
 * How many samples follow `after` (exact up to COUNT_CAP, then extrapolated from how densely the
 * first COUNT_CAP fill the seq range, which is write time), and the seq of the first (null when none).
 */
export function backlog(
  handle: DatabaseHandle,
  physical: TableMeta,
  after: SeqCursor,
): { rows: number; oldestSeq: number | null } {
  if (!hasSeqColumn(handle, physical)) return { rows: 0, oldestSeq: null };
  const row = handle.conn.prepare(
    `SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM (SELECT seq FROM ${samplesTable(physical)} ` +
      `WHERE seq IS NOT NULL AND (seq, ts, series_id) > (?, ?, ?) ORDER BY seq, ts, series_id LIMIT ?)`,
  ).get(after.seq, after.ts, after.seriesId, COUNT_CAP) as {
    n: number;
    lo: number | null;
    hi: number | null;
  };
  if (row.n < COUNT_CAP || row.lo === null || row.hi === null) return { rows: row.n, oldestSeq: row.lo };
  const top = maxSeq(handle, physical) ?? row.hi;
  const rows = Math.round(row.n * (top - row.lo) / Math.max(1, row.hi - row.lo));
  return { rows: Math.max(row.n, rows), oldestSeq: row.lo };
}

/**
 * The cursor that skips the oldest unforwarded samples: past every write before `beforeSeq` (a seek:
 * seq is write time), then past as many more as leave at most `keepRows`. Returns the new cursor and
 * how many samples it skipped.
 */
export function skipAhead(
  handle: DatabaseHandle,
  physical: TableMeta,
  after: SeqCursor,
  beforeSeq: number,
  keepRows: number,
): { cursor: SeqCursor; skipped: number } {
  const pending = backlog(handle, physical, after).rows;
  let cursor = after;
  if (beforeSeq - 1 > after.seq) {
    cursor = { seq: beforeSeq - 1, ts: Number.MAX_SAFE_INTEGER, seriesId: Number.MAX_SAFE_INTEGER };
  }
  if (Number.isFinite(keepRows)) {
    // counted from the newest end: exactly `keepRows` stay, whatever the backlog's size
    const row = handle.conn.prepare(
      `SELECT seq, ts, series_id AS seriesId FROM ${samplesTable(physical)} WHERE seq IS NOT NULL ` +
        `ORDER BY seq DESC, ts DESC, series_id DESC LIMIT 1 OFFSET ?`,
    ).get(keepRows) as SeqCursor | undefined;
    if (row !== undefined && compare(row, cursor) > 0) {
      cursor = { seq: row.seq, ts: row.ts, seriesId: row.seriesId };
    }
  }
  if (cursor === after) return { cursor, skipped: 0 };
  return { cursor, skipped: Math.max(0, pending - backlog(handle, physical, cursor).rows) };
}
