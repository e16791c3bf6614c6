/** `GET /v1/pipelines/{name}/ddl` (reference §12.3): the CREATE TABLE a pipeline's transform implies. */
import { invalidArguments } from "../src/http/errors.ts";
import type { Pipeline } from "./pipeline.ts";
import { type PipelineColumn, SQL_TYPE_NAME } from "./types.ts";

/** The DDL preview and its optional warning. */
export interface PipelineDdl {
  sql: string;
  message?: string;
}

function quote(name: string): string {
  return "`" + name.replaceAll("`", "``") + "`";
}

/** Renders a column's index clause as SHOW CREATE TABLE prints it. */
export function indexClause(c: PipelineColumn): string {
  if (!c.index) return "";
  if (c.index.kind === "inverted") return " INVERTED INDEX";
  const opts = Object.keys(c.index.options).sort().map((k) => `${k} = '${c.index!.options[k]}'`).join(", ");
  return c.index.kind === "fulltext" ? ` FULLTEXT INDEX WITH(${opts})` : ` SKIPPING INDEX WITH(${opts})`;
}

/** The CREATE TABLE preview for `table`; `tableExists` adds GreptimeDB's warning. */
export function pipelineDdl(
  pipeline: Pipeline,
  table: string,
  opts: { tableExists?: boolean } = {},
): PipelineDdl {
  if (!table) throw invalidArguments("table name is required");
  if (pipeline.mode === "identity") {
    throw invalidArguments("built-in pipelines don't have fixed table schema");
  }
  if (pipeline.mode === "auto") throw invalidArguments("auto transform doesn't have fixed table schema");
  const cols = pipeline.transform.map((t) => t.column);
  const lines = cols.map((c) =>
    `  ${quote(c.name)} ${SQL_TYPE_NAME[c.type]} ${c.semantic === "TIMESTAMP" ? "NOT NULL" : "NULL"}${
      indexClause(c)
    }`
  );
  const time = cols.find((c) => c.semantic === "TIMESTAMP");
  if (time) lines.push(`  TIME INDEX (${quote(time.name)})`);
  const tags = cols.filter((c) => c.semantic === "TAG");
  if (tags.length) lines.push(`  PRIMARY KEY (${tags.map((c) => quote(c.name)).join(", ")})`);
  const sql = `CREATE TABLE IF NOT EXISTS ${quote(table)} (\n${
    lines.join(",\n")
  }\n)\nENGINE=mito\nWITH(\n  append_mode = 'true'\n)`;
  const out: PipelineDdl = { sql };
  if (opts.tableExists) out.message = "table already exists, the CREATE TABLE SQL may be different";
  else if (pipeline.dispatcher || pipeline.tableSuffix) {
    out.message = "the pipeline has dispatcher or table_suffix, the table name may not be fixed";
  }
  return out;
}
