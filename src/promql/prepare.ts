/**
 * Before evaluation, each selector's data is fetched once for the whole query, over the time range
 * Prometheus computes for it (`getTimeRangesForSelector`): the evaluation range moved back by the
 * offsets and ranges of enclosing subqueries, the selector's own range or the lookback, and its offset.
 */
import type { Expr, VectorSelector } from "./ast.ts";
import { checkAbort } from "./errors.ts";
import type { Queryable, SelectHints } from "./queryable.ts";
import { type SeriesData, toSeriesData } from "./selector.ts";

/** The query's time frame, for computing selector ranges. */
export interface QueryFrame {
  startMs: number;
  endMs: number;
  stepMs: number;
  lookbackMs: number;
}

interface PathInfo {
  subqOffsetMs: number;
  subqRangeMs: number;
  subqAtMs: number | null;
  func?: string;
  grouping?: string[];
  by?: boolean;
}

/** One storage request per selector of the tree. */
export interface PlannedSelect {
  selector: VectorSelector;
  startMs: number;
  endMs: number;
  hints: SelectHints;
}

/** Plans the storage reads of an expression. */
export function planSelects(expr: Expr, frame: QueryFrame): PlannedSelect[] {
  const out: PlannedSelect[] = [];
  const resolveAt = (ts: number | null, se: "start" | "end" | null) =>
    ts ?? (se === "start" ? frame.startMs : se === "end" ? frame.endMs : null);
  const visit = (e: Expr, path: PathInfo, rangeMs: number) => {
    switch (e.type) {
      case "VectorSelector": {
        let start = frame.startMs, end = frame.endMs;
        if (path.subqAtMs !== null) start = end = path.subqAtMs;
        const at = resolveAt(e.timestampMs, e.startOrEnd);
        if (at !== null) start = end = at;
        else {
          start -= path.subqOffsetMs + path.subqRangeMs;
          end -= path.subqOffsetMs;
        }
        start -= rangeMs === 0 ? frame.lookbackMs : rangeMs;
        start -= e.offsetMs;
        end -= e.offsetMs;
        const hints: SelectHints = { rangeMs, stepMs: frame.stepMs };
        if (path.func !== undefined) hints.func = path.func;
        if (path.grouping !== undefined) {
          hints.grouping = path.grouping;
          hints.by = path.by;
        }
        out.push({ selector: e, startMs: start, endMs: end, hints });
        return;
      }
      case "MatrixSelector":
        return visit(e.vectorSelector, path, e.rangeMs);
      case "SubqueryExpr": {
        const at = resolveAt(e.timestampMs, e.startOrEnd);
        const next: PathInfo = at !== null
          ? { ...path, subqOffsetMs: e.offsetMs, subqRangeMs: e.rangeMs, subqAtMs: at }
          : {
            ...path,
            subqOffsetMs: path.subqOffsetMs + e.offsetMs,
            subqRangeMs: path.subqRangeMs + e.rangeMs,
          };
        return visit(e.expr, next, 0);
      }
      case "Call":
        return e.args.forEach((a) => visit(a, { ...path, func: e.func }, 0));
      case "AggregateExpr": {
        const next = { ...path, grouping: e.grouping, by: !e.without };
        if (e.param !== null) visit(e.param, next, 0);
        return visit(e.expr, next, 0);
      }
      case "BinaryExpr": {
        // Hints describe a function or aggregation over one selector; a binary operator ends that.
        const next: PathInfo = {
          subqOffsetMs: path.subqOffsetMs,
          subqRangeMs: path.subqRangeMs,
          subqAtMs: path.subqAtMs,
        };
        visit(e.lhs, next, 0);
        return visit(e.rhs, next, 0);
      }
      case "UnaryExpr":
      case "ParenExpr":
        return visit(e.expr, path, 0);
      default:
        return;
    }
  };
  visit(expr, { subqOffsetMs: 0, subqRangeMs: 0, subqAtMs: null }, 0);
  return out;
}

/** Fetches every selector's series (concurrently) and converts them to typed arrays. */
export async function fetchSelectors(
  queryable: Queryable,
  plan: PlannedSelect[],
  signal?: AbortSignal,
  deadline?: { at: number; now: () => number },
): Promise<Map<VectorSelector, SeriesData[]>> {
  const results = await Promise.all(
    plan.map((p) =>
      queryable.select(
        { matchers: p.selector.matchers, startMs: p.startMs, endMs: p.endMs, hints: p.hints },
        signal,
      )
    ),
  );
  checkAbort(signal, "query preparation", deadline);
  const data = new Map<VectorSelector, SeriesData[]>();
  plan.forEach((p, i) => data.set(p.selector, toSeriesData(results[i])));
  return data;
}
