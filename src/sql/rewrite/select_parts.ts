/**
 * The clauses of one SELECT as token ranges over a statement's own tokens (no `::` expansion, so
 * every range is a slice of the source text), for the rewrites that rebuild a query as new SQL text
 * (`grouping_sets.ts`, `qualify.ts`) before the usual rewrite reads it.
 */
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { aliasOf } from "../select_list.ts";

/** The bracket structure of raw tokens: each bracket's partner, each token's innermost open bracket. */
export interface Brackets {
  toks: Token[];
  match: number[];
  parent: number[];
}

/** Bracket partners and parents of tokens; undefined when the brackets do not balance. */
export function brackets(toks: Token[]): Brackets | undefined {
  const match = new Array<number>(toks.length).fill(-1);
  const parent = new Array<number>(toks.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    parent[i] = stack.length ? stack[stack.length - 1] : -1;
    if (isOp(toks[i], "(")) stack.push(i);
    else if (isOp(toks[i], ")")) {
      const open = stack.pop();
      if (open === undefined) return undefined;
      match[open] = i;
      match[i] = open;
      parent[i] = stack.length ? stack[stack.length - 1] : -1;
    }
  }
  return stack.length ? undefined : { toks, match, parent };
}

/** The SELECT keyword of the query level that token `i` is in, or -1. */
export function selectBefore(b: Brackets, i: number): number {
  for (let k = i - 1; k > b.parent[i]; k--) {
    if (isOp(b.toks[k], ")")) k = b.match[k];
    else if (isKeyword(b.toks[k], "SELECT")) return k;
  }
  return -1;
}

/** One select list item: its whole range, its expression's end and its alias (lowercased), if any. */
export interface SelectItem {
  s: number;
  e: number;
  exprEnd: number;
  alias?: string;
}

/** The clauses of a SELECT: each clause keyword's index (first keyword of two-word ones). */
export interface SelectParts {
  /** The SELECT keyword. */
  sel: number;
  items: SelectItem[];
  /** Where the select list ends (FROM or the next clause). */
  itemsEnd: number;
  clauses: Map<string, number>;
  /** Where this SELECT ends (before a set operator, the closing bracket or the statement's end). */
  end: number;
  /** Whether a UNION / EXCEPT / INTERSECT joins it with another SELECT at its level. */
  compound: boolean;
}

const CLAUSES = ["FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "QUALIFY", "ORDER", "LIMIT", "OFFSET"];
const SET_OPS = ["UNION", "EXCEPT", "INTERSECT"];

/** The parts of the SELECT whose keyword is token `sel`. */
export function selectParts(b: Brackets, sel: number): SelectParts {
  const { toks, match, parent } = b;
  const depth = parent[sel];
  const limit = depth >= 0 ? match[depth] : toks.length;
  const clauses = new Map<string, number>();
  let end = limit, compound = false, from = -1;
  for (let k = sel + 1; k < limit && from < 0; k++) {
    if (isOp(toks[k], "(")) k = match[k];
    else if (isKeyword(toks[k], "FROM")) from = k;
    else if (isOp(toks[k], ";") || isKeyword(toks[k], ...SET_OPS)) break;
  }
  for (let k = sel + 1; k < limit; k++) {
    if (isOp(toks[k], "(")) {
      k = match[k];
      continue;
    }
    if (isOp(toks[k], ";")) {
      end = k;
      break;
    }
    if (isKeyword(toks[k], ...SET_OPS)) {
      end = k;
      compound = true;
      break;
    }
    const word = toks[k].kind === "ident" ? toks[k].text.toUpperCase() : "";
    // a column may be named `window` or `qualify`: clauses other than FROM come after the FROM
    if (word !== "FROM" && from >= 0 && k < from) continue;
    if (CLAUSES.includes(word) && !clauses.has(word)) {
      // `ORDER BY` / `GROUP BY` only as clauses (a window's ORDER BY is inside its brackets)
      if ((word === "ORDER" || word === "GROUP") && !isKeyword(toks[k + 1], "BY")) continue;
      clauses.set(word, k);
    }
  }
  const before = toks[sel - 1];
  if (isKeyword(before, ...SET_OPS, "ALL", "DISTINCT")) compound = true;
  const itemsEnd = Math.min(end, ...clauses.values());
  let first = sel + 1;
  if (isKeyword(toks[first], "DISTINCT", "ALL")) first++;
  const items: SelectItem[] = [];
  let s = first;
  for (let k = first; k <= itemsEnd; k++) {
    if (k < itemsEnd && isOp(toks[k], "(")) {
      k = match[k];
      continue;
    }
    if (k === itemsEnd || isOp(toks[k], ",")) {
      if (k > s) {
        const { exprEnd, hasAlias } = aliasOf(toks, s, k);
        const a = toks[k - 1];
        items.push({
          s,
          e: k,
          exprEnd,
          ...(hasAlias ? { alias: a.kind === "qident" ? a.value : a.value.toLowerCase() } : {}),
        });
      }
      s = k + 1;
    }
  }
  return { sel, items, itemsEnd, clauses, end, compound };
}

/** The end of the clause starting at `start`: the next clause of `p` after it, or the SELECT's end. */
export function clauseEnd(p: SelectParts, start: number): number {
  return Math.min(p.end, ...[...p.clauses.values()].filter((k) => k > start));
}

/** Where the ORDER BY / LIMIT / OFFSET tail of `p` starts (its end when it has none). */
export function tailStart(p: SelectParts): number {
  return Math.min(p.end, ...["ORDER", "LIMIT", "OFFSET"].flatMap((c) => p.clauses.get(c) ?? []));
}

/** One ORDER BY term: its expression `[s, exprEnd)`, then ASC / DESC / NULLS … up to `e`. */
export interface OrderTerm {
  s: number;
  exprEnd: number;
  e: number;
}

/** The terms of the ORDER BY clause of `p` (none without one). */
export function orderTerms(b: Brackets, p: SelectParts): OrderTerm[] {
  const order = p.clauses.get("ORDER");
  if (order === undefined) return [];
  return splitCommas(b, order + 2, clauseEnd(p, order)).map(([s, e]) => {
    let exprEnd = s;
    while (exprEnd < e && !isKeyword(b.toks[exprEnd], "ASC", "DESC", "NULLS")) {
      exprEnd = isOp(b.toks[exprEnd], "(") ? b.match[exprEnd] + 1 : exprEnd + 1;
    }
    return { s, exprEnd, e };
  });
}

/** The source text of tokens `[s, e)`. */
export function sourceText(sql: string, toks: Token[], s: number, e: number): string {
  if (e <= s) return "";
  const last = toks[e - 1];
  return sql.slice(toks[s].pos, last.pos + last.text.length);
}

/** A part of a range written as other text. */
export interface Hole {
  s: number;
  e: number;
  text: string;
}

/** The source text of `[s, e)` with each hole (sorted, disjoint, inside the range) written as its text. */
export function spliceText(sql: string, toks: Token[], s: number, e: number, holes: Hole[]): string {
  let out = "", at = s;
  for (const h of holes) {
    out += sourceText(sql, toks, at, h.s) + (h.s > at ? " " : "") + h.text + " ";
    at = h.e;
  }
  return (out + sourceText(sql, toks, at, e)).trim();
}

/** How an expression reads regardless of spacing and case: the comparison key of `[s, e)`. */
export function exprKey(toks: Token[], s: number, e: number): string {
  const ref = columnRefName(toks, s, e);
  if (ref !== undefined) return ref;
  return toks.slice(s, e).map((t) =>
    t.kind === "ident" ? t.text.toLowerCase() : t.kind === "qident" ? `"${t.value}"` : t.text
  ).join(" ");
}

/** The column name `[s, e)` refers to when it is a (qualified) column reference. */
export function columnRefName(toks: Token[], s: number, e: number): string | undefined {
  if ((e - s) % 2 !== 1) return undefined;
  for (let k = s; k < e; k++) {
    const t = toks[k];
    const ok = (k - s) % 2 === 0 ? t.kind === "ident" || t.kind === "qident" : isOp(t, ".");
    if (!ok) return undefined;
  }
  if (isOp(toks[e], "(") || isOp(toks[e], ".") || isOp(toks[s - 1], ".")) return undefined;
  const last = toks[e - 1];
  return last.kind === "qident" ? last.value : last.value.toLowerCase();
}

/** Splits `[s, e)` at its top-level commas. */
export function splitCommas(b: Brackets, s: number, e: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = s;
  for (let k = s; k <= e; k++) {
    if (k < e && isOp(b.toks[k], "(")) {
      k = b.match[k];
      continue;
    }
    if (k === e || isOp(b.toks[k], ",")) {
      if (k > from) out.push([from, k]);
      from = k + 1;
    }
  }
  return out;
}
