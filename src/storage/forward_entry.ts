/**
 * Reading one write-journal entry's rows (`forward_journal.ts`) a page at a time, each page a seek
 * that continues strictly after the last row read, so an entry of n rows costs O(n) whatever the
 * page size (an OFFSET re-walked every row before the page: O(n²) for one large keyed write).
 * - a rowid entry pages by rowid: `rowid > last`;
 * - a time entry of a keyed (WITHOUT ROWID) table pages by the table's whole primary key, in its
 *   clustering order (`keyColumns`: time first since layout 2, tags first before). The key is
 *   unique and NOT NULL (a null tag is stored as X''), so the order is total: rows sharing a time
 *   (and a journal seq) differ by their tags, and no row is read twice or passed over, even when
 *   other writes or deletes change the range between two pages (an OFFSET shifted then).
 * The position of a time entry is the last key read, encoded as text for the durable cursor.
 */
import type { Value } from "../common/rows.ts";
import type { DatabaseHandle } from "./database.ts";
import { isNullTag } from "./datatypes.ts";
import { decodeTextColumns, isTextType } from "./nul_text.ts";
import type { JournalEntry } from "./forward_journal.ts";
import { keyColumns, qualifiedName, quoteIdent, type TableMeta } from "./table.ts";

/** Where the reading of an entry stands: the last rowid read, or the last key read (null: none yet). */
export interface EntryPosition {
  /** Rowid entries: the last rowid read (0: none yet). */
  pos: number;
  /** Time entries: the last primary key read, encoded ({@link encodeKey}); null when none was read. */
  key: string | null;
}

/** The start of an entry. */
export const ENTRY_START: EntryPosition = { pos: 0, key: null };

type KeyValue = string | number | bigint | Uint8Array | null;

/** A key as JSON text, keeping SQLite's storage classes (integers stay exact, blobs stay blobs). */
export function encodeKey(values: readonly KeyValue[]): string {
  return JSON.stringify(values.map((v) => {
    if (typeof v === "bigint") return { i: v.toString() };
    if (v instanceof Uint8Array) return { x: Array.from(v, (b) => b.toString(16).padStart(2, "0")).join("") };
    if (typeof v === "number" && !Number.isFinite(v)) return { f: String(v) };
    return v;
  }));
}

/** Inverse of {@link encodeKey}. */
export function decodeKey(text: string): KeyValue[] {
  return (JSON.parse(text) as unknown[]).map((v) => {
    if (v === null || typeof v !== "object") return v as KeyValue;
    const o = v as { i?: string; x?: string; f?: string };
    if (o.i !== undefined) return BigInt(o.i);
    if (o.f !== undefined) return Number(o.f);
    const hex = o.x ?? "";
    return Uint8Array.from({ length: hex.length / 2 }, (_, k) => parseInt(hex.slice(2 * k, 2 * k + 2), 16));
  });
}

/**
 * The page query of a keyed table's time entry: `(?, ?)` the range, then (after the first page) the
 * last key read, then the limit. The key's first column seeks the primary key (the time since layout
 * 2, so the range bound is implied once a key was read); later columns are compared as a row value.
 */
export function keyedPageSql(table: TableMeta, after: boolean): string {
  const key = keyColumns(table).map(quoteIdent);
  const cols = table.columns.map((c) => quoteIdent(c.name)).join(", ");
  const ts = quoteIdent(table.timeIndex);
  const range = after && key[0] === ts ? `${ts} <= ?` : `${ts} >= ? AND ${ts} <= ?`;
  const seek = after ? ` AND (${key.join(", ")}) > (${key.map(() => "?").join(", ")})` : "";
  return `SELECT ${key.join(", ")}, ${cols} FROM ${qualifiedName(table)} WHERE ${range}${seek} ` +
    `ORDER BY ${key.join(", ")} LIMIT ?`;
}

/** Up to `limit` rows of an entry after `at`, with the position after them. Null tags read back as null. */
export function readEntryRows(
  handle: DatabaseHandle,
  table: TableMeta,
  entry: JournalEntry,
  at: EntryPosition,
  limit: number,
): { rows: Value[][]; at: EntryPosition } {
  let stmt, args: Array<Value | Uint8Array>, skip: number;
  if (entry.kind === "rowid") {
    const cols = table.columns.map((c) => quoteIdent(c.name)).join(", ");
    stmt = handle.conn.prepare(
      `SELECT rowid, ${cols} FROM ${
        qualifiedName(table)
      } WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`,
    );
    args = [Math.max(at.pos, Number(entry.lo) - 1), entry.hi, limit];
    skip = 1;
  } else {
    const key = at.key === null ? null : decodeKey(at.key);
    const timeFirst = keyColumns(table)[0] === table.timeIndex;
    stmt = handle.conn.prepare(keyedPageSql(table, key !== null));
    args = key === null
      ? [entry.lo, entry.hi, limit]
      : [...(timeFirst ? [entry.hi] : [entry.lo, entry.hi]), ...key, limit];
    skip = keyColumns(table).length;
  }
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  stmt.setReadBigInts(true);
  const raw = stmt.all(
    ...(args as Array<string | number | bigint | Uint8Array | null>),
  ) as unknown as Value[][];
  const rows = raw.map((r) => r.slice(skip).map((v) => (isNullTag(v) ? null : v)));
  // strings holding a NUL are stored as BLOBs (nul_text.ts); the key keeps them as stored, to seek by
  decodeTextColumns(rows, table.columns.flatMap((c, i) => isTextType(c.type) ? [i] : []));
  if (raw.length === 0) return { rows, at };
  const last = raw[raw.length - 1];
  if (entry.kind === "rowid") return { rows, at: { pos: Number(last[0]), key: null } };
  return { rows, at: { pos: at.pos + raw.length, key: encodeKey(last.slice(0, skip) as KeyValue[]) } };
}
