/**
 * Where GreptimeDB's SQL (DataFusion) and SQLite disagree on semantics, the small rules the rewriter
 * applies: NULL ordering, fixed-length date_trunc fields, numeric-only aggregates.
 */
import { isKeyword, isOp, type Token } from "./lexer.ts";
import type { QueryTokens } from "./query_tokens.ts";
import { timezoneOffsetMinutes } from "./time.ts";
import type { TimeUnit } from "../common/time_unit.ts";

/**
 * The to_timestamp functions: the unit a number argument is read in, and the unit of DataFusion's
 * result (to_timestamp reads seconds and answers Timestamp(Nanosecond)).
 */
export const TO_TIMESTAMP_UNITS: Record<string, { read: TimeUnit; own: TimeUnit }> = {
  to_timestamp: { read: "s", own: "ns" },
  to_timestamp_seconds: { read: "s", own: "s" },
  to_timestamp_millis: { read: "ms", own: "ms" },
  to_timestamp_micros: { read: "us", own: "us" },
  to_timestamp_nanos: { read: "ns", own: "ns" },
};

/** date_trunc fields of fixed length, in nanoseconds. */
export const FIXED_TRUNC_NS: Record<string, bigint> = {
  microsecond: 1_000n,
  millisecond: 1_000_000n,
  second: 1_000_000_000n,
  minute: 60_000_000_000n,
  hour: 3_600_000_000_000n,
  day: 86_400_000_000_000n,
};

/** The offset of a timezone that has no daylight saving (UTC, `+08:00`); undefined for named zones. */
export function fixedOffsetMinutes(tz: string | undefined): number | undefined {
  if (!tz || /^\s*(utc|z|gmt)?\s*$/i.test(tz)) return 0;
  return /^[+-]\d{1,2}(:?\d{2})?$/.test(tz.trim()) ? timezoneOffsetMinutes(tz, 0) : undefined;
}

/** Aggregates that need numeric input (DataFusion refuses strings). */
export const NUMERIC_AGGREGATES = new Set([
  "sum",
  "avg",
  "mean",
  "stddev",
  "stddev_samp",
  "stddev_pop",
  "variance",
  "var_samp",
  "var_pop",
  "median",
]);

/** Aggregates whose `ORDER BY` inside the call the rewriter turns into arguments (rewrite/ordered_aggregates.ts). */
export const ORDERED_AGGREGATES = new Set(["first_value", "last_value", "nth_value"]);

const ORDER_BY_END = [
  "LIMIT",
  "OFFSET",
  "FETCH",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "WINDOW",
  "ROWS",
  "RANGE",
  "GROUPS",
];

/** Whether `RANGE` at `i` follows a call and opens a range query's interval (not a window frame's RANGE). */
export function isRangeAggregateKeyword(toks: Token[], i: number): boolean {
  return isKeyword(toks[i], "RANGE") && isOp(toks[i - 1], ")") && toks[i + 1] !== undefined &&
    !isKeyword(toks[i + 1], "BETWEEN", "UNBOUNDED", "CURRENT") &&
    !isKeyword(toks[i + 2], "PRECEDING", "FOLLOWING");
}

/**
 * DataFusion sorts NULLs last when ascending and first when descending (SQLite does the opposite):
 * the text to append after the last token of each ORDER BY item that does not say NULLS itself, and
 * the item's first token.
 */
export function orderByNulls(q: QueryTokens): Map<number, { text: string; start: number }> {
  const { toks, match, parent } = q;
  const out = new Map<number, { text: string; start: number }>();
  for (let i = 0; i < toks.length - 1; i++) {
    if (!isKeyword(toks[i], "ORDER") || !isKeyword(toks[i + 1], "BY")) continue;
    const depth = parent[i];
    if (depth >= 0 && ORDERED_AGGREGATES.has(q.funcOf(depth) ?? "")) continue;
    let start = i + 2;
    let k = start;
    const finish = (end: number) => {
      if (end <= start) return;
      const item = toks.slice(start, end);
      if (item.some((t) => isKeyword(t, "NULLS"))) return;
      out.set(end - 1, { text: isKeyword(toks[end - 1], "DESC") ? " NULLS FIRST" : " NULLS LAST", start });
    };
    for (; k < toks.length; k++) {
      const t = toks[k];
      if (isOp(t, "(")) {
        k = match[k];
        continue;
      }
      if (
        isOp(t, ")") || parent[k] !== depth ||
        (t.kind === "ident" && ORDER_BY_END.includes(t.text.toUpperCase()) &&
          !isRangeAggregateKeyword(toks, k))
      ) {
        break;
      }
      if (isOp(t, ",")) {
        finish(k);
        start = k + 1;
      }
    }
    finish(k);
  }
  return out;
}
