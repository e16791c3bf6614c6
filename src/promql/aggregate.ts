/**
 * Aggregations over step columns. Groups are fixed per series (labels do not change across steps),
 * so each input series is assigned its group once and folded into per-group arrays.
 */
import type { AggregateExpr } from "./ast.ts";
import { aggregateSelect } from "./aggregate_select.ts";
import { executionError } from "./errors.ts";
import type { Evaluator } from "./evaluator.ts";
import { kahanSumInc, quantile } from "./functions/kahan.ts";
import { groupingLabels, isValidLabelName, labelsKey } from "./labels.ts";
import { formatFloatF } from "./printer.ts";
import type { Labels, StepGrid, StepSeries, StepValue } from "./values.ts";

/** Input series assigned to groups in order of first appearance. */
export interface Groups {
  labels: Labels[];
  /** Group index of each input series. */
  of: Int32Array;
  members: number[][];
}

/** Groups series by the aggregation's `by`/`without` labels. */
export function groupSeries(series: StepSeries[], grouping: string[], without: boolean): Groups {
  const index = new Map<string, number>();
  const labels: Labels[] = [], members: number[][] = [];
  const of = new Int32Array(series.length);
  series.forEach((s, k) => {
    const gl = groupingLabels(s.labels, grouping, without);
    const key = labelsKey(gl);
    let g = index.get(key);
    if (g === undefined) {
      g = labels.length;
      index.set(key, g);
      labels.push(gl);
      members.push([]);
    }
    of[k] = g;
    members[g].push(k);
  });
  return { labels, of, members };
}

/** Evaluates an aggregation of an already evaluated vector. */
export function evalAggregate(ev: Evaluator, e: AggregateExpr, input: StepValue, grid: StepGrid): StepValue {
  if (input.kind !== "vector") throw executionError("aggregation over a non-vector");
  const param = e.param === null ? null : ev.eval(e.param, grid);
  const series = input.series;
  if (e.op === "count_values") return countValues(e, series, param, grid);
  if (e.op === "topk" || e.op === "bottomk" || e.op === "limitk" || e.op === "limit_ratio") {
    return {
      kind: "vector",
      series: aggregateSelect(
        e.op,
        series,
        groupSeries(series, e.grouping, e.without),
        scalarParam(param, grid),
        grid,
      ),
    };
  }
  const groups = groupSeries(series, e.grouping, e.without);
  if (e.op === "quantile") {
    return { kind: "vector", series: quantileAgg(series, groups, scalarParam(param, grid), grid) };
  }
  return { kind: "vector", series: foldAggregate(e.op, series, groups, grid.n) };
}

function scalarParam(param: StepValue | null, grid: StepGrid): Float64Array {
  return param !== null && param.kind === "scalar" ? param.values : new Float64Array(grid.n).fill(NaN);
}

/** sum, avg, count, min, max, group, stddev, stdvar: one pass over the input, group arrays per step. */
function foldAggregate(op: string, series: StepSeries[], groups: Groups, n: number): StepSeries[] {
  const G = groups.labels.length;
  const value = new Float64Array(G * n), comp = new Float64Array(G * n), count = new Float64Array(G * n);
  const mean = new Float64Array(op === "avg" || op === "stddev" || op === "stdvar" ? G * n : 0);
  const incremental = op === "avg" ? new Uint8Array(G * n) : null;
  for (let k = 0; k < series.length; k++) {
    const s = series[k], base = groups.of[k] * n;
    const vals = s.values, pres = s.present;
    for (let i = 0; i < n; i++) {
      if (!pres[i]) continue;
      const f = vals[i], j = base + i;
      const c = ++count[j];
      if (c === 1) {
        value[j] = op === "stddev" || op === "stdvar"
          ? (Number.isFinite(f) ? 0 : NaN)
          : op === "group"
          ? 1
          : f;
        if (mean.length > 0) mean[j] = f;
        continue;
      }
      switch (op) {
        case "sum": {
          const [t, cc] = kahanSumInc(f, value[j], comp[j]);
          value[j] = t;
          comp[j] = cc;
          break;
        }
        case "avg":
          avgStep(j, f, c, value, comp, mean, incremental!);
          break;
        case "min":
          if (value[j] > f || value[j] !== value[j]) value[j] = f;
          break;
        case "max":
          if (value[j] < f || value[j] !== value[j]) value[j] = f;
          break;
        case "stddev":
        case "stdvar": {
          const delta = f - mean[j];
          mean[j] += delta / c;
          value[j] += delta * (f - mean[j]);
          break;
        }
      }
    }
  }
  const out: StepSeries[] = [];
  for (let g = 0; g < G; g++) {
    const values = new Float64Array(n), present = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const j = g * n + i, c = count[j];
      if (c === 0) continue;
      present[i] = 1;
      values[i] = finish(op, j, c, value, comp, mean, incremental);
    }
    out.push({ labels: groups.labels[g], values, present });
  }
  return out;
}

function finish(
  op: string,
  j: number,
  c: number,
  value: Float64Array,
  comp: Float64Array,
  mean: Float64Array,
  incremental: Uint8Array | null,
): number {
  switch (op) {
    case "sum":
      return value[j] === Infinity || value[j] === -Infinity ? value[j] : value[j] + comp[j];
    case "avg":
      if (c === 1) return value[j];
      return incremental![j] ? mean[j] + comp[j] : (value[j] + comp[j]) / c;
    case "count":
      return c;
    case "stddev":
      return Math.sqrt(value[j] / c);
    case "stdvar":
      return value[j] / c;
    default:
      return value[j];
  }
}

/** Prometheus 3's avg: a Kahan sum, switching to an incremental mean once the sum would overflow. */
function avgStep(
  j: number,
  f: number,
  c: number,
  value: Float64Array,
  comp: Float64Array,
  mean: Float64Array,
  incremental: Uint8Array,
): void {
  if (!incremental[j]) {
    const [t, cc] = kahanSumInc(f, value[j], comp[j]);
    if (t !== Infinity && t !== -Infinity) {
      value[j] = t;
      comp[j] = cc;
      return;
    }
    incremental[j] = 1;
    mean[j] = value[j] / (c - 1);
    comp[j] /= c - 1;
  }
  const q = (c - 1) / c;
  const [m, cc] = kahanSumInc(f / c, q * mean[j], q * comp[j]);
  mean[j] = m;
  comp[j] = cc;
}

function quantileAgg(series: StepSeries[], groups: Groups, q: Float64Array, grid: StepGrid): StepSeries[] {
  return groups.labels.map((labels, g) => {
    const values = new Float64Array(grid.n), present = new Uint8Array(grid.n);
    const buf: number[] = [];
    for (let i = 0; i < grid.n; i++) {
      buf.length = 0;
      for (const k of groups.members[g]) if (series[k].present[i]) buf.push(series[k].values[i]);
      if (buf.length === 0) continue;
      values[i] = quantile(q[i], buf);
      present[i] = 1;
    }
    return { labels, values, present };
  });
}

function countValues(
  e: AggregateExpr,
  series: StepSeries[],
  param: StepValue | null,
  grid: StepGrid,
): StepValue {
  const label = param?.kind === "string" ? param.value : "";
  if (!isValidLabelName(label)) throw executionError(`invalid label name ${JSON.stringify(label)}`);
  const grouping = e.without ? e.grouping : [...e.grouping, label];
  const out = new Map<string, StepSeries>();
  for (let i = 0; i < grid.n; i++) {
    for (const s of series) {
      if (!s.present[i]) continue;
      const labels = groupingLabels({ ...s.labels, [label]: formatFloatF(s.values[i]) }, grouping, e.without);
      const key = labelsKey(labels);
      let o = out.get(key);
      if (o === undefined) {
        o = { labels, values: new Float64Array(grid.n), present: new Uint8Array(grid.n) };
        out.set(key, o);
      }
      o.values[i]++;
      o.present[i] = 1;
    }
  }
  return { kind: "vector", series: [...out.values()] };
}
