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
import type { QueryTokens } from "../query_tokens.ts";
import { literalConjuncts, type RelationRef } from "./where_conjuncts.ts";

/** A reference to a trace table. */
export interface TraceRef extends RelationRef {
  table: TableMeta;
}

const TRACE_ID: ReadonlySet<string> = new Set(["trace_id"]);

/** The most ids of an IN list that get a range each (SQLite then reads each range by the index). */
const MAX_IDS = 16;

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
    const found = literalConjuncts(q, ref, TRACE_ID, MAX_IDS)[0];
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
