/**
 * DataFusion's ordered aggregates `first_value(x ORDER BY y [DESC])`, `last_value(x ORDER BY y)` and
 * `nth_value(x, n ORDER BY y)`: SQLite knows these names only as window functions, so a call without
 * OVER becomes the `__petrel_ordered_value` aggregate, which is handed the sort keys and their
 * directions (see functions/ordered.ts).
 */
import { invalidArguments } from "../../common/errors.ts";
import { isKeyword, isOp } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

/** One `ORDER BY` item inside an aggregate call. */
export interface OrderItem {
  /** Token range of the sort expression. */
  expr: [number, number];
  desc: boolean;
  nullsFirst: boolean;
}

/** The aggregate call's value arguments and its ORDER BY items. */
export interface OrderedCall {
  values: Array<[number, number]>;
  order: OrderItem[];
}

/** Whether the call whose arguments open at `open` is a window function (OVER follows). */
export function isWindowCall(q: QueryTokens, open: number): boolean {
  let k = q.match[open] + 1;
  if (isKeyword(q.toks[k], "IGNORE", "RESPECT") && isKeyword(q.toks[k + 1], "NULLS")) k += 2;
  if (isKeyword(q.toks[k], "FILTER") && isOp(q.toks[k + 1], "(")) k = q.match[k + 1] + 1;
  return isKeyword(q.toks[k], "OVER");
}

/** Splits an aggregate call into its value arguments and the items of an `ORDER BY` inside it. */
export function orderedCall(q: QueryTokens, open: number): OrderedCall {
  const { toks, match } = q;
  const close = match[open];
  const parts: Array<[number, number]> = [];
  let s = open + 1, orderAt = -1;
  for (let k = open + 1; k < close; k++) {
    if (isOp(toks[k], "(")) k = match[k];
    else if (isOp(toks[k], ",")) {
      parts.push([s, k]);
      s = k + 1;
    } else if (isKeyword(toks[k], "ORDER") && isKeyword(toks[k + 1], "BY")) {
      orderAt = k;
      break;
    }
  }
  const valuesEnd = orderAt < 0 ? close : orderAt;
  if (valuesEnd > s) parts.push([s, valuesEnd]);
  const order: OrderItem[] = [];
  if (orderAt >= 0) {
    let start = orderAt + 2;
    for (let k = start; k <= close; k++) {
      if (isOp(toks[k], "(") && k < close) k = match[k];
      else if (k === close || isOp(toks[k], ",")) {
        order.push(orderItem(q, start, k));
        start = k + 1;
      }
    }
  }
  return { values: parts, order };
}

function orderItem(q: QueryTokens, s: number, e: number): OrderItem {
  const { toks } = q;
  let end = e;
  let nullsFirst: boolean | undefined;
  if (end - s >= 3 && isKeyword(toks[end - 2], "NULLS") && isKeyword(toks[end - 1], "FIRST", "LAST")) {
    nullsFirst = isKeyword(toks[end - 1], "FIRST");
    end -= 2;
  }
  let desc = false;
  if (end - s >= 2 && isKeyword(toks[end - 1], "ASC", "DESC")) {
    desc = isKeyword(toks[end - 1], "DESC");
    end--;
  }
  if (end <= s) throw invalidArguments("ORDER BY inside an aggregate needs an expression");
  // DataFusion's default: NULLs sort last ascending, first descending
  return { expr: [s, end], desc, nullsFirst: nullsFirst ?? desc };
}

const ARITY: Record<string, number> = { first_value: 1, last_value: 1, nth_value: 2 };

/** The rewrite of `first_value(…)`, `last_value(…)` or `nth_value(…)` used as an aggregate. */
export function rewriteOrderedAggregate(
  c: RewriteCtx,
  name: string,
  open: number,
): TokenRewrite | undefined {
  if (isWindowCall(c.q, open)) return undefined;
  const close = c.q.match[open];
  const { values, order } = orderedCall(c.q, open);
  if (values.length !== ARITY[name]) {
    throw invalidArguments(
      `${name} expects ${
        ARITY[name] === 1 ? "one argument" : "two arguments (value, n)"
      }, got ${values.length}`,
    );
  }
  const plain = (s: number, e: number) => c.emit(s, e).trim();
  const spec = order.map((o) => (o.desc ? "D" : "A") + (o.nullsFirst ? "F" : "L")).join("");
  const parts = [`'${name}'`, `'${spec}'`, ...values.map(([s, e]) => plain(s, e))];
  if (name !== "nth_value") parts.push("NULL");
  parts.push(...order.map((o) => plain(o.expr[0], o.expr[1])));
  return { text: `__petrel_ordered_value(${parts.join(", ")})`, next: close + 1 };
}
