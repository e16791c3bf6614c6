/**
 * DataFusion's check of an aggregating SELECT (one with GROUP BY, or an aggregate call): every
 * column its select list and HAVING read outside an aggregate must be a GROUP BY key or inside an
 * expression that is one. SQLite would answer an arbitrary row's value instead.
 *
 * ORDER BY reads the same way, an output column's alias standing for the output column (DataFusion
 * refuses an ungrouped column there too; SQLite would sort by an arbitrary row's value).
 *
 * The check errs towards accepting: subqueries and relations whose columns are unknown here are not
 * looked at, and an expression counts as grouped when its tokens spell a key's.
 */
import { PetrelError, StatusCode } from "../../common/errors.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { originalText, type QueryTokens } from "../query_tokens.ts";
import { aliasOf, selectList, type TopSelect } from "../select_list.ts";
import { type ArrayTyping } from "../array_types.ts";
import { displayName } from "../display_name.ts";
import { AGGREGATE_NAMES } from "./range_parse.ts";
import type { ColumnResolver } from "./column_scope.ts";
import type { SourceRelation } from "./tables.ts";

/** Words that end a SELECT's clause at its own level. */
const CLAUSE_WORDS = [
  "FROM",
  "WHERE",
  "GROUP",
  "HAVING",
  "WINDOW",
  "QUALIFY",
  "ORDER",
  "LIMIT",
  "OFFSET",
  "FETCH",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "ALIGN",
];

/** Where the clauses of one SELECT start (token indexes), and where it ends. */
interface Clauses {
  from?: number;
  groupBy?: number;
  having?: number;
  orderBy?: number;
  align?: number;
  /** The end of each clause, by its start. */
  ends: Map<number, number>;
}

/** The clauses whose columns the check reads. */
type Clause = "SELECT" | "HAVING" | "ORDER BY";

/** Words that may come before an arm of a set operation. */
const SET_WORDS = ["UNION", "EXCEPT", "INTERSECT", "ALL", "DISTINCT"];

/** Words of an ORDER BY item that are no column. */
const SORT_WORDS = ["ASC", "DESC", "NULLS", "FIRST", "LAST"];

const isName = (t: Token | undefined) => t?.kind === "ident" || t?.kind === "qident";

/** What the check reads of the rewrite: the query, how columns resolve, and DataFusion's names. */
export interface GroupedColumnsEnv {
  q: QueryTokens;
  sql: string;
  sources: readonly SourceRelation[];
  resolve: ColumnResolver;
  naming: ArrayTyping;
}

/** Refuses, as DataFusion's planner does, the first aggregating SELECT that reads an ungrouped column. */
export function checkGroupedColumns(env: GroupedColumnsEnv): void {
  const { toks, match, parent } = env.q;
  // the relations of each bracket level, so that a SELECT looks through its own level's only
  const levels = new Map<number, SourceRelation[]>();
  for (const s of env.sources) {
    const list = levels.get(parent[s.at]);
    if (list) list.push(s);
    else levels.set(parent[s.at], [s]);
  }
  for (const list of levels.values()) list.sort((a, b) => a.at - b.at);
  for (let i = 0; i < toks.length; i++) {
    if (!isKeyword(toks[i], "SELECT")) continue;
    const top = selectList(toks, match, i);
    if (top) checkSelect(env, top, levels.get(parent[i]) ?? []);
  }
}

function clausesOf(q: QueryTokens, top: TopSelect): Clauses {
  const { toks, match, parent } = q;
  const depth = parent[top.select];
  const clauses: Clauses = { ends: new Map() };
  let open: number | undefined;
  const close = (k: number) => {
    if (open !== undefined) clauses.ends.set(open, k);
  };
  let k = top.items[top.items.length - 1][1];
  for (; k < toks.length; k++) {
    if (isOp(toks[k], "(")) {
      k = match[k];
      continue;
    }
    if (parent[k] !== depth || isOp(toks[k], ")") || isOp(toks[k], ";")) break;
    const t = toks[k];
    if (!isKeyword(t, ...CLAUSE_WORDS, "SELECT")) continue;
    // the FROM of `x IS [NOT] DISTINCT FROM y` is the operator's
    if (isKeyword(t, "FROM") && isKeyword(toks[k - 1], "DISTINCT")) continue;
    // another SELECT at this level (after a set operator, or a mistake) is no clause of this one
    if (isKeyword(t, "UNION", "EXCEPT", "INTERSECT", "SELECT")) break;
    close(k);
    open = k;
    if (isKeyword(t, "FROM")) clauses.from ??= k;
    else if (isKeyword(t, "GROUP") && isKeyword(toks[k + 1], "BY")) clauses.groupBy ??= k;
    else if (isKeyword(t, "HAVING")) clauses.having ??= k;
    else if (isKeyword(t, "ORDER") && isKeyword(toks[k + 1], "BY")) clauses.orderBy ??= k;
    else if (isKeyword(t, "ALIGN")) clauses.align ??= k;
  }
  close(k);
  return clauses;
}

/** The comma-separated expressions of `[s, e)` at its own level. */
function listItems(q: QueryTokens, s: number, e: number): Array<[number, number]> {
  const { toks, match } = q;
  const out: Array<[number, number]> = [];
  let start = s;
  for (let k = s; k < e; k++) {
    if (isOp(toks[k], "(")) k = match[k];
    else if (isOp(toks[k], ",")) {
      out.push([start, k]);
      start = k + 1;
    }
  }
  if (e > start) out.push([start, e]);
  return out;
}

/** The end of an aggregate call at `k` (after FILTER and WITHIN GROUP), or undefined if it is none. */
function aggregateEnd(q: QueryTokens, k: number): number | undefined {
  const { toks, match } = q;
  if (toks[k]?.kind !== "ident" || !isOp(toks[k + 1], "(")) return undefined;
  let after = match[k + 1] + 1;
  if (isKeyword(toks[after], "FILTER") && isOp(toks[after + 1], "(")) after = match[after + 1] + 1;
  if (isKeyword(toks[after], "WITHIN") && isOp(toks[after + 2], "(")) after = match[after + 2] + 1;
  if (isKeyword(toks[after], "IGNORE", "RESPECT") && isKeyword(toks[after + 1], "NULLS")) after += 2;
  if (isKeyword(toks[after], "OVER")) return undefined;
  return AGGREGATE_NAMES.has(toks[k].text.toLowerCase()) ? after : undefined;
}

/** The aggregate calls in `[s, e)` outside subqueries, as token ranges. */
function aggregatesIn(q: QueryTokens, s: number, e: number): Array<[number, number]> {
  const { toks, match } = q;
  const out: Array<[number, number]> = [];
  for (let k = s; k < e; k++) {
    if (isOp(toks[k], "(") && isKeyword(toks[k + 1], "SELECT", "WITH")) {
      k = match[k];
      continue;
    }
    const end = aggregateEnd(q, k);
    if (end !== undefined) {
      out.push([k, end]);
      k = end - 1;
    }
  }
  return out;
}

function checkSelect(env: GroupedColumnsEnv, top: TopSelect, level: readonly SourceRelation[]): void {
  const { q } = env;
  const { toks } = q;
  const clauses = clausesOf(q, top);
  // a range query (RANGE after an aggregate, or an ALIGN clause) is checked as range_parse reads it
  if (clauses.align !== undefined || hasRangeKeyword(q, top)) return;
  const items = top.items.map(([s, e]) => ({ range: [s, e] as [number, number], ...aliasOf(toks, s, e) }));
  const having = clauses.having === undefined
    ? undefined
    : [clauses.having + 1, clauses.ends.get(clauses.having)!] as [number, number];
  const aggregates = [
    ...items.flatMap(({ range: [s], exprEnd }) => aggregatesIn(q, s, exprEnd)),
    ...(having ? aggregatesIn(q, ...having) : []),
  ];
  if (clauses.groupBy === undefined && aggregates.length === 0) return;
  // GROUPING SETS, ROLLUP and CUBE are rebuilt before this runs; anything else left is not read here
  const groupList = clauses.groupBy === undefined
    ? []
    : listItems(q, clauses.groupBy + 2, clauses.ends.get(clauses.groupBy)!);
  if (groupList.some(([s]) => isKeyword(toks[s], "ROLLUP", "CUBE", "GROUPING", "ALL"))) return;
  const from = clauses.from;
  if (from === undefined) return;
  const fromEnd = clauses.ends.get(from)!;
  // the level's relations are in token order: this FROM's are a run of them (thousands of SELECTs
  // at one level must not each scan all)
  let lo = 0, hi = level.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (level[mid].at <= from) lo = mid + 1;
    else hi = mid;
  }
  const relations: SourceRelation[] = [];
  for (let k = lo; k < level.length && level[k].at < fromEnd; k++) relations.push(level[k]);
  if (relations.length === 0) return;

  // the keys: each GROUP BY expression, and the select item it names by position or alias
  const keyRanges: Array<[number, number]> = [];
  // each key as DataFusion shows it: an ordinal or alias as the item it names
  const shownKeys: Array<[number, number]> = [];
  for (const [s, e] of groupList) {
    keyRanges.push([s, e]);
    const t = toks[s];
    let named: [number, number] | undefined;
    if (e - s === 1 && t.kind === "number" && /^\d+$/.test(t.text)) {
      const item = items[Number(t.text) - 1];
      if (item) named = [item.range[0], item.exprEnd];
    } else if (e - s === 1 && isName(t)) {
      const item = items.find((i) => i.hasAlias && q.lower(toks[i.range[1] - 1]) === q.lower(t));
      if (item) named = [item.range[0], item.exprEnd];
    }
    if (named) keyRanges.push(named);
    shownKeys.push(named ?? [s, e]);
  }
  const keys = new Map<string, string[][]>();
  for (const [s, e] of keyRanges) {
    const parts: string[] = [];
    for (let k = s; k < e;) {
      const p = partAt(q, k);
      parts.push(p.part);
      k = p.next;
    }
    if (parts.length === 0) continue;
    const list = keys.get(parts[0]) ?? [];
    list.push(parts);
    keys.set(parts[0], list);
  }
  /** The end of the key expression starting at `k`, or `k` when none starts there. */
  const keyEnd = (k: number, e: number): number => {
    const first = partAt(q, k);
    let best = k;
    for (const parts of keys.get(first.part) ?? []) {
      let j = first.next;
      let n = 1;
      for (; n < parts.length && j < e; n++) {
        const p = partAt(q, j);
        if (p.part !== parts[n]) break;
        j = p.next;
      }
      if (n === parts.length && j > best) best = j;
    }
    return best;
  };

  const available = () => {
    const names = [...shownKeys, ...aggregates].map(([s, e]) =>
      displayName(env.naming, s, e) ?? originalText(env.sql, toks, s, e)
    );
    return [...new Set(names)].join(", ");
  };
  const refuse = (clause: Clause, column: string): never => {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Failed to plan SQL: Error during planning: Column in ${clause} must be in GROUP BY or an aggregate ` +
        `function: While expanding wildcard, column "${column}" must appear in the GROUP BY clause or must ` +
        `be part of an aggregate function, currently only "${available()}" appears in the SELECT clause ` +
        "satisfies this requirement",
    );
  };
  const ownRelation = (k: number) => {
    const r = env.resolve(k)?.relation;
    return r && relations.includes(r) ? r : undefined;
  };
  const qualified = (r: SourceRelation, column: string) => (r.name ? `${r.name}.${column}` : column);

  const walk = (s: number, e: number, clause: Clause, aliases: ReadonlySet<string>) => {
    for (let k = s; k < e;) {
      const grouped = keyEnd(k, e);
      if (grouped > k) {
        k = grouped;
        continue;
      }
      const t = toks[k];
      if (isOp(t, "(") && isKeyword(toks[k + 1], "SELECT", "WITH")) {
        k = q.match[k] + 1;
        continue;
      }
      const aggregate = aggregateEnd(q, k);
      if (aggregate !== undefined) {
        k = aggregate;
        continue;
      }
      // HAVING and ORDER BY read an output column's alias before the relation's column
      const alias = clause !== "SELECT" && !isOp(toks[k - 1], ".") && aliases.has(q.lower(t));
      if (isColumnToken(q, k) && !alias && !isKeyword(t, ...SORT_WORDS)) {
        const r = ownRelation(k);
        if (r) refuse(clause, qualified(r, q.lower(t)));
      }
      k++;
    }
  };

  for (const item of items) {
    const [s, e] = item.range;
    if (isOp(toks[e - 1], "*") && (e - s === 1 || isOp(toks[e - 2], "."))) {
      // a wildcard reads every column of its relations
      const named = e - s === 3 ? q.lower(toks[s]) : undefined;
      for (const r of relations) {
        if (named !== undefined && r.name?.toLowerCase() !== named) continue;
        for (const c of r.table?.columns ?? []) {
          const grouped = keys.get(`n:${c.name.toLowerCase()}`)?.some((parts) => parts.length === 1);
          if (!grouped) refuse("SELECT", qualified(r, c.name));
        }
      }
      continue;
    }
    walk(s, item.exprEnd, "SELECT", new Set());
  }
  const aliases = new Set(items.filter((i) => i.hasAlias).map((i) => q.lower(toks[i.range[1] - 1])));
  if (having) walk(having[0], having[1], "HAVING", aliases);
  // the ORDER BY after a set operator's last arm sorts the whole result, by its output's names
  const orderBy = clauses.orderBy;
  if (orderBy !== undefined && !isKeyword(toks[top.select - 1], ...SET_WORDS)) {
    walk(orderBy + 2, clauses.ends.get(orderBy)!, "ORDER BY", aliases);
  }
}

/**
 * The comparable part of the expression at `k` (a name lowercased as resolved, relation qualifiers
 * dropped) and the token after it.
 */
function partAt(q: QueryTokens, k: number): { part: string; next: number } {
  const { toks } = q;
  while (isName(toks[k]) && isOp(toks[k + 1], ".") && isName(toks[k + 2])) k += 2;
  const t = toks[k];
  const part = isName(t)
    ? `n:${q.lower(t).toLowerCase()}`
    : `${t.kind}:${t.kind === "string" ? t.value : t.text.toLowerCase()}`;
  return { part, next: k + 1 };
}

/** Whether token `k` stands for a column: a name that is no call, qualifier, type or keyword operand. */
function isColumnToken(q: QueryTokens, k: number): boolean {
  const { toks, parent } = q;
  const t = toks[k];
  if (!isName(t) || isOp(toks[k + 1], "(") || isOp(toks[k + 1], ".")) return false;
  // a type (`CAST(x AS DOUBLE)`, `x::STRING`) or the field of `EXTRACT(HOUR FROM ts)`
  if (isKeyword(toks[k - 1], "AS") || isOp(toks[k - 1], "::")) return false;
  if (isKeyword(toks[k + 1], "FROM") && parent[k] >= 0 && isName(toks[parent[k] - 1])) return false;
  return true;
}

/** Whether a select item holds `RANGE` (`max(v) RANGE '5s'`) outside brackets of its own. */
function hasRangeKeyword(q: QueryTokens, top: TopSelect): boolean {
  const { toks, parent } = q;
  const depth = parent[top.select];
  const end = top.items[top.items.length - 1][1];
  for (let k = top.items[0][0]; k < end; k++) {
    if (isKeyword(toks[k], "RANGE") && parent[k] === depth && !isKeyword(toks[k - 1], "AS")) return true;
  }
  return false;
}
