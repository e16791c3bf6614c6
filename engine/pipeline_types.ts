/** What a compiled pipeline is and what one run takes and gives (shared by every pipeline kind). */
import type { ColumnSchema } from "../src/common/rows.ts";
import type { Dispatcher } from "./dispatcher.ts";
import type { TableSuffixTemplate } from "./table_suffix.ts";
import type { TransformColumn } from "./transform.ts";
import type { PipelineBatch } from "./types.ts";

/** Per-request inputs of a run. */
export interface RunContext {
  /** The request's table (before suffixes). */
  table: string;
  /** Skip (and count) failing entries instead of failing the request. */
  skipError: boolean;
  /** Looks up a pipeline for dispatcher rules (latest version when `version` is absent). */
  resolve: (name: string, version?: string) => Pipeline | undefined;
  /** Existing columns of a table, when the caller knows them (adopted for auto-typed keys). */
  existingColumns?: (table: string) => ColumnSchema[] | undefined;
}

/** What a run produces: one batch per destination (table, options), and the skipped count. */
export interface PipelineResult {
  batches: PipelineBatch[];
  skipped: number;
}

/** How a pipeline turns entries into rows (§3.2). */
export type TransformMode = "v1" | "v2" | "auto" | "identity";

/** A compiled pipeline. */
export interface Pipeline {
  readonly name?: string;
  readonly mode: TransformMode;
  /** The transform columns (v1/v2); empty for auto and identity. */
  readonly transform: readonly TransformColumn[];
  readonly dispatcher?: Dispatcher;
  readonly tableSuffix?: TableSuffixTemplate;
  /** Runs the pipeline; throws the first per-entry error unless `ctx.skipError`. */
  run(records: unknown[], ctx: RunContext): PipelineResult;
}
