/**
 * `x AT TIME ZONE 'tz'`: DataFusion casts `x` to `Timestamp(Nanosecond, Some(tz))`. A time-zone-less
 * timestamp (a column, a cast string) is read as wall-clock time in `tz` and becomes that instant;
 * an aware one (`now()`, another AT TIME ZONE) keeps its instant. GreptimeDB reports the column as
 * TimestampNanosecond (its types carry no zone), so the value is an integer of nanoseconds as an
 * output column, and in the segment's unit inside a larger expression (as casts are, `casts.ts`).
 */
import { isKeyword, isOp } from "../lexer.ts";
import { errorAt, NOW_NAMES, type QueryTokens } from "../query_tokens.ts";
import { quoteString } from "../../storage/table.ts";
import { checkTimezone } from "../time.ts";
import type { RewriteCtx } from "./context.ts";
import type { TimeUnit } from "../../common/time_unit.ts";

/** A rewrite of the token range `[start, end)`, rendered when emitted. */
export interface OperatorRewrite {
  start: number;
  end: number;
  render: () => string;
}

/** Whether `AT TIME ZONE '…'` starts at token `k`. */
export function isAtTimeZone(q: Pick<QueryTokens, "toks">, k: number): boolean {
  const { toks } = q;
  return isKeyword(toks[k], "AT") && isKeyword(toks[k + 1], "TIME") && isKeyword(toks[k + 2], "ZONE");
}

/** The start of the operand of the `AT TIME ZONE` at `k` (itself maybe another AT TIME ZONE). */
export function atTimeZoneOperand(q: QueryTokens, k: number): number {
  if (q.toks[k - 1]?.kind === "string" && isAtTimeZone(q, k - 4)) return atTimeZoneOperand(q, k - 4);
  return q.primaryStart(k);
}

/** Every `x AT TIME ZONE 'tz'` of the query, as calls of `__petrel_at_time_zone`. */
export function atTimeZones(c: RewriteCtx): OperatorRewrite[] {
  const { toks, q } = c;
  const out: OperatorRewrite[] = [];
  for (let k = 0; k < toks.length; k++) {
    if (!isAtTimeZone(c, k)) continue;
    const zone = toks[k + 3];
    if (zone?.kind !== "string") {
      throw errorAt(q.cursor, zone ?? toks[k + 2], "Expected: a time zone string after AT TIME ZONE");
    }
    checkTimezone(zone.value);
    const start = atTimeZoneOperand(q, k);
    if (start === k) throw errorAt(q.cursor, toks[k], "Expected: an expression before AT TIME ZONE");
    const end = k + 4;
    const inner = c.toks[k - 1]?.kind === "string" && isAtTimeZone(c, k - 4);
    const first = toks[start];
    const nowCall = first.kind === "ident" && NOW_NAMES.has(first.text.toLowerCase()) &&
      (k - start === 1 || (isOp(toks[start + 1], "(") && q.match[start + 1] === k - 1));
    out.push({
      start,
      end,
      render: () => {
        const value = c.emit(start, k).trim();
        // a nested AT TIME ZONE is not an output column: its value is in the segment's unit
        const from = inner ? c.time.unitAt(start) : operandUnit(c, start, k);
        const to = c.isOutputItem(start, end) || c.isSubqueryItem(start, end) ? "ns" : c.time.unitAt(start);
        const naive = inner || nowCall ? 0 : 1;
        return `__petrel_at_time_zone(${value}, '${from}', '${to}', ${quoteString(zone.value)}, ${naive})`;
      },
    });
  }
  return out;
}

/** The unit an operand's value is in: a time column's own, else the segment's. */
function operandUnit(c: RewriteCtx, s: number, e: number): TimeUnit {
  const { toks } = c;
  if (e - s === 1) return c.time.isTsColumn(s) ?? c.time.unitAt(s);
  if (e - s === 3 && isOp(toks[s + 1], ".")) return c.time.isTsColumn(s + 2) ?? c.time.unitAt(s);
  return c.time.unitAt(s);
}
