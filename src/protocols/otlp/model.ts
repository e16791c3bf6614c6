/**
 * The typed model of OTLP export requests (proto/*.proto), one per signal, as both encodings
 * (protobuf and the OTLP JSON mapping) decode into it. Field names follow the proto's lowerCamelCase
 * JSON names. Nanosecond times are exact `bigint`s (they exceed 2^53); trace and span ids are
 * lowercase hex strings ("" when absent), which is what every consumer wants them as. Exemplars and
 * entity refs are skipped: nothing downstream reads them.
 */

/** An attribute or body value (`AnyValue`); `empty` is an AnyValue with no variant set. */
export type AnyValue =
  | { type: "string"; value: string }
  | { type: "bool"; value: boolean }
  /** A number when it is a safe integer, else a bigint (int64 is exact either way). */
  | { type: "int"; value: number | bigint }
  | { type: "double"; value: number }
  | { type: "bytes"; value: Uint8Array }
  | { type: "array"; value: AnyValue[] }
  | { type: "kvlist"; value: KeyValue[] }
  | { type: "empty" };

/** One attribute. */
export interface KeyValue {
  key: string;
  value: AnyValue;
}

/** The entity that produced the telemetry. */
export interface Resource {
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** The instrumentation scope (library) that produced the telemetry. */
export interface InstrumentationScope {
  name: string;
  version: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

// ---- metrics ------------------------------------------------------------------------------------

/** `AggregationTemporality`: 0 unspecified, 1 delta, 2 cumulative. */
export const Temporality = { Unspecified: 0, Delta: 1, Cumulative: 2 } as const;

/** A gauge or sum point. `isInt` tells `as_int` from `as_double`; `value` is null when neither is set. */
export interface NumberDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  value: number | null;
  isInt: boolean;
  flags: number;
}

/** An explicit-bucket histogram point (`bucketCounts` has one more entry than `explicitBounds`). */
export interface HistogramDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: number;
  sum: number | null;
  bucketCounts: number[];
  explicitBounds: number[];
  flags: number;
  min: number | null;
  max: number | null;
}

/** One side (positive or negative) of an exponential histogram. */
export interface ExponentialBuckets {
  offset: number;
  bucketCounts: number[];
}

/** An exponential histogram point. */
export interface ExponentialHistogramDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: number;
  sum: number | null;
  scale: number;
  zeroCount: number;
  positive: ExponentialBuckets;
  negative: ExponentialBuckets;
  flags: number;
  min: number | null;
  max: number | null;
  zeroThreshold: number;
}

/** A summary point. */
export interface SummaryDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: number;
  sum: number;
  quantileValues: { quantile: number; value: number }[];
  flags: number;
}

/** A metric's data (the `data` oneof). */
export type MetricData =
  | { type: "gauge"; dataPoints: NumberDataPoint[] }
  | { type: "sum"; dataPoints: NumberDataPoint[]; aggregationTemporality: number; isMonotonic: boolean }
  | { type: "histogram"; dataPoints: HistogramDataPoint[]; aggregationTemporality: number }
  | {
    type: "exponentialHistogram";
    dataPoints: ExponentialHistogramDataPoint[];
    aggregationTemporality: number;
  }
  | { type: "summary"; dataPoints: SummaryDataPoint[] };

/** One metric; `data` is null when the sender set no variant. */
export interface Metric {
  name: string;
  description: string;
  unit: string;
  data: MetricData | null;
  metadata: KeyValue[];
}

/** Metrics of one scope. */
export interface ScopeMetrics {
  scope: InstrumentationScope;
  metrics: Metric[];
  schemaUrl: string;
}

/** Metrics of one resource. */
export interface ResourceMetrics {
  resource: Resource;
  scopeMetrics: ScopeMetrics[];
  schemaUrl: string;
}

/** `ExportMetricsServiceRequest`. */
export interface ExportMetricsRequest {
  resourceMetrics: ResourceMetrics[];
}

// ---- traces -------------------------------------------------------------------------------------

/** A timed event within a span. */
export interface SpanEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** A link from a span to another span. */
export interface SpanLink {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  flags: number;
}

/** One span. `kind` and `status.code` are the proto enum numbers. */
export interface Span {
  traceId: string;
  spanId: string;
  traceState: string;
  parentSpanId: string;
  flags: number;
  name: string;
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  events: SpanEvent[];
  droppedEventsCount: number;
  links: SpanLink[];
  droppedLinksCount: number;
  status: { code: number; message: string };
}

/** Spans of one scope. */
export interface ScopeSpans {
  scope: InstrumentationScope;
  spans: Span[];
  schemaUrl: string;
}

/** Spans of one resource. */
export interface ResourceSpans {
  resource: Resource;
  scopeSpans: ScopeSpans[];
  schemaUrl: string;
}

/** `ExportTraceServiceRequest`. */
export interface ExportTraceRequest {
  resourceSpans: ResourceSpans[];
}

/** `Span.SpanKind` names by number. */
export const SPAN_KINDS = [
  "SPAN_KIND_UNSPECIFIED",
  "SPAN_KIND_INTERNAL",
  "SPAN_KIND_SERVER",
  "SPAN_KIND_CLIENT",
  "SPAN_KIND_PRODUCER",
  "SPAN_KIND_CONSUMER",
] as const;

/** `Status.StatusCode` names by number. */
export const STATUS_CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"] as const;

// ---- logs ---------------------------------------------------------------------------------------

/** One log record; `body` is null when absent. */
export interface LogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  body: AnyValue | null;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  flags: number;
  traceId: string;
  spanId: string;
  eventName: string;
}

/** Log records of one scope. */
export interface ScopeLogs {
  scope: InstrumentationScope;
  logRecords: LogRecord[];
  schemaUrl: string;
}

/** Log records of one resource. */
export interface ResourceLogs {
  resource: Resource;
  scopeLogs: ScopeLogs[];
  schemaUrl: string;
}

/** `ExportLogsServiceRequest`. */
export interface ExportLogsRequest {
  resourceLogs: ResourceLogs[];
}

/** `SeverityNumber` names by number (`SEVERITY_NUMBER_` + these). */
export const SEVERITY_NAMES = [
  "UNSPECIFIED",
  "TRACE",
  "TRACE2",
  "TRACE3",
  "TRACE4",
  "DEBUG",
  "DEBUG2",
  "DEBUG3",
  "DEBUG4",
  "INFO",
  "INFO2",
  "INFO3",
  "INFO4",
  "WARN",
  "WARN2",
  "WARN3",
  "WARN4",
  "ERROR",
  "ERROR2",
  "ERROR3",
  "ERROR4",
  "FATAL",
  "FATAL2",
  "FATAL3",
  "FATAL4",
] as const;

/** An empty scope (a message without one decodes to this). */
export function emptyScope(): InstrumentationScope {
  return { name: "", version: "", attributes: [], droppedAttributesCount: 0 };
}

/** An empty resource. */
export function emptyResource(): Resource {
  return { attributes: [], droppedAttributesCount: 0 };
}
