/**
 * A range scan of a plain (mito) table as readers above storage need it: chosen columns over a time
 * range with tag equalities, in a chosen order, expired rows hidden and the null-tag stand-in read
 * back as NULL. Values are bound, never spliced into the SQL.
 */
import type { Value } from "../common/rows.ts";
import { isNullTag } from "./datatypes.ts";
import { decodeTextColumns, isTextType, storedText } from "./nul_text.ts";
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
  /** Read integers as bigints (for time indexes in µs or ns). */
  bigInts?: boolean;
}

/** The rows of a scan, each holding `scan.columns` in order. */
export function scanTable(handle: DatabaseHandle, table: TableMeta, scan: TableScan): Value[][] {
  let [lo, hi] = scan.timeRange;
  const cutoff = ttlCutoff(table);
  if (cutoff !== undefined && cutoff > lo) lo = cutoff;
  if (hi < lo) return [];
  const where = [`${quoteIdent(table.timeIndex)} >= ?`, `${quoteIdent(table.timeIndex)} <= ?`];
  const params: (string | bigint | Uint8Array)[] = [lo, hi];
  for (const [name, value] of Object.entries(scan.equal ?? {})) {
    where.push(`${quoteIdent(name)} = ?`);
    params.push(storedText(value));
  }
  for (const name of scan.notNull ?? []) where.push(`${quoteIdent(name)} IS NOT NULL`);
  const order = scan.orderBy?.length ? ` ORDER BY ${scan.orderBy.map(quoteIdent).join(", ")}` : "";
  const stmt = handle.conn.prepare(
    `SELECT ${scan.columns.map(quoteIdent).join(", ")} FROM ${qualifiedName(table)} WHERE ${
      where.join(" AND ")
    }${order}`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  stmt.setReadBigInts(scan.bigInts === true);
  const rows = stmt.all(...params) as unknown as Value[][];
  const metas = scan.columns.map((c) => table.columns.find((m) => m.name === c));
  const tagAt = metas.flatMap((m, i) => m?.nullTags ? [i] : []);
  if (tagAt.length > 0) {
    for (const row of rows) for (const i of tagAt) if (isNullTag(row[i])) row[i] = null;
  }
  // strings holding a NUL are stored as BLOBs (nul_text.ts)
  decodeTextColumns(rows, metas.flatMap((m, i) => m && isTextType(m.type) ? [i] : []));
  return rows;
}
