/** The SQL of the log view. */
import { type ColumnInfo, timeIndex } from "./catalog.ts";
import { ident, literal } from "./sql_text.ts";

/** The query that tails `table`: newest `limit` rows whose string columns contain `filter` (any case). */
export function tailQuery(table: string, columns: ColumnInfo[], filter: string, limit: number): string {
  const ts = timeIndex(columns);
  const strings = columns.filter((c) => c.type === "String" || c.type.startsWith("Json"));
  let where = "";
  if (filter !== "" && strings.length > 0) {
    const pattern = literal(`%${filter}%`);
    where = ` WHERE ${strings.map((c) => `${ident(c.name)} ILIKE ${pattern}`).join(" OR ")}`;
  }
  const order = ts ? ` ORDER BY ${ident(ts.name)} DESC` : "";
  return `SELECT * FROM ${ident(table)}${where}${order} LIMIT ${limit}`;
}
