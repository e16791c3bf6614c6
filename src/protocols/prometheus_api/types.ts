/** The Prometheus HTTP API's JSON result shapes, shared by the PromQL encoder and the HTTP envelope. */

/** A sample as the API shows it: `[<unix seconds>, "<value>"]`. */
export type PromSample = [number, string];

/** A native histogram sample's value: counts as strings, buckets `[rule, "lo", "hi", "count"]`. */
export interface PromHistogram {
  count: string;
  sum: string;
  buckets?: [number, string, string, string][];
}

/** One series of an instant vector. */
export interface PromVectorSeries {
  metric: Record<string, string>;
  value?: PromSample;
  histogram?: [number, PromHistogram];
}

/** One series of a range matrix. */
export interface PromMatrixSeries {
  metric: Record<string, string>;
  values?: PromSample[];
  histograms?: [number, PromHistogram][];
}

/** `data` of `/query` and `/query_range`. */
export type PromQueryData =
  | { resultType: "vector"; result: PromVectorSeries[] }
  | { resultType: "matrix"; result: PromMatrixSeries[] }
  | { resultType: "scalar" | "string"; result: PromSample | null };
