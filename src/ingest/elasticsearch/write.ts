/**
 * Elasticsearch bulk requests into storage (`/v1/elasticsearch/_bulk`): each target table's
 * documents run through the pipeline (identity by default) and are written in their own
 * transaction, so one table's failure marks only its items as failed.
 */
import { PetrelError } from "../../common/errors.ts";
import type { BulkRequest } from "../../protocols/elasticsearch/bulk.ts";
import type { PipelineStore } from "../../../engine/store.ts";
import type { Storage } from "../../storage/mod.ts";
import { runEntriesPipeline, writeLogBatches } from "../logs.ts";
import { bulkToEntries } from "./translate.ts";
import { logTableOptions } from "../log_options.ts";

/** Where a bulk request goes. */
export interface BulkWrite {
  db: string;
  hints: Record<string, string>;
  pipeline: string;
  version: string | null;
  indexFromUrl?: string | null;
  msgField?: string | null;
}

/** The outcome of one item: null when stored, else the error that failed its table. */
export interface BulkWriteResult {
  written: number;
  /** One per request item. */
  errors: (PetrelError | null)[];
}

/** What GreptimeDB stamps on the tables a bulk request creates (reference §7.0). */
const ES_TABLE_OPTIONS = logTableOptions("elasticsearch");

/**
 * Writes a bulk request table by table. Request-wide problems (a missing index, a document that is
 * not an object, an unknown pipeline) throw before anything is written.
 */
export function ingestBulk(
  storage: Storage,
  pipelines: PipelineStore,
  req: BulkRequest,
  w: BulkWrite,
): BulkWriteResult {
  const grouped = bulkToEntries(req, { indexFromUrl: w.indexFromUrl, msgField: w.msgField });
  pipelines.compiled(w.pipeline, w.version);
  const errors: (PetrelError | null)[] = new Array(req.items.length).fill(null);
  let written = 0;
  for (const t of grouped.tables) {
    try {
      const { batches } = runEntriesPipeline(storage, pipelines, {
        db: w.db,
        table: t.table,
        pipeline: w.pipeline,
        version: w.version,
        entries: t.entries,
        skipError: false,
        options: ES_TABLE_OPTIONS,
      });
      written += batches.length > 0 ? writeLogBatches(storage, w.db, batches, w.hints) : 0;
    } catch (e) {
      if (!(e instanceof PetrelError)) throw e;
      for (const i of t.items) errors[i] = e;
    }
  }
  return { written, errors };
}
