/**
 * A one-time mend of databases written before strings holding NUL were stored as bytes
 * (`nul_text.ts`): such a string was stored whole as TEXT, but node:sqlite reads text only up to
 * its first NUL, so it read back cut. Turning those values into BLOBs makes every reader see them
 * whole. It runs once per database file (marked by `PRAGMA user_version`), as one scan of each
 * table that has TEXT columns, in one transaction.
 */
import type { DatabaseSync } from "node:sqlite";
import { quoteIdent } from "./table.ts";
import { dataTypeOfDecl } from "./datatypes.ts";
import { isTextType } from "./nul_text.ts";

/** The `user_version` of a file whose NUL-holding strings are stored as bytes. */
const NUL_TEXT_MENDED = 1;

/** Stores the NUL-holding TEXT values of every table of `schema` as bytes, unless done before. */
export function mendNulText(conn: DatabaseSync, schema: "main" | "nowal"): void {
  const version = Number(conn.prepare(`PRAGMA ${schema}.user_version`).get()?.user_version ?? 0);
  if (version >= NUL_TEXT_MENDED) return;
  conn.exec("BEGIN IMMEDIATE");
  try {
    const tables = conn.prepare(
      `SELECT name FROM ${schema}.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
    ).all() as Array<{ name: string }>;
    for (const { name } of tables) {
      const columns = conn.prepare(`PRAGMA ${schema}.table_xinfo(${quoteIdent(name)})`).all() as Array<
        { name: string; type: string; hidden: number }
      >;
      const text = columns.filter((c) => c.hidden === 0 && holdsText(c.type))
        .map((c) => quoteIdent(c.name));
      if (text.length > 0) conn.exec(mendSql(`${schema}.${quoteIdent(name)}`, text));
    }
    conn.exec(`PRAGMA ${schema}.user_version = ${NUL_TEXT_MENDED}`);
    conn.exec("COMMIT");
  } catch (e) {
    if (conn.isTransaction) conn.exec("ROLLBACK");
    throw e;
  }
}

/** Whether a column so declared holds text: a String or Json column, or a bare TEXT one (bookkeeping). */
function holdsText(decl: string): boolean {
  const type = dataTypeOfDecl(decl);
  return type === undefined ? decl.toUpperCase() === "TEXT" : isTextType(type);
}

/**
 * One UPDATE per table. `OR IGNORE`: a key column mended into a key a newer write already holds (the
 * same tag written again after the upgrade) keeps the old row as it was rather than replace the newer.
 */
function mendSql(table: string, columns: string[]): string {
  const holds = (c: string) => `(typeof(${c}) = 'text' AND instr(${c}, char(0)) > 0)`;
  const sets = columns.map((c) => `${c} = CASE WHEN ${holds(c)} THEN CAST(${c} AS BLOB) ELSE ${c} END`);
  return `UPDATE OR IGNORE ${table} SET ${sets.join(", ")} WHERE ${columns.map(holds).join(" OR ")}`;
}
