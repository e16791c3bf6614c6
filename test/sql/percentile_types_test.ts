/**
 * `median`, `approx_median` and `approx_percentile_cont[_with_weight]` answer in their input's type, as
 * DataFusion's: an Int64 column gives an Int64 (the value truncated toward zero), a Float64 column a
 * Float64. median is exact (two middle values added and halved in the input's type); the approximate
 * ones are DataFusion's t-digest estimate, which on few values reads between centroids at rank `p · n`.
 * A decimal's median is a decimal of the same precision and scale.
 */
import { runOnServer, type TypedCase } from "../http/fixtures/sql_client.ts";

const values = (n: number) => Array.from({ length: n }, (_, k) => `(${k + 1}, ${k + 1}, ${k + 1}, 'ten')`);

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, i BIGINT, d DOUBLE, g STRING)",
  `INSERT INTO m VALUES ${values(10).join(", ")}`,
  "CREATE TABLE big (ts TIMESTAMP TIME INDEX, i BIGINT, d DOUBLE, g STRING)",
  `INSERT INTO big VALUES ${values(1000).join(", ").replaceAll("'ten'", "'k'")}`,
  "CREATE TABLE neg (ts TIMESTAMP TIME INDEX, i INT)",
  "INSERT INTO neg VALUES (1, -1), (2, -2)",
  "CREATE TABLE dec (ts TIMESTAMP TIME INDEX, x DECIMAL(10, 2), w DECIMAL(38, 10))",
  "INSERT INTO dec VALUES (1, 1.50, -123456789.5), (2, 2.25, 1), (3, NULL, -123456789.25), (4, 4.75, NULL), " +
  "(5, 3.00, 2)",
];

const CASES: TypedCase[] = [
  {
    sql: "SELECT median(i) AS mi, median(d) AS md, approx_median(i) AS ai, approx_median(d) AS ad " +
      "FROM m WHERE ts <= 4",
    columns: [["mi", "Int64"], ["md", "Float64"], ["ai", "Int64"], ["ad", "Float64"]],
    rows: [[2, 2.5, 2, 2.5]],
  },
  // the even count's two middle values are added and halved as integers: toward zero
  { sql: "SELECT median(i) FROM neg", columns: [["median(neg.i)", "Int32"]], rows: [[-1]] },
  // the t-digest's estimate, not the interpolation between order statistics (9.1 and 3.25 there)
  {
    sql: "SELECT approx_percentile_cont(d, 0.9) AS d90, approx_percentile_cont(i, 0.9) AS i90, " +
      "approx_percentile_cont(d, 0.25) AS d25, approx_percentile_cont(0.25) WITHIN GROUP (ORDER BY i) AS i25 FROM m",
    columns: [["d90", "Float64"], ["i90", "Int64"], ["d25", "Float64"], ["i25", "Int64"]],
    rows: [[9.5, 9, 3.0, 3]],
  },
  {
    sql:
      "SELECT g, approx_percentile_cont(d, 0) AS lo, approx_percentile_cont(d, 1) AS hi, median(i) AS mid " +
      "FROM big GROUP BY g",
    columns: [["g", "String"], ["lo", "Float64"], ["hi", "Float64"], ["mid", "Int64"]],
    rows: [["k", 1.0, 1000.0, 500]],
  },
  // the weighted one keeps its input's type too (its value is the exact weighted rank, README)
  {
    sql: "SELECT approx_percentile_cont_with_weight(i, 1, 0.5) AS wi, " +
      "approx_percentile_cont_with_weight(d, 1, 0.5) AS wd FROM m",
    columns: [["wi", "Int64"], ["wd", "Float64"]],
    rows: [[5, 5.0]],
  },
  // as window functions, over a sliding frame
  {
    sql: "SELECT ts, median(i) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS m, " +
      "approx_median(d) OVER (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a FROM m WHERE ts <= 4",
    columns: [["ts", "TimestampMillisecond"], ["m", "Int64"], ["a", "Float64"]],
    rows: [[1, 1, 1.0], [2, 1, 1.5], [3, 2, 2.0], [4, 3, 3.0]],
  },
  {
    sql: "SELECT median(i) FROM m WHERE ts > 100",
    columns: [["median(m.i)", "Int64"]],
    rows: [[null]],
  },
  {
    sql: "SELECT approx_percentile_cont(i, 1.5) FROM m",
    code: 3000,
    error: /Percentile value must be between 0.0 and 1.0 inclusive, 1.5 is invalid/,
  },
];

/** A decimal's median is its type: the two middle unscaled values added and halved toward zero. */
const DECIMAL_CASES: TypedCase[] = [
  {
    sql: "SELECT median(x) AS m, median(w) AS mw, median(-x) AS n FROM dec",
    columns: [["m", "Decimal(10, 2)"], ["mw", "Decimal(38, 10)"], ["n", "Decimal(10, 2)"]],
    rows: [["2.62", "-61728394.1250000000", "-2.62"]],
  },
  {
    sql: "SELECT median(x) FROM dec WHERE ts > 100",
    columns: [["median(dec.x)", "Decimal(10, 2)"]],
    rows: [[null]],
  },
  {
    sql:
      "SELECT ts, median(x) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS m FROM dec ORDER BY ts",
    columns: [["ts", "TimestampMillisecond"], ["m", "Decimal(10, 2)"]],
    rows: [[1, "1.50"], [2, "1.87"], [3, "2.25"], [4, "4.75"], [5, "3.87"]],
  },
];

Deno.test("median over a decimal answers the decimal's type, exact", (t) =>
  runOnServer(t, SETUP, { kind: "typed", cases: DECIMAL_CASES }));

Deno.test("median and the approximate percentiles keep their input's type", (t) =>
  runOnServer(t, SETUP, { kind: "typed", cases: CASES }));
