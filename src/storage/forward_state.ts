/**
 * What forwarding keeps in each database's own file (so a cursor commits with the data it points
 * into, and moves with the file): one cursor per (destination, stream), and the dead letters, the
 * batches an upstream refused with a 4xx, with its reason (listed by `GET /v1/forward/dead_letters`).
 */
import type { DatabaseHandle } from "./database.ts";
import { SEQ_START, type SeqCursor } from "./forward_seq.ts";
import { quoteIdent } from "./table.ts";

const CURSORS = quoteIdent("__petrel_forward_cursors");
const DEAD = quoteIdent("__petrel_forward_dead_letters");

/** A refused batch. */
export interface DeadLetter {
  destination: string;
  stream: string;
  status: number;
  reason: string;
  rows: number;
  firstSeq: number;
  lastSeq: number;
}

const ready = new WeakSet<DatabaseHandle>();

function ensure(handle: DatabaseHandle): void {
  if (ready.has(handle)) return;
  handle.transaction(() => {
    handle.conn.exec(
      `CREATE TABLE IF NOT EXISTS ${CURSORS} (destination TEXT NOT NULL, stream TEXT NOT NULL, ` +
        `seq INTEGER NOT NULL, ts INTEGER NOT NULL, series_id INTEGER NOT NULL, key TEXT, ` +
        `PRIMARY KEY (destination, stream)) WITHOUT ROWID`,
    );
    // files written before journal cursors carried a key (such a cursor restarts its entry: keyed
    // entries are idempotent re-sends)
    const cols = handle.conn.prepare(`SELECT name FROM pragma_table_info(?, 'main')`).all(
      "__petrel_forward_cursors",
    ) as Array<{ name: string }>;
    if (!cols.some((c) => c.name === "key")) handle.conn.exec(`ALTER TABLE ${CURSORS} ADD COLUMN key TEXT`);
    handle.conn.exec(
      `CREATE TABLE IF NOT EXISTS ${DEAD} (id INTEGER PRIMARY KEY, at TIMESTAMP NOT NULL, ` +
        `destination TEXT NOT NULL, stream TEXT NOT NULL, status INTEGER NOT NULL, reason TEXT NOT NULL, ` +
        `rows INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL)`,
    );
  });
  ready.add(handle);
}

/** The cursor of a destination over a stream (the start when it has none yet). */
export function loadCursor(handle: DatabaseHandle, destination: string, stream: string): SeqCursor {
  ensure(handle);
  const row = handle.conn.prepare(
    `SELECT seq, ts, series_id AS seriesId, key FROM ${CURSORS} WHERE destination = ? AND stream = ?`,
  ).get(destination, stream) as SeqCursor | undefined;
  return row === undefined ? SEQ_START : { seq: row.seq, ts: row.ts, seriesId: row.seriesId, key: row.key };
}

/** Durably moves a cursor, with the dead letters that justify skipping rows (one transaction). */
export function saveCursor(
  handle: DatabaseHandle,
  destination: string,
  stream: string,
  cursor: SeqCursor,
  dead: DeadLetter[] = [],
): void {
  ensure(handle);
  handle.transaction(() => {
    handle.conn.prepare(
      `INSERT OR REPLACE INTO ${CURSORS} (destination, stream, seq, ts, series_id, key) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(destination, stream, cursor.seq, cursor.ts, cursor.seriesId, cursor.key ?? null);
    const ins = handle.conn.prepare(
      `INSERT INTO ${DEAD} (at, destination, stream, status, reason, rows, first_seq, last_seq) ` +
        `VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const d of dead) {
      ins.run(Date.now(), d.destination, d.stream, d.status, d.reason, d.rows, d.firstSeq, d.lastSeq);
    }
  });
}

/** The most recent dead letters of a destination, newest first. */
export function recentDeadLetters(
  handle: DatabaseHandle,
  destination: string,
  limit: number,
): Array<DeadLetter & { at: number }> {
  ensure(handle);
  return handle.conn.prepare(
    `SELECT at, destination, stream, status, reason, rows, first_seq AS firstSeq, last_seq AS lastSeq ` +
      `FROM ${DEAD} WHERE destination = ? ORDER BY id DESC LIMIT ?`,
  ).all(destination, limit) as unknown as Array<DeadLetter & { at: number }>;
}
