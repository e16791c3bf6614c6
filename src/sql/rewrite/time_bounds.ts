/**
 * The time range a WHERE bounds a relation's rows to, read from its top conjuncts on the relation's
 * time column: `ts > e`, `ts <= e`, `e < ts`, `ts = e`, `ts BETWEEN e1 AND e2`, where `e` is a constant
 * made of literals, intervals, `+`, `-`, brackets and now() (what a dashboard's time filter sends).
 * Each `e` is rendered as the rest of the query renders it (a timestamp string in the column's unit)
 * and evaluated once, now. The range is only ever wider than the WHERE's: bounds are inclusive
 * (`>` as `>=`), a fraction widens outward, and an upper bound naming now() is dropped (now() is later
 * when the statement runs, so it would be a narrower bound). The WHERE still tests every row, so a
 * reader may read the range and no more.
 */
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { NOW_NAMES, type QueryTokens } from "../query_tokens.ts";
import type { TimeRange } from "../../storage/metric_series_rows.ts";
import { columnAt, type RelationRef, topConjuncts } from "./where_conjuncts.ts";

const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;
const clamp = (v: bigint) => v < INT64_MIN ? INT64_MIN : v > INT64_MAX ? INT64_MAX : v;

/** Comparison operators, and the one that reads the same with its sides swapped. */
const FLIPPED: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "==": "=" };

/** Whether a token may be part of a constant time bound. */
function constantToken(t: Token): boolean {
  if (t.kind === "number" || t.kind === "string") return true;
  if (t.kind === "op") return ["+", "-", "(", ")"].includes(t.text);
  return t.kind === "ident" && (isKeyword(t, "INTERVAL") || NOW_NAMES.has(t.text.toLowerCase()));
}

/**
 * The range of the reference's time column `column` (lowercased) that the WHERE's conjuncts bound,
 * or undefined when none does; `emit` renders tokens as the query does, `evaluate` runs a constant
 * SQL expression (undefined if it fails).
 */
export function whereTimeRange(
  q: QueryTokens,
  ref: RelationRef,
  column: string,
  emit: (a: number, b: number) => string,
  evaluate: (sql: string) => unknown,
): TimeRange | undefined {
  const top = topConjuncts(q, ref);
  if (top === undefined) return undefined;
  const { toks } = q;
  const cols = new Set([column]);
  let lo: bigint | null = null, hi: bigint | null = null, found = false;
  /** Narrows the range by `ts <op> toks[a, b)`. */
  const bound = (op: string, a: number, b: number) => {
    if (a >= b || !toks.slice(a, b).every(constantToken)) return;
    const v = evaluate(`SELECT (${emit(a, b)})`);
    const n = typeof v === "bigint" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isFinite(n)) return;
    const usesNow = toks.slice(a, b).some((t) => t.kind === "ident" && NOW_NAMES.has(t.text.toLowerCase()));
    if (op === ">" || op === ">=" || op === "=" || op === "==") {
      const l = clamp(typeof v === "bigint" ? v : BigInt(Math.floor(n)));
      if (lo === null || l > lo) lo = l;
      found = true;
    }
    if ((op === "<" || op === "<=" || op === "=" || op === "==") && !usesNow) {
      const h = clamp(typeof v === "bigint" ? v : BigInt(Math.ceil(n)));
      if (hi === null || h < hi) hi = h;
      found = true;
    }
  };
  for (const [a, b] of top.ranges) {
    const col = columnAt(q, ref, cols, a, !top.joined);
    if (col !== undefined && isKeyword(toks[col.end], "BETWEEN")) {
      let and = col.end + 1;
      while (and < b && !isKeyword(toks[and], "AND")) and = isOp(toks[and], "(") ? q.match[and] + 1 : and + 1;
      bound(">=", col.end + 1, and);
      bound("<=", and + 1, b);
    } else if (col !== undefined && toks[col.end]?.kind === "op" && FLIPPED[toks[col.end].text]) {
      bound(toks[col.end].text, col.end + 1, b);
    } else {
      // `e <op> ts`: the column ends the conjunct
      for (let k = a; k < b; k = isOp(toks[k], "(") ? q.match[k] + 1 : k + 1) {
        const op = toks[k];
        if (op.kind !== "op" || !FLIPPED[op.text]) continue;
        if (columnAt(q, ref, cols, k + 1, !top.joined)?.end === b) bound(FLIPPED[op.text], a, k);
        break;
      }
    }
  }
  return found ? { lo, hi } : undefined;
}
