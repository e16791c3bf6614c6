/**
 * One-sample series of one metric as parallel columns, the form OTLP's direct path writes (an
 * exporter sends one point per series per export): point i is the series keyed `keys[i]` (the
 * `seriesKey` of its labels without empty values) at `ts[i]` ms with value `values[i]`. The metric
 * engine resolves known keys to series ids from its cached index and builds a label object only for
 * a series new to the table, so a point costs no object of its own.
 */

/** Points of one metric as parallel columns. */
export class MetricPoints {
  length = 0;
  readonly keys: string[] = [];
  /** Unboxed doubles (V8 keeps an array of numbers as one), grown without an off-heap buffer. */
  readonly ts: number[] = [];
  readonly values: number[] = [];

  /** Adds the point of series `key` at `timestampMs` with `value`. */
  add(key: string, timestampMs: number, value: number): void {
    this.keys.push(key);
    this.ts.push(timestampMs);
    this.values.push(value);
    this.length++;
  }
}
