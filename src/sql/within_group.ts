/**
 * DataFusion's ordered-set aggregate syntax, `approx_percentile_cont(0.9) WITHIN GROUP (ORDER BY
 * latency)` (also `percentile_cont` and `approx_percentile_cont_with_weight(w, p)`), turned into the
 * argument form the functions take (`approx_percentile_cont(latency, 0.9)`) before anything else reads
 * the tokens. `ORDER BY … DESC` reads the percentile from the other end (`1 - p`). The call keeps its
 * tokens' places in the text, so its output column is still named as written.
 */
import type { Cursor } from "./cursor.ts";
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { errorAt, synth } from "./query_tokens.ts";

/** The ordered-set aggregates and how many arguments they take before WITHIN GROUP. */
const ORDERED_SET: Record<string, number> = {
  approx_percentile_cont: 1,
  percentile_cont: 1,
  approx_percentile_cont_with_weight: 2,
};

/** The index of the bracket closing the one opened at `open`. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    if (isOp(tokens[k], "(")) depth++;
    else if (isOp(tokens[k], ")") && --depth === 0) return k;
  }
  return -1;
}

/** Splits the tokens between `from` and `to` (exclusive) at top-level commas. */
function splitArgs(tokens: Token[], from: number, to: number): Token[][] {
  const args: Token[][] = [[]];
  for (let k = from; k < to; k++) {
    if (isOp(tokens[k], "(")) {
      const end = closing(tokens, k);
      args[args.length - 1].push(...tokens.slice(k, end + 1));
      k = end;
    } else if (isOp(tokens[k], ",")) args.push([]);
    else args[args.length - 1].push(tokens[k]);
  }
  return args;
}

/** The statement's tokens with every `f(…) WITHIN GROUP (ORDER BY x)` in argument form. */
export function expandWithinGroup(tokens: Token[], cur: Cursor): Token[] {
  if (!tokens.some((t) => isKeyword(t, "WITHIN"))) return tokens;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const arity = t.kind === "ident" ? ORDERED_SET[t.text.toLowerCase()] : undefined;
    const close = arity !== undefined && isOp(tokens[i + 1], "(") ? closing(tokens, i + 1) : -1;
    const within = close + 1;
    if (arity === undefined || close < 0 || !isKeyword(tokens[within], "WITHIN")) {
      out.push(t);
      continue;
    }
    if (!isKeyword(tokens[within + 1], "GROUP") || !isOp(tokens[within + 2], "(")) {
      throw errorAt(cur, tokens[within + 1] ?? tokens[within], "Expected: GROUP (ORDER BY …) after WITHIN");
    }
    const groupClose = closing(tokens, within + 2);
    if (!isKeyword(tokens[within + 3], "ORDER") || !isKeyword(tokens[within + 4], "BY")) {
      throw errorAt(cur, tokens[within + 3] ?? tokens[within + 2], "Expected: ORDER BY in WITHIN GROUP (…)");
    }
    const order = splitArgs(tokens, within + 5, groupClose);
    const args = splitArgs(tokens, i + 2, close);
    const name = t.text;
    if (order.length !== 1 || order[0].length === 0) {
      throw errorAt(cur, tokens[within + 3], `${name} WITHIN GROUP takes one ORDER BY expression`);
    }
    if (args.length !== arity || args.some((a) => a.length === 0)) {
      throw errorAt(cur, t, `${name} takes ${arity} argument${arity > 1 ? "s" : ""} before WITHIN GROUP`);
    }
    let key = order[0];
    const last = key[key.length - 1];
    const desc = isKeyword(last, "DESC");
    if (desc || isKeyword(last, "ASC")) key = key.slice(0, -1);
    const percentile = args[args.length - 1];
    const p = desc
      ? [synth("op", "("), synth("number", "1"), synth("op", "-"), ...percentile, synth("op", ")")]
      : percentile;
    out.push(t, tokens[i + 1], ...key);
    for (const a of [...args.slice(0, -1), p]) out.push(synth("op", ","), ...a);
    // the last bracket of the whole call, so the column is named by the text as written
    out.push(tokens[groupClose]);
    i = groupClose;
  }
  return out;
}
