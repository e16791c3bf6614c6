/**
 * Interval arithmetic as DataFusion types it: `INTERVAL '1h' + INTERVAL '30m'` and `INTERVAL '1h' - …`
 * are intervals (IntervalMonthDayNano), not numbers; scaling one by a number is refused. Inside an
 * expression the literals are integers in the segment's time unit (tokens.ts), so they add to
 * timestamps as they are; an output column that is an interval is a constant, computed here in
 * nanoseconds, the count GreptimeDB's JSON shows (so a microsecond part survives a millisecond
 * segment).
 */
import { PetrelError, StatusCode } from "../../common/errors.ts";
import type { DataType } from "../../common/rows.ts";
import { decimalSpec } from "../../common/decimal.ts";
import { castTarget } from "../cast_type.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { exprType, type TypingCtx } from "./decimal_arith.ts";
import { INTERVAL_UNITS, isOperandEnd, type QueryTokens } from "../query_tokens.ts";
import { parseIntervalNs } from "../time.ts";

/** GreptimeDB's name of the type of an interval expression. */
export const INTERVAL_TYPE = "IntervalMonthDayNano";

type Kind = "interval" | "number";
interface Parsed {
  kind: Kind;
  /** Nanoseconds of an interval, or the integer. */
  value: bigint;
  next: number;
}

/**
 * The nanoseconds of tokens `[s, e)` when they are an interval: interval literals added and
 * subtracted; undefined for anything else.
 */
export function intervalNs(q: QueryTokens, s: number, e: number): bigint | undefined {
  const p = sum(q, s, e);
  return p?.kind === "interval" && p.next === e ? p.value : undefined;
}

/** Whether tokens `[s, e)` are an interval expression (see `intervalNs`). */
export function isIntervalExpr(q: QueryTokens, s: number, e: number): boolean {
  return intervalNs(q, s, e) !== undefined;
}

/** Whether a parenthesized operand at depth zero of `[s, e)` is an interval expression. */
export function hasIntervalGroup(q: QueryTokens, s: number, e: number): boolean {
  for (let k = s; k < e; k++) {
    if (!isOp(q.toks[k], "(")) continue;
    if (!isOperandEnd(q.toks[k - 1]) && isIntervalExpr(q, k, q.match[k] + 1)) return true;
    k = q.match[k];
  }
  return false;
}

/** `term (+|- term)*`, every term of one kind. */
function sum(q: QueryTokens, k: number, e: number): Parsed | undefined {
  const first = product(q, k, e);
  if (!first) return undefined;
  let { next, value } = first;
  while (next < e && isOp(q.toks[next], "+", "-")) {
    const term = product(q, next + 1, e);
    if (!term || term.kind !== first.kind) return undefined;
    value = isOp(q.toks[next], "-") ? value - term.value : value + term.value;
    next = term.next;
  }
  return { kind: first.kind, value, next };
}

/**
 * `factor (* factor)*`: an interval only alone, since DataFusion scales no interval (a product with
 * one is refused where it is emitted, `refuseIntervalScaling`).
 */
function product(q: QueryTokens, k: number, e: number): Parsed | undefined {
  let f = factor(q, k, e);
  if (!f) return undefined;
  while (f.next < e && isOp(q.toks[f.next], "*")) {
    const g = factor(q, f.next + 1, e);
    if (!g || f.kind === "interval" || g.kind === "interval") return undefined;
    f = { kind: "number", value: f.value * g.value, next: g.next };
  }
  return f;
}

/** A signed interval literal, number, or parenthesized sum. */
function factor(q: QueryTokens, k: number, e: number): Parsed | undefined {
  const { toks } = q;
  const t = toks[k];
  if (k >= e || !t) return undefined;
  if (isOp(t, "-", "+")) {
    const f = factor(q, k + 1, e);
    return f && isOp(t, "-") ? { ...f, value: -f.value } : f;
  }
  // DataFusion scales intervals by integers only
  if (t.kind === "number") {
    return /^\d+$/.test(t.text) ? { kind: "number", value: BigInt(t.text), next: k + 1 } : undefined;
  }
  if (isKeyword(t, "INTERVAL") && toks[k + 1]?.kind === "string") {
    const unit = toks[k + 2]?.kind === "ident" && INTERVAL_UNITS.has(toks[k + 2].text.toUpperCase())
      ? toks[k + 2].text.toLowerCase()
      : undefined;
    return { kind: "interval", value: parseIntervalNs(toks[k + 1].value, unit), next: k + (unit ? 3 : 2) };
  }
  // `CAST('1h' AS INTERVAL)` (and `'1h'::INTERVAL`, which the tokens hold as that cast)
  if (
    isKeyword(t, "CAST", "TRY_CAST") && isOp(toks[k + 1], "(") && toks[k + 2]?.kind === "string" &&
    isKeyword(toks[k + 3], "AS") && isKeyword(toks[k + 4], "INTERVAL") && isOp(toks[k + 5], ")") && k + 6 <= e
  ) {
    return { kind: "interval", value: parseIntervalNs(toks[k + 2].value), next: k + 6 };
  }
  if (isOp(t, "(")) {
    const close = q.match[k];
    const inner = close < e ? sum(q, k + 1, close) : undefined;
    return inner && inner.next === close ? { ...inner, next: close + 1 } : undefined;
  }
  return undefined;
}

/**
 * Refuses `interval * x` and `interval / x` (either order, any `x` but NULL) at operator token `i`, as
 * DataFusion's planner does: arrow's multiply and divide kernels take no interval (its type coercion
 * finds no common type), and left alone SQLite would scale the interval's integer form. The message
 * names `x`'s type as DataFusion would where the rewrite can tell it (literals, columns, casts,
 * arithmetic groups, count), else `x` as written.
 */
export function refuseIntervalScaling(
  q: QueryTokens,
  i: number,
  columnTypeAt: (k: number) => DataType | undefined = () => undefined,
): void {
  const op = q.toks[i];
  if (!isOp(op, "*", "/") || !isOperandEnd(q.toks[i - 1])) return;
  const leftInterval = intervalEndingAt(q, i);
  const rightInterval = intervalStartingAt(q, i + 1);
  if (!leftInterval && !rightInterval) return;
  const typing = { q, columnTypeAt };
  const rightAt = isOp(q.toks[i + 1], "-", "+") ? i + 2 : i + 1;
  const left = leftInterval ? INTERVAL_ARROW : operandName(typing, operandStart(q, i), i);
  const right = rightInterval ? INTERVAL_ARROW : operandName(typing, rightAt, q.primaryEnd(rightAt));
  if (left === undefined || right === undefined) return;
  throw new PetrelError(
    StatusCode.PlanQuery,
    `Failed to plan SQL: Error during planning: Cannot coerce arithmetic expression ${left} ${op.text} ${right} ` +
      "to valid types",
  );
}

/** DataFusion's name of an interval's type, as its planning errors print it. */
const INTERVAL_ARROW = "Interval(MonthDayNano)";

/** Arrow's integer type of DataFusion's decimal precision for it (`decimal_arith.ts`' INT_PRECISION). */
const INT_OF_PRECISION: Record<number, string> = { 3: "Int8", 5: "Int16", 10: "Int32", 20: "Int64" };

/** Keywords a parenthesized group follows (`SELECT (1 + 2) * …`): not the name of a call. */
const BEFORE_GROUP = new Set(
  ("SELECT WHERE HAVING AND OR NOT IN ON BY WHEN THEN ELSE AS EXISTS CASE VALUES FROM JOIN USING LIMIT " +
    "OFFSET ALL ANY SOME DISTINCT IS LIKE BETWEEN RETURN").split(" "),
);

/** The first token of the operand that ends just before token `i` (a call or group, else one token). */
export function operandStart(q: QueryTokens, i: number): number {
  if (!isOp(q.toks[i - 1], ")")) return i - 1;
  const open = q.match[i - 1];
  const name = q.toks[open - 1];
  if (name?.kind === "qident") return open - 1;
  return name?.kind === "ident" && !BEFORE_GROUP.has(name.text.toUpperCase()) ? open - 1 : open;
}

/**
 * What the planning error names for the non-interval operand `[s, e)`: the arrow type DataFusion
 * gives it where the rewrite can tell it, else its text; undefined for NULL (not refused) or nothing.
 */
function operandName(t: TypingCtx, s: number, e: number): string | undefined {
  if (e <= s || (e === s + 1 && isKeyword(t.q.toks[s], "NULL"))) return undefined;
  return operandArrowName(t, s, e) ?? writtenText(t.q, s, e);
}

/**
 * The arrow type DataFusion gives the operand `[s, e)` (a literal, column, cast, count or arithmetic
 * group), as its planning errors print it; undefined where the rewrite cannot tell.
 */
export function operandArrowName(t: TypingCtx, s: number, e: number): string | undefined {
  const first = t.q.toks[s];
  if (e === s + 1) {
    if (first.kind === "number") return /^\d+$/.test(first.text) ? "Int64" : "Float64";
    if (first.kind === "string") return "Utf8";
  }
  return e > s ? arrowName(operandType(t, s, e)) : undefined;
}

/** The operand `[s, e)` as the statement has it (its tokens joined when they were rewritten). */
function writtenText(q: QueryTokens, s: number, e: number): string {
  const first = q.toks[s], last = q.toks[e - 1];
  const text = q.cursor.sql.slice(first.pos, last.pos + last.text.length);
  return last.pos >= first.pos && text.endsWith(last.text)
    ? text
    : q.toks.slice(s, e).map((x) => x.text).join(" ");
}

/** The type DataFusion gives a column, cast, count or arithmetic group, as the rewrite can tell it. */
function operandType(t: TypingCtx, s: number, e: number): DataType | undefined {
  const { toks, match } = t.q;
  const first = toks[s];
  // a column, bare or qualified (`m.v`)
  const name = toks.slice(s, e).every((x, k) =>
    k % 2 === 1 ? isOp(x, ".") : x.kind === "ident" || x.kind === "qident"
  );
  if (name && (e - s) % 2 === 1) return t.columnTypeAt(e - 1);
  if (isKeyword(first, "CAST", "TRY_CAST") && isOp(toks[s + 1], "(") && match[s + 1] === e - 1) {
    const as = toks.findIndex((x, k) =>
      k > s + 1 && k < e - 1 && isKeyword(x, "AS") && t.q.parent[k] === s + 1
    );
    const target = as < 0 ? undefined : castTarget(toks, as + 1, e - 1);
    return target && "type" in target ? target.type : undefined;
  }
  if (isKeyword(first, "COUNT") && isOp(toks[s + 1], "(") && match[s + 1] === e - 1) return "Int64";
  if (isOp(first, "(") && match[s] === e - 1) {
    const type = exprType(t, s + 1, e - 1);
    if (type?.kind === "int") return INT_OF_PRECISION[type.p] as DataType | undefined;
    if (type?.kind === "float") return "Float64";
    if (type?.kind === "decimal") return `Decimal(${type.p}, ${type.s})` as DataType;
  }
  return undefined;
}

/** Arrow's name of a type as DataFusion's planning errors print it. */
function arrowName(type: DataType | undefined): string | undefined {
  if (type === undefined) return undefined;
  if (type === "String") return "Utf8";
  const decimal = decimalSpec(type);
  if (decimal) return `Decimal128(${decimal.precision}, ${decimal.scale})`;
  return /^(U?Int(8|16|32|64)|Float(32|64)|Boolean)$/.test(type) ? type : undefined;
}

/** Whether the operand that ends just before token `i` is an interval expression. */
function intervalEndingAt(q: QueryTokens, i: number): boolean {
  const { toks } = q;
  const last = toks[i - 1];
  if (last?.kind === "string") return isKeyword(toks[i - 2], "INTERVAL");
  if (last?.kind === "ident" && INTERVAL_UNITS.has(last.text.toUpperCase())) {
    return toks[i - 2]?.kind === "string" && isKeyword(toks[i - 3], "INTERVAL");
  }
  if (!isOp(last, ")")) return false;
  const open = q.match[i - 1];
  if (open < 0) return false;
  const start = isKeyword(toks[open - 1], "CAST", "TRY_CAST") ? open - 1 : open;
  return isIntervalExpr(q, start, i);
}

/** Whether the operand that starts at token `k` is an interval expression. */
function intervalStartingAt(q: QueryTokens, k: number): boolean {
  const { toks } = q;
  const t = toks[k];
  if (isKeyword(t, "INTERVAL")) return toks[k + 1]?.kind === "string";
  if (isOp(t, "(")) return q.match[k] > k && isIntervalExpr(q, k, q.match[k] + 1);
  if (isKeyword(t, "CAST", "TRY_CAST") && isOp(toks[k + 1], "(") && q.match[k + 1] > k) {
    return isIntervalExpr(q, k, q.match[k + 1] + 1);
  }
  return false;
}
