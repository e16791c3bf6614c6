/**
 * COPY … FROM: rows of server-local files into existing tables. Columns are matched by name
 * (case-insensitively; a file's columns the table lacks are left out, as GreptimeDB projects the
 * table's columns from the file), a column the file lacks is NULL or its default, and values are
 * converted as `INSERT` converts them. Everything a statement imports is written in one transaction
 * through the storage writer in batches of {@link BATCH_ROWS}, so a bad value anywhere leaves the
 * tables as they were, and downsampling late marks and forwarding journals see ordinary writes.
 */
import { invalidArguments, tableNotFound } from "../../common/errors.ts";
import type { ColumnSchema, Value } from "../../common/rows.ts";
import type { Storage } from "../../storage/mod.ts";
import type { ColumnMeta, TableMeta } from "../../storage/table.ts";
import { isTimestampType } from "../../storage/datatypes.ts";
import { nsToUnit, unitOf } from "../../common/time_unit.ts";
import { floorDiv } from "../../common/time_unit.ts";
import type { CopyFormat } from "./parse.ts";
import { ParquetTime, readParquet } from "./parquet_source.ts";
import { type FileRows, readCsv, readJsonLines } from "./text_readers.ts";
import { importValue, nsText } from "./values.ts";

/** Rows handed to the writer at a time. */
export const BATCH_ROWS = 10_000;

/** One file to import into one table. */
export interface ImportJob {
  table: TableMeta;
  file: string;
}

/** A Parquet time as the column stores it. */
function fromParquetTime(t: ParquetTime, col: ColumnMeta): Value {
  if (isTimestampType(col.type)) {
    const v = nsToUnit(t.ns, unitOf(col.type));
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  if (col.type === "Date") return Number(floorDiv(t.ns, 86_400_000_000_000n));
  return nsText(t.ns);
}

/** The table column each file column feeds (undefined: not in the table). */
function matchColumns(table: TableMeta, names: string[], file: string): Array<ColumnMeta | undefined> {
  const cols = names.map((n) =>
    table.columns.find((c) => c.name === n) ??
      table.columns.find((c) => c.name.toLowerCase() === n.toLowerCase())
  );
  for (const c of table.columns) {
    if (cols.includes(c)) continue;
    if (c.name === table.timeIndex && c.default === undefined) {
      throw invalidArguments(
        `COPY FROM ${file}: the file has no column ${c.name} (the time index of table ${table.name})`,
      );
    }
    if (!c.nullable && c.default === undefined) {
      throw invalidArguments(
        `COPY FROM ${file}: the file has no column ${c.name}, which is NOT NULL in ${table.name}`,
      );
    }
  }
  return cols;
}

/** Writes one file's rows (inside the caller's transaction); returns the rows written. */
function importRows(storage: Storage, table: TableMeta, file: string, data: FileRows): number {
  const cols = matchColumns(table, data.names, file);
  const used = cols.flatMap((c, j) => (c ? [j] : []));
  const columns: ColumnSchema[] = used.map((j) => ({
    name: cols[j]!.name,
    type: cols[j]!.type,
    semantic: cols[j]!.semantic,
  }));
  const at = { file, row: 0 };
  let batch: Value[][] = [];
  let written = 0;
  const flush = () => {
    if (batch.length === 0) return;
    written += storage.write(table.db, [{ table: table.name, columns, rows: batch }], {
      hints: { auto_create_table: "false" },
    });
    batch = [];
  };
  for (const r of data.rows) {
    at.row++;
    const row: Value[] = new Array(used.length);
    for (let k = 0; k < used.length; k++) {
      const col = cols[used[k]]!;
      const v = r[used[k]];
      row[k] = v instanceof ParquetTime
        ? fromParquetTime(v, col)
        : importValue(v ?? null, col, table.timeIndex, at);
    }
    batch.push(row);
    if (batch.length >= BATCH_ROWS) flush();
  }
  flush();
  return written;
}

/**
 * Imports the files into their tables in one transaction (Parquet files are decoded first);
 * returns the rows written.
 */
export async function importFiles(
  storage: Storage,
  db: string,
  jobs: ImportJob[],
  format: CopyFormat,
): Promise<number> {
  const parquet = new Map<string, FileRows>();
  if (format === "parquet") { for (const j of jobs) parquet.set(j.file, await readParquet(j.file)); }
  const handle = storage.database(db);
  return handle.transaction(() => {
    let rows = 0;
    for (const job of jobs) {
      // the catalog as of now: an earlier file's writes may have recorded null tags
      const table = handle.getTable(job.table.name);
      if (!table) throw tableNotFound(`greptime.${db}.${job.table.name}`);
      const data = format === "parquet"
        ? parquet.get(job.file)!
        : format === "csv"
        ? readCsv(job.file)
        : readJsonLines(job.file, table.columns.map((c) => c.name));
      rows += importRows(storage, table, job.file, data);
    }
    return rows;
  });
}
