/**
 * The values of a range query's clauses, read off its tokens: RANGE and ALIGN intervals
 * (`'10s'`, `'10s'::INTERVAL`, `(INTERVAL '10 seconds')`) and FILL options.
 */
import { invalidArguments, invalidSyntax } from "../../common/errors.ts";
import { parseDuration } from "../../common/humantime.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { errorAt, INTERVAL_UNITS, type QueryTokens, SYNTHETIC } from "../query_tokens.ts";
import { parseIntervalNs } from "../time.ts";

/** How a slot without a value is filled. */
export type Fill =
  | { kind: "null" }
  | { kind: "prev" }
  | { kind: "linear" }
  | { kind: "const"; value: number };

/** A RANGE or ALIGN interval: its length and its text as a column name shows it. */
export interface Interval {
  ns: bigint;
  text: string;
}

/** A syntax error positioned at token `i` (or the end of the statement). */
export function syntax(q: QueryTokens, i: number, message: string): Error {
  const t = q.toks[i];
  return t && t.pos !== SYNTHETIC
    ? errorAt(q.cursor, t, message)
    : invalidSyntax(`Invalid SQL syntax: sql parser error: ${message}`);
}

/** Whether tokens from `k` start a RANGE interval (`'10s'`, `INTERVAL …`, `(INTERVAL …)`). */
export function startsInterval(toks: Token[], k: number): boolean {
  return toks[k]?.kind === "string" || isKeyword(toks[k], "INTERVAL") ||
    (isOp(toks[k], "(") && isKeyword(toks[k + 1], "INTERVAL"));
}

/** Reads an interval at `k`: `'10s'`, `'10s'::INTERVAL`, `(INTERVAL '10 seconds')` or `INTERVAL '1' HOUR`. */
export function readInterval(q: QueryTokens, k: number, what: string): { interval: Interval; next: number } {
  const { toks, match } = q;
  const t = toks[k];
  if (t?.kind === "string") {
    const ms = parseDuration(t.value);
    if (ms === null || !/^\s*\d/.test(t.value)) throw syntax(q, k, `not a valid duration string: ${t.value}`);
    return { interval: positive(BigInt(Math.round(ms * 1e6)), what, t.value), next: k + 1 };
  }
  // `'1h'::INTERVAL`, which reaches here as `CAST('1h' AS INTERVAL)`
  if (
    isKeyword(t, "CAST") && isOp(toks[k + 1], "(") && toks[k + 2]?.kind === "string" &&
    isKeyword(toks[k + 3], "AS") && isKeyword(toks[k + 4], "INTERVAL") && match[k + 1] === k + 5
  ) {
    const text = toks[k + 2].value;
    const ms = parseDuration(text);
    const ns = ms !== null && /^\s*\d/.test(text)
      ? BigInt(Math.round(ms * 1e6))
      : parseIntervalNs(text, undefined);
    return { interval: positive(ns, what, ms !== null ? text : formatNs(ns)), next: k + 6 };
  }
  const paren = isOp(t, "(");
  const i = paren ? k + 1 : k;
  if (isKeyword(toks[i], "INTERVAL") && toks[i + 1]?.kind === "string") {
    const unitTok = toks[i + 2];
    const unit = unitTok?.kind === "ident" && INTERVAL_UNITS.has(unitTok.text.toUpperCase())
      ? unitTok.text.toLowerCase()
      : undefined;
    const end = i + (unit ? 3 : 2);
    if (paren && end !== match[k]) throw syntax(q, end, `Expected: ) after the ${what} interval`);
    const ns = parseIntervalNs(toks[i + 1].value, unit);
    return { interval: positive(ns, what, formatNs(ns)), next: paren ? match[k] + 1 : end };
  }
  throw syntax(
    q,
    k,
    `Expected: an interval for ${what} such as '5s' or (INTERVAL '5 seconds'), found: ${t?.text ?? "EOF"}`,
  );
}

function positive(ns: bigint, what: string, text: string): Interval {
  if (ns <= 0n) throw invalidArguments(`Range Query: ${what} must be greater than 0, found: ${text}`);
  return { ns, text };
}

/** Nanoseconds as humantime writes them without spaces (`1h30m`). */
function formatNs(ns: bigint): string {
  const parts: string[] = [];
  let rest = ns;
  for (
    const [unit, size] of [
      ["d", 86_400_000_000_000n],
      ["h", 3_600_000_000_000n],
      ["m", 60_000_000_000n],
      [
        "s",
        1_000_000_000n,
      ],
      ["ms", 1_000_000n],
      ["us", 1000n],
      ["ns", 1n],
    ] as const
  ) {
    const n = rest / size;
    if (n > 0n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.length ? parts.join("") : "0s";
}

/** Reads a FILL value at `k`: NULL, PREV, LINEAR or a number. */
export function readFill(toks: Token[], k: number): Fill {
  const t = toks[k];
  const sign = isOp(t, "-", "+") ? t.text : "";
  const v = sign ? toks[k + 1] : t;
  if (v?.kind === "number") {
    const value = Number(sign + v.text);
    if (!Number.isFinite(value)) throw invalidArguments(`${sign}${v.text} is not a valid fill option`);
    return { kind: "const", value };
  }
  if (!sign && v?.kind === "ident") {
    const word = v.text.toUpperCase();
    if (word === "NULL") return { kind: "null" };
    if (word === "PREV") return { kind: "prev" };
    if (word === "LINEAR") return { kind: "linear" };
  }
  throw invalidArguments(
    `${v?.text ?? "EOF"} is not a valid fill option: use NULL, PREV, LINEAR or a number`,
  );
}
