/** GreptimeDB's texts for SHOW CREATE TABLE, DESC TABLE and the create options of information_schema. */
import type { TableMeta } from "../storage/mod.ts";
import { indexClause } from "../storage/column_index.ts";
import { sqlTypeName } from "../storage/datatypes.ts";
import { formatTtl } from "../storage/options.ts";
import type { QueryOutput, Value } from "../common/rows.ts";

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function optionKey(key: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(key) && key !== "comment" ? key : `'${key.replaceAll("'", "''")}'`;
}

/** The `WITH(...)` options as one line, as information_schema.tables' create_options shows them. */
export function renderCreateOptions(t: TableMeta): string {
  return shownOptions(t.options).map(([k, v]) => `${k}=${v}`).join(" ");
}

/** GreptimeDB's `SHOW CREATE TABLE` text. */
export function renderCreateTable(t: TableMeta): string {
  const lines = t.columns.map((c) => {
    const nullable = c.name === t.timeIndex || !c.nullable ? "NOT NULL" : "NULL";
    let line = `  ${quoteName(c.name)} ${sqlTypeName(c.type)} ${nullable}`;
    if (c.default !== undefined) line += ` DEFAULT ${c.default}`;
    if (c.comment !== undefined) line += ` COMMENT '${c.comment.replaceAll("'", "''")}'`;
    return line + indexClause(c.index);
  });
  lines.push(`  TIME INDEX (${quoteName(t.timeIndex)})`);
  if (t.primaryKey.length > 0) lines.push(`  PRIMARY KEY (${t.primaryKey.map(quoteName).join(", ")})`);
  let sql = `CREATE TABLE IF NOT EXISTS ${quoteName(t.name)} (\n${
    lines.join(",\n")
  }\n)\n\nENGINE=${t.engine}`;
  const opts = shownOptions(t.options);
  if (opts.length === 0) sql += "\n";
  else {
    sql += `\nWITH(\n${
      opts.map(([k, v]) => `  ${optionKey(k)} = '${v.replaceAll("'", "''")}'`).join(",\n")
    }\n)`;
  }
  return sql;
}

/** GreptimeDB's `DESC TABLE` result. */
export function describeTable(t: TableMeta): QueryOutput {
  const rows: Value[][] = t.columns.map((c) => {
    // GreptimeDB's DESC marks the time index PRI too (information_schema.columns says TIME INDEX)
    const key = c.name === t.timeIndex || t.primaryKey.includes(c.name) ? "PRI" : "";
    const nullable = c.name === t.timeIndex || !c.nullable ? "NO" : "YES";
    return [c.name, c.type, key, nullable, c.default ?? "", c.semantic];
  });
  return stringRecords(DESC_COLUMNS, rows);
}

/** The columns of a `DESC TABLE` result. */
export const DESC_COLUMNS = ["Column", "Type", "Key", "Null", "Default", "Semantic Type"];

/** A records output of String columns. */
export function stringRecords(names: string[], rows: Value[][]): QueryOutput {
  return { kind: "records", columns: names.map((name) => ({ name, data_type: "String" })), rows };
}

/** Table or database options as GreptimeDB shows them: sorted, the ttl in humantime (`7d` → `7days`). */
export function shownOptions(options: Record<string, string>): Array<[string, string]> {
  return Object.entries(options)
    .map(([k, v]): [string, string] => [k, k === "ttl" ? formatTtl(v) : v])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** GreptimeDB's `SHOW CREATE DATABASE` text. */
export function renderCreateDatabase(db: string, options: Record<string, string>): string {
  const opts = shownOptions(options);
  const base = `CREATE DATABASE IF NOT EXISTS ${quoteName(db)}`;
  if (opts.length === 0) return base;
  return `${base}\nWITH(\n${
    opts.map(([k, v]) => `  ${optionKey(k)} = '${v.replaceAll("'", "''")}'`).join(",\n")
  }\n)`;
}
