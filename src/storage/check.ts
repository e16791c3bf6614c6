/**
 * `petrel check`: verifies every database file of a data home. Each `*.sqlite` file is opened (which
 * replays or discards its WAL as SQLite does on start-up) and run through `PRAGMA integrity_check`;
 * each catalog entry must parse and name a table or view that exists in its schema's file. Reading
 * only: safe beside a running server (the check sees the last committed state).
 */
import { DatabaseSync } from "node:sqlite";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The verdict on one database file. */
export interface FileCheck {
  /** The file, relative to the data home. */
  file: string;
  ok: boolean;
  /** What is wrong (SQLite's integrity_check lines, catalog problems, or why it did not open). */
  problems: string[];
}

const CATALOG = "__petrel_catalog";
/** Lines of integrity_check kept per file: a badly damaged file can report thousands. */
const MAX_PROBLEMS = 20;

/** Checks every database file under `<dataHome>/data`; a missing data dir checks nothing. */
export function checkDataHome(dataHome: string): FileCheck[] {
  const dir = join(dataHome, "data");
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite")).sort();
  const out: FileCheck[] = [];
  for (const f of files) {
    const problems: string[] = [];
    let objects: Map<string, Set<string>> | null = null;
    let conn: DatabaseSync | null = null;
    try {
      conn = new DatabaseSync(join(dir, f));
      conn.exec("PRAGMA busy_timeout=5000");
      const nowal = join(dir, f.replace(/\.sqlite$/, ".nowal.sqlite"));
      const attach = !f.endsWith(".nowal.sqlite") && existsSync(nowal);
      if (attach) conn.prepare("ATTACH DATABASE ? AS nowal").run(nowal);
      for (const r of conn.prepare("PRAGMA main.integrity_check").all()) {
        const line = String(Object.values(r)[0]);
        if (line !== "ok") problems.push(line);
      }
      if (problems.length === 0 && !f.endsWith(".nowal.sqlite")) {
        objects = new Map([["main", names(conn, "main")], [
          "nowal",
          attach ? names(conn, "nowal") : new Set(),
        ]]);
        problems.push(...checkCatalog(conn, objects));
      }
    } catch (e) {
      problems.push((e as Error).message);
    } finally {
      try {
        conn?.close();
      } catch { /* closing a damaged file may fail too */ }
    }
    out.push({ file: join("data", f), ok: problems.length === 0, problems: problems.slice(0, MAX_PROBLEMS) });
  }
  return out;
}

function names(conn: DatabaseSync, schema: string): Set<string> {
  const rows = conn.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type IN ('table', 'view')`)
    .all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

function checkCatalog(conn: DatabaseSync, objects: Map<string, Set<string>>): string[] {
  // An empty file (created, never written to disk) is sound: start-up creates the catalog.
  if (objects.get("main")!.size === 0) return [];
  if (!objects.get("main")!.has(CATALOG)) return [`the catalog table ${CATALOG} is missing`];
  const problems: string[] = [];
  const rows = conn.prepare(`SELECT name, meta FROM ${CATALOG}`).all() as Array<
    { name: string; meta: string }
  >;
  for (const r of rows) {
    let meta: { name?: unknown; schema?: unknown };
    try {
      meta = JSON.parse(r.meta);
    } catch {
      problems.push(`catalog entry ${r.name}: unreadable metadata`);
      continue;
    }
    const schema = typeof meta.schema === "string" ? meta.schema : "main";
    if (!objects.get(schema)?.has(r.name)) {
      problems.push(`catalog entry ${r.name}: no table or view ${r.name} in schema ${schema}`);
    }
  }
  return problems;
}
