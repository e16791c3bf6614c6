/**
 * The writer's INSERT statements and how a batch's converted values are bound to them. Binding is
 * about as costly as inserting (~100 ns a value through `node:sqlite`), and many columns hold one
 * value for a whole statement's rows (OTLP resource and scope columns, Loki labels, a request's
 * time): such columns are bound once, as parameters of `INSERT … SELECT ?, column1, … FROM
 * (VALUES (?), …)`, so only the varying columns are bound per row. Measured on the OTLP logs bench
 * shape (14 columns, 11 constant): insert+commit CPU 0.48 s → 0.26 s for 200k rows; with one
 * constant column the SELECT form is no faster than the plain VALUES one, so it needs two.
 */
import type { StatementSync } from "node:sqlite";
import type { DatabaseHandle } from "./database.ts";
import type { TableMeta } from "./table.ts";
import { qualifiedName, quoteIdent } from "./table.ts";
import type { SqlColumn, SqlValue } from "./writer_values.ts";

/** How rows are inserted: plain (append), replacing the row with the same key, or merging non-nulls. */
export type InsertVerb = "append" | "replace" | "merge";

/** Constant columns a statement needs before it binds them once instead of per row. */
const MIN_CONSTANT_COLUMNS = 2;

/** The statement text; `constant[j]` columns come once from parameters ahead of the row tuples. */
export function insertSql(
  table: TableMeta,
  names: string[],
  rowCount: number,
  verb: InsertVerb,
  constant?: readonly boolean[],
): string {
  const cols = names.map(quoteIdent).join(", ");
  let source: string;
  if (constant === undefined) {
    const tuple = `(${names.map(() => "?").join(", ")})`;
    source = `VALUES ${new Array(rowCount).fill(tuple).join(", ")}`;
  } else {
    // parameters number in text order: the constants' (in the select list) come before the rows'
    let varying = 0;
    const select = names.map((_, j) => (constant[j] ? "?" : `column${++varying}`)).join(", ");
    const tuple = `(${new Array(varying).fill("?").join(", ")})`;
    // `WHERE true` keeps a following ON CONFLICT from parsing as a join constraint
    source = `SELECT ${select} FROM (VALUES ${new Array(rowCount).fill(tuple).join(", ")}) WHERE true`;
  }
  const into = `INTO ${qualifiedName(table)} (${cols}) ${source}`;
  if (verb === "append") return `INSERT ${into}`;
  if (verb === "replace") return `INSERT OR REPLACE ${into}`;
  const key = [...table.primaryKey, table.timeIndex];
  const fields = names.filter((n) => !key.includes(n));
  const action = fields.length === 0
    ? "NOTHING"
    : `UPDATE SET ${
      fields.map((f) => `${quoteIdent(f)} = coalesce(excluded.${quoteIdent(f)}, ${quoteIdent(f)})`).join(", ")
    }`;
  return `INSERT ${into} ON CONFLICT (${key.map(quoteIdent).join(", ")}) DO ${action}`;
}

function statementFor(
  handle: DatabaseHandle,
  table: TableMeta,
  names: string[],
  rowCount: number,
  verb: InsertVerb,
  constant?: readonly boolean[],
): StatementSync {
  const shape = constant === undefined ? "" : constant.map((c) => (c ? "1" : "0")).join("");
  const key = `w\u0001${table.name}\u0001${names.join("\u0001")}\u0001${rowCount}\u0001${verb}\u0001${shape}`;
  return handle.statements.obtain(
    table.name,
    key,
    "insert",
    () => handle.conn.prepare(insertSql(table, names, rowCount, verb, constant)),
  );
}

/** Same stored value: `===`, except that 0 and -0 differ (a REAL keeps its sign). */
function same(a: SqlValue, b: SqlValue): boolean {
  return a === b && (a !== 0 || Object.is(a, b));
}

/** Rows a statement takes: `perStatement`, else a power of two (so few statement sizes get prepared). */
function sizeFor(rows: number, perStatement: number): number {
  if (rows >= perStatement) return perStatement;
  let size = 1;
  while (size * 2 <= rows) size *= 2;
  return size;
}

/** Statements cut at a group's end take a multiple of this many rows, or all of them below it. */
const GROUP_STEP = 16;

/**
 * Rows a statement cut at a group's end takes. Each statement run has a fixed cost (SQLite opens
 * its cursors, node:sqlite binds the constants): powers of two took a Loki stream of 500 lines in
 * 6 statements (256 + 128 + 64 + 32 + 16 + 4), this takes 2 (496 + 4); with the rest of a group
 * cut too (`MIN_GROUP_ROWS`), the Loki push bench's writes went from ~1.9 to ~1.65 µs of
 * main-thread CPU a line (in process, decode included). Exact sizes would take 1, but preparing a
 * 500-row statement costs ~350 µs and varied stream lengths would prepare one per stream; these
 * sizes (perStatement / 16 + 15 of them) are only of the constant-column statements; a database
 * keeps its INSERTs up to `KIND_LIMITS.insert` of their estimated memory (statement_cache.ts).
 */
function groupSizeFor(rows: number, perStatement: number): number {
  if (rows >= perStatement) return perStatement;
  return rows >= GROUP_STEP ? rows - (rows % GROUP_STEP) : rows;
}

/**
 * A statement is cut short at a group's end only when it keeps at least this many rows, or when
 * it is the rest of a group at least this long that the statement before cut (else the next
 * statement would start mid-group, and so would every one after it: none could bind a group's
 * columns once).
 */
const MIN_GROUP_ROWS = 8;

/** Whether column `col`'s run of `run` rows from `from` ends a group of at least MIN_GROUP_ROWS. */
function endsLongGroup(col: SqlColumn, from: number, run: number): boolean {
  const before = MIN_GROUP_ROWS - run;
  if (from < before) return false;
  for (let k = 1; k <= before; k++) if (!same(col[from - k], col[from])) return false;
  return true;
}

/**
 * What one statement run costs per row, in bound values: its varying values, and its fixed cost
 * shared by its rows. A statement cut short to bind one more column once must make up for running
 * more statements: OTLP spans grouped by trace (10 a trace) went in 10-row statements to bind
 * `trace_id` once, at ~6× the SQLite time of 512-row ones.
 */
function bindCost(size: number, width: number, constants: number): number {
  return STATEMENT_COST / size + (width - constants);
}

/** A statement run's fixed cost in bound values (~100 ns each): cursors opened, constants bound. */
const STATEMENT_COST = 64;

/** Rows before `from` (at most `limit`) holding row `from`'s value in `col`. */
function runBefore(col: SqlColumn, from: number, limit: number): number {
  let k = 0;
  while (k < limit && from - k - 1 >= 0 && same(col[from - k - 1], col[from])) k++;
  return k;
}

/**
 * The next statement's rows from row `from`, and which of its columns hold one value. It ends
 * early where a group of rows (a Loki stream, an OTLP scope) ends, when that lets more columns be
 * bound once.
 */
export function nextChunk(
  columns: readonly SqlColumn[],
  from: number,
  n: number,
  perStatement: number,
): { size: number; constant: boolean[] | undefined } {
  const width = columns.length;
  const full = sizeFor(n - from, perStatement);
  if (full < 2 || width <= MIN_CONSTANT_COLUMNS) return { size: full, constant: undefined };
  // runs[j]: rows from `from` on that hold row `from`'s value in column j (at most `full`)
  const runs: number[] = new Array(width);
  const end = from + full;
  for (let j = 0; j < width; j++) {
    const col = columns[j], first = col[from];
    let r = from + 1;
    while (r < end && same(col[r], first)) r++;
    runs[j] = r - from;
  }
  const count = (size: number) => runs.reduce((c, r) => (r >= size ? c + 1 : c), 0);
  let size = full, found = count(full), best = bindCost(full, width, found);
  for (let j = 0; j < width; j++) {
    const r = runs[j];
    if (r >= full || (r < MIN_GROUP_ROWS && !endsLongGroup(columns[j], from, r))) continue;
    const s = groupSizeFor(r, perStatement), c = count(s);
    if (c < MIN_CONSTANT_COLUMNS) continue;
    // the rest of a group cut by the statement before is priced at the group's length: cutting it
    // lines the following statements up with the groups after it
    const cost = bindCost(Math.min(perStatement, r + runBefore(columns[j], from, perStatement)), width, c);
    if (cost < best || (cost === best && s > size)) [size, found, best] = [s, c, cost];
  }
  // too few constant columns: the plain form, at full size (not cut short for nothing)
  if (found < MIN_CONSTANT_COLUMNS) return { size: full, constant: undefined };
  const constant = runs.map((r) => r >= size);
  // a VALUES row needs one column: with every column constant, the first is bound per row
  if (found === width) constant[0] = false;
  return { size, constant };
}

/**
 * Inserts all `n` rows of `columns` (one converted column per name), with statements of
 * `perStatement` rows, or fewer at a group's end and for the rest.
 */
export function insertAll(
  handle: DatabaseHandle,
  table: TableMeta,
  names: string[],
  verb: InsertVerb,
  columns: readonly SqlColumn[],
  n: number,
  perStatement: number,
): void {
  for (let from = 0; from < n;) {
    const { size, constant } = nextChunk(columns, from, n, perStatement);
    const stmt = statementFor(handle, table, names, size, verb, constant);
    const end = from + size;
    const bound = constant === undefined ? columns : columns.filter((_, j) => !constant[j]);
    const args: SqlValue[] = constant === undefined
      ? []
      : columns.filter((_, j) => constant[j]).map((c) => c[from]);
    // row by row, each row's values in column order (how the statement's parameters are numbered)
    for (let r = from; r < end; r++) for (let j = 0; j < bound.length; j++) args.push(bound[j][r]);
    from = end;
    stmt.run(...args);
  }
}
