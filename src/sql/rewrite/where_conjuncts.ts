/**
 * Literal conjuncts of a WHERE that pick rows of one relation: `col = '…'`, `'…' = col` or
 * `col IN ('…', …)` (and, for a caller that asks, `col <op> '…'` with other operators) at the top of the WHERE of the SELECT whose FROM holds the relation, when that
 * WHERE has no OR or CASE at its top. Every row the WHERE keeps then satisfies the conjunct on the
 * relation's side (under a join too: a NULL side of an outer join fails it), so a rewrite may narrow
 * the relation's read by it without changing an answer. Trace bounds (`trace_bound.ts`) and metric
 * series filters (`metric_series.ts`) read them.
 */
import { isKeyword, isOp } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";

/** A relation of a FROM clause: its first token, the token after it (and its alias), its names. */
export interface RelationRef {
  start: number;
  after: number;
  /** The names a column may be qualified with (the alias, else the table's name), lowercased. */
  names: string[];
}

/** A literal conjunct found for a relation. */
export interface LiteralConjunct {
  /** The WHERE keyword's token. */
  where: number;
  /** The column compared (lowercased). */
  column: string;
  /** The operator as written (`=`, `==`, `IN`, or one of the caller's). */
  op: string;
  /** The string literals' tokens. */
  lits: number[];
  /** Whether the FROM has other relations (a column is then qualified by the relation's name). */
  joined: boolean;
}

/** Keywords that end a WHERE clause. */
const WHERE_END = new Set([
  "GROUP",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "HAVING",
  "WINDOW",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "ALIGN",
  "FILL",
  "RETURNING",
]);

/** The WHERE of the SELECT whose FROM holds the reference, if it has one (same bracket level). */
function whereOf(q: QueryTokens, ref: RelationRef): number | undefined {
  const { toks, match } = q;
  for (let k = ref.after; k < toks.length; k++) {
    const t = toks[k];
    if (isOp(t, "(")) k = match[k];
    else if (isOp(t, ")", ";")) return undefined;
    else if (isKeyword(t, "WHERE")) return k;
    else if (t.kind === "ident" && WHERE_END.has(t.text.toUpperCase())) return undefined;
  }
  return undefined;
}

/**
 * The literal conjuncts of the reference's WHERE on any of `columns` (lowercased), in written
 * order, with at most `maxLits` literals each; empty when the WHERE cannot be relied on. `ops` are
 * operators taken besides equality and IN, as `col <op> '…'` only.
 */
export function literalConjuncts(
  q: QueryTokens,
  ref: RelationRef,
  columns: ReadonlySet<string>,
  maxLits: number,
  ops: ReadonlySet<string> = new Set(),
): LiteralConjunct[] {
  const top = topConjuncts(q, ref);
  if (top === undefined) return [];
  const { where, joined } = top;
  const out: LiteralConjunct[] = [];
  for (const [a, b] of top.ranges) {
    const found = conjunctLiterals(q, ref, columns, a, b, !joined, maxLits, ops);
    if (found !== undefined) out.push({ where, joined, ...found });
  }
  return out;
}

/** The top-level conjuncts of a reference's WHERE. */
export interface TopConjuncts {
  /** The WHERE keyword's token. */
  where: number;
  /** Whether the FROM has other relations (a column is then qualified by the relation's name). */
  joined: boolean;
  /** Each conjunct's tokens `[a, b)`. */
  ranges: Array<[number, number]>;
}

/**
 * The conjuncts at the top of the reference's WHERE (a BETWEEN's AND kept inside its conjunct);
 * undefined when there is no WHERE or it cannot be relied on (an OR or CASE at its top).
 */
export function topConjuncts(q: QueryTokens, ref: RelationRef): TopConjuncts | undefined {
  const { toks, match } = q;
  const where = whereOf(q, ref);
  if (where === undefined) return undefined;
  const joined = !isKeyword(toks[ref.start - 1], "FROM") || where !== ref.after;
  const ranges: Array<[number, number]> = [];
  let s = where + 1, k = s, betweens = 0;
  for (; k < toks.length; k++) {
    const t = toks[k];
    if (isOp(t, "(")) k = match[k];
    else if (isOp(t, ")", ";")) break;
    else if (t.kind === "ident") {
      const word = t.text.toUpperCase();
      if (WHERE_END.has(word)) break;
      if (word === "OR" || word === "CASE") return undefined;
      if (word === "BETWEEN") betweens++;
      else if (word === "AND" && betweens > 0) betweens--;
      else if (word === "AND") ranges.push([s, k]), s = k + 1;
    }
  }
  ranges.push([s, k]);
  return { where, joined, ranges };
}

/** The column and literals of a conjunct `[a, b)` that is exactly `col = '…'`, `'…' = col` or `col IN ('…', …)`. */
function conjunctLiterals(
  q: QueryTokens,
  ref: RelationRef,
  columns: ReadonlySet<string>,
  a: number,
  b: number,
  bare: boolean,
  maxLits: number,
  ops: ReadonlySet<string>,
): { column: string; op: string; lits: number[] } | undefined {
  const { toks } = q;
  const isStr = (i: number) => toks[i]?.kind === "string";
  if (isStr(a) && isOp(toks[a + 1], "=", "==")) {
    const col = columnAt(q, ref, columns, a + 2, bare);
    if (col?.end === b) return { column: col.name, op: "=", lits: [a] };
  }
  const col = columnAt(q, ref, columns, a, bare);
  if (col === undefined) return undefined;
  const c = col.end;
  const op = toks[c]?.kind === "op" ? toks[c].text : undefined;
  if (op !== undefined && (op === "=" || op === "==" || ops.has(op)) && isStr(c + 1) && c + 2 === b) {
    return { column: col.name, op, lits: [c + 1] };
  }
  if (!isKeyword(toks[c], "IN") || !isOp(toks[c + 1], "(") || q.match[c + 1] !== b - 1) return undefined;
  const lits: number[] = [];
  for (let i = c + 2; i < b - 1; i += 2) {
    if (!isStr(i) || !(i + 1 === b - 1 || isOp(toks[i + 1], ","))) return undefined;
    lits.push(i);
  }
  return lits.length > 0 && lits.length <= maxLits ? { column: col.name, op: "IN", lits } : undefined;
}

/** One of `columns` referring to the relation at token `i` (qualified by its name, or bare if allowed), and its end. */
export function columnAt(
  q: QueryTokens,
  ref: RelationRef,
  columns: ReadonlySet<string>,
  i: number,
  bare: boolean,
): { name: string; end: number } | undefined {
  const { toks } = q;
  const isName = (k: number) => toks[k]?.kind === "ident" || toks[k]?.kind === "qident";
  const nameAt = (k: number) => isName(k) ? toks[k].value.toLowerCase() : undefined;
  const at = (k: number) => {
    const name = nameAt(k);
    return name !== undefined && columns.has(name) && !isOp(toks[k + 1], ".", "(") ? name : undefined;
  };
  if (bare && at(i) !== undefined) return { name: at(i)!, end: i + 1 };
  const qualifier = nameAt(i);
  if (qualifier !== undefined && ref.names.includes(qualifier) && isOp(toks[i + 1], ".")) {
    const name = at(i + 2);
    if (name !== undefined) return { name, end: i + 3 };
  }
  return undefined;
}

/** The names (lowercased) of the words and quoted identifiers in the WHERE whose keyword is at `where`. */
export function whereNames(q: QueryTokens, where: number): Set<string> {
  const { toks, match } = q;
  const out = new Set<string>();
  for (let k = where + 1; k < toks.length; k++) {
    const t = toks[k];
    if (isOp(t, "(")) {
      for (let i = k + 1; i < match[k]; i++) {
        if (toks[i].kind === "ident" || toks[i].kind === "qident") out.add(toks[i].value.toLowerCase());
      }
      k = match[k];
    } else if (isOp(t, ")", ";")) break;
    else if (t.kind === "ident" && WHERE_END.has(t.text.toUpperCase())) break;
    else if (t.kind === "ident" || t.kind === "qident") out.add(t.value.toLowerCase());
  }
  return out;
}
