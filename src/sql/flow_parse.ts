/**
 * `CREATE [OR REPLACE] FLOW [IF NOT EXISTS] <name> SINK TO <table> [EXPIRE AFTER <interval>]
 * [COMMENT '…'] AS SELECT …` for the shape Petrel's downsampling engine computes: one source table,
 * `GROUP BY` tags plus one `date_bin(INTERVAL …, <ts>)` or `date_trunc('<unit>', <ts>)` window key,
 * and avg/min/max/sum/count/last_value of fields, each aliased, of the rows an optional WHERE keeps
 * (`flow_where.ts`). A query this shape refuses is read in its general form (`flow_general.ts`,
 * the flow's own SELECT run per window), which refuses (1001, naming the part) what it cannot
 * compute. `AS TQL EVAL …` is a TQL flow (`downsample/flow_tql.ts`), run every `EVAL INTERVAL`.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { Aggregate } from "../config/downsample.ts";
import type { FlowColumn, FlowSpec } from "../downsample/flow_spec.ts";
import { Cursor } from "./cursor.ts";
import { isKeyword, isOp, type Token } from "./lexer.ts";
import { tableName } from "./ddl.ts";
import { parseFlowWhere } from "./flow_where.ts";
import { columnRef, intervalMs, refuse, stringLiteral, windowCall, windowFunction } from "./flow_window.ts";
import { parseGeneralQuery } from "./flow_general.ts";
import { parseTql } from "./tql/statement.ts";

/** A parsed CREATE FLOW with its statement options. */
export interface CreateFlow {
  spec: FlowSpec;
  orReplace: boolean;
  ifNotExists: boolean;
}

const AGGREGATES: Record<string, Aggregate> = {
  avg: "avg",
  min: "min",
  max: "max",
  sum: "sum",
  count: "count",
  last_value: "last",
};

type Item =
  | { kind: "tag"; name: string }
  | { kind: "window"; interval: number; ts: string; alias: string }
  | { kind: "aggregate"; column: FlowColumn };

/** Parses the tokens of `CREATE … FLOW …` run in database `db`. */
export function parseCreateFlow(tokens: Token[], sql: string, db: string): CreateFlow {
  const cur = new Cursor(tokens, sql);
  cur.expectKw("CREATE");
  const orReplace = cur.acceptKw("OR", "REPLACE");
  cur.expectKw("FLOW");
  const ifNotExists = cur.acceptKw("IF", "NOT", "EXISTS");
  const name = flowName(cur);
  cur.expectKw("SINK", "TO");
  const sink = tableName(cur.objectName(), { db });
  let expireAfter: number | null = null;
  let evalInterval: number | undefined;
  let comment = "";
  // GreptimeDB writes EXPIRE AFTER before EVAL INTERVAL; either order is taken
  for (let i = 0; i < 2; i++) {
    if (expireAfter === null && cur.acceptKw("EXPIRE", "AFTER")) {
      expireAfter = intervalMs(cur, "EXPIRE AFTER");
    }
    if (evalInterval === undefined && cur.acceptKw("EVAL", "INTERVAL")) {
      evalInterval = intervalMs(cur, "EVAL INTERVAL");
    }
  }
  if (cur.acceptKw("COMMENT")) comment = stringLiteral(cur, "COMMENT");
  if (cur.acceptKw("WITH")) throw refuse("WITH options");
  cur.expectKw("AS");
  const start = cur.peek();
  const last = tokens[tokens.length - 1];
  const query = start ? sql.slice(start.pos, last.pos + last.text.length) : "";
  const spec = isKeyword(start, "TQL")
    ? tqlQuery(tokens.slice(cur.i), sql, db)
    : parseEitherForm(cur, tokens.slice(cur.i), db);
  return {
    orReplace,
    ifNotExists,
    spec: {
      ...spec,
      name,
      database: db,
      sinkDatabase: sink.db,
      sink: sink.table,
      expireAfter,
      ...(evalInterval === undefined ? {} : { evalInterval }),
      comment,
      query,
    },
  };
}

/**
 * `AS TQL EVAL (start, end, step[, lookback]) <promql>`: checked as `TQL EVAL` checks it here; its
 * PromQL and selectors are checked when the flow is compiled (`downsample/flow_tql.ts`), by a run.
 */
function tqlQuery(tokens: Token[], sql: string, db: string): Query & Pick<FlowSpec, "tql"> {
  const stmt = parseTql(tokens, sql);
  if (stmt.mode !== "eval") {
    throw refuse(`TQL ${stmt.mode.toUpperCase()} (a flow evaluates TQL EVAL)`);
  }
  return {
    sourceDatabase: db,
    source: "",
    interval: 0,
    groupTags: [],
    timeIndex: "",
    timeColumn: "",
    columns: [],
    tql: true,
  };
}

/**
 * The query as the per-field aggregates compute it, with its general form (`flow_general.ts`) when
 * it has one; a shape those aggregates refuse is taken in the general form alone (no `columns`).
 */
function parseEitherForm(cur: Cursor, queryTokens: Token[], db: string): Query & Pick<FlowSpec, "general"> {
  const legacy = queryTokens.find((t, i) =>
    t.kind === "ident" && /^(tumble|hop)$/i.test(t.text) && isOp(queryTokens[i + 1], "(")
  );
  if (legacy !== undefined) {
    // GreptimeDB 0.8's window functions; its flows now take date_bin (and date_trunc)
    throw refuse(`${legacy.text.toLowerCase()}(…) windows (use date_bin(INTERVAL '…', <time index>))`);
  }
  let aggregates: Query | undefined;
  let refused: unknown;
  try {
    aggregates = parseQuery(cur, db);
  } catch (e) {
    if (!(e instanceof PetrelError)) throw e;
    refused = e;
  }
  let general;
  try {
    general = parseGeneralQuery(queryTokens, cur.sql, db);
  } catch (e) {
    if (aggregates !== undefined) return aggregates;
    // the per-field form's own error (a bad column, a syntax error) names the problem best
    throw refused instanceof PetrelError && refused.code !== StatusCode.Unsupported ? refused : e;
  }
  if (aggregates !== undefined) return { ...aggregates, general: general.text };
  return {
    sourceDatabase: general.sourceDatabase,
    source: general.source,
    interval: general.interval,
    groupTags: [],
    timeIndex: general.text.timeIndex ?? "",
    timeColumn: general.timeColumn,
    columns: [],
    general: general.text,
  };
}

/** A flow name (`[catalog.]name`; GreptimeDB's flows live in the catalog, not in a database). */
export function flowName(cur: Cursor): string {
  const parts = cur.objectName();
  if (parts.length === 2 && parts[0] === "greptime") return parts[1];
  if (parts.length !== 1) throw invalidArguments(`Invalid flow name: ${parts.join(".")}`);
  return parts[0];
}

type Query = Pick<
  FlowSpec,
  "sourceDatabase" | "source" | "interval" | "groupTags" | "timeIndex" | "timeColumn" | "columns" | "where"
>;

function parseQuery(cur: Cursor, db: string): Query {
  cur.expectKw("SELECT");
  if (cur.acceptKw("DISTINCT")) throw refuse("SELECT DISTINCT");
  const items: Item[] = [];
  do items.push(selectItem(cur)); while (cur.acceptOp(","));
  cur.expectKw("FROM");
  if (isOp(cur.peek(), "(")) throw refuse("a subquery in FROM");
  const source = tableName(cur.objectName(), { db });
  const JOINS = ["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL"];
  const qualifiers = [source.table.toLowerCase()];
  if (
    cur.acceptKw("AS") || cur.peek()?.kind === "ident" && !isKeyword(cur.peek(), "WHERE", "GROUP", ...JOINS)
  ) {
    qualifiers.push(cur.ident("a table alias").toLowerCase());
  }
  if (cur.acceptOp(",") || isKeyword(cur.peek(), ...JOINS)) {
    throw refuse("a join (a flow reads one table)");
  }
  const where = cur.acceptKw("WHERE") ? parseFlowWhere(cur, qualifiers) : undefined;
  cur.expectKw("GROUP", "BY");
  const keys: string[] = [];
  do keys.push(groupKey(cur, items)); while (cur.acceptOp(","));
  for (const word of ["HAVING", "ORDER", "LIMIT", "UNION", "WINDOW"]) {
    if (isKeyword(cur.peek(), word)) throw refuse(word);
  }
  cur.expectEnd();
  return { sourceDatabase: source.db, source: source.table, where, ...checkGrouping(items, keys) };
}

function checkGrouping(items: Item[], keys: string[]): Omit<Query, "sourceDatabase" | "source" | "where"> {
  const windows = items.filter((i) => i.kind === "window");
  if (windows.length !== 1) {
    throw refuse("the SELECT needs exactly one date_bin(INTERVAL …, <time index>) or date_trunc window key");
  }
  const window = windows[0];
  const tags = items.flatMap((i) => i.kind === "tag" ? [i.name] : []);
  const columns = items.flatMap((i) => i.kind === "aggregate" ? [i.column] : []);
  if (columns.length === 0) {
    throw refuse("a flow without an aggregate (avg, min, max, sum, count, last_value)");
  }
  if (!keys.includes(window.alias)) throw refuse(`GROUP BY without the window key ${window.alias}`);
  for (const k of keys) {
    if (k !== window.alias && !tags.includes(k)) throw refuse(`GROUP BY ${k} not in the SELECT list`);
  }
  for (const t of tags) if (!keys.includes(t)) throw refuse(`column ${t} is neither grouped nor aggregated`);
  const names = [...tags, window.alias, ...columns.map((c) => c.name)];
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw invalidArguments(`CREATE FLOW: column ${dup} appears twice in the SELECT list`);
  }
  return {
    interval: window.interval,
    groupTags: tags,
    timeIndex: window.ts,
    timeColumn: window.alias,
    columns,
  };
}

function groupKey(cur: Cursor, items: Item[]): string {
  const t = cur.peek();
  if (t?.kind === "number") {
    cur.next();
    const item = items[Number(t.text) - 1];
    if (item === undefined) throw invalidArguments(`GROUP BY position ${t.text} is not in the SELECT list`);
    if (item.kind === "aggregate") throw refuse("GROUP BY an aggregate");
    return item.kind === "tag" ? item.name : item.alias;
  }
  if (t?.kind === "ident" && isOp(cur.peek(1), "(")) {
    const fn = windowFunction(t.text);
    if (fn === undefined) throw refuse(`GROUP BY ${t.text.toLowerCase()}(…)`);
    cur.next();
    const w = windowCall(cur, fn);
    const item = items.find((i) => i.kind === "window");
    if (item?.kind !== "window" || item.interval !== w.interval || item.ts !== w.ts) {
      throw refuse("a GROUP BY window that differs from the SELECT's window key");
    }
    return item.alias;
  }
  const name = columnRef(cur);
  if (!isKeyword(cur.peek(), "HAVING", "ORDER", "LIMIT") && !isOp(cur.peek(), ",") && !cur.atEnd) {
    throw refuse(`a GROUP BY expression (${cur.describe()} after ${name})`);
  }
  return name;
}

function selectItem(cur: Cursor): Item {
  const t = cur.peek();
  if (isOp(t, "*")) throw refuse("SELECT *");
  if (t?.kind === "ident" && isOp(cur.peek(1), "(")) {
    const fn = t.text.toLowerCase();
    cur.next();
    const window = windowFunction(fn);
    if (window !== undefined) {
      const w = windowCall(cur, window);
      return { kind: "window", ...w, alias: alias(cur, `the window key ${fn}(…)`) };
    }
    const aggregate = AGGREGATES[fn];
    if (aggregate === undefined) throw refuse(`function ${fn} (use avg, min, max, sum, count or last_value)`);
    const field = aggregateArgument(cur, fn);
    endOfExpression(cur, `${fn}(${field})`);
    return { kind: "aggregate", column: { name: alias(cur, `${fn}(${field})`), field, aggregate } };
  }
  if (t?.kind !== "ident" && t?.kind !== "qident") throw refuse(`the SELECT item ${cur.describe()}`);
  const name = columnRef(cur);
  endOfExpression(cur, name);
  if (cur.acceptKw("AS") || cur.peek()?.kind === "ident" && !isKeyword(cur.peek(), "FROM")) {
    const a = cur.ident("an alias");
    if (a !== name) throw refuse(`renaming the tag ${name} to ${a}`);
  }
  return { kind: "tag", name };
}

function endOfExpression(cur: Cursor, what: string): void {
  const t = cur.peek();
  if (t?.kind === "op" && t.text !== ",") throw refuse(`an expression over ${what} (${t.text})`);
  if (isKeyword(t, "FILTER", "OVER")) throw refuse(`${t!.text.toUpperCase()} on ${what}`);
}

function aggregateArgument(cur: Cursor, fn: string): string {
  cur.expectOp("(");
  if (isOp(cur.peek(), "*")) throw refuse(`${fn}(*) (name a field: the engine counts a field's numbers)`);
  if (cur.acceptKw("DISTINCT")) throw refuse(`${fn}(DISTINCT …)`);
  const field = columnRef(cur);
  if (fn === "last_value" && cur.acceptKw("ORDER", "BY")) {
    columnRef(cur); // the time index: checked against the source when the flow is created
    cur.acceptKw("ASC");
  }
  if (!cur.acceptOp(")")) throw refuse(`the argument of ${fn}(…): only a field name is supported`);
  return field;
}

function alias(cur: Cursor, what: string): string {
  if (cur.acceptKw("AS") || cur.peek()?.kind === "ident" && !isKeyword(cur.peek(), "FROM")) {
    return cur.ident("an alias");
  }
  if (cur.peek()?.kind === "qident") return cur.ident("an alias");
  throw refuse(`${what} without an alias (the alias names the sink column)`);
}
