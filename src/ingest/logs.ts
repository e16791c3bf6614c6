/**
 * Logs through a pipeline into tables (`/v1/ingest`, pipelines.md §12.7): the body's entries run
 * through the named pipeline into batches (suffixed tables, options from the data), then the
 * batches' row options decide table creation and everything is written in one transaction.
 */
import { invalidArguments } from "../common/errors.ts";
import { rowCountOf, type TableOptions, type WriteBatch } from "../common/rows.ts";
import { parsePayload, parsePayloadSkipping } from "../../engine/payload.ts";
import { IDENTITY_PIPELINE, type PipelineStore } from "../../engine/store.ts";
import type { Storage } from "../storage/mod.ts";
import { normalizeOptions } from "../storage/options.ts";

/** One `/v1/ingest` request, decoded. */
export interface LogIngest {
  db: string;
  table: string;
  pipeline: string;
  version: string | null;
  body: string;
  contentType: string;
  skipError: boolean;
  /** `max_nested_levels` (identity pipeline). */
  maxNestedLevels?: number;
  /** `custom_time_index` (identity pipeline only). */
  customTimeIndex?: string;
  /** `ignore_errors`: keep what parses, and use arrival time for a bad custom time index. */
  ignoreErrors: boolean;
}

/** The pipeline's output: non-empty batches, and how many entries `skip_error` dropped. */
export interface LogBatches {
  batches: WriteBatch[];
  skipped: number;
}

/** Runs the body's entries through the pipeline (errors here are pipeline-stage errors). */
export function runLogPipeline(storage: Storage, pipelines: PipelineStore, req: LogIngest): LogBatches {
  const pipeline = pipelines.compiled(req.pipeline, req.version, {
    maxNestedLevels: req.maxNestedLevels,
    customTimeIndex: req.pipeline === IDENTITY_PIPELINE ? req.customTimeIndex : undefined,
    ignoreErrors: req.ignoreErrors,
  });
  if (!req.skipError) {
    return runEntries(
      storage,
      pipelines,
      pipeline,
      parsePayload(req.body, req.contentType, req.ignoreErrors),
      req,
    );
  }
  const { entries, skipped } = parsePayloadSkipping(req.body, req.contentType, req.ignoreErrors);
  const out = runEntries(storage, pipelines, pipeline, entries, req);
  return { batches: out.batches, skipped: out.skipped + skipped };
}

/** Entries a protocol decoded (OTLP logs, Loki, Elasticsearch), for a named pipeline. */
export interface EntriesIngest {
  db: string;
  table: string;
  pipeline: string;
  version: string | null;
  entries: unknown[];
  skipError: boolean;
  /** `custom_time_index` when the pipeline is the identity one (Splunk's ns `greptime_timestamp`). */
  customTimeIndex?: string;
  /** `max_nested_levels` (identity pipeline). */
  maxNestedLevels?: number;
  /**
   * Options the protocol stamps on the tables it creates (`greptime.semantic.*`, reference §7.0);
   * the pipeline's own variables win.
   */
  options?: TableOptions;
}

/** Runs decoded entries through the named pipeline (errors here are pipeline-stage errors). */
export function runEntriesPipeline(
  storage: Storage,
  pipelines: PipelineStore,
  req: EntriesIngest,
): LogBatches {
  const identity = req.pipeline === IDENTITY_PIPELINE && (req.customTimeIndex || req.maxNestedLevels)
    ? { customTimeIndex: req.customTimeIndex || undefined, maxNestedLevels: req.maxNestedLevels }
    : undefined;
  const pipeline = pipelines.compiled(req.pipeline, req.version, identity);
  const out = runEntries(storage, pipelines, pipeline, req.entries, req);
  if (req.options !== undefined) {
    for (const b of out.batches) b.options = { ...req.options, ...b.options };
  }
  return out;
}

function runEntries(
  storage: Storage,
  pipelines: PipelineStore,
  pipeline: ReturnType<PipelineStore["compiled"]>,
  entries: unknown[],
  req: { db: string; table: string; skipError: boolean },
): LogBatches {
  const result = pipeline.run(entries, {
    table: req.table,
    skipError: req.skipError,
    resolve: (n, v) => pipelines.compiled(n, v),
    existingColumns: (t) => storage.getTable(req.db, t)?.columns,
  });
  return { batches: result.batches.filter((b) => rowCountOf(b) > 0), skipped: result.skipped };
}

/** Writes a pipeline's batches in one transaction (errors here are insert-stage errors); returns rows. */
export function writeLogBatches(
  storage: Storage,
  db: string,
  batches: WriteBatch[],
  hints: Record<string, string>,
): number {
  for (const b of batches) applyRowOptions(b, (t) => storage.getTable(db, t) !== undefined);
  return storage.write(db, batches, { hints, clientNumbers: true });
}

/**
 * Makes the per-row special variables take effect when they create a table (GreptimeDB ignores
 * append/merge mode for log tables — quirk 14 — but the service spec makes them table options):
 * `append_mode=false` or a `merge_mode` creates a keyed (deduplicating) table instead of a log
 * table, and `auto_create_table=false` refuses to create a missing one.
 */
function applyRowOptions(batch: WriteBatch, exists: (table: string) => boolean): void {
  const options = batch.options;
  if (!options) return;
  const creates = !exists(batch.table);
  if (options.auto_create_table === "false" && creates) {
    throw invalidArguments(
      `Table \`${batch.table}\` does not exist, and \`auto_create_table\` hint is disabled`,
    );
  }
  // A log table drops these two before its options are checked; as options of the table they create,
  // a value CREATE TABLE refuses (`append_mode='banana'`, a merge mode on an append table) is a 400.
  if (creates) {
    const mode: TableOptions = {};
    if (options.append_mode !== undefined) mode.append_mode = options.append_mode;
    if (options.merge_mode !== undefined) mode.merge_mode = options.merge_mode;
    normalizeOptions(mode);
  }
  const append = options.append_mode?.trim().toLowerCase();
  if (append === "false" || (append === undefined && options.merge_mode !== undefined)) {
    batch.createType = options.merge_mode?.trim().toLowerCase() === "last_non_null"
      ? "last_non_null"
      : "physical";
  }
}
