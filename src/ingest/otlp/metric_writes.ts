/**
 * OTLP metrics straight into metric-engine writes, the fast path of `otlpMetricsToSeries`: each
 * point's series is keyed while translating (its labels without empty values, sorted by name, as
 * storage's `seriesKey` spells them) and a metric's points go as parallel columns (`MetricPoints`),
 * so writing a series Petrel already knows builds no object per point at all. Where each label of a
 * point comes from (a base label, an attribute, the extra `le`/`quantile`) is worked out once per
 * shape (base labels, attribute keys, extra label), not per point. A request that needs the series
 * path's handling (special labels routing to another database or physical table, a label name that
 * is invalid or `__proto__`, an empty metric name) gives null, and the caller takes the series path,
 * which stays the reference semantics.
 */
import type { TableOptions } from "../../common/rows.ts";
import type { Sample } from "../../common/series.ts";
import { DATABASE_LABELS } from "../../common/labels.ts";
import type { ExportMetricsRequest, KeyValue } from "../../protocols/otlp/model.ts";
import { MetricPoints } from "../../storage/mod.ts";
import { labelName } from "./metric_names.ts";
import type { OtlpMetricOptions } from "./metric_options.ts";
import { labelValue, pointLabels, PointsOut, translateMetrics } from "./metrics.ts";

/**
 * Series keys by the values of a shape's point-dependent labels (attributes, the extra label), in
 * name order: a trie per shape, kept across requests, so a known series' key is found by hashing
 * its short label values instead of building and hashing the whole key. Dropped whole past MAX_KEYS
 * keys or MAX_SHAPES shapes, and rebuilt as points come (a key is then built again, never wrong).
 */
type KeyTrie = Map<string, KeyTrie | string>;
const tries = new Map<string, KeyTrie>();
let trieKeys = 0;
const MAX_KEYS = 50_000;
const MAX_SHAPES = 5_000;

/** Where each label of a point comes from, for one shape of point. */
interface Shape {
  base: Record<string, string>;
  extraName: string;
  attrKeys: string[];
  /** The labels' names, sorted as `seriesKey` sorts them (`__name__` left out). */
  names: string[];
  /** Per name: the attribute's index (≥ 0), BASE or EXTRA. */
  from: number[];
  /** Per name taken from the base labels, its value. */
  baseValues: string[];
  /** The positions in `names` whose value depends on the point. */
  varying: number[];
  /** The series keys by the varying values. */
  trie: KeyTrie;
  /** Scratch for one point's varying values. */
  vals: string[];
}

const BASE = -1, EXTRA = -2;
/** Labels the series path routes by or cannot store as a plain property. */
const NOT_FAST = new Set([
  ...DATABASE_LABELS,
  "__physical_table__",
  "x_greptime_physical_table",
  "__proto__",
]);
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Shapes remembered per request (a histogram alternates between its bucket and its sum/count). */
const SHAPES = 4;

/** What a metrics request becomes on the fast path (as `OtlpMetricSeries`, with series by metric). */
export interface OtlpMetricWrites {
  /** Per metric in order of first appearance, its points (one-sample series) by key. */
  metrics: Map<string, MetricPoints>;
  tables: Map<string, TableOptions>;
  samples: number;
  rejectedDataPoints: number;
  rejectedMessage: string;
}

/**
 * Gathers the points as keyed columns by metric; `bailed` when the request needs the series path.
 * OTLP samples are never staleness markers, so a point is its time and value.
 */
class KeyedOut extends PointsOut {
  metrics = new Map<string, MetricPoints>();
  bailed = false;
  private shapes: Shape[] = [];
  private lastName = "";
  private lastPoints: MetricPoints | null = null;

  push(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    s: Sample,
    extraName = "",
    extraValue = "",
  ): void {
    this.point(name, base, attrs, escape, s.timestampMs, s.value, extraName, extraValue);
  }

  override pushNumber(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    timestampMs: number,
    value: number,
  ): void {
    this.point(name, base, attrs, escape, timestampMs, value, "", "");
  }

  private point(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    ts: number,
    value: number,
    extraName: string,
    extraValue: string,
  ): void {
    if (this.bailed) return;
    if (name === "") return this.bail();
    const shape = this.shapeOf(base, attrs, escape, extraName);
    if (shape === null) return this.bail();
    const vals = shape.vals;
    for (let k = 0; k < vals.length; k++) {
      const f = shape.from[shape.varying[k]];
      const v = f >= 0 ? labelValue(attrs[f]) : extraValue;
      // An attribute that is not a label (a bool, a list) leaves an earlier source in charge.
      if (v === null) return this.pointSlow(name, base, attrs, escape, ts, value, extraName, extraValue);
      vals[k] = v;
    }
    this.add(name, keyOf(shape, vals), ts, value);
  }

  /** The general case of one point: labels built as the series path builds them, then keyed. */
  private pointSlow(
    name: string,
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    ts: number,
    value: number,
    extraName: string,
    extraValue: string,
  ): void {
    const labels = pointLabels(name, base, attrs, escape, extraName, extraValue);
    const names = Object.keys(labels).filter((k) => k !== "__name__").sort();
    if (names.some((n) => NOT_FAST.has(n) || !LABEL_NAME.test(n))) return this.bail();
    const parts: string[] = [];
    for (const n of names) if (labels[n] !== "") parts.push(n, labels[n]);
    this.add(name, JSON.stringify(parts), ts, value);
  }

  private add(name: string, key: string, ts: number, value: number): void {
    let points = this.lastPoints;
    if (points === null || this.lastName !== name) {
      let found = this.metrics.get(name);
      if (found === undefined) this.metrics.set(name, found = new MetricPoints());
      this.lastName = name;
      this.lastPoints = points = found;
    }
    points.add(key, ts, value);
    this.samples++;
  }

  private bail(): void {
    this.bailed = true;
    this.metrics.clear();
    this.lastPoints = null;
  }

  /** The shape of a point (cached); null when its labels need the series path. */
  private shapeOf(
    base: Record<string, string>,
    attrs: KeyValue[],
    escape: boolean,
    extraName: string,
  ): Shape | null {
    for (const shape of this.shapes) {
      if (shape.base !== base || shape.extraName !== extraName) continue;
      const keys = shape.attrKeys;
      if (keys.length !== attrs.length) continue;
      let same = true;
      for (let i = 0; same && i < keys.length; i++) same = keys[i] === attrs[i].key;
      if (same) return shape;
    }
    const shape = buildShape(base, attrs, escape, extraName);
    if (shape === null) return null;
    if (this.shapes.length >= SHAPES) this.shapes.pop();
    this.shapes.unshift(shape);
    return shape;
  }
}

function buildShape(
  base: Record<string, string>,
  attrs: KeyValue[],
  escape: boolean,
  extraName: string,
): Shape | null {
  // The last source of a name wins, as in `pointLabels`: base, then attributes, then the extra label.
  const source = new Map<string, number>();
  for (const k in base) source.set(k, BASE);
  for (let i = 0; i < attrs.length; i++) source.set(labelName(attrs[i].key, escape), i);
  if (extraName !== "") source.set(extraName, EXTRA);
  source.delete("__name__");
  const names = [...source.keys()].sort();
  if (names.some((n) => NOT_FAST.has(n) || !LABEL_NAME.test(n))) return null;
  const from = names.map((n) => source.get(n)!);
  const baseValues = names.map((n, j) => from[j] === BASE ? base[n] : "");
  const signature = JSON.stringify([names, from.map((f) => f === BASE ? BASE : 0), baseValues]);
  const varying = from.flatMap((f, j) => f === BASE ? [] : [j]);
  let trie = tries.get(signature);
  if (trie === undefined) {
    if (tries.size >= MAX_SHAPES) forgetKeys();
    tries.set(signature, trie = new Map());
  }
  return {
    base,
    extraName,
    attrKeys: attrs.map((a) => a.key),
    names,
    from,
    baseValues,
    varying,
    trie,
    vals: new Array(varying.length),
  };
}

function forgetKeys(): void {
  tries.clear();
  trieKeys = 0;
}

/** The series key of a point of `shape` whose varying labels have the values `vals`. */
function keyOf(shape: Shape, vals: string[]): string {
  let node = shape.trie;
  for (let k = 0; k < vals.length - 1; k++) {
    const next = node.get(vals[k]);
    if (next === undefined) {
      node.set(vals[k], node = new Map());
    } else node = next as KeyTrie;
  }
  const last = vals.length === 0 ? "" : vals[vals.length - 1];
  const found = node.get(last);
  if (found !== undefined) return found as string;
  const parts: string[] = [];
  for (let j = 0, k = 0; j < shape.names.length; j++) {
    const v = shape.from[j] === BASE ? shape.baseValues[j] : vals[k++];
    if (v !== "") parts.push(shape.names[j], v);
  }
  const key = JSON.stringify(parts);
  if (++trieKeys > MAX_KEYS) forgetKeys();
  node.set(last, key);
  return key;
}

/** Translates a metrics request into keyed series by metric; null when it needs the series path. */
export function otlpMetricsToWrites(
  req: ExportMetricsRequest,
  opts: OtlpMetricOptions,
): OtlpMetricWrites | null {
  return keyedWrites((out) => translateMetrics(req, opts, out));
}

/** The keyed points by metric of the points `fill` translates; null when they need the series path. */
export function keyedWrites(fill: (out: PointsOut) => void): OtlpMetricWrites | null {
  const out = new KeyedOut();
  fill(out);
  if (out.bailed) return null;
  return {
    metrics: out.metrics,
    tables: out.tables,
    samples: out.samples,
    rejectedDataPoints: out.rejected,
    rejectedMessage: out.rejectedMessage(),
  };
}
