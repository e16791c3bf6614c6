/**
 * Select lists read from tokens: where an item's expression ends (its alias), the first SELECT list
 * of a level (and its DISTINCT ON), and the items of each member of a compound query.
 */
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { INTERVAL_UNITS, NOT_ALIAS, type QueryTokens } from "./query_tokens.ts";

/** Keywords an operand follows (`x LIKE y`, `x IS DISTINCT FROM y`, `x SIMILAR TO y`): no alias precedes. */
const OPERATOR_WORDS = [
  "DISTINCT",
  "NOT",
  "IS",
  "INTERVAL",
  "AND",
  "OR",
  "LIKE",
  "ILIKE",
  "BETWEEN",
  "FROM",
  "TO",
];

/** Where a select item's expression ends and whether an alias follows it. */
export function aliasOf(toks: Token[], s: number, e: number): { exprEnd: number; hasAlias: boolean } {
  if (e - s >= 3 && isKeyword(toks[e - 2], "AS")) return { exprEnd: e - 2, hasAlias: true };
  const last = toks[e - 1], prev = toks[e - 2];
  if (
    e - s >= 2 && last &&
    (last.kind === "qident" || (last.kind === "ident" && !NOT_ALIAS.has(last.text.toUpperCase()))) &&
    prev &&
    (isOp(prev, ")") || prev.kind === "ident" || prev.kind === "qident" || prev.kind === "number" ||
      prev.kind === "string") &&
    // an operand of a keyword operator is no alias (`a AND b`, `x LIKE y`, `x IS DISTINCT FROM NULL`)
    !isKeyword(prev, ...OPERATOR_WORDS) &&
    // nor the unit of `INTERVAL '1' HOUR`
    !(prev.kind === "string" && isKeyword(toks[e - 3], "INTERVAL") &&
      INTERVAL_UNITS.has(last.text.toUpperCase()))
  ) return { exprEnd: e - 1, hasAlias: true };
  return { exprEnd: e, hasAlias: false };
}

/** The first SELECT list at a level (after any WITH clause). */
export interface TopSelect {
  /** The index of the SELECT keyword. */
  select: number;
  /** The items, as token ranges. */
  items: Array<[number, number]>;
  /** The opening bracket of `DISTINCT ON (…)`, when the SELECT has one. */
  distinctOn?: number;
}

/**
 * The items of the first SELECT list at the level of tokens `[from, to)` (after any WITH clause), as
 * token ranges.
 */
export function findTopSelect(
  toks: Token[],
  match: number[],
  from = 0,
  to = toks.length,
): TopSelect | undefined {
  let i = from;
  for (; i < to; i++) {
    if (isOp(toks[i], "(")) i = match[i];
    else if (isKeyword(toks[i], "SELECT")) break;
  }
  return i < to ? selectList(toks, match, i, to) : undefined;
}

/**
 * The select items (expressions, without their aliases) of each SELECT of a compound (`UNION`,
 * `INTERSECT`, `EXCEPT`): the query's outermost one, or the one of the subquery in the brackets at
 * `open`; none when it is a single SELECT.
 */
export function compoundItems(q: QueryTokens, open = -1): Array<Array<[number, number]>> {
  const { toks, parent, match } = q;
  const end = open < 0 ? toks.length : match[open];
  let first = open + 1;
  while (first < end && !(isKeyword(toks[first], "SELECT") && parent[first] === open)) first++;
  if (first >= end) return [];
  const arms: Array<[number, number]> = [];
  let start = first;
  for (let i = first; i <= end; i++) {
    if (i < end && !(parent[i] === open && isKeyword(toks[i], "UNION", "INTERSECT", "EXCEPT"))) {
      continue;
    }
    arms.push([start, i]);
    start = isKeyword(toks[i + 1], "ALL", "DISTINCT") ? i + 2 : i + 1;
  }
  if (arms.length < 2) return [];
  return arms.map(([a, b]) =>
    (findTopSelect(toks, match, a, b)?.items ?? []).map(([s, e]): [number, number] => [
      s,
      aliasOf(toks, s, e).exprEnd,
    ])
  );
}

/** The select list of the SELECT keyword at `i` (within tokens before `to`). */
export function selectList(
  toks: Token[],
  match: number[],
  i: number,
  to = toks.length,
): TopSelect | undefined {
  let s = i + 1;
  let distinctOn: number | undefined;
  if (isKeyword(toks[s], "DISTINCT") && isKeyword(toks[s + 1], "ON") && isOp(toks[s + 2], "(")) {
    distinctOn = s + 2;
    s = match[s + 2] + 1;
  } else if (isKeyword(toks[s], "DISTINCT", "ALL")) s++;
  const items: Array<[number, number]> = [];
  let k = s;
  for (; k < to; k++) {
    const t = toks[k];
    if (isOp(t, "(")) {
      k = match[k];
      continue;
    }
    // the FROM of `x IS [NOT] DISTINCT FROM y` is the operator's
    if (isKeyword(t, "FROM") && isKeyword(toks[k - 1], "DISTINCT") && isKeyword(toks[k - 2], "IS", "NOT")) {
      continue;
    }
    if (
      isOp(t, ")") ||
      isKeyword(
        t,
        "FROM",
        "WHERE",
        "GROUP",
        "ORDER",
        "LIMIT",
        "UNION",
        "EXCEPT",
        "INTERSECT",
        "HAVING",
        "WINDOW",
        "OFFSET",
        "ALIGN",
      )
    ) break;
    if (isOp(t, ",")) {
      items.push([s, k]);
      s = k + 1;
    }
  }
  if (k > s) items.push([s, k]);
  return items.length ? { select: i, items, distinctOn } : undefined;
}

/**
 * The item expressions (start → end, without aliases) of every SELECT inside brackets: a subquery's
 * first SELECT list and each member of its compound.
 */
export function subqueryItems(q: QueryTokens): Map<number, number> {
  const { toks, match } = q;
  const items = new Map<number, number>();
  for (let open = 0; open < toks.length; open++) {
    if (!isOp(toks[open], "(") || !isKeyword(toks[open + 1], "SELECT", "WITH")) continue;
    for (const [s, e] of findTopSelect(toks, match, open + 1, match[open])?.items ?? []) {
      items.set(s, aliasOf(toks, s, e).exprEnd);
    }
    for (const [s, e] of compoundItems(q, open).flat()) items.set(s, e);
  }
  return items;
}
