/**
 * The origin of a range query's `ALIGN … TO <to>`, read as GreptimeDB reads it: NOW, CALENDAR, a
 * timestamp string, or a constant expression it evaluates (an interval, `now()` ± an interval).
 */
import { PetrelError, StatusCode } from "../../common/errors.ts";
import { msToUnit, nsToUnit, type TimeUnit } from "../../common/time_unit.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { parseTimestampIn } from "../time.ts";
import { type QueryTokens, SYNTHETIC } from "../query_tokens.ts";
import { intervalNs } from "./interval_arith.ts";
import { syntax } from "./range_values.ts";

/**
 * Where the ALIGN timestamps start: an interval expression is an offset from the epoch, and `now()` or a
 * timestamp cast may be shifted by one (`now() - INTERVAL '1 day'`).
 */
export type AlignTo =
  | { kind: "calendar" }
  | { kind: "now"; shiftNs?: bigint }
  | { kind: "timestamp"; text: string; shiftNs?: bigint }
  | { kind: "offset"; ns: bigint };

/**
 * Reads `TO <to>` from token `k`, as GreptimeDB does: a word (`NOW`, `CALENDAR`) or a string is read
 * as text (`''` is CALENDAR, a timestamp string is read in the session time zone); another expression
 * must evaluate to an interval (its offset from the epoch) or be `now()` or a timestamp cast shifted by
 * one. Returns the origin and the token after it.
 */
export function parseAlignTo(q: QueryTokens, k: number): { to: AlignTo; next: number } {
  const { toks, match } = q;
  const t = toks[k];
  if ((t?.kind === "ident" || t?.kind === "string") && !isOp(toks[k + 1], "(") && !isKeyword(t, "INTERVAL")) {
    const text = t.kind === "string" ? t.value : t.text;
    const upper = text.toUpperCase();
    const to: AlignTo = upper === "NOW"
      ? { kind: "now" }
      : upper === "CALENDAR" || upper === ""
      ? { kind: "calendar" }
      : { kind: "timestamp", text };
    return { to, next: k + 1 };
  }
  let end = k;
  while (end < toks.length && !isKeyword(toks[end], "BY", "FILL", "ORDER", "LIMIT", "OFFSET")) {
    end = isOp(toks[end], "(") ? match[end] + 1 : end + 1;
  }
  if (end === k) throw syntax(q, k, `Expected: NOW, CALENDAR or a timestamp after ALIGN … TO, found: EOF`);
  const ns = intervalNs(q, k, end);
  if (ns !== undefined) {
    return { to: { kind: "offset", ns }, next: end };
  }
  const instant = instantExpr(q, k, end);
  if (instant) {
    return { to: instant, next: end };
  }
  const last = toks[end - 1];
  const text = t.pos === SYNTHETIC || last.pos === SYNTHETIC
    ? toks.slice(k, end).map((x) => x.text).join(" ")
    : q.cursor.sql.slice(t.pos, last.pos + last.text.length);
  // DataFusion names an integer literal Int64(n); GreptimeDB evaluates TO to a timestamp or interval
  const name = end === k + 1 && t.kind === "number" && /^\d+$/.test(t.text) ? `Int64(${t.text})` : text;
  throw new PetrelError(
    StatusCode.PlanQuery,
    `Error during planning: ${name} is not a expr can be evaluate and use in range query`,
  );
}

/**
 * `now()`, `TIMESTAMP '…'` or `CAST('…' AS TIMESTAMP…)` (`'…'::TIMESTAMP`) in tokens `[k, end)`,
 * optionally shifted by an interval expression (`+ INTERVAL '1 hour'`); the constants GreptimeDB
 * evaluates for ALIGN TO.
 */
function instantExpr(q: QueryTokens, k: number, end: number): AlignTo | undefined {
  const { toks, match } = q;
  let base: AlignTo;
  let next: number;
  if (isKeyword(toks[k], "NOW") && isOp(toks[k + 1], "(") && match[k + 1] === k + 2) {
    base = { kind: "now" };
    next = k + 3;
  } else if (isKeyword(toks[k], "TIMESTAMP") && toks[k + 1]?.kind === "string") {
    base = { kind: "timestamp", text: toks[k + 1].value };
    next = k + 2;
  } else if (
    isKeyword(toks[k], "CAST") && isOp(toks[k + 1], "(") && toks[k + 2]?.kind === "string" &&
    isKeyword(toks[k + 3], "AS") && isKeyword(toks[k + 4], "TIMESTAMP")
  ) {
    base = { kind: "timestamp", text: toks[k + 2].value };
    next = match[k + 1] + 1;
  } else return undefined;
  if (next === end) return base;
  if (!isOp(toks[next], "+", "-")) return undefined;
  const ns = intervalNs(q, next + 1, end);
  if (ns === undefined) return undefined;
  return { ...base, shiftNs: isOp(toks[next], "-") ? -ns : ns } as AlignTo;
}

/**
 * The ALIGN TO origin in the time index's unit, reduced into `[0, align)`. CALENDAR (the default) is
 * the epoch in the session time zone (its midnight of 1970-01-01), as GreptimeDB aligns it.
 */
export function alignOrigin(
  to: AlignTo,
  unit: TimeUnit,
  timezone: string | undefined,
  align: bigint,
): bigint {
  const origin = originOf(to, unit, timezone);
  return ((origin % align) + align) % align;
}

function originOf(to: AlignTo, unit: TimeUnit, timezone: string | undefined): bigint {
  const shift = to.kind === "now" || to.kind === "timestamp" ? nsToUnit(to.shiftNs ?? 0n, unit) : 0n;
  return instantOf(to, unit, timezone) + shift;
}

function instantOf(to: AlignTo, unit: TimeUnit, timezone: string | undefined): bigint {
  if (to.kind === "now") return msToUnit(Date.now(), unit);
  if (to.kind === "offset") return nsToUnit(to.ns, unit);
  const text = to.kind === "timestamp" ? to.text : "1970-01-01 00:00:00";
  const v = parseTimestampIn(text, unit, timezone);
  if (v === undefined) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Error during planning: Illegal \`align to\` argument \`${text}\` in range select query, can't be parse as ` +
        `NOW/CALENDAR/Timestamp, error: Failed to parse a string into Timestamp, raw string: ${text}`,
    );
  }
  return v;
}
