/** What the catalog holds, read through SQL: databases, tables, and a table's columns. */
import { sql, sqlObjects } from "./api.ts";
import { ident } from "./sql_text.ts";

/** A column as `DESC TABLE` shows it. */
export interface ColumnInfo {
  name: string;
  type: string;
  key: string;
  nullable: boolean;
  semantic: "TAG" | "FIELD" | "TIMESTAMP" | string;
}

/** The database names (`SHOW DATABASES`). */
export async function databases(): Promise<string[]> {
  const rows = await sqlObjects("SHOW DATABASES");
  return rows.map((r) => String(r.Database ?? Object.values(r)[0]));
}

/** The table names of a database (`SHOW TABLES`). */
export async function tables(db: string): Promise<string[]> {
  const { outputs } = await sql("SHOW TABLES", db);
  const o = outputs[0];
  return o?.kind === "records" ? o.rows.map((r) => String(r[0])) : [];
}

/** A table's columns (`DESC TABLE`). */
export async function describe(db: string, table: string): Promise<ColumnInfo[]> {
  const rows = await sqlObjects(`DESC TABLE ${ident(table)}`, db);
  return rows.map((r) => ({
    name: String(r.Column),
    type: String(r.Type),
    key: String(r.Key ?? ""),
    nullable: r.Null === "YES",
    semantic: String(r["Semantic Type"] ?? ""),
  }));
}

/** The time index column of a table, if it has one. */
export function timeIndex(columns: ColumnInfo[]): ColumnInfo | undefined {
  return columns.find((c) => c.semantic === "TIMESTAMP" || c.key === "TIME INDEX");
}
