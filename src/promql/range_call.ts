/**
 * Calls of functions over a range vector (`rate(foo[5m])`, `max_over_time(expr[1h:1m])`): each
 * series' window `(ref - range, ref]` slides over the steps with two indices, and the function
 * sees the window as index bounds into typed arrays.
 */
import type { Expr, MatrixSelector, SubqueryExpr, TimeModifiers } from "./ast.ts";
import { unwrapParens } from "./ast.ts";
import { executionError } from "./errors.ts";
import { absentLabels } from "./functions/misc.ts";
import type { FunctionDef, RangeWindow } from "./functions/types.ts";
import { dropMetricName } from "./labels.ts";
import { type Points, pointsOf, upperBound } from "./selector.ts";
import { containsSameLabelset } from "./series_ops.ts";
import type { Evaluator } from "./evaluator.ts";
import { makeGrid, type StepGrid, type StepSeries, type StepValue } from "./values.ts";

/** The series a range expression reads, its range, and the time modifiers that place its windows. */
export interface WindowSources {
  sources: Points[];
  rangeMs: number;
  mods: TimeModifiers;
}

/** The first multiple of `step` strictly after `t` (Prometheus' subquery alignment). */
function alignAfter(t: number, step: number): number {
  return Math.floor(t / step) * step + step;
}

/** Points of a matrix selector, or of a subquery evaluated over the steps the windows need. */
export function windowSources(
  ev: Evaluator,
  e: MatrixSelector | SubqueryExpr,
  grid: StepGrid,
): WindowSources {
  if (e.type === "MatrixSelector") {
    const vs = e.vectorSelector;
    return { sources: ev.seriesOf(vs).map(pointsOf), rangeMs: e.rangeMs, mods: vs };
  }
  const at = ev.atTime(e);
  const firstRef = (at ?? grid.startMs) - e.offsetMs;
  const lastRef = (at ?? grid.times[grid.n - 1]) - e.offsetMs;
  const step = e.stepMs > 0 ? e.stepMs : ev.settings.defaultSubqueryStepMs;
  const start = alignAfter(firstRef - e.rangeMs, step);
  const sources: Points[] = [];
  if (start <= lastRef) {
    const sub = makeGrid(start, lastRef, step);
    const v = ev.eval(e.expr, sub);
    if (v.kind !== "vector") throw executionError("subquery is only allowed on instant vector");
    for (const s of v.series) sources.push(seriesPoints(s, sub));
    ev.release(ev.sizeOf(v));
  }
  return { sources, rangeMs: e.rangeMs, mods: e };
}

function seriesPoints(s: StepSeries, grid: StepGrid): Points {
  let k = 0;
  for (let i = 0; i < grid.n; i++) k += s.present[i];
  const ts = new Float64Array(k), vs = new Float64Array(k);
  k = 0;
  for (let i = 0; i < grid.n; i++) {
    if (!s.present[i]) continue;
    ts[k] = grid.times[i];
    vs[k++] = s.values[i];
  }
  return { labels: s.labels, ts, vs };
}

/** Evaluates a call whose argument list holds one range vector. */
export function evalRangeCall(
  ev: Evaluator,
  e: Expr & { type: "Call" },
  fn: FunctionDef,
  grid: StepGrid,
): StepValue {
  const matrixIndex = e.args.findIndex((a) => {
    const u = unwrapParens(a);
    return u.type === "MatrixSelector" || u.type === "SubqueryExpr";
  });
  if (matrixIndex < 0) throw executionError(`function "${e.func}" needs a range vector argument`);
  const scalarArgs: Float64Array[] = [];
  e.args.forEach((a, i) => {
    if (i === matrixIndex) return;
    const v = ev.eval(a, grid);
    scalarArgs.push(v.kind === "scalar" ? v.values : new Float64Array(grid.n).fill(NaN));
  });
  const rangeExpr = unwrapParens(e.args[matrixIndex]) as MatrixSelector | SubqueryExpr;
  const { sources, rangeMs, mods } = windowSources(ev, rangeExpr, grid);
  const at = ev.atTime(mods);
  const impl = fn.range!;
  const args = new Array<number>(scalarArgs.length);
  const out: StepSeries[] = [];
  const w: RangeWindow = {
    ts: new Float64Array(0),
    vs: new Float64Array(0),
    lo: 0,
    hi: 0,
    rangeStartMs: 0,
    rangeEndMs: 0,
    rangeMs,
    evalMs: 0,
  };
  const n = grid.n, times = grid.times;
  // One block for every series' results, handed out as views: a pair of typed arrays per series
  // costs more than the work when steps are few (an instant query over 1k series).
  let block: Float64Array | null = null, presence: Uint8Array | null = null, used = 0;
  let oneName = true;
  for (let si = 0; si < sources.length; si++) {
    const src = sources[si];
    if ((si & 63) === 0) ev.checkAbort();
    if (oneName && src.labels.__name__ !== sources[0].labels.__name__) oneName = false;
    w.ts = src.ts;
    w.vs = src.vs;
    let lo = 0, hi = 0, prevRef = -Infinity;
    let values: Float64Array | null = null, present: Uint8Array | null = null;
    let held = 0;
    for (let i = 0; i < n; i++) {
      const ref = (at ?? times[i]) - mods.offsetMs;
      if (ref < prevRef) lo = hi = 0;
      prevRef = ref;
      lo = upperBound(src.ts, ref - rangeMs, lo);
      hi = upperBound(src.ts, ref, hi < lo ? lo : hi);
      if (hi <= lo) continue;
      if (hi - lo > held) {
        ev.hold(hi - lo - held);
        held = hi - lo;
      }
      w.lo = lo;
      w.hi = hi;
      w.rangeStartMs = ref - rangeMs;
      w.rangeEndMs = ref;
      w.evalMs = times[i];
      for (let k = 0; k < scalarArgs.length; k++) args[k] = scalarArgs[k][i];
      const v = impl(w, args);
      if (v === undefined) continue;
      if (values === null) {
        if (block === null || used + n > block.length) {
          block = new Float64Array(n * (sources.length - si));
          presence = new Uint8Array(block.length);
          used = 0;
        }
        values = block.subarray(used, used + n);
        present = presence!.subarray(used, used + n);
        used += n;
      }
      values[i] = v;
      present![i] = 1;
    }
    ev.release(held);
    if (values === null) continue;
    out.push({ labels: fn.keepName ? src.labels : dropMetricName(src.labels), values, present: present! });
  }
  if (e.func === "absent_over_time") return absentOverTime(rangeExpr, out, n);
  // A selector's series are distinct, and stay so without a `__name__` they all shared.
  const distinct = rangeExpr.type === "MatrixSelector" && oneName;
  if (!distinct && containsSameLabelset(out)) {
    throw executionError("vector cannot contain metrics with the same labelset");
  }
  return ev.counted(out);
}

/** `absent_over_time`: 1, with the selector's `=` labels, at steps where no series had a sample. */
function absentOverTime(arg: MatrixSelector | SubqueryExpr, found: StepSeries[], n: number): StepValue {
  const values = new Float64Array(n).fill(1), present = new Uint8Array(n).fill(1);
  for (const s of found) for (let i = 0; i < n; i++) if (s.present[i]) present[i] = 0;
  return { kind: "vector", series: [{ labels: absentLabels(arg), values, present }] };
}
