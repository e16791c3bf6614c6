/**
 * Decimal arithmetic over HTTP, exact as DataFusion computes it on Decimal128: result types by
 * arrow's precision/scale rules, integer operands as Decimal(20, 0), floats making Float64,
 * comparisons across scales, sums past 64 bits, overflow and division by zero as errors; and casts
 * of numbers past the 64-bit range failing instead of rounding.
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE o (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, price DECIMAL(10,2), " +
  "qty DECIMAL(8,3), n INT, f DOUBLE, big DECIMAL(19,0))",
  "INSERT INTO o VALUES (1, 'a', 12.34, 1.5, 3, 0.5, 9000000000000000000), " +
  "(2, 'a', 0.10, 0.001, 4, 1.5, 9000000000000000000), (3, 'b', 7, 2, 5, 2.5, 9000000000000000000), " +
  "(4, 'b', NULL, 1, 6, 300.5, 9000000000000000000)",
];

const D = (p: number, s: number) => `Decimal(${p}, ${s})`;

const CASES: TypedCase[] = [
  // literals: + keeps the scale and adds a digit, * adds scales and precisions
  {
    sql: "SELECT CAST(0.1 AS DECIMAL(20,10)) + CAST(0.2 AS DECIMAL(20,10)) AS a, " +
      "CAST(1.5 AS DECIMAL(10,2)) * CAST(2.25 AS DECIMAL(10,2)) AS m, CAST(1.5 AS DECIMAL(10,2)) - 3 AS s",
    columns: [["a", D(21, 10)], ["m", D(21, 4)], ["s", D(23, 2)]],
    rows: [["0.3000000000", "3.3750", "-1.50"]],
  },
  // division: scale s1 + 4, truncated; % keeps the larger scale
  {
    sql: "SELECT CAST(1 AS DECIMAL(10,2)) / CAST(3 AS DECIMAL(10,2)) AS q, " +
      "CAST(-2 AS DECIMAL(10,2)) / 3 AS r, CAST(7 AS DECIMAL(10,2)) % CAST(2.5 AS DECIMAL(10,1)) AS m",
    columns: [["q", D(16, 6)], ["r", D(14, 6)], ["m", D(10, 2)]],
    rows: [["0.333333", "-0.666666", "2.00"]],
  },
  // a float operand makes the whole expression Float64; the unary minus keeps the type
  {
    sql: "SELECT CAST(1.5 AS DECIMAL(10,2)) + 1.25 AS f, -CAST(1.5 AS DECIMAL(10,2)) AS neg",
    columns: [["f", "Float64"], ["neg", D(10, 2)]],
    rows: [[2.75, "-1.50"]],
  },
  // columns of different scales, an INT column (Decimal(10, 0)), integer literals and a DOUBLE
  {
    sql: "SELECT price * qty AS pq, price + qty AS s, price - n AS d, price / qty AS q, price * 2 AS two, " +
      "price * f AS pf FROM o ORDER BY ts",
    columns: [["pq", D(19, 5)], ["s", D(12, 3)], ["d", D(13, 2)], ["q", D(17, 6)], ["two", D(31, 2)], [
      "pf",
      "Float64",
    ]],
    rows: [
      ["18.51000", "13.840", "9.34", "8.226666", "24.68", 6.17],
      ["0.00010", "0.101", "-3.90", "100.000000", "0.20", 0.15000000000000002],
      ["14.00000", "9.000", "2.00", "3.500000", "14.00", 17.5],
      [null, null, null, null, null, null],
    ],
  },
  // comparisons across scales are exact
  {
    sql: "SELECT ts FROM o WHERE big + 1 > big AND (price > qty * 8 OR price * 10 = qty * 1000) ORDER BY ts",
    columns: [["ts", "TimestampMillisecond"]],
    rows: [[1], [2]],
  },
  {
    sql: "SELECT CAST(0.1 AS DECIMAL(5,1)) = CAST(0.10 AS DECIMAL(5,2)) AS eq, " +
      "CAST(1234567890123456.78 AS DECIMAL(18,2)) < CAST(1234567890123456.781 AS DECIMAL(19,3)) AS lt",
    columns: [["eq", "Boolean"], ["lt", "Boolean"]],
    rows: [[true, true]],
  },
  // aggregates: sum widens by 10 digits and stays exact past 64 bits, avg adds 4 to the scale
  {
    sql: "SELECT sum(price), avg(price), min(price), max(price), sum(big), avg(big) FROM o",
    columns: [
      ["sum(o.price)", D(20, 2)],
      ["avg(o.price)", D(14, 6)],
      ["min(o.price)", D(10, 2)],
      [
        "max(o.price)",
        D(10, 2),
      ],
      ["sum(o.big)", D(29, 0)],
      ["avg(o.big)", D(23, 4)],
    ],
    rows: [["19.44", "6.480000", "0.10", "12.34", "36000000000000000000", "9000000000000000000.0000"]],
  },
  {
    sql: "SELECT host, sum(price * qty) AS s, sum(price) / count(price) AS m FROM o GROUP BY host " +
      "HAVING sum(big) >= 18000000000000000000 ORDER BY host",
    columns: [["host", "String"], ["s", D(29, 5)], ["m", D(24, 6)]],
    rows: [["a", "18.51010", "6.220000"], ["b", "14.00000", "7.000000"]],
  },
  {
    sql: "SELECT price * qty AS pq FROM o WHERE price IS NOT NULL ORDER BY price * qty DESC",
    columns: [["pq", D(19, 5)]],
    rows: [["18.51000"], ["14.00000"], ["0.00010"]],
  },
  // past 38 digits, a zero divisor, a scale past 38: errors, not wrong numbers
  {
    sql: "SELECT big * big * big FROM o",
    code: 3000,
    error: /Arithmetic overflow: .* does not fit Decimal128\(38, 0\)/,
  },
  { sql: "SELECT price / (qty - qty) FROM o", code: 3000, error: /Divide by zero error/ },
  {
    sql: "SELECT CAST(1 AS DECIMAL(38,20)) * CAST(1 AS DECIMAL(38,20))",
    code: 1004,
    error: /Output scale of Decimal128\(38, 20\) \* Decimal128\(38, 20\) would exceed max scale of 38/,
  },
  // numbers past a cast's range fail as arrow's casts do (SQLite would round or clamp them)
  {
    sql: "SELECT 99999999999999999999::timestamp(3)",
    code: 1004,
    error: /Can't cast value 99999999999999999999 to type TimestampMillisecond/,
  },
  {
    sql: "SELECT CAST(99999999999999999999 AS BIGINT)",
    code: 3000,
    error: /Can't cast value 99999999999999999999 to type Int64/,
  },
  { sql: "SELECT CAST(f AS TINYINT) FROM o", code: 3000, error: /Can't cast value 300 to type Int8/ },
  { sql: "SELECT CAST(f * 1e30 AS TIMESTAMP) FROM o", code: 3000, error: /to type TimestampMillisecond/ },
];

Deno.test("decimal arithmetic, aggregates and cast overflow over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});
