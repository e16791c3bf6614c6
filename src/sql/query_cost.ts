/**
 * What each query statement cost when it last ran in a query worker, keyed by its SQL with literals
 * blanked out (a dashboard panel sends the same statement with a new time range on every refresh).
 * A statement that last ran in under {@link QUICK_MS} may take the query pool's reserved thread, so a
 * cheap panel does not queue behind a slow one. A statement never seen, or last seen slow, cancelled
 * or too long to key, waits for the other threads.
 */

/** A run under this (ms, in the worker) marks the statement quick. */
export const QUICK_MS = 50;
/** Statements remembered (least recently run forgotten first). */
const CAPACITY = 512;
/** Longer SQL is not keyed (its key alone would be this large). */
const MAX_KEY = 4096;

const lastMs = new Map<string, number>();

// string literals, then numbers not part of a name (`t2` stays, `> 1700000000` blanks)
const LITERALS = /'(?:[^']|'')*'|(?<![\w"])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi;

/** The statement's key: its SQL with string and number literals replaced by `?`; null when too long. */
export function statementKey(sql: string): string | null {
  return sql.length > MAX_KEY ? null : sql.replace(LITERALS, "?");
}

/** Whether the statement last ran under {@link QUICK_MS}. */
export function expectedQuick(key: string | null): boolean {
  const ms = key === null ? undefined : lastMs.get(key);
  return ms !== undefined && ms < QUICK_MS;
}

/** Remembers a run's time (ms); `undefined` (cancelled, timed out) forgets the statement. */
export function recordRun(key: string | null, ms: number | undefined): void {
  if (key === null) return;
  lastMs.delete(key);
  if (ms === undefined) return;
  lastMs.set(key, ms);
  if (lastMs.size > CAPACITY) lastMs.delete(lastMs.keys().next().value!);
}
