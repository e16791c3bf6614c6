import type { WriteBatch } from "../../src/common/rows.ts";

/** A batch as a plain object (rows materialized), comparable with deepEqual whatever class made it. */
export function plainBatch(b: WriteBatch): WriteBatch {
  const out: WriteBatch = { table: b.table, columns: b.columns, rows: b.rows };
  if (b.options !== undefined) out.options = b.options;
  if (b.createType !== undefined) out.createType = b.createType;
  return out;
}
