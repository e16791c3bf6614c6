/**
 * `date ± INTERVAL '…'` as DataFusion computes it: a Date (days since the epoch) shifted by calendar
 * months, then days, with a sub-day rest truncated toward zero (arrow adds it to a NaiveDate), and
 * still a Date. SQLite would add the interval's count in the segment's time unit to the day count.
 * A date meeting a time column is a timestamp already (rewrite/casts.ts), where plain addition fits.
 */
import { quoteString } from "../../storage/table.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { INTERVAL_UNITS } from "../query_tokens.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import { isDateArg } from "./session_calls.ts";

/** Operand starts being rewritten, so emitting the operand itself does not come back here. */
const busy = new WeakMap<RewriteCtx, Set<number>>();

/** The end of the Date operand starting at token `s` (a Date column, a cast to DATE, a date call). */
function dateOperandEnd(c: RewriteCtx, s: number): number | undefined {
  const { toks } = c.q;
  const t = toks[s];
  if (t.kind !== "ident" && t.kind !== "qident") return undefined;
  const e = c.q.primaryEnd(s);
  if (e <= s || !isDateArg(c.q, c.time.columnTypeAt, [s, e])) return undefined;
  // a cast to DATE meeting a time column is a timestamp already (rewrite/casts.ts)
  const isCast = t.kind === "ident" && /^(try_)?cast$/i.test(t.text) && isOp(toks[s + 1], "(");
  return isCast && c.time.hasTimeColumn(s) ? undefined : e;
}

/**
 * The rewrite of `date ± INTERVAL '…' [± INTERVAL '…' …]` starting at token `s`, into
 * `__petrel_date_add` calls; undefined when no interval follows a Date operand there.
 */
export function dateIntervalArithmetic(c: RewriteCtx, s: number): TokenRewrite | undefined {
  const { toks } = c;
  const before = toks[s - 1];
  // `x - d + i` is `(x - d) + i`, and `d` of `t.d` is not where the operand starts
  if (isOp(before, "-", "*", "/", "%", ".", "::")) return undefined;
  if (busy.get(c)?.has(s)) return undefined;
  const e = dateOperandEnd(c, s);
  if (e === undefined || !isOp(toks[e], "+", "-") || !isKeyword(toks[e + 1], "INTERVAL")) return undefined;
  let seen = busy.get(c);
  if (seen === undefined) busy.set(c, seen = new Set());
  seen.add(s);
  let text: string;
  try {
    text = c.emit(s, e).trim();
  } finally {
    seen.delete(s);
  }
  let k = e;
  while (isOp(toks[k], "+", "-") && isKeyword(toks[k + 1], "INTERVAL") && toks[k + 2]?.kind === "string") {
    const unit = toks[k + 3]?.kind === "ident" && INTERVAL_UNITS.has(toks[k + 3].text.toUpperCase())
      ? toks[k + 3].text
      : undefined;
    const interval = unit ? `${toks[k + 2].value} ${unit}` : toks[k + 2].value;
    const sign = toks[k].text === "-" ? -1 : 1;
    text = `__petrel_date_add(${text}, ${quoteString(interval)}, ${sign}, 'date_op', ${c.tz})`;
    k += unit ? 4 : 3;
  }
  return k === e ? undefined : { text, next: k };
}
