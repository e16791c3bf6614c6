/**
 * The data directory's layout: the files of database `db` (`<db>.sqlite`, `<db>.nowal.sqlite`),
 * which databases are on disk, and deleting a dropped database's files.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseFiles } from "./database.ts";

const DB_NAME = /^[A-Za-z_][A-Za-z0-9_\-]*$/;

/** Whether `db` may name a database (it becomes a file name). */
export function isDatabaseName(db: string): boolean {
  return DB_NAME.test(db);
}

/** Where database `db`'s files live in `dataDir`; a `null` directory keeps them in memory. */
export function databaseFiles(dataDir: string | null, db: string): DatabaseFiles {
  return dataDir
    ? { main: join(dataDir, `${db}.sqlite`), nowal: join(dataDir, `${db}.nowal.sqlite`) }
    : { main: null, nowal: null };
}

/** Names of the databases with files in `dataDir`, which is created if missing. */
export function databasesOnDisk(dataDir: string): string[] {
  mkdirSync(dataDir, { recursive: true });
  const out: string[] = [];
  for (const f of readdirSync(dataDir)) {
    const m = /^(.+)\.sqlite$/.exec(f);
    if (m && !m[1].endsWith(".nowal") && isDatabaseName(m[1])) out.push(m[1]);
  }
  return out;
}

/** Deletes a closed database's files with their `-wal` and `-shm` companions. */
export function removeDatabaseFiles(files: DatabaseFiles): void {
  for (const f of [files.main, files.nowal]) {
    if (!f) continue;
    for (const suffix of ["", "-wal", "-shm"]) rmSync(f + suffix, { force: true });
  }
}
