/**
 * `EXPLAIN [ANALYZE] [VERBOSE] [FORMAT TEXT|JSON] <query>`. Plain EXPLAIN answers GreptimeDB's
 * `plan_type`/`plan` rows without running anything; EXPLAIN ANALYZE runs the query and answers the
 * `stage`/`node`/`plan` rows of GreptimeDB's distributed analyze (`explain_render.ts`). Planning
 * (rewrite, SQLite's query plan) happens here on the calling thread; where the query itself runs is
 * the caller's choice (`executeStatement` on this thread, `executeSqlAsync` in a query worker).
 */
import { unsupported } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { refreshInfoSchemaFor } from "./view.ts";
import { Cursor } from "./cursor.ts";
import type { Session } from "./ddl.ts";
import { analyzeOutput, type AnalyzeRun } from "./explain_render.ts";
import { registerSqlFunctions } from "./functions/registry.ts";
import type { Token } from "./lexer.ts";
import { mapSqliteError, type QueryStats, runQuery } from "./results.ts";
import { rewriteQuery, type Rewritten } from "./rewrite.ts";
import { stringRecords } from "./show.ts";

/** What an EXPLAIN statement asks for. */
export interface ExplainOptions {
  analyze: boolean;
  verbose: boolean;
  format: "text" | "json";
  /** The explained query's tokens. */
  query: Token[];
}

/** One line of SQLite's `EXPLAIN QUERY PLAN`, with its depth in the plan tree. */
export interface PlanLine {
  depth: number;
  detail: string;
}

/** A planned EXPLAIN: the rewritten query, its database and SQLite's plan for it. */
export interface PlannedExplain {
  options: ExplainOptions;
  /** The query as the user wrote it. */
  text: string;
  query: Rewritten;
  handle: ReturnType<Storage["database"]>;
  plan: PlanLine[];
  /** Rewriting and planning, on the calling thread. */
  planNs: number;
  /** VERBOSE: the length of the SQLite program (bytecode instructions; a static count). */
  programOps?: number;
}

const QUERY_STARTS = ["SELECT", "WITH", "VALUES"];

/** Whether a statement's tokens are an EXPLAIN (of anything). */
export function isExplain(tokens: Token[]): boolean {
  return tokens[0]?.kind === "ident" && tokens[0].text.toUpperCase() === "EXPLAIN";
}

/** Parses `EXPLAIN [ANALYZE] [VERBOSE] [FORMAT f]` and checks that a query follows. */
export function parseExplain(tokens: Token[], sql: string): ExplainOptions {
  const cur = new Cursor(tokens, sql);
  cur.next();
  const analyze = cur.acceptKw("ANALYZE");
  const verbose = cur.acceptKw("VERBOSE");
  let format: "text" | "json" = "text";
  if (cur.acceptKw("FORMAT")) {
    const f = cur.next();
    const name = f.text.toUpperCase();
    if (name === "JSON") format = "json";
    else if (name !== "TEXT") {
      throw unsupported(`EXPLAIN FORMAT ${f.text} is not supported, only TEXT and JSON`);
    }
    if (format === "json" && !analyze) {
      throw unsupported("EXPLAIN FORMAT JSON is supported with ANALYZE only");
    }
  }
  const first = cur.peek();
  if (!first) throw cur.error("Expected: a query after EXPLAIN, found: EOF");
  const isQuery = first.kind === "op"
    ? first.text === "("
    : first.kind === "ident" && QUERY_STARTS.includes(first.text.toUpperCase());
  if (!isQuery) throw unsupported(`EXPLAIN of ${first.text.toUpperCase()} is not supported, only of queries`);
  return { analyze, verbose, format, query: tokens.slice(cur.i) };
}

function planLines(rows: unknown[][]): PlanLine[] {
  const depth = new Map<number, number>([[0, -1]]);
  return rows.map((r) => {
    const d = (depth.get(Number(r[1])) ?? -1) + 1;
    depth.set(Number(r[0]), d);
    return { depth: d, detail: String(r[3]) };
  });
}

/** Rewrites the explained query and asks SQLite for its plan (nothing runs yet). */
export function planExplain(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
): PlannedExplain {
  const started = performance.now();
  const options = parseExplain(tokens, sql);
  const first = options.query[0];
  const last = options.query[options.query.length - 1];
  const text = sql.slice(first.pos, last.pos + last.text.length);
  const query = rewriteQuery(options.query, { storage, db: session.db, sql, timezone: session.timezone });
  const handle = storage.database(query.database);
  registerSqlFunctions(handle.conn);
  try {
    refreshInfoSchemaFor(handle.conn, storage, query, session.timezone);
    const out = runQuery(handle.conn, `EXPLAIN QUERY PLAN ${query.sql}`);
    const plan = out.kind === "records" ? planLines(out.rows) : [];
    let programOps: number | undefined;
    if (options.verbose) {
      const program = runQuery(handle.conn, `EXPLAIN ${query.sql}`);
      programOps = program.kind === "records" ? program.rows.length : undefined;
    }
    const planNs = Math.round((performance.now() - started) * 1e6);
    return { options, text, query, handle, plan, planNs, programOps };
  } catch (e) {
    throw mapSqliteError(e, query.database);
  }
}

/** Plain EXPLAIN's rows: the rewritten SQLite query and SQLite's plan (VERBOSE: the query as written too). */
export function explainOutput(p: PlannedExplain): QueryOutput {
  const physical = p.plan.map((l) => `${"  ".repeat(l.depth)}${l.detail}`).join("\n");
  const rows = [["logical_plan", p.query.sql], ["physical_plan", physical]];
  if (p.options.verbose) rows.unshift(["initial_logical_plan", p.text]);
  return stringRecords(["plan_type", "plan"], rows);
}

/** Runs EXPLAIN [ANALYZE] on the calling thread. */
export function explainHere(storage: Storage, tokens: Token[], sql: string, session: Session): QueryOutput {
  const started = performance.now();
  const p = planExplain(storage, tokens, sql, session);
  return p.options.analyze ? analyzeOutput(p, analyzeHere(p, started)) : explainOutput(p);
}

/** Runs a planned EXPLAIN ANALYZE's query on the calling thread and measures it. */
export function analyzeHere(p: PlannedExplain, started: number): AnalyzeRun {
  const stats: QueryStats = { prepareNs: 0, executeNs: 0, convertNs: 0, rows: 0 };
  try {
    runQuery(p.handle.conn, p.query.sql, p.query.hints, p.query.nameTypes, stats);
  } catch (e) {
    throw mapSqliteError(e, p.query.database);
  }
  return finishedRun(stats, "main", started);
}

/** A finished run as the renderer takes it. */
export function finishedRun(stats: QueryStats, thread: AnalyzeRun["thread"], started: number): AnalyzeRun {
  return { stats, thread, elapsedNs: Math.round((performance.now() - started) * 1e6) };
}
