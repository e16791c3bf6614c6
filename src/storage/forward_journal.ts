/**
 * The write journal forwarding reads ordinary (non-metric) tables by. Such a table is either a rowid
 * table (append mode) or keyed WITHOUT ROWID (tags + time): a time cursor would skip late rows, and a
 * keyed table has no insert order at all. So, while a `greptime` destination is configured, every write
 * records one journal row per table it touched, in the same transaction and the same schema file as
 * the rows (a write is atomic per file, not across attached files):
 * - append tables: the rowid range the write inserted (`rowid`): rowids are handed out as max + 1,
 *   so the rows of one write are exactly `(max before, last inserted]`, and each is forwarded once;
 * - keyed tables: the time range the write covered (`time`): forwarding re-reads the range, so rows
 *   written by other writes in the same range go again too. Upstreams (GreptimeDB, Petrel) dedup by
 *   key and time, so a duplicate is an idempotent overwrite, never an extra row.
 * The journal holds ranges, not rows: forwarding reads the data itself. `seq` is AUTOINCREMENT, so a
 * seq is never reused even after the journal is trimmed below every destination's cursor.
 */
import type { DatabaseHandle } from "./database.ts";
import { isAppendMode, qualifiedName, quoteIdent, type TableMeta } from "./table.ts";

/** One journal entry. */
export interface JournalEntry {
  seq: number;
  table: string;
  kind: "rowid" | "time";
  lo: number | bigint;
  hi: number | bigint;
  rows: number;
  at: number;
}

const JOURNAL = "__petrel_forward_journal";
const ready = new WeakMap<DatabaseHandle, Set<string>>();

function journal(schema: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(JOURNAL)}`;
}

function ensure(handle: DatabaseHandle, schema: string): void {
  let schemas = ready.get(handle);
  if (schemas === undefined) ready.set(handle, schemas = new Set());
  if (schemas.has(schema)) return;
  handle.conn.exec(
    `CREATE TABLE IF NOT EXISTS ${journal(schema)} (seq INTEGER PRIMARY KEY AUTOINCREMENT, ` +
      `tbl TEXT NOT NULL, kind TEXT NOT NULL, lo INTEGER NOT NULL, hi INTEGER NOT NULL, ` +
      `rows INTEGER NOT NULL, at INTEGER NOT NULL)`,
  );
  schemas.add(schema);
}

/** The largest rowid of an append table before a write (0 when empty); null for keyed tables. */
export function rowidBefore(handle: DatabaseHandle, table: TableMeta): number | null {
  if (!isAppendMode(table)) return null;
  const row = handle.conn.prepare(`SELECT max(rowid) AS m FROM ${qualifiedName(table)}`).get() as
    | { m: number | null }
    | undefined;
  return row?.m ?? 0;
}

/** The smallest and largest of a write's `n` times, null when none. */
export function timeRangeOf(
  times: ArrayLike<number | bigint>,
  n: number,
): [number | bigint, number | bigint] | null {
  if (n === 0) return null;
  let lo = times[0], hi = lo;
  for (let i = 1; i < n; i++) {
    const v = times[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** Records a write (inside its transaction): the rowids after `before`, or the time range `[lo, hi]`. */
export function journalWrite(
  handle: DatabaseHandle,
  table: TableMeta,
  before: number | null,
  timeRange: [number | bigint, number | bigint],
  rows: number,
): void {
  ensure(handle, table.schema);
  let kind: "rowid" | "time" = "time", lo = timeRange[0], hi = timeRange[1];
  if (before !== null) {
    const last = handle.conn.prepare(`SELECT max(rowid) AS m FROM ${qualifiedName(table)}`).get() as {
      m: number | null;
    };
    if (last.m === null || last.m <= before) return;
    kind = "rowid";
    lo = before + 1;
    hi = last.m;
  }
  handle.conn.prepare(
    `INSERT INTO ${journal(table.schema)} (tbl, kind, lo, hi, rows, at) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(table.name, kind, lo, hi, rows, Date.now());
}

/** Up to `limit` journal entries of a schema after `afterSeq`. */
export function journalAfter(
  handle: DatabaseHandle,
  schema: string,
  afterSeq: number,
  limit: number,
): JournalEntry[] {
  ensure(handle, schema);
  const stmt = handle.conn.prepare(
    `SELECT seq, tbl AS "table", kind, lo, hi, rows, at FROM ${
      journal(schema)
    } WHERE seq > ? ORDER BY seq LIMIT ?`,
  );
  stmt.setReadBigInts(true);
  return (stmt.all(afterSeq, limit) as Array<Record<string, bigint | string>>).map((r) => ({
    seq: Number(r.seq),
    table: r.table as string,
    kind: r.kind as "rowid" | "time",
    lo: narrow(r.lo as bigint),
    hi: narrow(r.hi as bigint),
    rows: Number(r.rows),
    at: Number(r.at),
  }));
}

function narrow(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** Rows of a schema's journal after `afterSeq` (estimated past COUNT_CAP entries) and the time (ms) of the oldest entry (null when none). */
export function journalBacklog(
  handle: DatabaseHandle,
  schema: string,
  afterSeq: number,
): { rows: number; oldestAt: number | null } {
  ensure(handle, schema);
  const r = handle.conn.prepare(
    `SELECT count(*) AS e, coalesce(sum(rows), 0) AS n, min(at) AS a FROM ` +
      `(SELECT rows, at FROM ${journal(schema)} WHERE seq > ? ORDER BY seq LIMIT ?)`,
  ).get(afterSeq, COUNT_CAP) as { e: number; n: number; a: number | null };
  if (r.e < COUNT_CAP) return { rows: r.n, oldestAt: r.a };
  // entries are numbered without gaps (AUTOINCREMENT, trimmed only below every cursor): extrapolate
  const top = handle.conn.prepare(`SELECT max(seq) AS m FROM ${journal(schema)}`).get() as { m: number };
  return { rows: Math.round(r.n * (top.m - afterSeq) / COUNT_CAP), oldestAt: r.a };
}

/** Entries summed exactly; past this the backlog is extrapolated. */
const COUNT_CAP = 100_000;

/** The seq of the last entry that must be skipped so that at most `keepRows` rows and nothing before `beforeAt` remain. */
export function journalSkipTo(
  handle: DatabaseHandle,
  schema: string,
  afterSeq: number,
  beforeAt: number,
  keepRows: number,
): { seq: number; skipped: number } {
  ensure(handle, schema);
  const entries = handle.conn.prepare(
    `SELECT seq, rows, at FROM ${journal(schema)} WHERE seq > ? ORDER BY seq DESC`,
  ).all(afterSeq) as Array<{ seq: number; rows: number; at: number }>;
  let kept = 0, cut = -1;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.at < beforeAt || kept + e.rows > keepRows) {
      cut = i;
      break;
    }
    kept += e.rows;
  }
  if (cut < 0) return { seq: afterSeq, skipped: 0 };
  const skipped = entries.slice(cut).reduce((n, e) => n + e.rows, 0);
  return { seq: entries[cut].seq, skipped };
}

/** Deletes the entries every destination has passed. */
export function trimJournal(handle: DatabaseHandle, schema: string, throughSeq: number): void {
  ensure(handle, schema);
  handle.conn.prepare(`DELETE FROM ${journal(schema)} WHERE seq <= ?`).run(throughSeq);
}

/** Moves a renamed table's journal entries to its new name (inside the rename's transaction). */
export function renameJournalTable(handle: DatabaseHandle, schema: string, from: string, to: string): void {
  const exists = handle.conn.prepare(
    `SELECT 1 AS x FROM ${quoteIdent(schema)}.sqlite_master WHERE type = 'table' AND name = ?`,
  ).get(JOURNAL);
  if (exists) handle.conn.prepare(`UPDATE ${journal(schema)} SET tbl = ? WHERE tbl = ?`).run(to, from);
}
