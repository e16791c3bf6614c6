/** OTLP translators: typed requests (src/protocols/otlp) → series, rows or pipeline entries. */
export {
  DEFAULT_PROMOTED_RESOURCE_ATTRS,
  type OtlpMetricSeries,
  otlpMetricsToSeries,
  OVERFLOW_BUCKET_LE,
} from "./metrics.ts";
export {
  DEFAULT_OTLP_METRIC_OPTIONS,
  OTLP_METRIC_HEADERS,
  type OtlpMetricOptions,
  otlpMetricOptions,
} from "./metric_options.ts";
export {
  labelName,
  metricName,
  rustF64,
  TRANSLATION_STRATEGIES,
  type TranslationStrategy,
} from "./metric_names.ts";
export {
  AUX_TIMESTAMP,
  DEFAULT_TRACE_TABLE,
  type OtlpTraceBatches,
  type OtlpTraceOptions,
  otlpTracesToBatches,
  type TraceModel,
  traceModel,
} from "./traces.ts";
export {
  DEFAULT_LOG_TABLE,
  logExtractKeys,
  type OtlpLogOptions,
  otlpLogsToBatch,
  otlpLogsToEntries,
} from "./logs.ts";
export {
  ingestOtlpLogs,
  ingestOtlpLogsBody,
  ingestOtlpMetrics,
  ingestOtlpMetricsBody,
  ingestOtlpTraces,
  type OtlpLogsWrite,
  type OtlpMetricsWrite,
  type OtlpTracesWrite,
  type OtlpWriteResult,
} from "./write.ts";
