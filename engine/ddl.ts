/** `GET /v1/pipelines/{name}/ddl` (reference §12.3): the CREATE TABLE a pipeline's transform implies. */
import { invalidArguments } from "../src/common/errors.ts";
import { indexClause } from "../src/storage/column_index.ts";
import type { Pipeline } from "./pipeline_types.ts";
import { SQL_TYPE_NAME } from "./types.ts";

/** The DDL preview and its optional warning. */
export interface PipelineDdl {
  sql: string;
  message?: string;
}

function quote(name: string): string {
  return "`" + name.replaceAll("`", "``") + "`";
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
      indexClause(c.index)
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
