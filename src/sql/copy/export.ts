/**
 * COPY … TO: a table (optionally within START_TIME ≤ ts < END_TIME), a query's result or every
 * table of a database, written to server-local files. A table is read in pages of
 * {@link PAGE_ROWS} rows, all on this thread with no await between them, so the pages see one
 * state of the table and no page is held longer than it takes to write it.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { QueryOutput, ResultColumn } from "../../common/rows.ts";
import type { Storage } from "../../storage/mod.ts";
import { isPhysicalTable } from "../../storage/mod.ts";
import type { TableMeta } from "../../storage/table.ts";
import { quoteIdent } from "../../storage/table.ts";
import { unitOf } from "../../common/time_unit.ts";
import { registerSqlFunctions } from "../functions/registry.ts";
import { type Token, tokenize } from "../lexer.ts";
import { mapSqliteError, runQuery } from "../results.ts";
import { rewriteQuery } from "../rewrite.ts";
import type { Session } from "../ddl.ts";
import { parseTimestampIn } from "../time.ts";
import { type CopyFormat, type CopyOptions, EXTENSIONS } from "./parse.ts";
import { copyFilePath, ensureDirectory, fileInDirectory } from "./paths.ts";
import { createPendingFile } from "./pending_file.ts";
import { type RowSink, sinkFor } from "./sinks.ts";

/** Rows read and written at a time. */
export const PAGE_ROWS = 10_000;

function timeBound(text: string, name: string, table: TableMeta, session: Session): bigint {
  const col = table.columns.find((c) => c.name === table.timeIndex)!;
  const v = parseTimestampIn(text, unitOf(col.type), session.timezone);
  if (v === undefined) {
    throw invalidArguments(`Invalid ${name} '${text}': expected a timestamp like 2023-01-01T00:00:00Z`);
  }
  return v;
}

/** The query reading a table's rows in the time range of the options. */
function tableQuery(table: TableMeta, options: CopyOptions, session: Session): string {
  const ts = quoteIdent(table.timeIndex);
  const where: string[] = [];
  if (options.startTime !== undefined) {
    where.push(`${ts} >= ${timeBound(options.startTime, "START_TIME", table, session)}`);
  }
  if (options.endTime !== undefined) {
    where.push(`${ts} < ${timeBound(options.endTime, "END_TIME", table, session)}`);
  }
  const filter = where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "";
  return `SELECT * FROM ${quoteIdent(table.db)}.${quoteIdent(table.name)}${filter}`;
}

/** Where an export writes: a file and its format. */
interface Target {
  path: string;
  format: CopyFormat;
}

/**
 * Runs a query's pages into a file, written beside the target and renamed over it only when
 * every row is written: a failure leaves an existing target as it was. Returns the rows written.
 */
function drain(
  storage: Storage,
  query: { tokens: Token[]; sql: string },
  session: Session,
  target: Target,
  paged: boolean,
): number {
  const pending = createPendingFile(target.path);
  let written: number;
  try {
    written = drainInto(storage, query, session, sinkFor(target.format, pending.file), paged);
  } catch (e) {
    pending.discard();
    throw e;
  }
  pending.commit();
  return written;
}

function drainInto(
  storage: Storage,
  query: { tokens: Token[]; sql: string },
  session: Session,
  sink: RowSink,
  paged: boolean,
): number {
  const { tokens, sql } = query;
  const q = rewriteQuery(tokens, { storage, db: session.db, sql, timezone: session.timezone });
  const conn = storage.database(q.database).conn;
  registerSqlFunctions(conn);
  const run = (sql: string): QueryOutput => {
    try {
      return runQuery(conn, sql, q.hints, q.nameTypes);
    } catch (e) {
      throw mapSqliteError(e, q.database);
    }
  };
  let written = 0;
  let columns: ResultColumn[] | undefined;
  for (let offset = 0;; offset += PAGE_ROWS) {
    const out = run(paged ? `SELECT * FROM (${q.sql}) LIMIT ${PAGE_ROWS} OFFSET ${offset}` : q.sql);
    if (out.kind !== "records") throw invalidArguments("COPY needs a query that returns rows");
    if (columns === undefined) {
      columns = out.columns.map((c) => ({
        ...c,
        data_type: c.data_type === "Null" ? "String" : c.data_type,
      }));
      sink.begin(columns);
    }
    sink.rows(out.rows);
    written += out.rows.length;
    if (!paged || out.rows.length < PAGE_ROWS) break;
  }
  sink.end();
  return written;
}

/** `COPY table TO '<file>'`: returns the rows written. */
export function exportTable(
  storage: Storage,
  table: TableMeta,
  path: string,
  options: CopyOptions,
  session: Session,
): number {
  const sql = tableQuery(table, options, session);
  return drain(storage, { tokens: tokenize(sql), sql }, session, { path, format: options.format }, true);
}

/** `COPY (<query>) TO '<file>'`: returns the rows written. */
export function exportQuery(
  storage: Storage,
  query: { tokens: Token[]; sql: string },
  path: string,
  options: CopyOptions,
  session: Session,
): number {
  // a query's own ORDER BY / LIMIT would be re-run per page: its result is written in one piece
  return drain(storage, query, session, { path, format: options.format }, false);
}

/** The tables COPY DATABASE copies (a metric engine's physical tables are internal). */
export function copyableTables(storage: Storage, db: string): TableMeta[] {
  return storage.listTables(db).filter((t) => !isPhysicalTable(t));
}

/**
 * `COPY DATABASE db TO '<dir>'`: one `<table>.<ext>` per table, each replaced only once complete
 * (as one table's export); returns the rows written.
 */
export function exportDatabase(
  storage: Storage,
  db: string,
  path: string,
  options: CopyOptions,
  session: Session,
  copyDir: string,
): number {
  const dir = ensureDirectory(path);
  let rows = 0;
  for (const table of copyableTables(storage, db)) {
    // each file is checked as a COPY TO's own path: a symlink inside may lead out of copy_dir
    const file = copyFilePath(fileInDirectory(dir, `${table.name}.${EXTENSIONS[options.format]}`), copyDir);
    rows += exportTable(storage, table, file, options, { ...session, db });
  }
  return rows;
}
