/**
 * The SQLite floor of a log ingest: the rows Petrel stored in a bench, copied again into a fresh file
 * with the same table and indexes, one transaction per request's worth of rows, by SQLite alone (no
 * decoding, no binding, no JavaScript per row). Storage of one row per record cannot go faster, so
 * `bench_telemetry.ts` prints it beside the decode rate: how far the ≥ 0.5× target is reachable at all
 * shows in the same run.
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import process from "node:process";
import { quoteIdent } from "../src/storage/table.ts";

/** Rows per second and CPU seconds of the copy. */
export interface SqliteFloor {
  rows: number;
  rate: number;
  cpu: number;
}

function processCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** `CREATE …` text of the table and its indexes without a schema prefix (so they land in `main`). */
function schemaOf(db: DatabaseSync, table: string): string[] {
  const rows = db.prepare(
    "SELECT sql FROM src.sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'index'",
  ).all(table) as Array<{ sql: string }>;
  return rows.map((r) => r.sql.replace(/^(CREATE (?:UNIQUE )?(?:TABLE|INDEX) )"[^"]+"\./i, "$1"));
}

/**
 * Copies database `db`'s `table` from a Petrel data home into a temp file, `perTransaction` rows a
 * commit; only its first `limit` rows when given.
 */
export function sqliteFloor(
  dataHome: string,
  db: string,
  table: string,
  perTransaction: number,
  limit?: number,
): SqliteFloor {
  const dir = Deno.makeTempDirSync({ prefix: "petrel_floor_" });
  const conn = new DatabaseSync(join(dir, "floor.sqlite"));
  try {
    conn.exec(`ATTACH ${quoteString(join(dataHome, "data", `${db}.sqlite`))} AS src`);
    const pageSize = Number((conn.prepare("PRAGMA src.page_size").get() as { page_size: number }).page_size);
    conn.exec(`PRAGMA page_size=${pageSize}; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;`);
    conn.exec("PRAGMA temp_store=MEMORY");
    for (const sql of schemaOf(conn, table)) conn.exec(sql);
    const first = limit === undefined ? "" : ` LIMIT ${Math.floor(limit)}`;
    conn.exec(`CREATE TEMP TABLE stage AS SELECT * FROM src.${quoteIdent(table)}${first}`);
    const rows = Number((conn.prepare("SELECT count(*) AS n FROM temp.stage").get() as { n: number }).n);
    const copy = conn.prepare(
      `INSERT INTO main.${quoteIdent(table)} SELECT * FROM temp.stage WHERE rowid > ? AND rowid <= ?`,
    );
    const t0 = performance.now(), c0 = processCpu();
    for (let from = 0; from < rows; from += perTransaction) {
      conn.exec("BEGIN");
      copy.run(from, from + perTransaction);
      conn.exec("COMMIT");
    }
    return { rows, rate: rows / ((performance.now() - t0) / 1000), cpu: processCpu() - c0 };
  } finally {
    conn.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

function quoteString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
