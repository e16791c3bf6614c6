/**
 * GreptimeDB's `TQL` statement (`src/sql/src/parsers/tql_parser.rs`):
 * `TQL EVAL|EVALUATE [(start, end, step[, lookback])] <promql> [AS alias]`, and the same after
 * `TQL EXPLAIN [VERBOSE]` or `TQL ANALYZE [VERBOSE] [FORMAT TEXT|JSON]`. Without the parameter list
 * GreptimeDB evaluates at 0 with a 5m step. A parameter is one number, one quoted string, or an SQL
 * expression (the caller evaluates it to a timestamp); the PromQL is the statement's text after `)`.
 */
import { unsupported } from "../../common/errors.ts";
import { Cursor } from "../cursor.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";

/** One parameter as written: a number, a quoted string, or an SQL expression's text. */
export type TqlParam =
  | { kind: "number"; text: string }
  | { kind: "string"; text: string }
  | { kind: "expr"; text: string };

/** A parsed TQL statement. */
export interface TqlStatement {
  mode: "eval" | "explain" | "analyze";
  verbose: boolean;
  format: "text" | "json";
  start: TqlParam;
  end: TqlParam;
  step: TqlParam;
  lookback: TqlParam | null;
  /** The PromQL as written. */
  query: string;
  /** `AS alias`: the name of the value column. */
  alias: string | null;
}

/** Whether a statement's tokens are a TQL statement. */
export function isTql(tokens: Token[]): boolean {
  return isKeyword(tokens[0], "TQL");
}

/** Parses a TQL statement's tokens (of `sql`). */
export function parseTql(tokens: Token[], sql: string): TqlStatement {
  const cur = new Cursor(tokens, sql);
  cur.next();
  const word = cur.peek();
  let mode: TqlStatement["mode"];
  if (cur.acceptKw("EVAL") || cur.acceptKw("EVALUATE")) mode = "eval";
  else if (cur.acceptKw("EXPLAIN")) mode = "explain";
  else if (cur.acceptKw("ANALYZE")) mode = "analyze";
  else throw unsupported(`SQL statement is not supported, keyword: ${word?.text ?? "EOF"}`);
  const verbose = mode !== "eval" && cur.acceptKw("VERBOSE");
  let format: TqlStatement["format"] = "text";
  if (mode !== "eval" && cur.acceptKw("FORMAT")) {
    const f = cur.next().text.toUpperCase();
    if (f === "JSON" && mode === "analyze") format = "json";
    else if (f !== "TEXT") throw unsupported(`TQL ${mode.toUpperCase()} FORMAT ${f} is not supported`);
  }
  let start: TqlParam = { kind: "number", text: "0" }, end: TqlParam = start;
  let step: TqlParam = { kind: "string", text: "5m" }, lookback: TqlParam | null = null;
  if (cur.acceptOp("(")) {
    start = param(cur, [","]);
    end = param(cur, [","]);
    step = param(cur, [",", ")"]);
    if (isOp(cur.tokens[cur.i - 1], ",")) lookback = param(cur, [")"]);
  }
  return { mode, verbose, format, start, end, step, lookback, ...queryText(cur) };
}

/** One parameter: the tokens up to a delimiter at bracket depth 0, which is consumed. */
function param(cur: Cursor, delimiters: string[]): TqlParam {
  const from = cur.i;
  let depth = 0;
  while (!cur.atEnd) {
    const t = cur.peek()!;
    if (depth === 0 && t.kind === "op" && delimiters.includes(t.text)) break;
    if (depth === 0 && isOp(t, ")")) {
      throw cur.error("Expected: (start, end, step[, lookback]) before the query, found: )");
    }
    if (isOp(t, "(", "[")) depth++;
    if (isOp(t, ")", "]")) depth--;
    cur.i++;
  }
  const tokens = cur.tokens.slice(from, cur.i);
  if (tokens.length === 0) throw cur.error("Expected at least one token");
  if (cur.atEnd) throw cur.error(`Expected: ${delimiters.join(" or ")}, found: EOF`);
  cur.i++;
  const [t] = tokens;
  if (tokens.length === 1 && t.kind === "number") return { kind: "number", text: t.text };
  if (tokens.length === 1 && (t.kind === "string" || t.kind === "qident")) {
    return { kind: "string", text: t.value };
  }
  const last = tokens[tokens.length - 1];
  return { kind: "expr", text: cur.sql.slice(t.pos, last.pos + last.text.length) };
}

/** The PromQL after the parameters, without a trailing `AS alias`. */
function queryText(cur: Cursor): { query: string; alias: string | null } {
  const rest = cur.tokens.slice(cur.i);
  if (rest.length === 0) throw cur.error("empty TQL query");
  let alias: string | null = null;
  const n = rest.length;
  if (
    n >= 3 && isKeyword(rest[n - 2], "AS") && (rest[n - 1].kind === "ident" || rest[n - 1].kind === "qident")
  ) {
    alias = rest[n - 1].value;
    rest.length = n - 2;
  }
  const last = rest[rest.length - 1];
  return { query: cur.sql.slice(rest[0].pos, last.pos + last.text.length), alias };
}

function paramText(p: TqlParam): string {
  return p.kind === "string" ? `'${p.text.replaceAll("'", "''")}'` : p.text;
}

/** A statement as GreptimeDB's `Display` prints it: `EVALUATE` as `EVAL`, the PromQL as written. */
export function formatTql(stmt: TqlStatement): string {
  let head = `TQL ${stmt.mode.toUpperCase()}`;
  if (stmt.verbose) head += " VERBOSE";
  if (stmt.format === "json") head += " FORMAT JSON";
  const params = [stmt.start, stmt.end, stmt.step, ...(stmt.lookback ? [stmt.lookback] : [])].map(paramText);
  const alias = stmt.alias === null ? "" : ` AS ${stmt.alias}`;
  return `${head} (${params.join(", ")}) ${stmt.query}${alias}`;
}
