/**
 * The PromQL engine's entry points: instant and range queries against a {@link Queryable}, with
 * Prometheus 3's defaults (5m lookback, 50M samples, 1m default subquery step).
 */
import { type Expr, exprType, unwrapParens } from "./ast.ts";
import { documentedType } from "./check.ts";
import { PromQLError } from "./errors.ts";
import { Evaluator } from "./evaluator.ts";
import { functionReturnType } from "./functions/mod.ts";
import { sortSeries } from "../common/series.ts";
import { parseExpr } from "./parser.ts";
import { fetchSelectors, planSelects } from "./prepare.ts";
import type { Queryable } from "./queryable.ts";
import { makeGrid, type MatrixResult, type MatrixSeries, type QueryResult } from "./values.ts";

/** Engine-wide settings. */
export interface EngineOptions {
  /** How far back an instant selector looks for a sample (Prometheus' `--query.lookback-delta`). */
  lookbackDeltaMs?: number;
  /** Samples a query may hold at once (Prometheus' `--query.max-samples`). */
  maxSamples?: number;
  /** Step of subqueries without one (Prometheus' global `evaluation_interval`). */
  defaultSubqueryStepMs?: number;
  /** Most points per series of a range query (Prometheus' API allows 11,000). */
  maxPointsPerSeries?: number;
  /** The clock deadlines are measured on (ms); tests replace it. */
  clock?: () => number;
}

/** Per-query settings. */
export interface QueryOptions {
  /** Aborts evaluation: a `TimeoutError` reason reports `timeout`, anything else `canceled`. */
  signal?: AbortSignal;
  /** Overrides the engine's lookback (Prometheus' `lookback_delta` query parameter). */
  lookbackDeltaMs?: number;
  /**
   * The query's time budget (Prometheus' `timeout`): checked during evaluation, which a signal's
   * timer cannot interrupt. Exceeding it fails with errorType `timeout`.
   */
  timeoutMs?: number;
}

/** Why an expression cannot be a range query (it is not a scalar or instant vector), or null. */
export function rangeQueryTypeError(expr: Expr): string | null {
  const type = exprType(expr, functionReturnType);
  if (type === "scalar" || type === "vector") return null;
  return `invalid expression type "${
    documentedType(type)
  }" for range query, must be Scalar or instant Vector`;
}

/** Evaluates PromQL against a queryable. */
export class PromQLEngine {
  private readonly lookbackMs: number;
  private readonly maxSamples: number;
  private readonly subqueryStepMs: number;
  private readonly maxPoints: number;
  private readonly clock: () => number;

  constructor(private readonly queryable: Queryable, opts: EngineOptions = {}) {
    this.lookbackMs = opts.lookbackDeltaMs ?? 300_000;
    this.maxSamples = opts.maxSamples ?? 50_000_000;
    this.subqueryStepMs = opts.defaultSubqueryStepMs ?? 60_000;
    this.maxPoints = opts.maxPointsPerSeries ?? 11_000;
    this.clock = opts.clock ?? (() => performance.now());
  }

  /**
   * An instant query at `timeMs`: a vector, scalar, string or (for range expressions) matrix.
   * @example await engine.instantQuery("up", Date.now())
   */
  async instantQuery(query: string | Expr, timeMs: number, opts: QueryOptions = {}): Promise<QueryResult> {
    const expr = typeof query === "string" ? parseExpr(query) : query;
    const ev = await this.evaluator(expr, timeMs, timeMs, 0, opts);
    const inner = unwrapParens(expr);
    if (inner.type === "MatrixSelector" || inner.type === "SubqueryExpr") {
      return { resultType: "matrix", result: ev.evalMatrixAt(inner, timeMs) };
    }
    const v = ev.eval(expr, makeGrid(timeMs, timeMs, 0));
    switch (v.kind) {
      case "scalar":
        return { resultType: "scalar", timestampMs: timeMs, value: v.values[0] };
      case "string":
        return { resultType: "string", timestampMs: timeMs, value: v.value };
      case "vector":
        return {
          resultType: "vector",
          result: v.series.filter((s) => s.present[0]).map((s) => ({
            labels: s.labels,
            timestampMs: timeMs,
            value: s.values[0],
          })),
        };
    }
  }

  /**
   * A range query from `startMs` to `endMs` every `stepMs`: a matrix sorted by label set.
   * @example await engine.rangeQuery("rate(x[5m])", t - 3_600_000, t, 60_000)
   */
  async rangeQuery(
    query: string | Expr,
    startMs: number,
    endMs: number,
    stepMs: number,
    opts: QueryOptions = {},
  ): Promise<MatrixResult> {
    const expr = typeof query === "string" ? parseExpr(query) : query;
    if (!(stepMs > 0)) {
      throw new PromQLError(
        "bad_data",
        "zero or negative query resolution step widths are not accepted. Try a positive integer",
      );
    }
    if (endMs < startMs) throw new PromQLError("bad_data", "end timestamp must not be before start time");
    if ((endMs - startMs) / stepMs > this.maxPoints) {
      throw new PromQLError(
        "bad_data",
        `exceeded maximum resolution of ${
          this.maxPoints.toLocaleString("en-US")
        } points per timeseries. Try decreasing the query resolution (?step=XX)`,
      );
    }
    const typeError = rangeQueryTypeError(expr);
    if (typeError !== null) throw new PromQLError("bad_data", typeError);
    const ev = await this.evaluator(expr, startMs, endMs, stepMs, opts);
    const grid = makeGrid(startMs, endMs, stepMs);
    const v = ev.eval(expr, grid);
    const out: MatrixSeries[] = [];
    if (v.kind === "scalar") {
      out.push({ labels: {}, timestamps: Array.from(grid.times), values: Array.from(v.values) });
    } else if (v.kind === "vector") {
      for (const s of v.series) {
        const timestamps: number[] = [], values: number[] = [];
        for (let i = 0; i < grid.n; i++) {
          if (!s.present[i]) continue;
          timestamps.push(grid.times[i]);
          values.push(s.values[i]);
        }
        if (timestamps.length > 0) out.push({ labels: s.labels, timestamps, values });
      }
    }
    return { resultType: "matrix", result: sortSeries(out) };
  }

  private async evaluator(expr: Expr, startMs: number, endMs: number, stepMs: number, opts: QueryOptions) {
    const lookbackMs = opts.lookbackDeltaMs ?? this.lookbackMs;
    const deadline = opts.timeoutMs === undefined
      ? undefined
      : { at: this.clock() + opts.timeoutMs, now: this.clock };
    const plan = planSelects(expr, { startMs, endMs, stepMs, lookbackMs });
    const data = await fetchSelectors(this.queryable, plan, opts.signal, deadline);
    return new Evaluator(data, {
      ...(deadline !== undefined ? { deadline } : {}),
      lookbackMs,
      maxSamples: this.maxSamples,
      defaultSubqueryStepMs: this.subqueryStepMs,
      queryStartMs: startMs,
      queryEndMs: endMs,
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    });
  }
}
