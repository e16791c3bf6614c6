/**
 * The general form of a `CREATE FLOW` query, for the shapes the per-field aggregates of
 * `flow_parse.ts` refuse (`count(*)`, `count(<string>)`, aggregates of expressions, GROUP BY any
 * column, any WHERE): one source table, `GROUP BY` the window key `date_bin(INTERVAL …, <ts>)` /
 * `date_trunc('<unit>', <ts>)` plus any SELECT items. The SELECT is kept as written, cut where the
 * downsampler adds the time range of the windows it computes (`downsample/flow_query.ts`). A query
 * without a window key (GROUP BY other items, `SELECT DISTINCT`, or aggregates alone) is computed
 * whole at each run (`downsample/whole.ts`). What the engine cannot answer is refused (1001, naming
 * the part): joins, subqueries, ORDER BY / LIMIT (they would apply per stretch of windows, not to
 * the sink).
 */
import { invalidArguments } from "../common/errors.ts";
import type { FlowQueryText } from "../downsample/flow_spec.ts";
import { Cursor } from "./cursor.ts";
import { tableName } from "./ddl.ts";
import { isKeyword, isOp, type Token } from "./lexer.ts";
import { refuse, windowCall, windowFunction } from "./flow_window.ts";

/** A parsed general query: its cut text and what the flow's spec records of it. */
export interface GeneralQuery {
  text: FlowQueryText;
  sourceDatabase: string;
  source: string;
  /** The window's length (ms); 0 for a query without a window key. */
  interval: number;
  /** The window item's alias (or its text when it has none), else `__ts_placeholder`: the sink's time index. */
  timeColumn: string;
}

/** The constant time index GreptimeDB gives the sink of a flow without a window key (value 0). */
export const WHOLE_TIME_INDEX = "__ts_placeholder";

const JOINS = ["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL"];
/** Words after which a query part ends (at depth 0). */
const CLAUSES = ["FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "WINDOW"];
/** Last words of an expression that are not an alias. */
const NOT_ALIAS = ["END", "NULL", "TRUE", "FALSE", "DESC", "ASC"];

/** A SELECT or GROUP BY item: its tokens, and for a SELECT item the alias cut off. */
interface Item {
  tokens: Token[];
  alias?: string;
}

/** Parses the query of `tokens` (from SELECT to the end) run in database `db`. */
export function parseGeneralQuery(tokens: Token[], sql: string, db: string): GeneralQuery {
  const union = tokens.find((t) => isKeyword(t, "UNION", "INTERSECT", "EXCEPT"));
  if (union !== undefined) throw refuse(union.text.toUpperCase());
  if (tokens.slice(1).some((t) => isKeyword(t, "SELECT"))) throw refuse("a subquery");
  const parts = splitTopLevel(tokens);
  if (!isKeyword(tokens[0], "SELECT")) throw refuse("a query that is not a SELECT");
  const select = parts.get("SELECT")!;
  const distinct = isKeyword(select[1], "DISTINCT");
  if (distinct && isKeyword(select[2], "ON")) throw refuse("SELECT DISTINCT ON");
  if (isKeyword(select[1], "ALL")) throw refuse("SELECT ALL");
  const items = splitCommas(select.slice(distinct ? 2 : 1)).map(selectItem);
  const from = parts.get("FROM");
  if (from === undefined) throw refuse("a query without FROM");
  const cur = new Cursor(from.slice(1), sql);
  if (isOp(cur.peek(), "(")) throw refuse("a subquery in FROM");
  const source = tableName(cur.objectName(), { db });
  let qualifier = source.table;
  if (cur.acceptKw("AS") || cur.peek()?.kind === "ident" && !isKeyword(cur.peek(), ...JOINS)) {
    qualifier = cur.ident("a table alias");
  }
  if (!cur.atEnd) throw refuse("a join (a flow reads one table)");
  for (const word of ["ORDER", "LIMIT", "OFFSET", "WINDOW"]) {
    if (parts.has(word)) throw refuse(`${word} (it would apply to each stretch of windows computed)`);
  }
  const group = parts.get("GROUP");
  if (group !== undefined && !isKeyword(group[1], "BY")) throw refuse("GROUP without BY");
  const windows = items.flatMap((item, i) => windowOf(item, sql).map((w) => ({ ...w, i })));
  if (windows.length > 1) {
    throw refuse("the SELECT needs one date_bin(INTERVAL …, <time index>) or date_trunc window key, not two");
  }
  const keys = group === undefined
    ? distinct ? items.map((_, i) => i) : []
    : splitCommas(group.slice(2)).map((k) => keyItem(k.tokens, items, sql));
  // with GROUP BY, DISTINCT changes nothing: every key is a SELECT item, so grouped rows already differ
  const window = windows[0];
  if (window !== undefined && group === undefined) {
    throw refuse("a flow without GROUP BY its date_bin(…) or date_trunc(…) window key");
  }
  if (window !== undefined && !keys.includes(window.i)) {
    throw refuse(`GROUP BY without the window key ${window.name}`);
  }
  const where = parts.get("WHERE");
  const last = tokens[tokens.length - 1];
  const end = last.pos + last.text.length;
  const having = parts.get("HAVING");
  const tailStart = (group ?? having)?.[0].pos;
  return {
    sourceDatabase: source.db,
    source: source.table,
    interval: window?.interval ?? 0,
    timeColumn: window?.name ?? WHOLE_TIME_INDEX,
    text: {
      database: db,
      head: sql.slice(tokens[0].pos, endOf(from)),
      qualifier,
      where: where === undefined ? undefined : sql.slice(where[1]?.pos ?? end, endOf(where)),
      tail: tailStart === undefined ? "" : sql.slice(tailStart, endOf(having ?? group!)),
      timeIndex: window?.ts,
      window: window?.i,
      keys: [...new Set(keys.filter((k) => k !== window?.i))],
    },
  };
}

/** The query's clauses at depth 0, each from its keyword to the next one. */
function splitTopLevel(tokens: Token[]): Map<string, Token[]> {
  const parts = new Map<string, Token[]>();
  let current: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (isOp(t, "(")) depth++;
    if (isOp(t, ")")) depth--;
    if (depth === 0 && isKeyword(t, "SELECT", ...CLAUSES)) {
      const word = t.text.toUpperCase();
      if (parts.has(word)) throw refuse(`a second ${word}`);
      parts.set(word, current = []);
    }
    current.push(t);
  }
  return parts;
}

/** Items separated by commas at depth 0. */
function splitCommas(tokens: Token[]): Item[] {
  const items: Item[] = [];
  let current: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (isOp(t, "(")) depth++;
    if (isOp(t, ")")) depth--;
    if (depth === 0 && isOp(t, ",")) {
      items.push({ tokens: current });
      current = [];
    } else current.push(t);
  }
  items.push({ tokens: current });
  if (items.some((i) => i.tokens.length === 0)) {
    throw invalidArguments("CREATE FLOW: an empty item in a list");
  }
  return items;
}

/** A SELECT item with its alias (`AS a`, or a name right after the expression) cut off. */
function selectItem(item: Item): Item {
  const t = item.tokens;
  if (t.length === 1 && isOp(t[0], "*")) throw refuse("SELECT * (name the sink's columns)");
  const last = t[t.length - 1];
  if (t.length >= 3 && isKeyword(t[t.length - 2], "AS")) return { tokens: t.slice(0, -2), alias: last.value };
  const named = last.kind === "qident" || last.kind === "ident" && !isKeyword(last, ...NOT_ALIAS);
  const prev = t[t.length - 2];
  if (named && prev !== undefined && (prev.kind !== "op" || isOp(prev, ")"))) {
    return { tokens: t.slice(0, -1), alias: last.value };
  }
  return item;
}

/** The window key an item is (`date_bin(…)` / `date_trunc(…)` alone), as its length and column. */
function windowOf(item: Item, sql: string): Array<{ interval: number; ts: string; name: string }> {
  const [fn, open] = item.tokens;
  const name = fn?.kind === "ident" ? windowFunction(fn.text) : undefined;
  if (name === undefined || !isOp(open, "(")) return [];
  const cur = new Cursor(item.tokens.slice(1), sql);
  const w = windowCall(cur, name);
  if (!cur.atEnd) throw refuse(`an expression over the window key ${name}(…)`);
  return [{ ...w, name: item.alias ?? textOf(item.tokens) }];
}

/** The SELECT item a GROUP BY key names: by position, the same expression or column, or alias. */
function keyItem(key: Token[], items: Item[], sql: string): number {
  if (key.length === 1 && key[0].kind === "number") {
    const i = Number(key[0].text) - 1;
    if (items[i] === undefined) {
      throw invalidArguments(`GROUP BY position ${key[0].text} is not in the SELECT list`);
    }
    return i;
  }
  const text = textOf(key);
  let i = items.findIndex((item) => textOf(item.tokens) === text);
  const column = columnOf(key);
  if (i < 0 && column !== undefined) i = items.findIndex((item) => columnOf(item.tokens) === column);
  if (i < 0 && key.length === 1) {
    i = items.findIndex((item) => item.alias?.toLowerCase() === key[0].value.toLowerCase());
  }
  if (i < 0) {
    throw refuse(
      `GROUP BY ${
        sql.slice(key[0].pos, endOf(key))
      } not in the SELECT list (the sink holds what the SELECT names)`,
    );
  }
  return i;
}

/** The column a bare (possibly qualified) column reference names, lowercased; else undefined. */
function columnOf(tokens: Token[]): string | undefined {
  const last = tokens[tokens.length - 1];
  const bare = tokens.length === 1 || tokens.length === 3 && isOp(tokens[1], ".");
  return bare && (last.kind === "ident" || last.kind === "qident") ? last.value.toLowerCase() : undefined;
}

/** Tokens as comparable text (names lowercased unless quoted). */
function textOf(tokens: Token[]): string {
  return tokens.map((t) => t.kind === "ident" ? t.text.toLowerCase() : t.kind === "qident" ? t.value : t.text)
    .join(" ");
}

/** The end (in the SQL text) of a run of tokens. */
function endOf(tokens: Token[]): number {
  const last = tokens[tokens.length - 1];
  return last.pos + last.text.length;
}
