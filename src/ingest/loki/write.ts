/**
 * Loki pushes into storage (`/v1/loki/api/v1/push`): the direct `loki_logs` model, or the entries
 * through the pipeline the request names (reference §7.6); one transaction either way.
 */
import type { WriteBatch } from "../../common/rows.ts";
import type { LokiPushRequest } from "../../protocols/loki/model.ts";
import type { PipelineStore } from "../../../engine/store.ts";
import type { Storage } from "../../storage/mod.ts";
import { runEntriesPipeline, writeLogBatches } from "../logs.ts";
import { lokiToBatch, lokiToEntries } from "./translate.ts";
import { logTableOptions } from "../log_options.ts";

/** Where a push goes. */
export interface LokiWrite {
  db: string;
  table: string;
  hints: Record<string, string>;
  pipeline?: { name: string; version: string | null; skipError: boolean; maxNestedLevels?: number };
}

/** The semantic options the direct model stamps, for the tables a pipeline creates too (reference §7.0). */
const LOKI_TABLE_OPTIONS = logTableOptions("loki");

/** Writes a push; returns the rows written. */
export function ingestLoki(
  storage: Storage,
  pipelines: PipelineStore,
  req: LokiPushRequest,
  w: LokiWrite,
): number {
  let batches: WriteBatch[];
  if (w.pipeline === undefined) {
    const batch = lokiToBatch(req, w.table);
    batches = batch.rowCount > 0 ? [batch] : [];
  } else {
    batches = runEntriesPipeline(storage, pipelines, {
      db: w.db,
      table: w.table,
      pipeline: w.pipeline.name,
      version: w.pipeline.version,
      entries: lokiToEntries(req),
      skipError: w.pipeline.skipError,
      maxNestedLevels: w.pipeline.maxNestedLevels,
      options: LOKI_TABLE_OPTIONS,
    }).batches;
  }
  return batches.length > 0 ? writeLogBatches(storage, w.db, batches, w.hints) : 0;
}
