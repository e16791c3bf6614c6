/**
 * Running SQLite statements for SQL requests: result sets with GreptimeDB data types, and SQLite's
 * errors mapped to GreptimeDB codes (a user's mistake is never a 500).
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { storageFailure } from "../common/storage_errors.ts";
import { PetrelError, StatusCode, tableNotFound, tooDeeplyNested } from "../common/errors.ts";
import { dataTypeOfDecl, decodeUInt64, fromSqliteInteger, isNullTag } from "../storage/datatypes.ts";
import type { DataType, QueryOutput, ResultColumn, ResultType, Value } from "../common/rows.ts";
import { decodeTextColumns, isTextType } from "../storage/nul_text.ts";
import { takeFunctionError } from "./functions/registry.ts";
import { decimalSpec, formatScaled, isDecimalType, scaledFromSql } from "../common/decimal.ts";
import { lineColumn } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { greptimeSyntaxError } from "./sqlite_syntax.ts";

/**
 * GreptimeDB's parser error for a syntax error SQLite found where `sqlite_syntax.ts` knows it, else adds
 * the position to SQLite's (it names the token it stopped at, or none for
 * incomplete input), using the statement's own tokens.
 */
export function withPosition(e: PetrelError, tokens: Token[], sql: string): PetrelError {
  if (e.code !== StatusCode.InvalidSyntax || / at Line: \d+/.test(e.message) || tokens.length === 0) return e;
  const greptime = greptimeSyntaxError(e.message, tokens, sql);
  if (greptime) return greptime;
  const near = /near "(.+?)"/.exec(e.message)?.[1];
  const at = near === undefined ? undefined : tokens.find((t) => t.text.toLowerCase() === near.toLowerCase());
  const last = tokens[tokens.length - 1];
  const { line, column } = lineColumn(sql, at ? at.pos : last.pos + last.text.length);
  return new PetrelError(e.code, `${e.message} at Line: ${line}, Column: ${column}`);
}

/** The start of DataFusion's error for a column no relation in scope has. */
export const FIELD_NOT_FOUND = "Failed to plan SQL: Schema error: No field named ";

/** Maps an error thrown by SQLite while running user SQL to a PetrelError. */
export function mapSqliteError(e: unknown, db: string): PetrelError {
  if (e instanceof PetrelError) return e;
  const storage = storageFailure(e);
  if (storage) return storage;
  // a rewrite's recursion ran out of stack on a long chain (`1 + 1 + …`, 20 000 terms)
  const nested = tooDeeplyNested(e);
  if (nested) return nested;
  const msg = e instanceof Error ? e.message : String(e);
  let m = /no such table: (?:[^.]+\.)?(.+)$/.exec(msg);
  if (m) return tableNotFound(`greptime.${db}.${m[1]}`);
  m = /no such column: (.+)$/.exec(msg);
  // completed with the valid fields where the statement tells them (rewrite/unknown_field.ts)
  if (m) return new PetrelError(StatusCode.PlanQuery, `${FIELD_NOT_FOUND}${m[1]}`);
  m = /ambiguous column name: (.+)$/.exec(msg);
  // DataFusion's SchemaError (a name two tables of the FROM both have)
  if (m) {
    return new PetrelError(
      StatusCode.PlanQuery,
      `Failed to plan SQL: Ambiguous reference to unqualified field ${m[1]}`,
    );
  }
  m = /no such function: (.+)$/.exec(msg);
  if (m) return new PetrelError(StatusCode.PlanQuery, `Failed to plan SQL: Invalid function '${m[1]}'`);
  if (/syntax error|incomplete input|unrecognized token/.test(msg)) {
    return new PetrelError(StatusCode.InvalidSyntax, `Invalid SQL syntax: sql parser error: ${msg}`);
  }
  return new PetrelError(StatusCode.PlanQuery, `Failed to execute query: ${msg}`);
}

function inferType(rows: unknown[][], col: number): DataType | string {
  let sawInt = false, sawBlob = false;
  for (const r of rows) {
    const v = r[col];
    if (v === null || v === undefined) continue;
    if (typeof v === "number") return sawBlob ? "Binary" : "Float64";
    if (typeof v === "bigint") sawInt = true;
    else if (typeof v === "string") return "String";
    // a blob beside strings is a string holding a NUL (storage/nul_text.ts): look on
    else if (v instanceof Uint8Array) sawBlob = true;
  }
  return sawBlob ? "Binary" : sawInt ? "Int64" : "Null";
}

// SQLite's authorizer codes (stable C API values; node:sqlite's typings do not declare them)
const SQLITE_OK = 0;
const SQLITE_DENY = 1;
const SQLITE_READ = 20;
const SQLITE_SELECT = 21;
const SQLITE_FUNCTION = 31;
const SQLITE_RECURSIVE = 33;
const READ_ACTIONS = new Set<number>([SQLITE_SELECT, SQLITE_READ, SQLITE_FUNCTION, SQLITE_RECURSIVE]);

type Authorizer = (action: number, arg1: string | null) => number;

/**
 * Prepares a query under an authorizer that allows reading only: a `WITH … DELETE` or a pragma
 * function cannot slip through the query path (which read-only users may use), and Petrel's own
 * tables stay invisible.
 */
function prepareReadOnly(conn: DatabaseSync, sql: string): StatementSync {
  const withAuth = conn as unknown as { setAuthorizer(cb: Authorizer | null): void };
  withAuth.setAuthorizer((action, arg1) => {
    if (!READ_ACTIONS.has(action)) return SQLITE_DENY;
    if (action === SQLITE_READ && arg1 && /^(__petrel_catalog|sqlite_|pragma_)/i.test(arg1)) {
      return SQLITE_DENY;
    }
    return SQLITE_OK;
  });
  try {
    return conn.prepare(sql);
  } catch (e) {
    if (e instanceof Error && /not authorized|is prohibited/.test(e.message)) {
      throw new PetrelError(
        StatusCode.InvalidArguments,
        "Only queries can run here; the statement would modify data or read internals",
      );
    }
    throw e;
  } finally {
    withAuth.setAuthorizer(null);
  }
}

/**
 * A decimal column's values as GreptimeDB's JSON shows them (strings with `scale` decimals): the
 * unscaled integer (an SQLite integer, or digit text past 64 bits from the decimal functions), or
 * a REAL that reached the column through an expression.
 */
function renderDecimals(raw: unknown[][], i: number, scale: number): void {
  for (const r of raw) {
    const v = r[i];
    const scaled = scaledFromSql(v);
    if (scaled !== null && typeof v !== "number") r[i] = formatScaled(scaled, scale);
    else if (typeof v === "number") r[i] = Number.isFinite(v) ? v.toFixed(scale) : null;
    else if (v instanceof Uint8Array) r[i] = null;
  }
}

/** Types whose values pass 2^53 routinely, so rows must be read as bigints. */
const WIDE_TYPES = new Set<string>([
  "TimestampMicrosecond",
  "TimestampNanosecond",
  "UInt64",
  "IntervalMonthDayNano",
]);

function readRows(stmt: StatementSync, bigints: boolean): unknown[][] {
  stmt.setReadBigInts(bigints);
  takeFunctionError();
  const raw = stmt.all() as unknown as unknown[][];
  const failed = takeFunctionError();
  if (failed !== undefined) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Failed to execute query: ${failed instanceof Error ? failed.message : failed}`,
    );
  }
  return raw;
}

/** What running one query measured, for EXPLAIN ANALYZE (nanoseconds, from `performance.now()`). */
export interface QueryStats {
  /** Compiling the SQL into a SQLite program (SQLite plans here). */
  prepareNs: number;
  /** Stepping the program to its last row, rows copied into JS values included. */
  executeNs: number;
  /** Converting values to GreptimeDB types (bigints, booleans, UInt64). */
  convertNs: number;
  rows: number;
}

/** The GreptimeDB types of a prepared query's columns that are known before it runs. */
export function knownTypes(
  stmt: StatementSync,
  hints: Array<ResultType | undefined> = [],
  nameTypes?: Map<string, DataType>,
): Array<ResultType | undefined> {
  return stmt.columns().map((c, i) =>
    dataTypeOfDecl(c.type) ?? hints[i] ?? (c.column === null ? nameTypes?.get(c.name) : undefined)
  );
}

/**
 * Runs a query and converts its rows: integers to numbers (bigint past 2^53), booleans, UInt64.
 * Rows are read as plain numbers when every column's type is known and none is wide (much faster);
 * otherwise, or when a value turns out not to fit, as bigints, which also tell integers from reals.
 */
export function runQuery(
  conn: DatabaseSync,
  sql: string,
  hints: Array<ResultType | undefined> = [],
  nameTypes?: Map<string, DataType>,
  stats?: QueryStats,
  retried = false,
): QueryOutput {
  const t0 = performance.now();
  const stmt = prepareReadOnly(conn, sql);
  const t1 = performance.now();
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const meta = stmt.columns();
  const known = knownTypes(stmt, hints, nameTypes);
  let bigints = known.some((d) => d === undefined || WIDE_TYPES.has(d) || isDecimalType(d));
  let raw: unknown[][];
  try {
    raw = readRows(stmt, bigints);
  } catch (e) {
    if (bigints || !(e instanceof RangeError)) throw e;
    bigints = true;
    raw = readRows(stmt, true);
  }
  // A connection learns of another's schema change (ALTER TABLE) only when its statement runs:
  // the declared types read before were the old ones, so the query runs again, now knowing them.
  const after = stmt.columns();
  if (!retried && after.some((c, i) => c.type !== meta[i]?.type)) {
    return runQuery(conn, sql, hints, nameTypes, stats, true);
  }
  const t2 = performance.now();
  const columns: ResultColumn[] = meta.map((c, i) => ({
    name: c.name,
    data_type: known[i] ?? inferType(raw, i),
  }));
  for (let i = 0; i < columns.length; i++) {
    const type = columns[i].data_type;
    const dec = decimalSpec(type);
    if (dec) {
      renderDecimals(raw, i, dec.scale);
      continue;
    }
    const isBool = type === "Boolean";
    const isU64 = type === "UInt64";
    const keepBlob = type === "Binary";
    const isFloat = type === "Float64" || type === "Float32";
    // numbers need no conversion; null tags reach here only as NULL (the table reference maps them)
    if (!bigints && !isBool) continue;
    for (const r of raw) {
      const v = r[i];
      if (typeof v === "bigint") {
        r[i] = isBool
          ? v !== 0n
          : isU64
          ? fromSqliteInteger(decodeUInt64(v))
          : isFloat
          ? Number(v)
          : fromSqliteInteger(v);
      } else if (isU64 && typeof v === "string" && /^\d+$/.test(v)) {
        // a cast past 2^63 hands its UInt64 on as digits (functions/casts.ts): a JSON number still
        r[i] = fromSqliteInteger(BigInt(v));
      } else if (v instanceof Uint8Array && !keepBlob && isNullTag(v as Value)) r[i] = null;
      else if (isBool && typeof v === "number") r[i] = v !== 0;
    }
  }
  // strings holding a NUL are stored as BLOBs (storage/nul_text.ts)
  decodeTextColumns(raw, columns.flatMap((c, i) => isTextType(c.data_type) ? [i] : []));
  if (stats) {
    const ns = (ms: number) => Math.round(ms * 1e6);
    Object.assign(stats, {
      prepareNs: ns(t1 - t0),
      executeNs: ns(t2 - t1),
      convertNs: ns(performance.now() - t2),
      rows: raw.length,
    });
  }
  return { kind: "records", columns, rows: raw as Value[][] };
}
