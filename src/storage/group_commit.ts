/**
 * Group commit for `skip_wal` tables: a write that touches only skip_wal tables is acknowledged
 * without committing. Its rows stay in a transaction left open on the database's connection, which
 * is committed `windowMs` later, once `maxRows` rows are pending, before any durable work on the
 * connection, and when the database closes. GreptimeDB's skip_wal has the same contract:
 * acknowledged writes can be lost on a crash until they are flushed. A graceful stop loses
 * nothing: `close()` commits, and the commit timer keeps the process alive until it fires.
 *
 * Guarantees:
 * - A durable write (any batch touching a table of the `main` schema, or changing the catalog)
 *   commits before it is acknowledged, and commits any pending skip_wal rows with it.
 * - A failing write rolls back only itself (`SAVEPOINT` / `ROLLBACK TO`), never pending rows of
 *   writes already acknowledged.
 * - The connection sees pending rows at once (executeSql, DDL); other connections (the query
 *   worker of `src/sql/async.ts`) see them once committed: within `windowMs` (≤ 50 ms), or at once
 *   if the reader calls {@link flushGroupCommit} first.
 * - `DatabaseHandle.transaction`, `setOptions` and `close` call {@link flushGroupCommit} first,
 *   because they would otherwise nest inside the open transaction (never committing a durable
 *   change, or failing on `BEGIN`).
 *
 * On by default with {@link DEFAULT_GROUP_COMMIT}; {@link setGroupCommit} changes it for the
 * process (one Storage per process).
 */
import type { DatabaseHandle } from "./database.ts";
import { Logger } from "../common/log.ts";

const log = new Logger("petrel::storage");

/** What group commit needs of a storage: its databases, and a hook run when it closes. */
export interface GroupCommitHost {
  databaseHandles(): Iterable<DatabaseHandle>;
  onClose(fn: () => void): void;
}

/** Tuning of group commit. */
export interface GroupCommitOptions {
  /** Longest time acknowledged skip_wal rows stay uncommitted (ms). */
  windowMs: number;
  /** Pending rows that trigger a commit at once. */
  maxRows: number;
}

/** The defaults: at most 20 ms of skip_wal writes are pending, and at most 20 000 rows. */
const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { windowMs: 20, maxRows: 20_000 };

/** A write's result and whether it must commit before it is acknowledged. */
export interface GroupedWrite<T> {
  value: T;
  rows: number;
  durable: boolean;
}

interface PendingGroup {
  rows: number;
  timer?: ReturnType<typeof setTimeout>;
}

let config: GroupCommitOptions | null = DEFAULT_GROUP_COMMIT;
/** Handles with an open group transaction (acknowledged, uncommitted skip_wal rows). */
const pending = new Map<DatabaseHandle, PendingGroup>();
/** Handles inside a write, whose nested `transaction` calls must not commit the write halfway. */
const writing = new Set<DatabaseHandle>();
const SAVEPOINT = "petrel_write";

/**
 * Sets group commit of skip_wal writes for the process (missing options take the defaults);
 * `null` turns it off after committing everything pending.
 */
export function setGroupCommit(opts: Partial<GroupCommitOptions> | null): void {
  if (opts === null) {
    for (const h of [...pending.keys()]) flushGroupCommit(h);
    config = null;
    return;
  }
  const windowMs = opts.windowMs ?? DEFAULT_GROUP_COMMIT.windowMs;
  const maxRows = opts.maxRows ?? DEFAULT_GROUP_COMMIT.maxRows;
  if (!(windowMs >= 0 && windowMs <= 50)) throw new RangeError("group commit window must be 0–50 ms");
  if (!(maxRows >= 1)) throw new RangeError("group commit maxRows must be at least 1");
  config = { windowMs, maxRows };
}

/**
 * Group commit for the storage's skip_wal writes, committed by a hook when it closes (closing a
 * database commits as well: the hook makes the order explicit).
 */
export function enableGroupCommit(storage: GroupCommitHost, opts: Partial<GroupCommitOptions> = {}): void {
  setGroupCommit(opts);
  storage.onClose(() => flushGroupCommits(storage));
}

/** Acknowledged skip_wal rows of the database not committed yet. */
export function pendingRows(handle: DatabaseHandle): number {
  return pending.get(handle)?.rows ?? 0;
}

/**
 * Commits the database's pending skip_wal rows, if any (no-op inside a write, or on a closed
 * connection). Call it before reading the database from another connection or starting a
 * transaction on its connection. A failing commit (e.g. a full disk) loses the pending rows and throws.
 */
export function flushGroupCommit(handle: DatabaseHandle): void {
  const group = pending.get(handle);
  if (!group || writing.has(handle)) return;
  forget(handle, group);
  const conn = handle.conn;
  if (!conn.isOpen || !conn.isTransaction) return;
  commitOrRollBack(handle);
}

/** Commits the pending skip_wal rows of every database of the storage. */
function flushGroupCommits(storage: GroupCommitHost): void {
  for (const h of storage.databaseHandles()) flushGroupCommit(h);
}

function forget(handle: DatabaseHandle, group: PendingGroup): void {
  if (group.timer !== undefined) clearTimeout(group.timer);
  pending.delete(handle);
}

function commitOrRollBack(handle: DatabaseHandle): void {
  try {
    handle.conn.exec("COMMIT");
  } catch (e) {
    if (handle.conn.isTransaction) handle.conn.exec("ROLLBACK");
    handle.loadCatalog();
    throw e;
  }
}

/**
 * Runs one write: in its own transaction when nothing is pending (committed at once if durable,
 * else left open as a new group), or in a savepoint of the open group. Inside a transaction the
 * caller opened, it just runs. Without group commit, it is `handle.transaction`.
 */
export function runGroupedWrite<T>(handle: DatabaseHandle, write: () => GroupedWrite<T>): T {
  const conn = handle.conn;
  let group = pending.get(handle);
  if (group && !conn.isTransaction) {
    // committed or rolled back behind our back (e.g. SQLite aborted it on an I/O error)
    forget(handle, group);
    group = undefined;
  }
  if (conn.isTransaction && !group) return write().value;
  if (!config) {
    flushGroupCommit(handle);
    return handle.transaction(() => write().value);
  }
  const version = handle.schemaVersion;
  conn.exec(group ? `SAVEPOINT ${SAVEPOINT}` : "BEGIN IMMEDIATE");
  writing.add(handle);
  let out: GroupedWrite<T>;
  try {
    out = write();
  } catch (e) {
    writing.delete(handle);
    if (!conn.isTransaction) {
      if (group) forget(handle, group);
    } else if (group) {
      conn.exec(`ROLLBACK TO ${SAVEPOINT}`);
      conn.exec(`RELEASE ${SAVEPOINT}`);
    } else conn.exec("ROLLBACK");
    handle.loadCatalog();
    throw e;
  }
  writing.delete(handle);
  if (group) conn.exec(`RELEASE ${SAVEPOINT}`);
  const rows = (group?.rows ?? 0) + out.rows;
  if (out.durable || handle.schemaVersion !== version || rows >= config.maxRows) {
    if (group) forget(handle, group);
    commitOrRollBack(handle);
    return out.value;
  }
  if (group) group.rows = rows;
  else {
    const fresh: PendingGroup = { rows };
    // a referenced timer: a script that ends without close() still commits its rows
    fresh.timer = setTimeout(() => flushOnTimer(handle), config.windowMs);
    pending.set(handle, fresh);
  }
  return out.value;
}

function flushOnTimer(handle: DatabaseHandle): void {
  const group = pending.get(handle);
  if (group) group.timer = undefined;
  try {
    flushGroupCommit(handle);
  } catch (e) {
    log.error("group commit failed: the pending skip_wal rows are lost", {
      db: handle.name,
      error: String(e),
    });
  }
}
