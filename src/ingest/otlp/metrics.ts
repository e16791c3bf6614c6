/**
 * OTLP metrics → metric-engine series in GreptimeDB's non-legacy (`otlp_metric_compat = 'prom'`)
 * model (reference §7.3): one series per data point, `__name__` the translated metric name, labels
 * from the point's attributes, the promoted resource attributes (plus `job` and `instance`) and,
 * on request, the scope; histograms as `_bucket`/`_sum`/`_count`, summaries as quantiles plus
 * `_sum`/`_count`. Exponential histograms are not stored (GreptimeDB ignores them); they are
 * counted as rejected so the caller can report them in `partial_success`. The table options a
 * created table gets (`greptime.semantic.*`, `otlp_metric_compat`) come back beside the series.
 */
import type { TableOptions } from "../../common/rows.ts";
import type { Sample, Series } from "../../common/series.ts";
import type {
  ExportMetricsRequest,
  HistogramDataPoint,
  InstrumentationScope,
  KeyValue,
  Metric,
  NumberDataPoint,
  Resource,
  SummaryDataPoint,
} from "../../protocols/otlp/model.ts";
import { labelName, type MetricKind, metricName, rustF64 } from "./metric_names.ts";
import type { OtlpMetricOptions } from "./metric_options.ts";

/** The `le` of the overflow bucket (GreptimeDB writes `inf`; Prometheus tooling expects `+Inf`). */
export const OVERFLOW_BUCKET_LE = "+Inf";

/** Resource attributes promoted to labels by default (GreptimeDB's list). */
export const DEFAULT_PROMOTED_RESOURCE_ATTRS: readonly string[] = [
  "service.instance.id",
  "service.name",
  "service.namespace",
  "service.version",
  "cloud.availability_zone",
  "cloud.region",
  "container.name",
  "deployment.environment",
  "deployment.environment.name",
  "k8s.cluster.name",
  "k8s.container.name",
  "k8s.cronjob.name",
  "k8s.daemonset.name",
  "k8s.deployment.name",
  "k8s.job.name",
  "k8s.namespace.name",
  "k8s.pod.name",
  "k8s.replicaset.name",
  "k8s.statefulset.name",
];

/** What a metrics request becomes. */
export interface OtlpMetricSeries {
  /** One series per data point (per bucket, quantile, `_sum`, `_count`), labels incl. `__name__`. */
  series: Series[];
  /** Options for each metric table the series name, applied when a write creates it. */
  tables: Map<string, TableOptions>;
  /** Samples in `series`. */
  samples: number;
  /** Data points not stored (exponential histograms, points without a value). */
  rejectedDataPoints: number;
  /** Why, for `partial_success.error_message` ("" when nothing was rejected). */
  rejectedMessage: string;
}

/** The label value of an attribute (string as is, int and double as text); null: not a label. */
export function labelValue(kv: KeyValue): string | null {
  const v = kv.value;
  switch (v.type) {
    case "string":
      return v.value;
    case "int":
      return String(v.value);
    case "double":
      return rustF64(v.value);
    default:
      return null;
  }
}

function addAttributes(
  labels: Record<string, string>,
  attrs: KeyValue[],
  escape: boolean,
  prefix = "",
): void {
  for (let i = 0; i < attrs.length; i++) {
    const v = labelValue(attrs[i]);
    if (v !== null) labels[prefix + labelName(attrs[i].key, escape)] = v;
  }
}

/** The labels a resource gives each of its points (promoted attributes, `job`, `instance`). */
export function resourceLabels(
  res: Resource,
  opts: OtlpMetricOptions,
  escape: boolean,
): Record<string, string> {
  const labels: Record<string, string> = {};
  const promote = opts.promoteAllResourceAttrs
    ? (k: string) => !opts.ignoreResourceAttrs.includes(k)
    : (k: string) => DEFAULT_PROMOTED_RESOURCE_ATTRS.includes(k) || opts.promoteResourceAttrs.includes(k);
  let job: string | null = null, instance: string | null = null;
  for (const kv of res.attributes) {
    const v = labelValue(kv);
    if (v === null) continue;
    if (kv.key === "service.name") job = v;
    else if (kv.key === "service.instance.id") instance = v;
    if (promote(kv.key)) labels[labelName(kv.key, escape)] = v;
  }
  if (job !== null) labels.job = job;
  if (instance !== null) labels.instance = instance;
  return labels;
}

/** The labels of a scope's points: the resource's, plus the scope's when they are promoted. */
export function scopeBase(
  resLabels: Record<string, string>,
  scope: InstrumentationScope,
  schemaUrl: string,
  opts: OtlpMetricOptions,
  escape: boolean,
): Record<string, string> {
  return opts.promoteScopeAttrs ? scopeLabels(resLabels, scope, schemaUrl, escape) : resLabels;
}

function scopeLabels(
  base: Record<string, string>,
  scope: InstrumentationScope,
  schemaUrl: string,
  escape: boolean,
): Record<string, string> {
  const labels = { ...base };
  labels.otel_scope_name = scope.name;
  labels.otel_scope_version = scope.version;
  labels.otel_scope_schema_url = schemaUrl;
  addAttributes(labels, scope.attributes, escape, "otel_scope_");
  return labels;
}

let lastNs = 0n, lastMs = 0;

/** Nanoseconds since the epoch → whole milliseconds (floor); the points of an export mostly share one time. */
function toMs(ns: bigint): number {
  if (ns !== lastNs) {
    lastMs = Number(ns / 1_000_000n);
    lastNs = ns;
  }
  return lastMs;
}

/**
 * Where a request's data points go, with the table options and rejections gathered on the way: a
 * series list here, or keyed metric-engine writes (`metric_writes.ts`).
 */
export abstract class PointsOut {
  tables = new Map<string, TableOptions>();
  samples = 0;
  rejected = 0;
  reasons = new Set<string>();

  /** Adds a one-sample series; `extra` (`le`, `quantile`) wins over a point attribute of its name. */
  abstract push(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    s: Sample,
    extraName?: string,
    extraValue?: string,
  ): void;

  /** Adds a gauge's or sum's point: `push` of the sample, which a subclass may skip building. */
  pushNumber(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    timestampMs: number,
    value: number,
  ): void {
    this.push(name, base, attrs, escape, { timestampMs, value });
  }

  table(name: string, m: Metric, type: string, temporality: number | null): void {
    if (this.tables.has(name)) return;
    const o: TableOptions = {
      "greptime.semantic.signal_type": "metric",
      "greptime.semantic.source": "opentelemetry",
      "greptime.semantic.metric.metadata_quality": "declared",
      "greptime.semantic.metric.type": type,
      otlp_metric_compat: "prom",
    };
    if (temporality === 1) o["greptime.semantic.metric.temporality"] = "delta";
    if (temporality === 2) o["greptime.semantic.metric.temporality"] = "cumulative";
    if (m.unit !== "") o["greptime.semantic.metric.unit"] = m.unit;
    if (name !== m.name) o["greptime.semantic.metric.original_name"] = m.name;
    this.tables.set(name, o);
  }

  reject(n: number, why: string): void {
    if (n === 0) return;
    this.rejected += n;
    this.reasons.add(why);
  }

  /** For `partial_success.error_message` ("" when nothing was rejected). */
  rejectedMessage(): string {
    return this.rejected === 0
      ? ""
      : `Rejected ${this.rejected} data points: ${[...this.reasons].join("; ")}`;
  }
}

/** The labels of a point as the series path stores them: `__name__`, base, attributes, extra. */
export function pointLabels(
  name: string,
  base: Record<string, string>,
  attrs: KeyValue[],
  escape: boolean,
  extraName = "",
  extraValue = "",
): Record<string, string> {
  const labels: Record<string, string> = { __name__: name, ...base };
  addAttributes(labels, attrs, escape);
  if (extraName !== "") labels[extraName] = extraValue;
  labels.__name__ = name;
  return labels;
}

/** Gathers the points as one-sample series. */
class SeriesOut extends PointsOut {
  series: Series[] = [];

  push(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    s: Sample,
    extraName = "",
    extraValue = "",
  ): void {
    this.series.push({ labels: pointLabels(name, base, attrs, escape, extraName, extraValue), samples: [s] });
    this.samples++;
  }
}

/** Translates a decoded metrics request into series (pure; no storage). */
export function otlpMetricsToSeries(req: ExportMetricsRequest, opts: OtlpMetricOptions): OtlpMetricSeries {
  const out = new SeriesOut();
  translateMetrics(req, opts, out);
  return {
    series: out.series,
    tables: out.tables,
    samples: out.samples,
    rejectedDataPoints: out.rejected,
    rejectedMessage: out.rejectedMessage(),
  };
}

/** Translates a decoded metrics request point by point into `out` (pure; no storage). */
export function translateMetrics(req: ExportMetricsRequest, opts: OtlpMetricOptions, out: PointsOut): void {
  const escape = opts.translationStrategy.startsWith("UnderscoreEscaping");
  for (const rm of req.resourceMetrics) {
    const resLabels = resourceLabels(rm.resource, opts, escape);
    for (const sm of rm.scopeMetrics) {
      const base = scopeBase(resLabels, sm.scope, sm.schemaUrl, opts, escape);
      for (const m of sm.metrics) translateMetric(out, m, base, opts, escape);
    }
  }
}

/** Translates one metric's points into `out`. */
export function translateMetric(
  out: PointsOut,
  m: Metric,
  base: Record<string, string>,
  opts: OtlpMetricOptions,
  escape: boolean,
): void {
  const d = m.data;
  if (d === null) return;
  const strategy = opts.translationStrategy;
  switch (d.type) {
    case "gauge":
    case "sum": {
      const sum = d.type === "sum";
      const name = numberMetricName(
        out,
        m,
        sum,
        sum && d.isMonotonic,
        sum ? d.aggregationTemporality : 0,
        opts,
      );
      numberPoints(out, name, d.dataPoints, base, escape);
      return;
    }
    case "histogram": {
      const name = metricName(m.name, m.unit, "histogram", strategy);
      for (const suffix of ["_bucket", "_sum", "_count"]) {
        out.table(name + suffix, m, "histogram", d.aggregationTemporality);
      }
      for (const p of d.dataPoints) histogramPoint(out, name, p, base, escape);
      return;
    }
    case "summary": {
      const name = metricName(m.name, m.unit, "summary", strategy);
      for (const suffix of ["", "_sum", "_count"]) out.table(name + suffix, m, "summary", null);
      for (const p of d.dataPoints) summaryPoint(out, name, p, base, escape);
      return;
    }
    case "exponentialHistogram":
      out.reject(d.dataPoints.length, `exponential histograms are not supported (metric ${m.name})`);
      return;
  }
}

/** The series name of a gauge (`sum` false) or sum, its table's options noted in `out`. */
export function numberMetricName(
  out: PointsOut,
  m: Metric,
  sum: boolean,
  monotonic: boolean,
  temporality: number,
  opts: OtlpMetricOptions,
): string {
  const kind: MetricKind = !sum ? "gauge" : monotonic ? "monotonic_sum" : "sum";
  const name = metricName(m.name, m.unit, kind, opts.translationStrategy);
  const type = !sum ? "gauge" : monotonic ? "counter" : "updown_counter";
  out.table(name, m, type, sum ? temporality : null);
  return name;
}

/** Why points of a gauge or sum without a value are rejected. */
export const NO_VALUE = "data points without a value";

function numberPoints(
  out: PointsOut,
  name: string,
  points: NumberDataPoint[],
  base: Record<string, string>,
  escape: boolean,
): void {
  let missing = 0;
  for (const p of points) {
    if (p.value === null) {
      missing++;
      continue;
    }
    out.push(name, base, p.attributes, escape, { timestampMs: toMs(p.timeUnixNano), value: p.value });
  }
  out.reject(missing, NO_VALUE);
}

function histogramPoint(
  out: PointsOut,
  name: string,
  p: HistogramDataPoint,
  base: Record<string, string>,
  escape: boolean,
): void {
  const ts = toMs(p.timeUnixNano);
  const bucket = name + "_bucket";
  let cumulative = 0;
  for (let i = 0; i < p.bucketCounts.length; i++) {
    cumulative += p.bucketCounts[i];
    const last = i >= p.explicitBounds.length;
    const le = last ? OVERFLOW_BUCKET_LE : rustF64(p.explicitBounds[i]);
    out.push(bucket, base, p.attributes, escape, { timestampMs: ts, value: cumulative }, "le", le);
    if (last) break;
  }
  if (p.sum !== null) out.push(name + "_sum", base, p.attributes, escape, { timestampMs: ts, value: p.sum });
  out.push(name + "_count", base, p.attributes, escape, { timestampMs: ts, value: p.count });
}

function summaryPoint(
  out: PointsOut,
  name: string,
  p: SummaryDataPoint,
  base: Record<string, string>,
  escape: boolean,
): void {
  const ts = toMs(p.timeUnixNano);
  for (const q of p.quantileValues) {
    const quantile = rustF64(q.quantile);
    out.push(name, base, p.attributes, escape, { timestampMs: ts, value: q.value }, "quantile", quantile);
  }
  out.push(name + "_count", base, p.attributes, escape, { timestampMs: ts, value: p.count });
  out.push(name + "_sum", base, p.attributes, escape, { timestampMs: ts, value: p.sum });
}
