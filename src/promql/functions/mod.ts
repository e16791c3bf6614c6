/**
 * The one function table: each PromQL function's signature (as Prometheus' `parser.Functions`
 * declares it) next to its implementation. The parser checks calls against it; the evaluator runs it.
 */
import type { ValueType } from "../ast.ts";
import { histogramQuantile } from "./histogram.ts";
import { labelJoin, labelReplace, sort, sortByLabel, sortByLabelDesc, sortDesc } from "./labels.ts";
import { clamp, clampMax, clampMin, DATE, dateFunction, MATH, round, simple } from "./math.ts";
import { absent, pi, scalar, time, timestamp, vector } from "./misc.ts";
import * as ot from "./over_time.ts";
import * as r from "./rate.ts";
import type { FunctionDef, RangeImpl, VectorImpl } from "./types.ts";

export type { FunctionDef } from "./types.ts";

const V: ValueType = "vector", M: ValueType = "matrix", S: ValueType = "scalar", STR: ValueType = "string";

function rangeFn(
  name: string,
  impl: RangeImpl,
  argTypes: ValueType[] = [M],
  extra: Partial<FunctionDef> = {},
): FunctionDef {
  return { name, argTypes, variadic: 0, returnType: V, range: impl, ...extra };
}

function vectorFn(
  name: string,
  argTypes: ValueType[],
  impl: VectorImpl,
  extra: Partial<FunctionDef> = {},
): FunctionDef {
  return { name, argTypes, variadic: 0, returnType: V, vector: impl, ...extra };
}

const defs: FunctionDef[] = [
  // Functions of a range vector.
  rangeFn("rate", r.rate),
  rangeFn("increase", r.increase),
  rangeFn("delta", r.delta),
  rangeFn("irate", r.irate),
  rangeFn("idelta", r.idelta),
  rangeFn("deriv", r.deriv),
  rangeFn("predict_linear", r.predictLinear, [M, S]),
  rangeFn("double_exponential_smoothing", r.doubleExponentialSmoothing, [M, S, S], { experimental: true }),
  rangeFn("holt_winters", r.doubleExponentialSmoothing, [M, S, S]),
  rangeFn("changes", ot.changes),
  rangeFn("resets", ot.resets),
  rangeFn("avg_over_time", ot.avgOverTime),
  rangeFn("sum_over_time", ot.sumOverTime),
  rangeFn("count_over_time", ot.countOverTime),
  rangeFn("min_over_time", ot.minOverTime),
  rangeFn("max_over_time", ot.maxOverTime),
  rangeFn("stddev_over_time", ot.stddevOverTime),
  rangeFn("stdvar_over_time", ot.stdvarOverTime),
  rangeFn("quantile_over_time", ot.quantileOverTime, [S, M]),
  rangeFn("mad_over_time", ot.madOverTime, [M], { experimental: true }),
  rangeFn("last_over_time", ot.lastOverTime, [M], { keepName: true }),
  rangeFn("first_over_time", ot.firstOverTime, [M], { experimental: true, keepName: true }),
  rangeFn("present_over_time", ot.presentOverTime),
  // absent_over_time: the evaluator turns "no series at this step" into 1 (see eval_call.ts).
  rangeFn("absent_over_time", ot.presentOverTime),
  // Functions of instant vectors and scalars.
  ...Object.entries(MATH).map(([name, f]) => vectorFn(name, [V], simple(f))),
  vectorFn("round", [V, S], round, { variadic: 1 }),
  vectorFn("clamp", [V, S, S], clamp),
  vectorFn("clamp_min", [V, S], clampMin),
  vectorFn("clamp_max", [V, S], clampMax),
  ...Object.entries(DATE).map(([name, f]) => vectorFn(name, [V], dateFunction(f), { variadic: 1 })),
  vectorFn("histogram_quantile", [S, V], histogramQuantile),
  vectorFn("label_replace", [V, STR, STR, STR, STR], labelReplace),
  vectorFn("label_join", [V, STR, STR, STR], labelJoin, { variadic: -1 }),
  vectorFn("sort", [V], sort),
  vectorFn("sort_desc", [V], sortDesc),
  vectorFn("sort_by_label", [V, STR], sortByLabel, { variadic: -1, experimental: true }),
  vectorFn("sort_by_label_desc", [V, STR], sortByLabelDesc, { variadic: -1, experimental: true }),
  vectorFn("absent", [V], absent),
  vectorFn("timestamp", [V], timestamp),
  vectorFn("vector", [S], vector),
  vectorFn("scalar", [V], scalar, { returnType: S }),
  vectorFn("time", [], time, { returnType: S }),
  vectorFn("pi", [], pi, { returnType: S }),
];

/** Every function by name. */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(defs.map((d) => [d.name, d]));

/** The return type of a known function (vector for unknown names: the parser rejects those first). */
export function functionReturnType(name: string): ValueType {
  return FUNCTIONS.get(name)?.returnType ?? "vector";
}
