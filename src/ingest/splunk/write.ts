/**
 * HEC requests into storage (`/v1/splunk/services/collector/…`): each table's events run through
 * the identity pipeline (ns `greptime_timestamp`, then the Splunk model of `toSplunkModel`) or the
 * pipeline the request names, and every table is written in ONE transaction, so a request is
 * stored whole or not at all and is acknowledged only once committed.
 */
import type { WriteBatch } from "../../common/rows.ts";
import type { HecEvent } from "../../protocols/splunk/mod.ts";
import { IDENTITY_PIPELINE, type PipelineStore } from "../../../engine/store.ts";
import type { Storage } from "../../storage/mod.ts";
import { runEntriesPipeline, writeLogBatches } from "../logs.ts";
import { checkIndex, groupByTable, SPLUNK_TIME_INDEX, toSplunkModel } from "./translate.ts";
import { logTableOptions } from "../log_options.ts";

/** Where a HEC request goes. */
export interface SplunkWrite {
  db: string;
  /** The table for events without an index. */
  table: string;
  hints: Record<string, string>;
  pipeline: { name: string; version: string | null; skipError: boolean };
}

const LOG_OPTIONS = logTableOptions("splunk", true);

/** Runs the events through their pipeline into batches (pipeline-stage errors throw here). */
export function splunkBatches(
  storage: Storage,
  pipelines: PipelineStore,
  events: HecEvent[],
  w: SplunkWrite,
  arrivalNs: bigint,
): WriteBatch[] {
  const identity = w.pipeline.name === IDENTITY_PIPELINE;
  const out: WriteBatch[] = [];
  for (const t of groupByTable(events, checkIndex(w.table), arrivalNs)) {
    const { batches } = runEntriesPipeline(storage, pipelines, {
      db: w.db,
      table: t.table,
      pipeline: w.pipeline.name,
      version: w.pipeline.version,
      entries: t.entries,
      skipError: w.pipeline.skipError,
      customTimeIndex: SPLUNK_TIME_INDEX,
    });
    for (const b of batches) {
      if (!identity) out.push(b);
      else {
        const model = toSplunkModel(b, storage.getTable(w.db, b.table)?.columns);
        out.push({ ...model, options: { ...LOG_OPTIONS, ...model.options } });
      }
    }
  }
  return out;
}

/** Writes the batches in one transaction; returns the rows written. */
export function writeSplunkBatches(
  storage: Storage,
  db: string,
  batches: WriteBatch[],
  hints: Record<string, string>,
): number {
  return batches.length > 0 ? writeLogBatches(storage, db, batches, hints) : 0;
}
