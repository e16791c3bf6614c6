/**
 * Decimal columns hold the unscaled integer (value × 10^scale). Where that integer is the answer
 * (a whole output column, an ORDER BY or GROUP BY key, or the argument of sum/min/max/avg) it
 * stays as it is, exact, and results render it with its scale; arithmetic and comparisons among
 * decimals and integers stay exact too (decimal_arith.ts); anywhere else (a function argument, a
 * float operand) it becomes the REAL value `x / 10^scale`, as DataFusion casts to Float64.
 */
import type { DataType } from "../../common/rows.ts";
import { decimalSpec, MAX_DECIMAL_PRECISION } from "../../common/decimal.ts";
import { quoteIdent } from "../../storage/table.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { SEPARATORS } from "../query_tokens.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

/** A decimal column reference. */
export interface DecimalRef {
  /** The stored (unscaled) column, as SQL. */
  raw: string;
  scale: number;
  precision: number;
}

/** The REAL value of an unscaled decimal expression. */
export function realOfScaled(x: string, scale: number): string {
  return `(${x} / ${scale === 0 ? "1.0" : `1e${scale}`})`;
}

/** The decimal column `[s, e)` names (bare or qualified), if it names exactly one. */
export function decimalColumnAt(c: RewriteCtx, s: number, e: number): DecimalRef | undefined {
  const { toks } = c;
  const isName = (k: number) => toks[k]?.kind === "ident" || toks[k]?.kind === "qident";
  let col: number;
  if (e - s === 1 && isName(s)) col = s;
  else if (e - s === 3 && isName(s) && isOp(toks[s + 1], ".") && isName(s + 2)) col = s + 2;
  else return undefined;
  if (isOp(toks[e], "(") || isOp(toks[e], ".") || isKeyword(toks[s - 1], "AS") || isOp(toks[s - 1], ".")) {
    return undefined;
  }
  const spec = decimalSpec(c.time.columnTypeAt(col) ?? "");
  if (!spec) return undefined;
  const qualifier = toks[s].kind === "qident" ? quoteIdent(toks[s].value) : toks[s].text;
  const raw = col === s ? quoteIdent(toks[s].value) : `${qualifier}.${quoteIdent(toks[col].value)}`;
  return { raw, ...spec };
}

/** Aggregates whose result over a decimal column is a decimal, with the result's precision and scale. */
const DECIMAL_AGGREGATES: Record<string, (p: number, s: number) => [number, number]> = {
  sum: (p, s) => [Math.min(p + 10, MAX_DECIMAL_PRECISION), s],
  avg: (p, s) => [Math.min(p + 4, MAX_DECIMAL_PRECISION), Math.min(s + 4, MAX_DECIMAL_PRECISION)],
  mean: (p, s) => [Math.min(p + 4, MAX_DECIMAL_PRECISION), Math.min(s + 4, MAX_DECIMAL_PRECISION)],
  min: (p, s) => [p, s],
  max: (p, s) => [p, s],
  first_value: (p, s) => [p, s],
  last_value: (p, s) => [p, s],
  median: (p, s) => [p, s],
};

/** The decimal type of `fn(col)` over a decimal column type (DataFusion's sum/avg widening). */
export function decimalAggregateType(fn: string, argType: DataType): DataType | undefined {
  const spec = decimalSpec(argType), widen = DECIMAL_AGGREGATES[fn];
  if (!spec || !widen) return undefined;
  const [p, s] = widen(spec.precision, spec.scale);
  return `Decimal(${p}, ${s})`;
}

/** Whether `[s, e)` is a whole item of an ORDER BY, GROUP BY or PARTITION BY list. */
export function isByItem(c: RewriteCtx, s: number, e: number): boolean {
  const { toks, q } = c;
  const after = toks[e];
  if (
    after && !isOp(after, ",", ")") &&
    !isKeyword(
      after,
      "ASC",
      "DESC",
      "NULLS",
      "LIMIT",
      "OFFSET",
      "HAVING",
      "UNION",
      "EXCEPT",
      "INTERSECT",
      "WINDOW",
      "FILL",
      "ALIGN",
      "ORDER",
      "ROWS",
      "RANGE",
    )
  ) return false;
  if (!isKeyword(toks[s - 1], "BY") && !isOp(toks[s - 1], ",")) return false;
  for (let k = s - 1; k >= 0; k--) {
    const t = toks[k];
    if (isOp(t, ")")) k = q.match[k];
    else if (isOp(t, "(")) return false;
    else if (isKeyword(t, "BY")) return true;
    else if (t.kind === "ident" && SEPARATORS.has(t.text.toUpperCase())) return false;
  }
  return false;
}

/** A decimal aggregate call at token `i` as its unscaled result, with the result's scale. */
export function decimalCallScaled(
  c: RewriteCtx,
  i: number,
): { sql: string; scale: number; next: number; plain: string } | undefined {
  const { toks, q } = c;
  const t = toks[i];
  if (t.kind !== "ident" || !isOp(toks[i + 1], "(")) return undefined;
  const fn = t.text.toLowerCase();
  if (!(fn in DECIMAL_AGGREGATES)) return undefined;
  const close = q.match[i + 1];
  // a window's frame needs the aggregate to stay one call: its argument goes as a REAL
  if (isKeyword(toks[close + 1], "OVER", "FILTER")) return undefined;
  const col = decimalColumnAt(c, i + 2, close);
  const arg = col ? { sql: col.raw, spec: col } : c.decimalExprAt(i + 2, close);
  if (!arg) return undefined;
  const { precision, scale } = arg.spec;
  const [p, s] = DECIMAL_AGGREGATES[fn](precision, scale);
  const mean = fn === "avg" || fn === "mean";
  // a column's sum is SQLite's own over the two 32-bit halves of each value (fast, and exact past
  // 64 bits); an expression's values may already be wider
  const halves = col && `sum(${col.raw} >> 32), sum(${col.raw} & 4294967295)`;
  const sql = mean
    ? col
      ? `__petrel_decimal_mean(${halves}, count(${col.raw}), ${scale})`
      : `__petrel_decimal_avg(${arg.sql}, ${scale})`
    : fn === "sum"
    ? col ? `__petrel_decimal_join(${halves})` : `__petrel_decimal_sum(${arg.sql}, ${p})`
    : fn === "median"
    ? `__petrel_decimal_median(${arg.sql})`
    : `${fn}(${arg.sql})`;
  // outside an output column a column's mean is SQLite's own avg, as a REAL
  const plain = mean && col ? realOfScaled(`avg(${col.raw})`, scale) : realOfScaled(sql, s);
  return { sql, scale: s, next: close + 1, plain };
}

/** The rewrite of a decimal column or decimal aggregate starting at token `i`, if one starts there. */
export function decimalToken(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const windowed = windowedMedian(c, i);
  if (windowed) return windowed;
  const call = decimalCallScaled(c, i);
  if (call) {
    const keep = c.isOutputItem(i, call.next) || isByItem(c, i, call.next);
    return { text: keep ? call.sql : call.plain, next: call.next };
  }
  if (isOp(c.toks[i + 1], "(")) return undefined;
  const end = isOp(c.toks[i + 1], ".") ? i + 3 : i + 1;
  const ref = decimalColumnAt(c, i, end);
  if (!ref) return undefined;
  const keep = c.isOutputItem(i, end) || isByItem(c, i, end);
  return { text: keep ? ref.raw : realOfScaled(ref.raw, ref.scale), next: end };
}

/**
 * `median(<decimal column>) OVER …` as a whole output column: the exact decimal median is one call
 * (an inverse lets a frame slide), so the window applies to it; elsewhere the window's median is a
 * REAL, as other windowed decimal aggregates are.
 */
function windowedMedian(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const { toks, q } = c;
  const t = toks[i];
  if (t.kind !== "ident" || t.text.toLowerCase() !== "median" || !isOp(toks[i + 1], "(")) return undefined;
  const close = q.match[i + 1];
  if (!isKeyword(toks[close + 1], "OVER")) return undefined;
  const spec = toks[close + 2];
  const end = isOp(spec, "(") ? q.match[close + 2] + 1 : close + 3;
  const col = decimalColumnAt(c, i + 2, close);
  if (!col || !c.isOutputItem(i, end)) return undefined;
  return { text: `__petrel_decimal_median(${col.raw})`, next: close + 1 };
}
