/**
 * GreptimeDB's range query clauses, read off a SELECT's tokens:
 * `AGGR(args) RANGE <interval> [FILL <fill>]` in the select list and
 * `ALIGN <interval> [TO <to>] [BY (<expr>, …)] [FILL <fill>]` after FROM/WHERE.
 * Only the shape is read here; `range_select.ts` renders the SQL.
 */
import { invalidArguments } from "../../common/errors.ts";
import { AGGREGATES } from "../functions/aggregates.ts";
import { AGGREGATE_FUNCTION_NAMES } from "../functions/registry.ts";
import { isRangeAggregateKeyword, NUMERIC_AGGREGATES } from "../dialect_rules.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { NOT_ALIAS, type QueryTokens } from "../query_tokens.ts";
import { aliasOf, findTopSelect } from "../select_list.ts";
import { type AlignTo, parseAlignTo } from "./range_align_to.ts";
import { type Fill, type Interval, readFill, readInterval, startsInterval, syntax } from "./range_values.ts";

export type { AlignTo, Fill, Interval };

/** One `AGGR(args) RANGE <interval> [FILL <fill>]` of the select list. */
export interface RangeAgg {
  /** The aggregate call is tokens `[start, callEnd)`; the RANGE clause runs up to `end`. */
  start: number;
  callEnd: number;
  end: number;
  range: Interval;
  /** The aggregate's own FILL. */
  fill?: Fill;
  /** A scalar call around aggregates (`round(max(v), 2) RANGE …`), which GreptimeDB's planner refuses. */
  wrapped?: boolean;
}

/** A range query's clauses as token positions and parsed values. */
export interface RangeQuery {
  /** The select items (token ranges). */
  items: Array<[number, number]>;
  from: number;
  /** The depth-0 WHERE between FROM and ALIGN, if any. */
  where?: number;
  align: number;
  every: Interval;
  to: AlignTo;
  /** The BY expressions; undefined means the table's primary key. */
  by?: Array<[number, number]>;
  fill?: Fill;
  /** The ORDER BY / LIMIT tail starts here. */
  tail: number;
  /** The aggregates to compute: the select list's, then those only ORDER BY writes. */
  aggs: RangeAgg[];
  /** The `RANGE … [FILL …]` tokens after a bracketed expression, whose aggregates took them. */
  clauses: Array<[number, number]>;
  /** ORDER BY aggregates spelled as one of `aggs` (same call, RANGE and FILL): they read its column. */
  repeats: Array<{ agg: RangeAgg; of: number }>;
  /** The definitions of a leading `WITH [RECURSIVE] …` (tokens), which the rendered WITH keeps. */
  ctes?: [number, number];
}

/** Aggregates a range query must give a RANGE (SQLite's own and Petrel's). */
export const AGGREGATE_NAMES = new Set([
  "count",
  "sum",
  "total",
  "avg",
  "min",
  "max",
  "group_concat",
  "string_agg",
  "first_value",
  "last_value",
  ...NUMERIC_AGGREGATES,
  ...Object.keys(AGGREGATES),
  ...AGGREGATE_FUNCTION_NAMES,
]);

/** The range query of a SELECT, or undefined when it uses neither RANGE nor ALIGN. */
export function parseRangeQuery(q: QueryTokens): RangeQuery | undefined {
  const { toks, match } = q;
  if (!isKeyword(toks[0], "SELECT", "WITH")) return undefined;
  const top = findTopSelect(toks, match);
  if (!top) return undefined;
  const itemsEnd = top.items[top.items.length - 1][1];
  const hasRange = toks.slice(top.items[0][0], itemsEnd).some((_, k) =>
    isRangeAggregateKeyword(toks, top.items[0][0] + k)
  );
  let align = -1;
  for (let i = itemsEnd; i < toks.length; i++) {
    if (isOp(toks[i], "(")) i = match[i];
    else if (
      isKeyword(toks[i], "ALIGN") && !isKeyword(toks[i - 1], "AS") &&
      toks[i + 1] !== undefined && !isOp(toks[i + 1], ",") && !isKeyword(toks[i + 1], "FROM")
    ) {
      align = i;
      break;
    }
  }
  if (!hasRange && align < 0) return undefined;
  if (align < 0) throw syntax(q, toks.length, "ALIGN argument cannot be omitted in the range select query");
  if (!isKeyword(toks[itemsEnd], "FROM")) {
    throw syntax(q, itemsEnd, "Range Query: a range query needs a FROM clause");
  }
  const clauses: Array<[number, number]> = [];
  const aggs = top.items.flatMap(([s, e]) => rangeAggs(q, s, e, clauses));
  if (aggs.length === 0) {
    throw syntax(q, align, "Range Query: Illegal Range select, no RANGE keyword found in any SelectItem");
  }
  const rq: RangeQuery = {
    items: top.items,
    from: itemsEnd,
    align,
    every: { ns: 0n, text: "" },
    to: { kind: "calendar" },
    tail: toks.length,
    aggs,
    repeats: [],
    clauses,
  };
  if (isKeyword(toks[0], "WITH")) {
    let select = 0;
    while (select < toks.length && !isKeyword(toks[select], "SELECT")) {
      select = isOp(toks[select], "(") ? match[select] + 1 : select + 1;
    }
    rq.ctes = [isKeyword(toks[1], "RECURSIVE") ? 2 : 1, select];
  }
  for (let i = itemsEnd + 1; i < align; i++) {
    if (isOp(toks[i], "(")) i = match[i];
    else if (isKeyword(toks[i], "WHERE")) rq.where ??= i;
    else if (isKeyword(toks[i], "GROUP", "HAVING")) {
      throw invalidArguments(
        `Range Query: ${
          toks[i].text.toUpperCase()
        } is not allowed in a range query (group with ALIGN … BY (…))`,
      );
    }
  }
  parseAlignClause(q, rq);
  orderByAggregates(q, rq);
  checkAggregatesHaveRange(q, rq, [...rq.items, [rq.tail, toks.length]]);
  return rq;
}

/**
 * The `… RANGE …` aggregates inside one select item. RANGE after a call applies to that call (it must
 * hold an aggregate); after a bracketed expression, GreptimeDB gives each aggregate inside the RANGE
 * and FILL (`(min(v) + max(v)) RANGE '10s'` is `min(v) RANGE '10s' + max(v) RANGE '10s'`), and the
 * clause's tokens go into `clauses` so the rendered SQL drops them.
 */
function rangeAggs(q: QueryTokens, s: number, e: number, clauses: Array<[number, number]> = []): RangeAgg[] {
  const { toks } = q;
  const out: RangeAgg[] = [];
  for (let i = s; i < e; i++) {
    if (!isRangeAggregateKeyword(toks, i)) {
      const inWindow = q.parent[i] >= 0 && isKeyword(toks[q.parent[i] - 1], "OVER");
      if (
        isKeyword(toks[i], "RANGE") && startsInterval(toks, i + 1) && toks[i - 1]?.kind !== "op" && !inWindow
      ) {
        throw syntax(
          q,
          i,
          `Range Query: Can't use the RANGE keyword in Expr ${toks[i - 1].text} without function`,
        );
      }
      continue;
    }
    const open = q.match[i - 1];
    const named = open > 0 && toks[open - 1].kind === "ident" &&
      !NOT_CALLS.has(toks[open - 1].text.toUpperCase());
    const start = named ? open - 1 : open;
    let k = i + 1;
    const range = readInterval(q, k, "range");
    k = range.next;
    let fill: Fill | undefined;
    if (isKeyword(toks[k], "FILL")) {
      fill = readFill(toks, k + 1);
      k += isOp(toks[k + 1], "-", "+") ? 3 : 2;
    }
    for (const a of out) {
      if (start < a.end) throw syntax(q, start, "Range Query: Nest Range Query is not allowed");
    }
    const calls: Array<[number, number]> = named && isAggregateCall(q, start)
      ? [[start, i]]
      : aggregateCalls(q, named ? start + 2 : start + 1, i - 1);
    if (calls.length === 0) {
      const found = q.cursor.sql.slice(toks[start].pos, toks[i - 1].pos + 1);
      throw syntax(q, start, `Range Query: RANGE must follow an aggregate call, found: ${found}`);
    }
    if (named) {
      out.push({ start, callEnd: i, end: k, range: range.interval, fill, wrapped: calls[0][0] !== start });
    } else {
      for (const [cs, ce] of calls) {
        out.push({ start: cs, callEnd: ce, end: ce, range: range.interval, fill });
      }
      clauses.push([i, k]);
    }
    i = k - 1;
  }
  return out;
}

/** Keywords that may stand before a bracketed expression without making it a call. */
const NOT_CALLS = new Set([
  ...NOT_ALIAS,
  "SELECT",
  "DISTINCT",
  "ALL",
  "AND",
  "OR",
  "IN",
  "IS",
  "LIKE",
  "ILIKE",
  "BETWEEN",
  "CASE",
  "WHEN",
  "THEN",
  "ELSE",
  "EXISTS",
  "ANY",
  "SOME",
]);

/**
 * The outermost aggregate calls in tokens `[s, e)` as `[start, end)`; window calls (`… OVER`) are
 * not aggregates.
 */
function aggregateCalls(q: QueryTokens, s: number, e: number): Array<[number, number]> {
  const { match } = q;
  const out: Array<[number, number]> = [];
  for (let i = s; i < e; i++) {
    if (isAggregateCall(q, i)) {
      out.push([i, match[i + 1] + 1]);
      i = match[i + 1];
    }
  }
  return out;
}

function isAggregateCall(q: QueryTokens, i: number): boolean {
  const { toks, match } = q;
  return toks[i]?.kind === "ident" && isOp(toks[i + 1], "(") &&
    AGGREGATE_NAMES.has(toks[i].text.toLowerCase()) && !isKeyword(toks[match[i + 1] + 1], "OVER");
}

/** Reads `ALIGN <interval> [TO <to>] [BY (…)] [FILL <fill>]`, in any order of the options. */
function parseAlignClause(q: QueryTokens, rq: RangeQuery): void {
  const { toks, match } = q;
  const every = readInterval(q, rq.align + 1, "align");
  rq.every = every.interval;
  let k = every.next;
  const seen = new Set<string>();
  while (k < toks.length && isKeyword(toks[k], "TO", "BY", "FILL")) {
    const word = toks[k].text.toUpperCase();
    if (seen.has(word)) throw syntax(q, k, `Range Query: ALIGN has two ${word} options`);
    seen.add(word);
    if (word === "TO") {
      const to = parseAlignTo(q, k + 1);
      rq.to = to.to;
      k = to.next;
    } else if (word === "BY") {
      if (!isOp(toks[k + 1], "(")) {
        throw syntax(q, k + 1, `Expected: ( after ALIGN … BY, found: ${toks[k + 1]?.text ?? "EOF"}`);
      }
      rq.by = q.args(k + 1);
      k = match[k + 1] + 1;
    } else {
      rq.fill = readFill(toks, k + 1);
      k += isOp(toks[k + 1], "-", "+") ? 3 : 2;
    }
  }
  if (k < toks.length && !isKeyword(toks[k], "ORDER", "LIMIT", "OFFSET")) {
    throw syntax(q, k, `Expected: TO, BY, FILL, ORDER BY or LIMIT after ALIGN, found: ${toks[k].text}`);
  }
  rq.tail = k;
}

/**
 * The range aggregates ORDER BY writes itself (GreptimeDB sorts by them as by their alias): one
 * spelled as an aggregate already computed reads its column, another is computed too.
 */
function orderByAggregates(q: QueryTokens, rq: RangeQuery): void {
  const { toks } = q;
  const same = (a: RangeAgg, b: RangeAgg) =>
    a.callEnd - a.start === b.callEnd - b.start && a.range.ns === b.range.ns &&
    fillKey(a.fill ?? rq.fill) === fillKey(b.fill ?? rq.fill) &&
    toks.slice(a.start, a.callEnd).every((t, k) => sameToken(t, toks[b.start + k]));
  for (const agg of rangeAggs(q, rq.tail, toks.length, rq.clauses)) {
    const of = rq.aggs.findIndex((a) => same(a, agg));
    if (of >= 0) rq.repeats.push({ agg, of });
    else rq.aggs.push(agg);
  }
}

function fillKey(f: Fill | undefined): string {
  return f === undefined ? "" : f.kind === "const" ? String(f.value) : f.kind;
}

function sameToken(a: Token, b: Token): boolean {
  return a.kind === b.kind &&
    (a.kind === "qident" || a.kind === "string"
      ? a.text === b.text
      : a.text.toLowerCase() === b.text.toLowerCase());
}

/** Every aggregate call in the select list and ORDER BY must carry its own RANGE. */
function checkAggregatesHaveRange(q: QueryTokens, rq: RangeQuery, spans: Array<[number, number]>): void {
  const { toks } = q;
  const ranged = [...rq.aggs, ...rq.repeats.map((r) => r.agg)];
  for (const [s, e] of spans) {
    for (let i = s; i < e; i++) {
      const inside = ranged.find((a) => i >= a.start && i < a.end);
      if (inside) {
        i = inside.end - 1;
        continue;
      }
      if (
        toks[i].kind === "ident" && isOp(toks[i + 1], "(") && AGGREGATE_NAMES.has(toks[i].text.toLowerCase())
      ) {
        const close = q.match[i + 1];
        if (isKeyword(toks[close + 1], "OVER")) continue;
        throw invalidArguments(
          `Range Query: the aggregate ${
            q.cursor.sql.slice(toks[i].pos, toks[close].pos + 1)
          } needs a RANGE ` +
            `(every aggregate of a range query is written AGGR(…) RANGE '<interval>')`,
        );
      }
    }
  }
}

/** Where a select item's expression ends: a trailing RANGE/FILL clause is not an alias. */
export function itemExprEnd(rq: RangeQuery, toks: Token[], s: number, e: number): {
  exprEnd: number;
  hasAlias: boolean;
} {
  if (rq.aggs.some((a) => a.end === e) || rq.clauses.some(([, end]) => end === e)) {
    return { exprEnd: e, hasAlias: false };
  }
  return aliasOf(toks, s, e);
}
