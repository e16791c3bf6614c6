/**
 * DataFusion's table functions `generate_series(start, stop[, step])` and `range(start, stop[, step])`
 * in FROM: one column `value` from start up to stop (generate_series includes it, range stops before
 * it); with one argument the series starts at 0. Integers make Int64 values; a timestamp start with an
 * interval step makes timestamps of the start's type. SQLite here has no generate_series, so the
 * call becomes a recursive CTE in a subquery, which checks for cancellation as every recursion a user
 * writes does (recursion_guard.ts) and is capped in rows before its first row.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { DataType } from "../../common/rows.ts";
import { isTimestampType } from "../../storage/datatypes.ts";
import { itemHint } from "../output_columns.ts";
import type { RewriteCtx } from "./context.ts";
import { isIntervalExpr } from "./interval_arith.ts";

/** The table functions generating series, by name: whether the stop value is included. */
const SERIES_FUNCTIONS = new Map([["generate_series", true], ["range", false]]);

/** Rows one series may generate; as many as a range query's FILL may (range_select.ts). */
export const MAX_SERIES_ROWS = 10_000_000;

/** A `generate_series(…)` or `range(…)` call in a FROM clause. */
export interface SeriesRef {
  name: string;
  /** The name's token; the call's `(` follows it. */
  start: number;
}

/** Whether `name` (lowercased) followed by `(` in a FROM clause is a series table function. */
export function isSeriesFunction(name: string): boolean {
  return SERIES_FUNCTIONS.has(name);
}

/** What the series calls become: replacements (token → text) and the type of their `value` column. */
export interface SeriesTables {
  replacements: Map<number, { end: number; text: string }>;
  /** The type of `value`: Int64, or the timestamp type of the first timestamp series. */
  valueType: DataType;
}

/** Turns each series call into a subquery over a recursive CTE. */
export function seriesTables(c: RewriteCtx, refs: readonly SeriesRef[]): SeriesTables {
  const { q } = c;
  const out: SeriesTables = { replacements: new Map(), valueType: "Int64" };
  for (const ref of [...refs].reverse()) {
    const open = ref.start + 1;
    const close = q.match[open];
    const ranges = q.args(open);
    const args = ranges.map(([s, e]) => c.emit(s, e).trim());
    if (args.length < 1 || args.length > 3) {
      throw invalidArguments(`${ref.name} expects 1 to 3 arguments (start, stop, step), got ${args.length}`);
    }
    const type = itemHint({ q, relations: [], ...c.time }, ranges[0][0], ranges[0][1]);
    if (type === "Date") {
      throw invalidArguments(`${ref.name} over dates is not supported; cast the bounds to TIMESTAMP`);
    }
    if (type && isTimestampType(type)) {
      if (args.length !== 3 || !isIntervalExpr(q, ranges[2][0], ranges[2][1])) {
        throw invalidArguments(
          `${ref.name} over timestamps needs an interval step: ${ref.name}(start, stop, INTERVAL '1 hour')`,
        );
      }
      out.valueType = type as DataType;
    }
    const [start, stop, step] = args.length === 1 ? ["0", args[0], "1"] : [args[0], args[1], args[2] ?? "1"];
    out.replacements.set(ref.start, { end: close + 1, text: seriesSql(ref.name, start, stop, step) });
  }
  return out;
}

/** The subquery generating one series. */
function seriesSql(name: string, start: string, stop: string, step: string): string {
  const inclusive = SERIES_FUNCTIONS.get(name)!;
  const [le, ge] = inclusive ? ["<=", ">="] : ["<", ">"];
  const within = (x: string) => `((d > 0 AND ${x} ${le} e) OR (d < 0 AND ${x} ${ge} e))`;
  const guard = `__petrel_series_guard('${name}', s, e, d, ${inclusive ? 1 : 0}, ${MAX_SERIES_ROWS})`;
  const seed = `SELECT s, e, d, 1 FROM (SELECT (${start}) AS s, (${stop}) AS e, (${step}) AS d) ` +
    // CASE: the guard must run first, whatever order SQLite would test an AND in
    `WHERE CASE WHEN ${guard} = 1 THEN ${within("s")} ELSE 0 END`;
  // the cancellation check is a call into JS: once every 4096 rows is as prompt and far cheaper
  const alive = "CASE WHEN n % 4096 = 0 THEN __petrel_alive() ELSE 1 END";
  const next = `SELECT value + d, e, d, n + 1 FROM "__petrel_series" WHERE ${alive} AND ${
    within("value + d")
  }`;
  return `(WITH RECURSIVE "__petrel_series"(value, e, d, n) AS (${seed} UNION ALL ${next}) ` +
    `SELECT value FROM "__petrel_series")`;
}
