/** OTLP JSON `ExportMetricsServiceRequest` → the typed model. */
import type {
  ExponentialBuckets,
  ExponentialHistogramDataPoint,
  ExportMetricsRequest,
  HistogramDataPoint,
  Metric,
  MetricData,
  NumberDataPoint,
  SummaryDataPoint,
} from "./model.ts";
import {
  asObj,
  bad,
  bool,
  double,
  enumField,
  field,
  int32,
  int64Big,
  int64Num,
  keyValues,
  type Obj,
  objs,
  parseTop,
  resource,
  scope,
  str,
  toDouble,
} from "./json_common.ts";

const TEMPORALITY = [
  "AGGREGATION_TEMPORALITY_UNSPECIFIED",
  "AGGREGATION_TEMPORALITY_DELTA",
  "AGGREGATION_TEMPORALITY_CUMULATIVE",
];

/** Decodes OTLP JSON text of an `ExportMetricsServiceRequest` (throws OtlpShapeError). */
export function decodeMetricsJson(text: string): ExportMetricsRequest {
  const top = parseTop(text);
  return {
    resourceMetrics: objs(top, "resourceMetrics", "resource_metrics", "ExportMetricsServiceRequest").map((
      rm,
    ) => ({
      resource: resource(rm),
      schemaUrl: str(rm, "schemaUrl", "schema_url", "ResourceMetrics"),
      scopeMetrics: objs(rm, "scopeMetrics", "scope_metrics", "ResourceMetrics").map((sm) => ({
        scope: scope(sm),
        schemaUrl: str(sm, "schemaUrl", "schema_url", "ScopeMetrics"),
        metrics: objs(sm, "metrics", "metrics", "ScopeMetrics").map(metric),
      })),
    })),
  };
}

function metric(o: Obj): Metric {
  return {
    name: str(o, "name", "name", "Metric"),
    description: str(o, "description", "description", "Metric"),
    unit: str(o, "unit", "unit", "Metric"),
    data: data(o),
    metadata: keyValues(o, "metadata", "metadata"),
  };
}

function data(o: Obj): MetricData | null {
  let d: unknown;
  if ((d = field(o, "gauge", "gauge")) !== undefined) {
    return { type: "gauge", dataPoints: points(d, "Gauge").map(numberPoint) };
  }
  if ((d = field(o, "sum", "sum")) !== undefined) {
    const s = asObj(d, "Metric.sum");
    return {
      type: "sum",
      dataPoints: points(s, "Sum").map(numberPoint),
      aggregationTemporality: temporality(s, "Sum"),
      isMonotonic: bool(s, "isMonotonic", "is_monotonic", "Sum"),
    };
  }
  if ((d = field(o, "histogram", "histogram")) !== undefined) {
    const h = asObj(d, "Metric.histogram");
    return {
      type: "histogram",
      dataPoints: points(h, "Histogram").map(histogramPoint),
      aggregationTemporality: temporality(h, "Histogram"),
    };
  }
  if ((d = field(o, "exponentialHistogram", "exponential_histogram")) !== undefined) {
    const h = asObj(d, "Metric.exponentialHistogram");
    return {
      type: "exponentialHistogram",
      dataPoints: points(h, "ExponentialHistogram").map(expPoint),
      aggregationTemporality: temporality(h, "ExponentialHistogram"),
    };
  }
  if ((d = field(o, "summary", "summary")) !== undefined) {
    return { type: "summary", dataPoints: points(d, "Summary").map(summaryPoint) };
  }
  return null;
}

function points(d: unknown, msg: string): Obj[] {
  return objs(asObj(d, msg), "dataPoints", "data_points", msg);
}

function temporality(o: Obj, msg: string): number {
  return enumField(o, "aggregationTemporality", "aggregation_temporality", msg, TEMPORALITY);
}

function numberPoint(o: Obj): NumberDataPoint {
  const M = "NumberDataPoint";
  let value: number | null = null, isInt = false;
  const asInt = field(o, "asInt", "as_int");
  const asDouble = field(o, "asDouble", "as_double");
  if (asInt !== undefined) {
    value = int64Num(o, "asInt", "as_int", M);
    isInt = true;
  } else if (asDouble !== undefined) value = toDouble(asDouble, M, "asDouble");
  return {
    attributes: keyValues(o, "attributes", "attributes"),
    startTimeUnixNano: int64Big(o, "startTimeUnixNano", "start_time_unix_nano", M),
    timeUnixNano: int64Big(o, "timeUnixNano", "time_unix_nano", M),
    value,
    isInt,
    flags: int32(o, "flags", "flags", M),
  };
}

function numbers(o: Obj, camel: string, snake: string, msg: string, ints: boolean): number[] {
  const v = field(o, camel, snake);
  if (v === undefined) return [];
  if (!Array.isArray(v)) bad(msg, camel, "an array");
  return v.map((x) => {
    if (!ints) return toDouble(x, msg, camel);
    if (typeof x === "number" && Number.isInteger(x) && x >= 0) return x;
    if (typeof x === "string" && /^[0-9]+$/.test(x)) return Number(x);
    bad(msg, camel, "an array of unsigned integers");
  });
}

function histogramPoint(o: Obj): HistogramDataPoint {
  const M = "HistogramDataPoint";
  return {
    attributes: keyValues(o, "attributes", "attributes"),
    startTimeUnixNano: int64Big(o, "startTimeUnixNano", "start_time_unix_nano", M),
    timeUnixNano: int64Big(o, "timeUnixNano", "time_unix_nano", M),
    count: int64Num(o, "count", "count", M),
    sum: double(o, "sum", "sum", M, null),
    bucketCounts: numbers(o, "bucketCounts", "bucket_counts", M, true),
    explicitBounds: numbers(o, "explicitBounds", "explicit_bounds", M, false),
    flags: int32(o, "flags", "flags", M),
    min: double(o, "min", "min", M, null),
    max: double(o, "max", "max", M, null),
  };
}

function buckets(v: unknown): ExponentialBuckets {
  if (v === undefined) return { offset: 0, bucketCounts: [] };
  const b = asObj(v, "ExponentialHistogramDataPoint.Buckets");
  return {
    offset: int32(b, "offset", "offset", "Buckets"),
    bucketCounts: numbers(b, "bucketCounts", "bucket_counts", "Buckets", true),
  };
}

function expPoint(o: Obj): ExponentialHistogramDataPoint {
  const M = "ExponentialHistogramDataPoint";
  return {
    attributes: keyValues(o, "attributes", "attributes"),
    startTimeUnixNano: int64Big(o, "startTimeUnixNano", "start_time_unix_nano", M),
    timeUnixNano: int64Big(o, "timeUnixNano", "time_unix_nano", M),
    count: int64Num(o, "count", "count", M),
    sum: double(o, "sum", "sum", M, null),
    scale: int32(o, "scale", "scale", M),
    zeroCount: int64Num(o, "zeroCount", "zero_count", M),
    positive: buckets(field(o, "positive", "positive")),
    negative: buckets(field(o, "negative", "negative")),
    flags: int32(o, "flags", "flags", M),
    min: double(o, "min", "min", M, null),
    max: double(o, "max", "max", M, null),
    zeroThreshold: double(o, "zeroThreshold", "zero_threshold", M, 0),
  };
}

function summaryPoint(o: Obj): SummaryDataPoint {
  const M = "SummaryDataPoint";
  return {
    attributes: keyValues(o, "attributes", "attributes"),
    startTimeUnixNano: int64Big(o, "startTimeUnixNano", "start_time_unix_nano", M),
    timeUnixNano: int64Big(o, "timeUnixNano", "time_unix_nano", M),
    count: int64Num(o, "count", "count", M),
    sum: double(o, "sum", "sum", M, 0),
    quantileValues: objs(o, "quantileValues", "quantile_values", M).map((q) => ({
      quantile: double(q, "quantile", "quantile", "ValueAtQuantile", 0),
      value: double(q, "value", "value", "ValueAtQuantile", 0),
    })),
    flags: int32(o, "flags", "flags", M),
  };
}
