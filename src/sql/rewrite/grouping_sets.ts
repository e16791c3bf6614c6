/**
 * `GROUP BY ROLLUP(…)`, `CUBE(…)` and `GROUPING SETS (…)` (alone or beside plain expressions) for
 * SQLite, which has none of them: the SELECT becomes a UNION ALL of one GROUP BY per grouping set,
 * with NULL for the grouping expressions a set leaves out and `grouping(x)` as that set's constant.
 * HAVING filters groups, so each branch keeps it; ORDER BY, LIMIT and OFFSET follow the compound
 * and so apply to the whole result.
 *
 * The first branch groups by every grouping expression, and so names and types the columns as the
 * plain GROUP BY query would (SQLite takes a compound's column names and declared types from its
 * first SELECT). When no set holds them all, a first branch that returns no rows (`WHERE 0`) does.
 */
import { invalidArguments, unsupported } from "../../common/errors.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { AGGREGATE_NAMES } from "./range_parse.ts";
import {
  type Brackets,
  brackets,
  clauseEnd,
  columnRefName,
  exprKey,
  type Hole,
  orderTerms,
  selectBefore,
  type SelectParts,
  selectParts,
  sourceText,
  spliceText,
  splitCommas,
  tailStart,
} from "./select_parts.ts";

/** The most grouping sets one GROUP BY may make: each is a SELECT of a compound, and SQLite allows 500. */
export const MAX_GROUPING_SETS = 256;

/** The longest SQL text the expansion may produce. */
const MAX_EXPANDED_LENGTH = 4_000_000;

type Expr = [number, number];
type GroupingSet = Expr[];

/**
 * The query as new SQL text with its first GROUP BY of grouping sets expanded (the caller rewrites
 * that text again, so every one is reached in turn), or undefined when it has none.
 */
export function expandGroupingSets(toks: Token[], sql: string): string | undefined {
  if (!toks.some((t) => isKeyword(t, "ROLLUP", "CUBE", "SETS"))) return undefined;
  const b = brackets(toks);
  if (!b) return undefined;
  for (let i = 0; i < toks.length - 1; i++) {
    if (!isKeyword(toks[i], "GROUP") || !isKeyword(toks[i + 1], "BY")) continue;
    const sel = selectBefore(b, i);
    if (sel < 0) continue;
    const p = selectParts(b, sel);
    if (p.clauses.get("GROUP") !== i) continue;
    const listEnd = clauseEnd(p, i);
    const elements = splitCommas(b, i + 2, listEnd);
    if (!elements.some(([s]) => isGroupingConstruct(b, s))) continue;
    const expanded = expandSelect(b, sql, p, elements.map(([s, e]) => elementSets(b, s, e)), listEnd);
    // grouping sets nested in each branch multiply
    if (expanded.length > MAX_EXPANDED_LENGTH) {
      throw invalidArguments(
        "The query's grouping sets expand to too large a query (nested CUBE or ROLLUP?)",
      );
    }
    return sourceText(sql, toks, 0, sel) + " " + expanded + " " + sourceText(sql, toks, p.end, toks.length);
  }
  return undefined;
}

function isGroupingConstruct(b: Brackets, s: number): boolean {
  const { toks } = b;
  return (isKeyword(toks[s], "ROLLUP", "CUBE") && isOp(toks[s + 1], "(")) ||
    (isKeyword(toks[s], "GROUPING") && isKeyword(toks[s + 1], "SETS") && isOp(toks[s + 2], "("));
}

function tooMany(count: number): Error {
  return invalidArguments(
    `GROUP BY makes ${count > 1e15 ? "too many" : count} grouping sets; at most ${MAX_GROUPING_SETS} ` +
      `are supported (CUBE over n columns makes 2^n)`,
  );
}

/** The grouping sets one element of a GROUP BY list stands for, the widest first. */
function elementSets(b: Brackets, s: number, e: number): GroupingSet[] {
  const { toks, match } = b;
  if (isKeyword(toks[s], "ROLLUP") && isOp(toks[s + 1], "(") && match[s + 1] === e - 1) {
    const groups = splitCommas(b, s + 2, e - 1).map(([a, z]) => groupExprs(b, a, z));
    return groups.map((_, n) => groups.slice(0, groups.length - n).flat()).concat([[]]);
  }
  if (isKeyword(toks[s], "CUBE") && isOp(toks[s + 1], "(") && match[s + 1] === e - 1) {
    const groups = splitCommas(b, s + 2, e - 1).map(([a, z]) => groupExprs(b, a, z));
    const count = 2 ** groups.length;
    if (count > MAX_GROUPING_SETS) throw tooMany(count);
    const sets: GroupingSet[] = [];
    for (let mask = count - 1; mask >= 0; mask--) {
      sets.push(groups.filter((_, j) => mask & (1 << (groups.length - 1 - j))).flat());
    }
    return sets;
  }
  if (isKeyword(toks[s], "GROUPING") && isOp(toks[s + 2], "(") && match[s + 2] === e - 1) {
    const sets = splitCommas(b, s + 3, e - 1).flatMap(([a, z]) =>
      isGroupingConstruct(b, a) ? elementSets(b, a, z) : [groupExprs(b, a, z)]
    );
    if (sets.length > MAX_GROUPING_SETS) throw tooMany(sets.length);
    return sets;
  }
  if (isGroupingConstruct(b, s)) {
    throw unsupported(`Unsupported GROUP BY element: ${toks[s].text.toUpperCase()} must stand alone`);
  }
  return [[[s, e]]];
}

/** The expressions of `(a, b)` or `()`; a lone expression is one. */
function groupExprs(b: Brackets, s: number, e: number): Expr[] {
  if (isOp(b.toks[s], "(") && b.match[s] === e - 1) return splitCommas(b, s + 1, e - 1);
  return [[s, e]];
}

/** The cross product of the elements' sets, each set without repeated expressions. */
function crossSets(b: Brackets, elements: GroupingSet[][]): GroupingSet[] {
  const count = elements.reduce((n, sets) => n * sets.length, 1);
  if (count > MAX_GROUPING_SETS) throw tooMany(count);
  let out: GroupingSet[] = [[]];
  for (const sets of elements) out = out.flatMap((a) => sets.map((set) => [...a, ...set]));
  return out.map((set) => {
    const seen = new Set<string>();
    return set.filter(([s, e]) => {
      const key = exprKey(b.toks, s, e);
      return seen.has(key) ? false : (seen.add(key), true);
    });
  });
}

/** The UNION ALL of one SELECT per grouping set, with the ORDER BY / LIMIT of the whole. */
function expandSelect(
  b: Brackets,
  sql: string,
  p: SelectParts,
  elements: GroupingSet[][],
  listEnd: number,
): string {
  const { toks } = b;
  if (p.items.some((it) => isOp(toks[it.e - 1], "*"))) {
    throw unsupported("ROLLUP, CUBE and GROUPING SETS need the select list to name its columns, not *");
  }
  const computed = [[p.sel, p.itemsEnd]];
  for (const clause of ["HAVING", "QUALIFY"]) {
    const at = p.clauses.get(clause);
    if (at !== undefined) computed.push([at, clauseEnd(p, at)]);
  }
  if (computed.some(([s, e]) => toks.slice(s, e).some((t) => isKeyword(t, "OVER")))) {
    // each branch would rank only its own groups; over a subquery of the grouping sets it ranks them all
    throw unsupported(
      "Window functions in a ROLLUP, CUBE or GROUPING SETS query are not supported: compute them in a query " +
        "around it",
    );
  }
  const sets = crossSets(b, elements);
  const all = new Map<string, Expr>();
  for (const set of sets) for (const [s, e] of set) all.set(exprKey(toks, s, e), [s, e]);
  const keysOf = (set: GroupingSet) => new Set(set.map(([s, e]) => exprKey(toks, s, e)));
  const full = sets.findIndex((set) => keysOf(set).size === all.size);
  const ordered = full >= 0 ? [sets[full], ...sets.filter((_, k) => k !== full)] : sets;
  const tail = tailStart(p);
  const text = (s: number, e: number) => sourceText(sql, toks, s, e);
  const head = text(p.sel, p.items[0].s);
  const groupBy = (exprs: Expr[]) =>
    exprs.length ? ` GROUP BY ${exprs.map(([s, e]) => text(s, e)).join(", ")}` : "";
  const groupAt = p.clauses.get("GROUP")!;
  const branches = ordered.map((set, n) => {
    if (n === 0 && full >= 0) {
      return `${text(p.sel, groupAt)}${groupBy(set)} ${text(listEnd, tail)}`;
    }
    const dropped = [...all].filter(([key]) => !keysOf(set).has(key));
    const holes = (s: number, e: number) => nullHoles(b, s, e, dropped, [...all.keys()], keysOf(set));
    const items = p.items.map((it) => {
      const expr = it.alias !== undefined && dropped.some(([key]) => key === it.alias)
        ? "NULL"
        : spliceText(sql, toks, it.s, it.exprEnd, holes(it.s, it.exprEnd));
      return `${expr} ${text(it.exprEnd, it.e)}`;
    });
    // the empty set is one group: with no aggregate in the list SQLite would return every row
    const oneGroup = set.length === 0 && !hasAggregate(b, p) ? " GROUP BY NULL" : "";
    return `${head} ${items.join(", ")} ${text(p.itemsEnd, groupAt)}${groupBy(set)}${oneGroup} ` +
      spliceText(sql, toks, listEnd, tail, holes(listEnd, tail));
  });
  if (full < 0) branches.unshift(emptyFirstBranch(b, sql, p, [...all.values()]));
  // DISTINCT also removes the rows two sets have in common
  const union = branches.join(isKeyword(toks[p.sel + 1], "DISTINCT") ? " UNION " : " UNION ALL ");
  if (p.compound) return `SELECT * FROM (${union}) ${text(tail, p.end)}`;
  return `${union} ${orderAndLimit(b, sql, p)}`;
}

/** Whether the select list or HAVING calls an aggregate (window functions are refused before). */
function hasAggregate(b: Brackets, p: SelectParts): boolean {
  const { toks } = b;
  const having = p.clauses.get("HAVING");
  const ranges = [[p.sel, p.itemsEnd], ...(having !== undefined ? [[having, clauseEnd(p, having)]] : [])];
  return ranges.some(([s, e]) =>
    toks.slice(s, e).some((t, j) =>
      t.kind === "ident" && AGGREGATE_NAMES.has(t.text.toLowerCase()) && isOp(toks[s + j + 1], "(")
    )
  );
}

/** A SELECT grouped by every grouping expression that returns no rows: it names and types the columns. */
function emptyFirstBranch(b: Brackets, sql: string, p: SelectParts, all: Expr[]): string {
  const { toks } = b;
  const fromAt = p.clauses.get("FROM");
  const sourceEnd = p.clauses.get("WHERE") ?? p.clauses.get("GROUP")!;
  return `${sourceText(sql, toks, p.sel, p.itemsEnd)} ` +
    (fromAt !== undefined ? sourceText(sql, toks, fromAt, sourceEnd) : "") +
    ` WHERE 0 GROUP BY ${all.map(([s, e]) => sourceText(sql, toks, s, e)).join(", ")}`;
}

/**
 * The holes of `[s, e)` for one grouping set: the grouping expressions it leaves out become NULL
 * (not inside an aggregate's arguments, which still read the rows), and each `grouping(…)` its bits.
 */
function nullHoles(
  b: Brackets,
  s: number,
  e: number,
  dropped: Array<[string, Expr]>,
  allKeys: string[],
  kept: Set<string>,
): Hole[] {
  const { toks, match } = b;
  const holes: Hole[] = [];
  const refs = new Set(
    dropped.filter(([, [a, z]]) => columnRefName(toks, a, z) !== undefined).map(([k]) => k),
  );
  const exprs = dropped.filter(([k]) => !refs.has(k)).sort(([, x], [, y]) => (y[1] - y[0]) - (x[1] - x[0]));
  for (let k = s; k < e; k++) {
    const t = toks[k];
    if (t.kind === "ident" && isOp(toks[k + 1], "(")) {
      const close = match[k + 1];
      const name = t.text.toLowerCase();
      if (name === "grouping") {
        const args = splitCommas(b, k + 2, close);
        const bits = args.reduce((n, [a, z], j) => {
          const key = exprKey(toks, a, z);
          return allKeys.includes(key) && !kept.has(key) ? n | (1 << (args.length - 1 - j)) : n;
        }, 0);
        // typed as DataFusion's grouping() (Int32) in every branch, so the compound keeps that type
        holes.push({ s: k, e: close + 1, text: `CAST(${bits} AS INT)` });
        k = close;
        continue;
      }
      if (AGGREGATE_NAMES.has(name) && !isKeyword(toks[close + 1], "OVER", "FILTER")) {
        k = close;
        continue;
      }
    }
    const expr = exprs.find(([key, [a, z]]) => k + (z - a) <= e && exprKey(toks, k, k + (z - a)) === key);
    if (expr) {
      const [, [a, z]] = expr;
      holes.push({ s: k, e: k + (z - a), text: "NULL" });
      k += z - a - 1;
      continue;
    }
    if ((t.kind === "ident" || t.kind === "qident") && !isOp(toks[k - 1], ".")) {
      let z = k + 1;
      while (isOp(toks[z], ".") && (toks[z + 1]?.kind === "ident" || toks[z + 1]?.kind === "qident")) z += 2;
      const name = columnRefName(toks, k, z);
      if (name !== undefined && refs.has(name)) holes.push({ s: k, e: z, text: "NULL" });
      k = z - 1;
    }
  }
  return holes;
}

/**
 * The compound's ORDER BY and LIMIT. SQLite orders a compound only by its output columns: a term
 * that repeats a select item's expression becomes that column's number.
 */
function orderAndLimit(b: Brackets, sql: string, p: SelectParts): string {
  const { toks } = b;
  const order = p.clauses.get("ORDER");
  if (order === undefined) return sourceText(sql, toks, tailStart(p), p.end);
  const terms = orderTerms(b, p).map(({ s, exprEnd, e }) => {
    const key = exprKey(toks, s, exprEnd);
    const single = exprEnd - s === 1 && toks[s].kind === "number" ||
      columnRefName(toks, s, exprEnd) !== undefined;
    const at = single ? -1 : p.items.findIndex((it) => exprKey(toks, it.s, it.exprEnd) === key);
    if (!single && at < 0) {
      throw unsupported(
        `ORDER BY of a ROLLUP, CUBE or GROUPING SETS query must name an output column or repeat a select ` +
          `item: ${sourceText(sql, toks, s, exprEnd)}`,
      );
    }
    return (at >= 0 ? String(at + 1) + " " : "") + sourceText(sql, toks, at >= 0 ? exprEnd : s, e);
  });
  return `${sourceText(sql, toks, tailStart(p), order)} ORDER BY ${terms.join(", ")} ` +
    sourceText(sql, toks, clauseEnd(p, order), p.end);
}
