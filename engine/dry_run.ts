/** The dry-run response shape (reference §12.8): one element per would-be insert. */
import type { Value } from "../src/common/rows.ts";
import type { Pipeline, RunContext } from "./pipeline_types.ts";
import { PROTO_TYPE_NAME } from "./types.ts";

/** One column of a dry-run table. */
export interface DryRunColumn {
  name: string;
  data_type: string;
  column_type: "TAG" | "FIELD" | "TIMESTAMP";
  fulltext: boolean;
}

/** One cell of a dry-run row. */
export interface DryRunCell {
  key: string;
  value: Value;
  data_type: string;
  semantic_type: "TAG" | "FIELD" | "TIMESTAMP";
}

/** One would-be insert request. */
export interface DryRunTable {
  table_name: string;
  schema: DryRunColumn[];
  rows: DryRunCell[][];
}

const decoder = new TextDecoder();

/** Runs `pipeline` on `records` for table `dry_run` (no skip_error) and renders the result. */
export function dryRun(pipeline: Pipeline, records: unknown[], ctx: Partial<RunContext> = {}): DryRunTable[] {
  const res = pipeline.run(records, {
    table: "dry_run",
    skipError: false,
    resolve: () => undefined,
    ...ctx,
  });
  return res.batches.map((b) => {
    const schema = b.columns.map((c) => ({
      name: c.name,
      data_type: PROTO_TYPE_NAME[c.type],
      column_type: c.semantic,
      fulltext: c.index?.kind === "fulltext",
    }));
    return {
      table_name: b.table,
      schema,
      rows: b.rows.map((row) =>
        row.map((v, j) => ({
          key: schema[j].name,
          value: v instanceof Uint8Array ? decoder.decode(v) : v,
          data_type: schema[j].data_type,
          semantic_type: schema[j].column_type,
        }))
      ),
    };
  });
}

/** JSON text of a dry-run result; bigints (nanosecond timestamps) are written as exact integers. */
export function dryRunJson(tables: DryRunTable[]): string {
  return JSON.stringify(tables, (_k, v) => typeof v === "bigint" ? `\u0000${v}\u0000` : v)
    .replace(/"\\u0000(-?[0-9]+)\\u0000"/g, "$1");
}
