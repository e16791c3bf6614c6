/** Protobuf `ExportMetricsServiceRequest` → the typed model (proto/metrics.proto for field numbers). */
import type {
  ExponentialBuckets,
  ExponentialHistogramDataPoint,
  ExportMetricsRequest,
  HistogramDataPoint,
  KeyValue,
  Metric,
  MetricData,
  NumberDataPoint,
  ResourceMetrics,
  ScopeMetrics,
  SummaryDataPoint,
} from "./model.ts";
import { emptyResource, emptyScope } from "./model.ts";
import {
  PbReader,
  readDoubles,
  readFixed64s,
  readKeyValue,
  readResource,
  readScope,
  readUint64s,
} from "./pb_common.ts";

/** Decodes the bytes of an `ExportMetricsServiceRequest` (throws ProtoDecodeError when malformed). */
export function decodeMetricsProto(body: Uint8Array): ExportMetricsRequest {
  const r = new PbReader(body);
  const out: ExportMetricsRequest = { resourceMetrics: [] };
  while (r.more()) {
    const t = r.tag();
    if (t === 10) out.resourceMetrics.push(readResourceMetrics(r));
    else r.skip(t & 7);
  }
  return out;
}

function readResourceMetrics(r: PbReader): ResourceMetrics {
  const end = r.msgEnd();
  const rm: ResourceMetrics = { resource: emptyResource(), scopeMetrics: [], schemaUrl: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) rm.resource = readResource(r);
    else if (t === 18) rm.scopeMetrics.push(readScopeMetrics(r));
    else if (t === 26) rm.schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  return rm;
}

function readScopeMetrics(r: PbReader): ScopeMetrics {
  const end = r.msgEnd();
  const sm: ScopeMetrics = { scope: emptyScope(), metrics: [], schemaUrl: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) sm.scope = readScope(r);
    else if (t === 18) sm.metrics.push(readMetric(r));
    else if (t === 26) sm.schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  return sm;
}

function readMetric(r: PbReader): Metric {
  const end = r.msgEnd();
  const m: Metric = { name: "", description: "", unit: "", data: null, metadata: [] };
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 10:
        m.name = r.str();
        break;
      case 18:
        m.description = r.str();
        break;
      case 26:
        m.unit = r.str();
        break;
      case 42: // gauge
      case 58: // sum
      case 74: // histogram
      case 82: // exponential_histogram
      case 90: // summary
        m.data = readData(r, t >>> 3);
        break;
      case 98:
        m.metadata.push(readKeyValue(r));
        break;
      default:
        r.skip(t & 7);
    }
  }
  r.close(end);
  return m;
}

/** Gauge, Sum, Histogram, ExponentialHistogram and Summary share fields 1-3; `field` says which. */
export function readData(r: PbReader, field: number): MetricData {
  const end = r.msgEnd();
  // deno-lint-ignore no-explicit-any
  const points: any[] = [];
  let temporality = 0;
  let monotonic = false;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) {
      if (field === 5 || field === 7) points.push(readNumberPoint(r));
      else if (field === 9) points.push(readHistogramPoint(r));
      else if (field === 10) points.push(readExpHistogramPoint(r));
      else points.push(readSummaryPoint(r));
    } else if (t === 16 && field !== 5 && field !== 11) temporality = r.uint32();
    else if (t === 24 && field === 7) monotonic = r.bool();
    else r.skip(t & 7);
  }
  r.close(end);
  switch (field) {
    case 5:
      return { type: "gauge", dataPoints: points };
    case 7:
      return { type: "sum", dataPoints: points, aggregationTemporality: temporality, isMonotonic: monotonic };
    case 9:
      return { type: "histogram", dataPoints: points, aggregationTemporality: temporality };
    case 10:
      return { type: "exponentialHistogram", dataPoints: points, aggregationTemporality: temporality };
    default:
      return { type: "summary", dataPoints: points };
  }
}

function readNumberPoint(r: PbReader): NumberDataPoint {
  const end = r.msgEnd();
  const attributes: KeyValue[] = [];
  let start = 0n, time = 0n, value: number | null = null, isInt = false, flags = 0;
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 58:
        attributes.push(readKeyValue(r));
        break;
      case 17:
        start = r.fixed64();
        break;
      case 25:
        time = r.fixed64();
        break;
      case 33:
        value = r.f64();
        isInt = false;
        break;
      case 49:
        value = r.sfixed64Number();
        isInt = true;
        break;
      case 64:
        flags = r.uint32();
        break;
      default: // exemplars (5) and unknown fields
        r.skip(t & 7);
    }
  }
  r.close(end);
  return { attributes, startTimeUnixNano: start, timeUnixNano: time, value, isInt, flags };
}

function readHistogramPoint(r: PbReader): HistogramDataPoint {
  const end = r.msgEnd();
  const p: HistogramDataPoint = {
    attributes: [],
    startTimeUnixNano: 0n,
    timeUnixNano: 0n,
    count: 0,
    sum: null,
    bucketCounts: [],
    explicitBounds: [],
    flags: 0,
    min: null,
    max: null,
  };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 74) p.attributes.push(readKeyValue(r));
    else if (t === 17) p.startTimeUnixNano = r.fixed64();
    else if (t === 25) p.timeUnixNano = r.fixed64();
    else if (t === 33) p.count = r.fixed64Number();
    else if (t === 41) p.sum = r.f64();
    else if (t === 49 || t === 50) readFixed64s(r, t, p.bucketCounts);
    else if (t === 57 || t === 58) readDoubles(r, t, p.explicitBounds);
    else if (t === 80) p.flags = r.uint32();
    else if (t === 89) p.min = r.f64();
    else if (t === 97) p.max = r.f64();
    else r.skip(t & 7);
  }
  r.close(end);
  return p;
}

function readBuckets(r: PbReader): ExponentialBuckets {
  const end = r.msgEnd();
  const b: ExponentialBuckets = { offset: 0, bucketCounts: [] };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 8) b.offset = r.sint32();
    else if (t === 16 || t === 18) readUint64s(r, t, b.bucketCounts);
    else r.skip(t & 7);
  }
  r.close(end);
  return b;
}

function readExpHistogramPoint(r: PbReader): ExponentialHistogramDataPoint {
  const end = r.msgEnd();
  const p: ExponentialHistogramDataPoint = {
    attributes: [],
    startTimeUnixNano: 0n,
    timeUnixNano: 0n,
    count: 0,
    sum: null,
    scale: 0,
    zeroCount: 0,
    positive: { offset: 0, bucketCounts: [] },
    negative: { offset: 0, bucketCounts: [] },
    flags: 0,
    min: null,
    max: null,
    zeroThreshold: 0,
  };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) p.attributes.push(readKeyValue(r));
    else if (t === 17) p.startTimeUnixNano = r.fixed64();
    else if (t === 25) p.timeUnixNano = r.fixed64();
    else if (t === 33) p.count = r.fixed64Number();
    else if (t === 41) p.sum = r.f64();
    else if (t === 48) p.scale = r.sint32();
    else if (t === 57) p.zeroCount = r.fixed64Number();
    else if (t === 66) p.positive = readBuckets(r);
    else if (t === 74) p.negative = readBuckets(r);
    else if (t === 80) p.flags = r.uint32();
    else if (t === 97) p.min = r.f64();
    else if (t === 105) p.max = r.f64();
    else if (t === 113) p.zeroThreshold = r.f64();
    else r.skip(t & 7);
  }
  r.close(end);
  return p;
}

function readSummaryPoint(r: PbReader): SummaryDataPoint {
  const end = r.msgEnd();
  const p: SummaryDataPoint = {
    attributes: [],
    startTimeUnixNano: 0n,
    timeUnixNano: 0n,
    count: 0,
    sum: 0,
    quantileValues: [],
    flags: 0,
  };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 58) p.attributes.push(readKeyValue(r));
    else if (t === 17) p.startTimeUnixNano = r.fixed64();
    else if (t === 25) p.timeUnixNano = r.fixed64();
    else if (t === 33) p.count = r.fixed64Number();
    else if (t === 41) p.sum = r.f64();
    else if (t === 50) p.quantileValues.push(readQuantile(r));
    else if (t === 64) p.flags = r.uint32();
    else r.skip(t & 7);
  }
  r.close(end);
  return p;
}

function readQuantile(r: PbReader): { quantile: number; value: number } {
  const end = r.msgEnd();
  let quantile = 0, value = 0;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 9) quantile = r.f64();
    else if (t === 17) value = r.f64();
    else r.skip(t & 7);
  }
  r.close(end);
  return { quantile, value };
}
