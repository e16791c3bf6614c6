/**
 * The pipeline engine's public API: compile a pipeline YAML, run it over a request's entries into
 * write batches, the built-in identity pipeline, dry-run rendering and the DDL preview.
 *
 * ```ts
 * const p = compilePipeline(yamlText, { name: "nginx" });          // throws PipelineCompileError (1004)
 * const { batches, skipped } = p.run(entries, {
 *   table: "logs", skipError: false,
 *   resolve: (name, version) => lookUpCompiledPipeline(name, version), // for dispatcher rules
 * });
 * for (const b of batches) writer.write(b);                         // b.table is already suffixed
 * ```
 */
export { compilePipeline } from "./pipeline.ts";
export type { Pipeline, PipelineResult, RunContext, TransformMode } from "./pipeline_types.ts";
export { type IdentityParams, identityPipeline } from "./identity.ts";
export { dryRun, type DryRunCell, type DryRunColumn, dryRunJson, type DryRunTable } from "./dry_run.ts";
export { type PipelineDdl, pipelineDdl } from "./ddl.ts";
export {
  type ColumnIndex,
  type PipelineBatch,
  type PipelineColumn,
  PROTO_TYPE_NAME,
  SQL_TYPE_NAME,
} from "./types.ts";
export { PipelineCompileError } from "./errors.ts";
export { type Entry, Timestamp } from "./value.ts";
