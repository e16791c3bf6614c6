/**
 * The evaluator: every expression is evaluated once for all steps of a grid, as columns (one value
 * and one presence array per series), the way Prometheus' `rangeEval` walks steps, but without a
 * per-step object per sample. Storage data is fetched before evaluation (`prepare.ts`).
 */
import type { Expr, MatrixSelector, SubqueryExpr, TimeModifiers, VectorSelector } from "./ast.ts";
import { unwrapParens } from "./ast.ts";
import { evalAggregate } from "./aggregate.ts";
import { evalBinary } from "./binary.ts";
import { checkAbort, executionError, tooManySamples } from "./errors.ts";
import { FUNCTIONS } from "./functions/mod.ts";
import type { VectorImpl } from "./functions/types.ts";
import { evalRangeCall, windowSources } from "./range_call.ts";
import { evalVectorSelector, type SeriesData, upperBound } from "./selector.ts";
import { containsSameLabelset, mergeSeries } from "./series_ops.ts";
import { dropMetricName } from "./labels.ts";
import type { MatrixSeries, StepGrid, StepSeries, StepValue } from "./values.ts";
import { presentCount } from "./values.ts";

/** Settings of one evaluation. */
export interface EvalSettings {
  lookbackMs: number;
  maxSamples: number;
  /** The step of subqueries written without one (`foo[5m:]`): Prometheus' global evaluation interval. */
  defaultSubqueryStepMs: number;
  /** The query's start and end, for `@ start()` / `@ end()`. */
  queryStartMs: number;
  queryEndMs: number;
  signal?: AbortSignal;
  /** When evaluation must have finished, on `clock`'s scale. */
  deadline?: { at: number; now: () => number };
}

/** Evaluates expressions over grids against data fetched for each selector. */
export class Evaluator {
  private current = 0;

  constructor(
    readonly data: Map<VectorSelector, SeriesData[]>,
    readonly settings: EvalSettings,
  ) {}

  /** The `@` time of a selector or subquery (resolving `start()`/`end()`), or null. */
  atTime(m: TimeModifiers): number | null {
    if (m.timestampMs !== null) return m.timestampMs;
    if (m.startOrEnd === "start") return this.settings.queryStartMs;
    if (m.startOrEnd === "end") return this.settings.queryEndMs;
    return null;
  }

  /** Accounts for `n` samples held in memory; fails the query past the limit. */
  hold(n: number): void {
    this.current += n;
    if (this.current > this.settings.maxSamples) throw tooManySamples();
  }

  /** Releases samples accounted for by {@link hold}. */
  release(n: number): void {
    this.current -= n;
  }

  /** Throws when the request was cancelled or timed out. */
  checkAbort(): void {
    checkAbort(this.settings.signal, "expression evaluation", this.settings.deadline);
  }

  /** The series a selector selected. */
  seriesOf(vs: VectorSelector): SeriesData[] {
    return this.data.get(vs) ?? [];
  }

  /** Evaluates an expression of type scalar, string or instant vector at every step of `grid`. */
  eval(e: Expr, grid: StepGrid): StepValue {
    this.checkAbort();
    switch (e.type) {
      case "NumberLiteral":
        return { kind: "scalar", values: new Float64Array(grid.n).fill(e.val) };
      case "StringLiteral":
        return { kind: "string", value: e.val };
      case "ParenExpr":
        return this.eval(e.expr, grid);
      case "UnaryExpr":
        return this.evalUnary(e.op, this.eval(e.expr, grid));
      case "VectorSelector":
        return this.counted(evalVectorSelector(
          this.seriesOf(e),
          grid,
          this.atTime(e),
          e.offsetMs,
          this.settings.lookbackMs,
          false,
        ));
      case "Call":
        return this.evalCall(e, grid);
      case "AggregateExpr":
        return this.evalWithRelease([e.expr], grid, (v) => evalAggregate(this, e, v[0], grid));
      case "BinaryExpr":
        return evalBinary(this, e, grid);
      case "MatrixSelector":
      case "SubqueryExpr":
        throw executionError(`range vector ${e.type} cannot be evaluated as an instant value`);
    }
  }

  /** Counts a node's output against the sample limit. */
  counted(series: StepSeries[]): StepValue {
    let n = 0;
    for (const s of series) n += presentCount(s);
    this.hold(n);
    return { kind: "vector", series };
  }

  /** Samples a value holds (for release once its consumer is done). */
  sizeOf(v: StepValue): number {
    if (v.kind !== "vector") return 0;
    let n = 0;
    for (const s of v.series) n += presentCount(s);
    return n;
  }

  private evalWithRelease(args: Expr[], grid: StepGrid, f: (v: StepValue[]) => StepValue): StepValue {
    const vals = args.map((a) => this.eval(a, grid));
    const out = f(vals);
    for (const v of vals) this.release(this.sizeOf(v));
    if (out.kind === "vector") this.hold(this.sizeOf(out));
    return out;
  }

  private evalUnary(op: "-" | "+", v: StepValue): StepValue {
    if (op === "+") return v;
    if (v.kind === "scalar") return { kind: "scalar", values: v.values.map((x) => -x) };
    if (v.kind !== "vector") return v;
    const series = v.series.filter((s) => presentCount(s) > 0).map((s) => ({
      labels: dropMetricName(s.labels),
      values: s.values.map((x) => -x),
      present: s.present,
    }));
    // Prometheus checks the whole matrix, not each step: two series that only differed by name fail
    // a range query even when no step holds both (`-(gone or late)`).
    if (containsSameLabelset(series)) {
      throw executionError("vector cannot contain metrics with the same labelset");
    }
    return { kind: "vector", series };
  }

  private evalCall(e: Expr & { type: "Call" }, grid: StepGrid): StepValue {
    const fn = FUNCTIONS.get(e.func);
    if (fn === undefined) throw executionError(`unknown function with name "${e.func}"`);
    if (fn.range !== undefined) return evalRangeCall(this, e, fn, grid);
    if (e.func === "timestamp") {
      const arg = unwrapParens(e.args[0]);
      if (arg.type === "VectorSelector") {
        const series = evalVectorSelector(
          this.seriesOf(arg),
          grid,
          this.atTime(arg),
          arg.offsetMs,
          this.settings.lookbackMs,
          true,
        );
        return this.callVector(e, fn.vector!, [{ kind: "vector", series }], grid);
      }
    }
    return this.evalWithRelease(e.args, grid, (vals) => this.callVector(e, fn.vector!, vals, grid));
  }

  private callVector(
    e: Expr & { type: "Call" },
    impl: VectorImpl,
    vals: StepValue[],
    grid: StepGrid,
  ): StepValue {
    const out = impl(vals, { grid, args: e.args });
    if (out.kind !== "vector") return out;
    return { kind: "vector", series: mergeSeries(out.series) };
  }

  /** An instant query of a range vector expression: the raw points of each window at `timeMs`. */
  evalMatrixAt(e: MatrixSelector | SubqueryExpr, timeMs: number): MatrixSeries[] {
    const grid: StepGrid = {
      startMs: timeMs,
      endMs: timeMs,
      stepMs: 0,
      n: 1,
      times: new Float64Array([timeMs]),
    };
    const { sources, rangeMs, mods } = windowSources(this, e, grid);
    const ref = (this.atTime(mods) ?? timeMs) - mods.offsetMs;
    const out: MatrixSeries[] = [];
    for (const p of sources) {
      const lo = upperBound(p.ts, ref - rangeMs, 0), hi = upperBound(p.ts, ref, lo);
      if (hi <= lo) continue;
      this.hold(hi - lo);
      out.push({
        labels: p.labels,
        timestamps: Array.from(p.ts.subarray(lo, hi)),
        values: Array.from(p.vs.subarray(lo, hi)),
      });
    }
    return out;
  }
}
