/**
 * OTLP requests into storage (the write side of `/v1/otlp/v1/{metrics,traces,logs}`): each function
 * translates a decoded request (translators in this folder) and writes it in one call, reporting
 * what was stored and what was rejected (for `partial_success`).
 */
import { invalidArguments } from "../../common/errors.ts";
import { type ColumnarBatch, columnsOf, type TableOptions } from "../../common/rows.ts";
import type {
  ExportLogsRequest,
  ExportMetricsRequest,
  ExportTraceRequest,
} from "../../protocols/otlp/model.ts";
import type { PipelineStore } from "../../../engine/store.ts";
import type { Storage } from "../../storage/mod.ts";
import { ingestMetricWrites, ingestSeries } from "../metrics.ts";
import { runEntriesPipeline, writeLogBatches } from "../logs.ts";
import type { OtlpMetricOptions } from "./metric_options.ts";
import { otlpMetricsToSeries } from "./metrics.ts";
import { otlpMetricsToWrites } from "./metric_writes.ts";
import { otlpTracesToBatches, type TraceModel } from "./traces.ts";
import { otlpLogsToBatch, otlpLogsToEntries } from "./logs.ts";
import { alignLogBatch } from "./log_align.ts";
import { logsProtoToBatch } from "./logs_pb.ts";
import { otlpMetricsProtoToWrites } from "./metrics_pb.ts";
import {
  decodeOtlpLogs,
  decodeOtlpMetrics,
  decodeOtlpProtoWith,
  otlpEncoding,
} from "../../protocols/otlp/mod.ts";

/** What one export stored and rejected. */
export interface OtlpWriteResult {
  /** Samples, spans or rows written. */
  written: number;
  /** Data points, spans or log records not stored. */
  rejected: number;
  /** Why ("" when nothing was rejected). */
  rejectedMessage: string;
}

/** Where a metrics export goes. */
export interface OtlpMetricsWrite {
  db: string;
  hints: Record<string, string>;
  options: OtlpMetricOptions;
  withMetricEngine: boolean;
  physicalTable?: string;
}

/**
 * Writes the body of a metrics export: protobuf into the metric engine straight from the bytes
 * (`metrics_pb.ts`), else (or when that path declines) decoded and written by {@link ingestOtlpMetrics}.
 */
export function ingestOtlpMetricsBody(
  storage: Storage,
  body: Uint8Array,
  contentType: string | null,
  w: OtlpMetricsWrite,
  onWritten: (samples: number) => void = () => {},
): OtlpWriteResult {
  if (w.withMetricEngine && otlpEncoding(contentType) === "protobuf") {
    const options = w.options;
    const keyed = decodeOtlpProtoWith(body, contentType, (b) => otlpMetricsProtoToWrites(b, options));
    if (keyed !== null) {
      const written = ingestMetricWrites(storage, keyed.metrics, metricIngest(w, keyed.tables), onWritten);
      if (written !== null) {
        return { written, rejected: keyed.rejectedDataPoints, rejectedMessage: keyed.rejectedMessage };
      }
    }
  }
  return ingestOtlpMetrics(storage, decodeOtlpMetrics(body, contentType), w, onWritten);
}

function metricIngest(w: OtlpMetricsWrite, tables: ReadonlyMap<string, TableOptions>) {
  return {
    db: w.db,
    source: "opentelemetry",
    withMetricEngine: w.withMetricEngine,
    hints: w.hints,
    physicalTable: w.physicalTable,
    tableOptions: tables,
  };
}

/** Writes a metrics export through the metric engine; `onWritten` hears each committed database's samples. */
export function ingestOtlpMetrics(
  storage: Storage,
  req: ExportMetricsRequest,
  w: OtlpMetricsWrite,
  onWritten: (samples: number) => void = () => {},
): OtlpWriteResult {
  const ingest = (tables: ReadonlyMap<string, TableOptions>) => metricIngest(w, tables);
  const keyed = w.withMetricEngine ? otlpMetricsToWrites(req, w.options) : null;
  if (keyed !== null) {
    const written = ingestMetricWrites(storage, keyed.metrics, ingest(keyed.tables), onWritten);
    if (written !== null) {
      return { written, rejected: keyed.rejectedDataPoints, rejectedMessage: keyed.rejectedMessage };
    }
  }
  const out = otlpMetricsToSeries(req, w.options);
  const written = ingestSeries(storage, out.series, ingest(out.tables), onWritten);
  return { written, rejected: out.rejectedDataPoints, rejectedMessage: out.rejectedMessage };
}

/** Where a traces export goes. */
export interface OtlpTracesWrite {
  db: string;
  table: string;
  model: TraceModel;
  hints: Record<string, string>;
}

/**
 * Writes a traces export (span table and, for v1, its services and operations tables) in one
 * transaction. When every span is rejected nothing is written and `written` is 0.
 */
export function ingestOtlpTraces(
  storage: Storage,
  req: ExportTraceRequest,
  w: OtlpTracesWrite,
): OtlpWriteResult {
  const partitions = w.hints.trace_table_partitions;
  // read as GreptimeDB's str::parse::<u32>: an optional '+', then digits (leading zeros allowed)
  const digits = partitions?.trim().replace(/^\+/, "");
  if (partitions !== undefined && (!/^\d+$/.test(digits!) || Number(digits) > 0xffffffff)) {
    throw invalidArguments(`Invalid value for hint trace_table_partitions: '${partitions}'`);
  }
  const existing = storage.getTable(w.db, w.table);
  const out = otlpTracesToBatches(req, {
    table: w.table,
    model: w.model,
    existingType: (column) => existing?.columns.find((c) => c.name === column)?.type,
  });
  if (out.spans === 0) {
    return { written: 0, rejected: out.rejectedSpans, rejectedMessage: out.rejectedMessage };
  }
  // the span batch is columnar: its `rows` would build a row array a span
  const batches = out.batches.filter((b) => (columnsOf(b)?.rowCount ?? b.rows.length) > 0);
  storage.write(w.db, batches, { hints: w.hints, widenIntToFloat: true });
  return { written: out.spans, rejected: out.rejectedSpans, rejectedMessage: out.rejectedMessage };
}

/** Where a logs export goes: the direct model, or the named pipeline. */
export interface OtlpLogsWrite {
  db: string;
  table: string;
  extractKeys: string[];
  hints: Record<string, string>;
  pipeline?: { name: string; version: string | null; skipError: boolean; maxNestedLevels?: number };
}

/**
 * Decodes a logs export body (400 when malformed) and writes it in one transaction. A protobuf
 * body for the direct model without extracted keys is read straight into columns (logs_pb.ts).
 */
export function ingestOtlpLogsBody(
  storage: Storage,
  pipelines: PipelineStore,
  body: Uint8Array,
  contentType: string | null,
  w: OtlpLogsWrite,
): OtlpWriteResult {
  if (w.pipeline === undefined && w.extractKeys.length === 0 && otlpEncoding(contentType) === "protobuf") {
    const table = w.table;
    return writeDirectLogs(
      storage,
      w,
      decodeOtlpProtoWith(body, contentType, (b) => logsProtoToBatch(b, table)),
    );
  }
  return ingestOtlpLogs(storage, pipelines, decodeOtlpLogs(body, contentType), w);
}

/** Writes a logs export in one transaction (direct model, or through the pipeline). */
export function ingestOtlpLogs(
  storage: Storage,
  pipelines: PipelineStore,
  req: ExportLogsRequest,
  w: OtlpLogsWrite,
): OtlpWriteResult {
  if (w.pipeline === undefined) {
    return writeDirectLogs(storage, w, otlpLogsToBatch(req, { table: w.table, extractKeys: w.extractKeys }));
  }
  const run = runEntriesPipeline(storage, pipelines, {
    db: w.db,
    table: w.table,
    pipeline: w.pipeline.name,
    version: w.pipeline.version,
    entries: otlpLogsToEntries(req),
    skipError: w.pipeline.skipError,
    maxNestedLevels: w.pipeline.maxNestedLevels,
  });
  const skipped = run.skipped;
  const written = run.batches.length > 0 ? writeLogBatches(storage, w.db, run.batches, w.hints) : 0;
  return {
    written,
    rejected: skipped,
    rejectedMessage: skipped === 0 ? "" : `Skipped ${skipped} log records the pipeline failed on`,
  };
}

/** Writes a direct-model batch, aligned to the table when it exists. */
function writeDirectLogs(storage: Storage, w: OtlpLogsWrite, batch: ColumnarBatch): OtlpWriteResult {
  const existing = storage.getTable(w.db, w.table);
  if (existing !== undefined && batch.rowCount > 0) alignLogBatch(batch, existing);
  const written = batch.rowCount > 0 ? writeLogBatches(storage, w.db, [batch], w.hints) : 0;
  return { written, rejected: 0, rejectedMessage: "" };
}
