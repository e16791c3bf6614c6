/**
 * The durable progress of downsampling rules: per rule, `upto`, the end of the windows already
 * written to the target. It lives in the target database's file and moves in the same transaction
 * as the target rows, so a crash or a restart neither skips a window nor writes one twice.
 */
import type { DatabaseHandle } from "../storage/database.ts";

const TABLE = `"main"."__petrel_downsample"`;

/** The watermark of a rule (ms), or null when it has written nothing yet. */
export function readWatermark(handle: DatabaseHandle, rule: string): number | null {
  ensure(handle);
  const row = handle.conn.prepare(`SELECT upto FROM ${TABLE} WHERE rule = ?`).get(rule) as
    | { upto: number }
    | undefined;
  return row === undefined ? null : Number(row.upto);
}

/** Moves a rule's watermark (inside the caller's transaction). */
export function writeWatermark(handle: DatabaseHandle, rule: string, upto: number): void {
  ensure(handle);
  handle.conn.prepare(`INSERT OR REPLACE INTO ${TABLE} (rule, upto) VALUES (?, ?)`).run(rule, upto);
}

/** Forgets a rule's watermark (a dropped flow). */
export function deleteWatermark(handle: DatabaseHandle, rule: string): void {
  ensure(handle);
  handle.conn.prepare(`DELETE FROM ${TABLE} WHERE rule = ?`).run(rule);
}

function ensure(handle: DatabaseHandle): void {
  handle.conn.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (rule TEXT PRIMARY KEY, upto INTEGER NOT NULL)`);
}
