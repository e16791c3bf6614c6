/**
 * Query results as typed values (Prometheus' `Scalar`, `String`, `Vector`, `Matrix`) and the step
 * columns the evaluator works on internally.
 */

/** A label set (including `__name__` when the series has one). */
export type Labels = Record<string, string>;

/** A scalar result at one time. */
export interface ScalarResult {
  resultType: "scalar";
  timestampMs: number;
  value: number;
}

/** A string result at one time. */
export interface StringResult {
  resultType: "string";
  timestampMs: number;
  value: string;
}

/** One element of an instant vector. */
export interface VectorSample {
  labels: Labels;
  timestampMs: number;
  value: number;
}

/** An instant vector, in Prometheus' order. */
export interface VectorResult {
  resultType: "vector";
  result: VectorSample[];
}

/** One series of a range result: points in time order. */
export interface MatrixSeries {
  labels: Labels;
  timestamps: number[];
  values: number[];
}

/** A range matrix (range queries: sorted by label set). */
export interface MatrixResult {
  resultType: "matrix";
  result: MatrixSeries[];
}

/** What a query returns. */
export type QueryResult = ScalarResult | StringResult | VectorResult | MatrixResult;

/** The evaluation times of one evaluation: `n` steps from `startMs` every `stepMs`. */
export interface StepGrid {
  startMs: number;
  endMs: number;
  stepMs: number;
  n: number;
  times: Float64Array;
}

/** An instant vector over all steps: a value column and a presence column per series. */
export interface StepSeries {
  labels: Labels;
  values: Float64Array;
  /** 1 where the series has a value at that step. */
  present: Uint8Array;
  /** Sample timestamps per step; only for vector selectors under `timestamp()`. */
  sampleTimes?: Float64Array;
}

/** A value of an expression evaluated over a grid. */
export type StepValue =
  | { kind: "scalar"; values: Float64Array }
  | { kind: "string"; value: string }
  | { kind: "vector"; series: StepSeries[] };

/** A new grid from start to end (inclusive) every step; step 0 means one evaluation. */
export function makeGrid(startMs: number, endMs: number, stepMs: number): StepGrid {
  const n = stepMs > 0 ? Math.floor((endMs - startMs) / stepMs) + 1 : 1;
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = startMs + i * stepMs;
  return { startMs, endMs, stepMs, n, times };
}

/** A series with no values yet. */
export function emptyStepSeries(labels: Labels, n: number): StepSeries {
  return { labels, values: new Float64Array(n), present: new Uint8Array(n) };
}

/** The number of steps at which a series has a value. */
export function presentCount(s: StepSeries): number {
  let c = 0;
  const p = s.present;
  for (let i = 0; i < p.length; i++) c += p[i];
  return c;
}
