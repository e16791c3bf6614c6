/**
 * A range scan of a plain (mito) table as readers above storage need it: chosen columns over a time
 * range with tag equalities, in a chosen order, expired rows hidden and the null-tag stand-in read
 * back as NULL. Values are bound, never spliced into the SQL.
 */
import type { Value } from "../common/rows.ts";
import { isNullTag } from "./datatypes.ts";
import { decodeTextColumns, isTextType, storedText } from "./nul_text.ts";
import type { StatementSync } from "node:sqlite";
import type { DatabaseHandle } from "./database.ts";
import { qualifiedName, quoteIdent, type TableMeta, ttlCutoff } from "./table.ts";

/** What to read from a table. */
export interface TableScan {
  columns: string[];
  /** Inclusive bounds on the time index, in the table's unit. */
  timeRange: [bigint, bigint];
  /** Tag column → the value it must equal. */
  equal?: Record<string, string>;
  /** Columns that must not be NULL. */
  notNull?: string[];
  orderBy?: string[];
  /** Order by `orderBy` descending. */
  descending?: boolean;
  /** Each distinct row once (`SELECT DISTINCT`). */
  distinct?: boolean;
  /** Read integers as bigints (for time indexes in µs or ns). */
  bigInts?: boolean;
}

const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n;

interface PreparedScan {
  stmt: StatementSync;
  params: (string | bigint | Uint8Array)[];
  /** Turns a stored row into what readers see (null tags, NUL-holding strings), in place. */
  mend(rows: Value[][]): void;
  /** The SQL text, the statement's key in the cache. */
  sql: string;
}

/**
 * The SELECT a scan runs and its parameters; null when the range is empty (after the ttl cutoff).
 * Exported so tests can hold the query plan of what readers run.
 */
export function scanStatement(
  table: TableMeta,
  scan: TableScan,
): { sql: string; params: (string | bigint | Uint8Array)[] } | null {
  let [lo, hi] = scan.timeRange;
  const cutoff = ttlCutoff(table);
  if (cutoff !== undefined && cutoff > lo) lo = cutoff;
  if (hi < lo) return null;
  const ts = quoteIdent(table.timeIndex);
  const where: string[] = [], params: (string | bigint | Uint8Array)[] = [];
  // An open side is left out of an unordered scan: over a whole table, SQLite's table scan is ~3×
  // faster than walking the time index and looking each row up. An ordered scan keeps it, so the
  // index gives the order and a reader can stop early.
  const ordered = (scan.orderBy?.length ?? 0) > 0;
  if (ordered || lo > I64_MIN) where.push(`${ts} >= ?`), params.push(lo);
  if (ordered || hi < I64_MAX) where.push(`${ts} <= ?`), params.push(hi);
  for (const [name, value] of Object.entries(scan.equal ?? {})) {
    where.push(`${quoteIdent(name)} = ?`);
    params.push(storedText(value));
  }
  for (const name of scan.notNull ?? []) where.push(`${quoteIdent(name)} IS NOT NULL`);
  const dir = scan.descending ? " DESC" : "";
  const order = scan.orderBy?.length
    ? ` ORDER BY ${scan.orderBy.map((c) => quoteIdent(c) + dir).join(", ")}`
    : "";
  const sql = `SELECT${scan.distinct ? " DISTINCT" : ""} ${scan.columns.map(quoteIdent).join(", ")} FROM ${
    qualifiedName(table)
  }${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""}${order}`;
  return { sql, params };
}

/**
 * The scan's statement from `handle.statements` (dropped on a schema change of its table; at most
 * `KIND_LIMITS.scan` kept), prepared once. A statement dropped unfinalized keeps ~10 KB of SQLite
 * memory that V8 does not see until its next full GC: preparing one per scan (10 000 a minute under
 * `deno task bench load`) let ~150 MB of them pile up on the main thread.
 */
function cachedStatement(handle: DatabaseHandle, table: string, sql: string): StatementSync {
  return handle.statements.obtain(table, scanKey(sql), "scan", () => prepareArrays(handle, sql));
}

const scanKey = (sql: string) => `s\u0001${sql}`;

function prepareArrays(handle: DatabaseHandle, sql: string): StatementSync {
  const stmt = handle.conn.prepare(sql);
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  return stmt;
}

/** The scan's statement and how its rows are mended, with `statementOf` giving the statement of its SQL. */
function prepareScan(
  table: TableMeta,
  scan: TableScan,
  statementOf: (sql: string) => StatementSync,
): PreparedScan | null {
  const statement = scanStatement(table, scan);
  if (statement === null) return null;
  const { sql, params } = statement;
  const stmt = statementOf(sql);
  stmt.setReadBigInts(scan.bigInts === true);
  const metas = scan.columns.map((c) => table.columns.find((m) => m.name === c));
  const tagAt = metas.flatMap((m, i) => m?.nullTags ? [i] : []);
  const textAt = metas.flatMap((m, i) => m && isTextType(m.type) ? [i] : []);
  return {
    stmt,
    params,
    sql,
    mend: (rows) => {
      if (tagAt.length > 0) {
        for (const row of rows) for (const i of tagAt) if (isNullTag(row[i])) row[i] = null;
      }
      // strings holding a NUL are stored as BLOBs (nul_text.ts)
      decodeTextColumns(rows, textAt);
    },
  };
}

/** The rows of a scan, each holding `scan.columns` in order. */
export function scanTable(handle: DatabaseHandle, table: TableMeta, scan: TableScan): Value[][] {
  const p = prepareScan(table, scan, (sql) => cachedStatement(handle, table.name, sql));
  if (p === null) return [];
  let rows: Value[][];
  try {
    rows = p.stmt.all(...p.params) as unknown as Value[][];
  } catch (e) {
    // node:sqlite has no reset: a statement that failed mid-read may hold its read transaction
    // (and the WAL behind it) until reset, so it leaves the cache and is finalized when collected
    handle.statements.delete(table.name, scanKey(p.sql));
    throw e;
  }
  p.mend(rows);
  return rows;
}

/**
 * The rows of a scan one at a time, for readers that stop early (the latest N of something): only
 * the rows taken are read. Integers come as bigints: without them node:sqlite's iterator stops,
 * with no error, at the first integer past 2^53 (a nanosecond time), where `all()` throws. The caller must finish or drop the iteration before the connection
 * writes again (no await in between). It borrows the cached statement of its shape (Jaeger's trace
 * search iterates once a request: ~1 000 prepares a minute under `deno task bench load`) and gives
 * it back once read to the end or returned early (which resets it), not after an error.
 */
export function* iterateTable(handle: DatabaseHandle, table: TableMeta, scan: TableScan): Generator<Value[]> {
  let lent: { stmt: StatementSync; giveBack(): void } | undefined;
  const p = prepareScan(table, { ...scan, bigInts: true }, (sql) => {
    lent = handle.statements.borrow(table.name, scanKey(sql), "scan", () => prepareArrays(handle, sql));
    return lent.stmt;
  });
  if (p === null) return;
  // true while SQLite steps or rows are mended: a statement that failed there is not given back
  let failed = true;
  try {
    for (const row of p.stmt.iterate(...p.params) as unknown as Iterable<Value[]>) {
      const one = [row];
      p.mend(one);
      failed = false;
      yield one[0];
      failed = true;
    }
    failed = false;
  } finally {
    if (!failed) lent?.giveBack();
  }
}
