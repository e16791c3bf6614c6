/**
 * A time bound for SQL that picks traces by id: `SELECT … FROM <trace table> WHERE trace_id = '…'`
 * would scan the whole table (there is no index on `trace_id`, see `storage/trace_map.ts`), so the
 * WHERE gets `"<time index>" BETWEEN <first span> AND <last span>` looked up in the table's trace
 * map and log, and SQLite searches the time index over that range only.
 *
 * The map's range of a trace holds every span of it (it may be wider, never narrower), and a trace
 * it does not know has no spans: the bound is then NULL and no row passes, as none would have. So
 * the bound never changes an answer; it is only added where that is certain: the WHERE of the
 * SELECT whose FROM holds the trace table has no OR or CASE at the top and a conjunct that is
 * exactly `trace_id = '…'`, `'…' = trace_id` or `trace_id IN ('…', …)`, the column qualified by the
 * table's alias or name, or bare when the table is the only relation of that FROM. Under a join
 * the WHERE drops every row whose trace table side fails the conjunct (NULL sides of an outer join
 * too), so bounding that side's time drops no other row. Each id gets its own range.
 */
import type { TableMeta } from "../../storage/mod.ts";
import { quoteIdent } from "../../storage/table.ts";
import { hasTraceMap, traceBoundSql } from "../../storage/trace_map.ts";
import { isKeyword, isOp } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";

/** A reference to a trace table: its first token, the token after it (and its alias), its names. */
export interface TraceRef {
  table: TableMeta;
  start: number;
  after: number;
  /** The names a column may be qualified with (the alias, else the table's name), lowercased. */
  names: string[];
}

/** The most ids of an IN list that get a range each (SQLite then reads each range by the index). */
const MAX_IDS = 16;

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

/** Whether a resolved table can take a trace bound (it has a map and a `trace_id` column). */
export function isTraceTable(t: TableMeta): boolean {
  return hasTraceMap(t) && t.columns.some((c) => c.name === "trace_id");
}

/**
 * The replacements of the WHERE keyword that bound each trace reference's time index, keyed by the
 * keyword's token; `emit` renders a literal as the rest of the query does.
 */
export function traceBounds(
  q: QueryTokens,
  refs: readonly TraceRef[],
  emit: (a: number, b: number) => string,
): Map<number, { end: number; text: string }> {
  const bounds = new Map<number, string[]>();
  for (const ref of refs) {
    const found = traceIdLiterals(q, ref);
    if (found === undefined) continue;
    const t = ref.table;
    // beside other relations the column is named by the reference, as the id's column was
    const ts = (found.joined ? `${quoteIdent(ref.names[0])}.` : "") + quoteIdent(t.timeIndex);
    // one range per id: the span of [least lo, greatest hi] of ids far apart can be most of the table
    const ranges = found.lits.map((i) => {
      const id = emit(i, i + 1).trim();
      return `${ts} BETWEEN ${traceBoundSql(t, "lo", id)} AND ${traceBoundSql(t, "hi", id)}`;
    });
    const list = bounds.get(found.where) ?? [];
    list.push(ranges.length === 1 ? ranges[0] : `(${ranges.join(" OR ")})`);
    bounds.set(found.where, list);
  }
  const out = new Map<number, { end: number; text: string }>();
  for (const [at, list] of bounds) out.set(at, { end: at + 1, text: `WHERE ${list.join(" AND ")} AND` });
  return out;
}

/** The WHERE of the SELECT whose FROM holds the reference, if it has one (same bracket level). */
function whereOf(q: QueryTokens, ref: TraceRef): number | undefined {
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
 * The WHERE keyword and literal tokens of the first `trace_id` conjunct of the reference's WHERE,
 * if it can be bounded; `joined` when the FROM has other relations (the column is then qualified).
 */
function traceIdLiterals(
  q: QueryTokens,
  ref: TraceRef,
): { where: number; lits: number[]; joined: boolean } | undefined {
  const { toks, match } = q;
  const where = whereOf(q, ref);
  if (where === undefined) return undefined;
  const joined = !isKeyword(toks[ref.start - 1], "FROM") || where !== ref.after;
  const conjuncts: Array<[number, number]> = [];
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
      else if (word === "AND") conjuncts.push([s, k]), s = k + 1;
    }
  }
  conjuncts.push([s, k]);
  for (const [a, b] of conjuncts) {
    const lits = conjunctLiterals(q, ref, a, b, !joined);
    if (lits !== undefined) return { where, lits, joined };
  }
  return undefined;
}

/** The literals of a conjunct `[a, b)` that is exactly `trace_id = '…'`, `'…' = trace_id` or `trace_id IN ('…', …)`. */
function conjunctLiterals(
  q: QueryTokens,
  ref: TraceRef,
  a: number,
  b: number,
  bare: boolean,
): number[] | undefined {
  const { toks } = q;
  const isStr = (i: number) => toks[i]?.kind === "string";
  if (isStr(a) && isOp(toks[a + 1], "=", "==") && columnEnd(q, ref, a + 2, bare) === b) return [a];
  const c = columnEnd(q, ref, a, bare);
  if (c === undefined) return undefined;
  if (isOp(toks[c], "=", "==") && isStr(c + 1) && c + 2 === b) return [c + 1];
  if (!isKeyword(toks[c], "IN") || !isOp(toks[c + 1], "(") || q.match[c + 1] !== b - 1) return undefined;
  const lits: number[] = [];
  for (let i = c + 2; i < b - 1; i += 2) {
    if (!isStr(i) || !(i + 1 === b - 1 || isOp(toks[i + 1], ","))) return undefined;
    lits.push(i);
  }
  return lits.length > 0 && lits.length <= MAX_IDS ? lits : undefined;
}

/** The end of a `trace_id` column of the reference starting at `i` (qualified by its name, or bare if allowed). */
function columnEnd(q: QueryTokens, ref: TraceRef, i: number, bare: boolean): number | undefined {
  const { toks } = q;
  const isName = (k: number) => toks[k]?.kind === "ident" || toks[k]?.kind === "qident";
  const isTraceId = (k: number) => isName(k) && toks[k].value.toLowerCase() === "trace_id";
  if (bare && isTraceId(i) && !isOp(toks[i + 1], ".", "(")) return i + 1;
  if (
    isName(i) && ref.names.includes(toks[i].value.toLowerCase()) && isOp(toks[i + 1], ".") &&
    isTraceId(i + 2) &&
    !isOp(toks[i + 3], ".", "(")
  ) return i + 3;
  return undefined;
}
