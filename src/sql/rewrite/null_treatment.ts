/**
 * DataFusion's null treatment of window functions: `first_value(x) IGNORE NULLS OVER (…)` and the same
 * for last_value, nth_value, lag and lead. SQLite knows neither `IGNORE NULLS` nor `RESPECT NULLS`:
 * RESPECT (the default) is dropped; IGNORE becomes an aggregate over the frame's non-null values
 * (functions/non_null_values.ts). lag and lead ignore the frame, so theirs is replaced by the rows
 * before (lag) or after (lead) the current one, where the n-th non-null value is looked up.
 */
import { invalidArguments } from "../../common/errors.ts";
import { isKeyword, isOp } from "../lexer.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

/** The window functions that take a null treatment, by name. */
export const NULL_TREATMENT_FUNCTIONS = new Set(["first_value", "last_value", "nth_value", "lag", "lead"]);

const ARITY: Record<string, [number, number]> = {
  first_value: [1, 1],
  last_value: [1, 1],
  nth_value: [2, 2],
  lag: [1, 3],
  lead: [1, 3],
};

const INTERNAL: Record<string, string> = {
  first_value: "__petrel_first_non_null",
  last_value: "__petrel_last_non_null",
  nth_value: "__petrel_nth_non_null",
};

/** Whether `IGNORE NULLS` or `RESPECT NULLS` follows the call closing at `close`. */
export function hasNullTreatment(c: RewriteCtx, close: number): boolean {
  return isKeyword(c.toks[close + 1], "IGNORE", "RESPECT") && isKeyword(c.toks[close + 2], "NULLS");
}

/** The rewrite of `name(…) IGNORE|RESPECT NULLS OVER …` whose name is token `i`, if it has one. */
export function rewriteNullTreatment(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const { toks, q } = c;
  const name = toks[i].text.toLowerCase();
  const open = i + 1;
  const close = q.match[open];
  if (!NULL_TREATMENT_FUNCTIONS.has(name) || !hasNullTreatment(c, close)) return undefined;
  const over = close + 3;
  if (!isKeyword(toks[over], "OVER")) {
    throw invalidArguments(
      `${toks[close + 1].text.toUpperCase()} NULLS needs a window: ${name}(…) … OVER (…)`,
    );
  }
  const args = q.args(open);
  const [min, max] = ARITY[name];
  if (args.length < min || args.length > max) {
    throw invalidArguments(
      `${name} expects ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`,
    );
  }
  const arg = (k: number) => c.emit(args[k][0], args[k][1]).trim();
  if (isKeyword(toks[close + 1], "RESPECT")) {
    return { text: `${toks[i].text}(${args.map((_, k) => arg(k)).join(", ")})`, next: over };
  }
  if (name in INTERNAL) {
    return { text: `${INTERNAL[name]}(${args.map((_, k) => arg(k)).join(", ")})`, next: over };
  }
  return lagLead(c, name, args.length, arg, over);
}

/** `lag|lead(x[, n[, default]]) IGNORE NULLS OVER (…)`: the n-th non-null value before or after the row. */
function lagLead(
  c: RewriteCtx,
  name: string,
  argCount: number,
  arg: (k: number) => string,
  over: number,
): TokenRewrite {
  const { toks, q } = c;
  if (!isOp(toks[over + 1], "(")) {
    throw invalidArguments(
      `${name} … IGNORE NULLS needs its window written out: OVER (PARTITION BY … ORDER BY …)`,
    );
  }
  const specOpen = over + 1;
  const specClose = q.match[specOpen];
  const offsetText = argCount > 1 ? arg(1).replace(/\s+/g, "") : "1";
  if (!/^[+-]?\d+$/.test(offsetText)) {
    throw invalidArguments(`${name} … IGNORE NULLS needs an integer literal offset, got ${offsetText}`);
  }
  // a positive offset looks back: lag(x, -n) is lead(x, n)
  const offset = name === "lead" ? -BigInt(offsetText) : BigInt(offsetText);
  if (offset === 0n) return { text: `(${arg(0)})`, next: specClose + 1 };
  // lag and lead ignore any frame written: theirs is the rows before (or after) the current one
  let specEnd = specClose;
  for (let k = specOpen + 1; k < specClose; k++) {
    if (isOp(toks[k], "(")) k = q.match[k];
    else if (isKeyword(toks[k], "ROWS", "RANGE", "GROUPS")) {
      specEnd = k;
      break;
    }
  }
  const spec = c.emit(specOpen + 1, specEnd).trim();
  const frame = offset > 0n
    ? "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING"
    : "ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING";
  // counted from the frame's end looking back, from its start looking ahead
  const value = `__petrel_nth_non_null(${arg(0)}, ${-offset}) OVER (${spec} ${frame})`;
  return { text: argCount > 2 ? `coalesce(${value}, ${arg(2)})` : value, next: specClose + 1 };
}
