/**
 * Bytes on disk per table, from SQLite's `dbstat` (pages of each b-tree): a table's own b-tree is its
 * data, its indexes are its index; a metric-engine physical table owns its series, samples and chunk
 * tables, a trace table its trace map (counted as index), and a logical table (a view) owns nothing.
 * Reads every page of the file, so it is computed only when asked (`information_schema.tables`).
 */
import type { DatabaseHandle } from "./database.ts";
import { isLogicalTable, isPhysicalTable } from "./metric_layout.ts";
import { traceMapOwner } from "./trace_map.ts";

/** A table's bytes on disk. */
export interface TableDiskUsage {
  data: number;
  index: number;
}

/** Bytes on disk of every table of a database, by table name. */
export function tableDiskUsage(handle: DatabaseHandle): Map<string, TableDiskUsage> {
  const bytes = new Map<string, TableDiskUsage>();
  for (const schema of ["main", "nowal"]) {
    let rows: Array<{ name: string; tbl: string; type: string; bytes: number }>;
    try {
      rows = handle.conn.prepare(
        `SELECT m.name AS name, m.tbl_name AS tbl, m.type AS type, sum(d.pgsize) AS bytes ` +
          `FROM dbstat(?) AS d JOIN "${schema}".sqlite_master AS m ON m.name = d.name GROUP BY m.name`,
      ).all(schema) as typeof rows;
    } catch {
      continue; // the schema is not attached
    }
    for (const r of rows) {
      const owner = ownerOf(r.tbl);
      const u = bytes.get(owner) ?? { data: 0, index: 0 };
      // a trace map is its table's index, in all but name
      if (r.type === "index" || r.name !== r.tbl || traceMapOwner(r.tbl) !== undefined) {
        u.index += Number(r.bytes);
      } else u.data += Number(r.bytes);
      bytes.set(owner, u);
    }
  }
  const out = new Map<string, TableDiskUsage>();
  for (const t of handle.listTables()) {
    if (isLogicalTable(t)) out.set(t.name, { data: 0, index: 0 });
    else if (isPhysicalTable(t)) out.set(t.name, bytes.get(`#${t.id}`) ?? { data: 0, index: 0 });
    else out.set(t.name, bytes.get(t.name) ?? { data: 0, index: 0 });
  }
  return out;
}

/** The catalog table a SQLite table belongs to: `#id` for a physical table's parts. */
function ownerOf(sqliteTable: string): string {
  const traced = traceMapOwner(sqliteTable);
  if (traced !== undefined) return traced;
  const m = /^__petrel_(?:series|samples|chunks|compaction)_(\d+)$/.exec(sqliteTable);
  return m === null ? sqliteTable : `#${m[1]}`;
}
