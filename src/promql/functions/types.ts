/** The shapes of function implementations in the one function table ({@link FUNCTIONS}). */
import type { Expr, ValueType } from "../ast.ts";
import type { StepGrid, StepValue } from "../values.ts";

/** The samples of one series inside one range window: indices `[lo, hi)` of `ts`/`vs`. */
export interface RangeWindow {
  ts: Float64Array;
  vs: Float64Array;
  lo: number;
  hi: number;
  /** The window is `(rangeStartMs, rangeEndMs]`. */
  rangeStartMs: number;
  rangeEndMs: number;
  rangeMs: number;
  /** The evaluation time of this step. */
  evalMs: number;
}

/** A function over one range window; `args` are the scalar arguments at this step. Undefined: no output. */
export type RangeImpl = (w: RangeWindow, args: number[]) => number | undefined;

/** What a function over instant vectors and scalars gets besides its arguments. */
export interface CallContext {
  grid: StepGrid;
  args: Expr[];
}

/** A function over whole step columns (instant vectors, scalars, strings). */
export type VectorImpl = (args: StepValue[], ctx: CallContext) => StepValue;

/** One entry of the function table: Prometheus' signature and Petrel's implementation. */
export interface FunctionDef {
  name: string;
  argTypes: ValueType[];
  /** 0: fixed arity; n > 0: up to n optional trailing arguments; -1: any number. */
  variadic: number;
  returnType: ValueType;
  /** Experimental in Prometheus 3 (behind `--enable-feature=promql-experimental-functions`). */
  experimental?: boolean;
  /** For functions of a range vector: the per-window implementation. */
  range?: RangeImpl;
  /** Range functions whose output keeps the metric name (`last_over_time`). */
  keepName?: boolean;
  /** For all other functions. */
  vector?: VectorImpl;
}
