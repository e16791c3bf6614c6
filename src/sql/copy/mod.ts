/**
 * GreptimeDB's COPY statements: tables, query results and databases to and from server-local CSV,
 * JSON lines and Parquet files. The answer is the rows written, as `{"affectedrows": N}`.
 *
 * ```ts
 * await executeCopy(storage, tokens, "COPY m TO '/tmp/m.csv' WITH (FORMAT = 'csv')", session, "");
 * ```
 */
import { databaseNotFound, invalidArguments } from "../../common/errors.ts";
import type { QueryOutput } from "../../common/rows.ts";
import { INFORMATION_SCHEMA, isPhysicalTable, type Storage } from "../../storage/mod.ts";
import type { Session } from "../ddl.ts";
import type { Token } from "../lexer.ts";
import { copyableTables, exportDatabase, exportQuery, exportTable } from "./export.ts";
import { importFiles, type ImportJob } from "./import.ts";
import { EXTENSIONS, parseCopy } from "./parse.ts";
import { copyFilePath, copyPath, filesToRead } from "./paths.ts";

export { isCopyStatement } from "./parse.ts";

function requireDatabase(storage: Storage, db: string): void {
  if (!storage.hasDatabase(db) || db === INFORMATION_SCHEMA) throw databaseNotFound(db);
}

/** Runs a COPY statement confined to `copyDir` ("" = anywhere, see `copyPath`); returns the rows it wrote. */
export async function executeCopy(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
  copyDir: string,
): Promise<QueryOutput> {
  const parsed = parseCopy(tokens, sql, session);
  // one file's target must lie inside copy_dir, not be it: its temporary file goes beside it
  const confined = parsed.kind === "table_to" || parsed.kind === "query_to" ? copyFilePath : copyPath;
  const stmt = { ...parsed, path: confined(parsed.path, copyDir) };
  let rows: number;
  switch (stmt.kind) {
    case "table_to": {
      requireDatabase(storage, stmt.db);
      const table = storage.database(stmt.db).requireTable(stmt.table);
      rows = exportTable(storage, table, stmt.path, stmt.options, session);
      break;
    }
    case "query_to":
      rows = exportQuery(storage, { tokens: stmt.query, sql }, stmt.path, stmt.options, session);
      break;
    case "database_to":
      requireDatabase(storage, stmt.db);
      rows = exportDatabase(storage, stmt.db, stmt.path, stmt.options, session, copyDir);
      break;
    case "table_from": {
      requireDatabase(storage, stmt.db);
      const table = storage.database(stmt.db).requireTable(stmt.table);
      if (isPhysicalTable(table)) {
        throw invalidArguments(`Cannot COPY into the physical table ${table.name} of the metric engine`);
      }
      const jobs = filesToRead(stmt.path, stmt.options.pattern).map((file): ImportJob => ({ table, file }));
      rows = await importFiles(storage, stmt.db, jobs, stmt.options.format);
      break;
    }
    case "database_from": {
      requireDatabase(storage, stmt.db);
      rows = await importFiles(
        storage,
        stmt.db,
        databaseJobs(storage, stmt.db, stmt.path, stmt.options),
        stmt.options.format,
      );
      break;
    }
  }
  return { kind: "affected", rows };
}

/** COPY DATABASE FROM's files: `<table>.<ext>` in the directory, each into its table. */
function databaseJobs(
  storage: Storage,
  db: string,
  path: string,
  options: { format: keyof typeof EXTENSIONS; pattern?: RegExp },
): ImportJob[] {
  const ext = `.${EXTENSIONS[options.format]}`;
  const tables = new Map(copyableTables(storage, db).map((t) => [t.name.toLowerCase(), t]));
  const jobs: ImportJob[] = [];
  for (const file of filesToRead(path.endsWith("/") ? path : `${path}/`, options.pattern)) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (!name.endsWith(ext)) continue;
    const stem = name.slice(0, -ext.length);
    const table = tables.get(stem.toLowerCase());
    if (!table) {
      throw invalidArguments(
        `COPY DATABASE FROM: ${file} names table ${stem}, which does not exist in ${db}`,
      );
    }
    jobs.push({ table, file });
  }
  return jobs;
}
