/**
 * Which table a column reference reads, as DataFusion resolves it: `b.ts` through the relation
 * named `b` of the SELECT it stands in (or of a SELECT around it), a bare `ts` through the tables
 * of the innermost SELECT's FROM first, then outwards (a correlated reference). Two tables may
 * share a column name with different types (`ts` in milliseconds here, nanoseconds there), so a
 * lookup by name alone would type, and convert time literals for, the wrong one.
 */
import type { DataType } from "../../common/rows.ts";
import { isKeyword, isOp } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import type { SourceRelation } from "./tables.ts";

/** The type of the column that token `i` names, when the relation it reads tells it. */
export type ScopedColumnType = (i: number) => DataType | undefined;

/** The output columns of a relation that is no storage table (a view, CTE or derived table), if known. */
export type PlannedColumns = (
  s: SourceRelation,
) => ReadonlyArray<{ name: string; type?: DataType }> | undefined;

/**
 * The resolver of column references through the FROM clauses of the query. It answers undefined
 * where the reference reaches a column of unknown type, meets a relation of unknown columns before
 * one with the column, or names no relation in scope: the caller falls back to its lookup by name.
 */
export function scopedColumnTypes(
  q: QueryTokens,
  sources: readonly SourceRelation[],
  planned: PlannedColumns,
): ScopedColumnType {
  const resolve = columnResolver(q, sources, planned);
  return (i) => resolve(i)?.type;
}

/** The relation a column reference reads and the column's type there (undefined where not known). */
export type ColumnResolver = (
  i: number,
) => { relation: SourceRelation; type: DataType | undefined } | undefined;

/** The resolver `scopedColumnTypes` reads types through, telling the relation too. */
export function columnResolver(
  q: QueryTokens,
  sources: readonly SourceRelation[],
  planned: PlannedColumns,
): ColumnResolver {
  const { toks, parent, lower } = q;
  const arm = compoundArms(q);
  // the relations of each SELECT, keyed by the bracket around it and the compound member it is in
  const selects = new Map<string, SourceRelation[]>();
  for (const s of sources) {
    const key = `${parent[s.at]}:${arm[s.at]}`;
    const list = selects.get(key);
    if (list) list.push(s);
    else selects.set(key, [s]);
  }
  // each relation's column types by lowercased name (undefined: its columns are not known)
  const columns = new Map<SourceRelation, Map<string, DataType | undefined> | undefined>();
  const columnsOf = (s: SourceRelation): Map<string, DataType | undefined> | undefined => {
    if (columns.has(s)) return columns.get(s);
    const list = s.table?.columns ?? planned(s);
    let m: Map<string, DataType | undefined> | undefined;
    if (list) {
      m = new Map();
      for (const c of list) if (!m.has(c.name.toLowerCase())) m.set(c.name.toLowerCase(), c.type);
    }
    columns.set(s, m);
    return m;
  };
  // per SELECT, the first relation by alias and the first holding each column (a lookup per name
  // token, not a scan of the relations: a long invalid statement can put thousands in one SELECT)
  interface SelectIndex {
    byName: Map<string, SourceRelation>;
    byColumn: Map<string, SourceRelation>;
    /** Whether a relation's columns are not known here. */
    someUnknown: boolean;
  }
  const indexes = new Map<string, SelectIndex>();
  const indexOf = (key: string): SelectIndex => {
    let index = indexes.get(key);
    if (index) return index;
    index = { byName: new Map(), byColumn: new Map(), someUnknown: false };
    for (const r of selects.get(key) ?? []) {
      const alias = r.name?.toLowerCase();
      if (alias !== undefined && !index.byName.has(alias)) index.byName.set(alias, r);
      const cols = columnsOf(r);
      if (cols === undefined) index.someUnknown = true;
      else for (const c of cols.keys()) if (!index.byColumn.has(c)) index.byColumn.set(c, r);
    }
    indexes.set(key, index);
    return index;
  };
  const isName = (k: number) => toks[k]?.kind === "ident" || toks[k]?.kind === "qident";
  return (i) => {
    if (!isName(i)) return undefined;
    const name = lower(toks[i]);
    const qualifier = isOp(toks[i - 1], ".") && isName(i - 2) ? lower(toks[i - 2]).toLowerCase() : undefined;
    for (let pos = i; pos >= 0; pos = parent[pos]) {
      const index = indexOf(`${parent[pos]}:${arm[pos]}`);
      if (qualifier !== undefined) {
        const named = index.byName.get(qualifier);
        if (named) return { relation: named, type: columnsOf(named)?.get(name) };
        continue;
      }
      const holder = index.byColumn.get(name);
      if (holder) return { relation: holder, type: columnsOf(holder)?.get(name) };
      // the column may come from a relation whose columns are not known here
      if (index.someUnknown) return undefined;
    }
    return undefined;
  };
}

/**
 * For each token, which member of the compound query (`UNION`, `INTERSECT`, `EXCEPT`) at its
 * bracket level it is in: the index of the last set operator before it at that level, or -1.
 */
export function compoundArms(q: QueryTokens): number[] {
  const { toks, parent } = q;
  const last = new Map<number, number>();
  return toks.map((t, i) => {
    const arm = last.get(parent[i]) ?? -1;
    if (isKeyword(t, "UNION", "INTERSECT", "EXCEPT")) last.set(parent[i], i);
    return arm;
  });
}
