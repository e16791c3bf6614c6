/**
 * Routing of the one writer API: a write's batches for metric-engine tables go through the metric
 * engine, the rest through the plain writer, all in one transaction.
 */
import { invalidArguments } from "../common/errors.ts";
import type { TableOptions, WriteBatch } from "../common/rows.ts";
import type { DatabaseHandle } from "./database.ts";
import type { LateWatches } from "./late_marks.ts";
import { batchToMetricWrite } from "./metric_batch.ts";
import { type MetricWrite, type MetricWriteOptions, writeMetrics } from "./metric_engine.ts";
import { isLogicalTable, isMetricTable } from "./metric_layout.ts";
import { forgetSeries } from "./metric_series.ts";
import { writeBatches, type WriteOptions } from "./writer.ts";

/** The forwarder's hold on writes (`src/forward/`): it stamps metric writes with a seq, and may refuse writes. */
export interface Forwarding {
  gate(db: string, table: string): void;
  journal: boolean;
}

/** What a write takes from the storage: its settings, and the hooks around a metric-engine write. */
export interface WriteRouting {
  autoCreateTable: boolean;
  forwarding: Forwarding | null;
  lateWatches: LateWatches;
  /** Called before a metric-engine write (compaction may become due). */
  beforeMetricWrite(): void;
}

/**
 * Writes batches into database `h`: those for metric-engine tables (and missing tables with
 * `createType: "logical"`) through the metric engine, the rest through the plain writer, in one
 * transaction; returns the rows written.
 */
export function routeWrite(
  h: DatabaseHandle,
  batches: WriteBatch[],
  opts: WriteOptions & { hints?: TableOptions },
  routing: WriteRouting,
): number {
  const metric: MetricWrite[] = [];
  const plain: WriteBatch[] = [];
  for (const b of batches) {
    const t = typeof b.table === "string" ? h.getTable(b.table) : undefined;
    if (isMetricTable(t) || (t === undefined && b.createType === "logical")) {
      if (t !== undefined && !isLogicalTable(t)) {
        throw invalidArguments(`Cannot write to the physical table ${t.name} of the metric engine`);
      }
      metric.push(batchToMetricWrite(b, t));
    } else plain.push(b);
  }
  const { forwarding } = routing;
  if (forwarding !== null) {
    for (const b of batches) if (typeof b.table === "string") forwarding.gate(h.name, b.table);
  }
  const late = routing.lateWatches.of(h.name);
  const settings = { autoCreateTable: routing.autoCreateTable, journal: forwarding?.journal === true, late };
  if (metric.length === 0) return writeBatches(h, plain, opts, settings);
  routing.beforeMetricWrite();
  try {
    return h.transaction(() =>
      writeMetrics(h, metric, metricOptions(h, opts.hints, routing)) +
      (plain.length > 0 ? writeBatches(h, plain, opts, settings) : 0)
    );
  } catch (e) {
    forgetSeries(h);
    throw e;
  }
}

/** Writes metrics into metric-engine logical tables of `h`; returns the samples written. */
export function routeMetricWrites(
  h: DatabaseHandle,
  writes: MetricWrite[],
  hints: TableOptions | undefined,
  routing: WriteRouting,
): number {
  if (routing.forwarding !== null) { for (const w of writes) routing.forwarding.gate(h.name, w.metric); }
  routing.beforeMetricWrite();
  return writeMetrics(h, writes, metricOptions(h, hints, routing));
}

function metricOptions(
  h: DatabaseHandle,
  hints: TableOptions | undefined,
  routing: WriteRouting,
): MetricWriteOptions {
  const late = routing.lateWatches.of(h.name);
  return { hints, autoCreateTable: routing.autoCreateTable, sequenced: routing.forwarding !== null, late };
}
