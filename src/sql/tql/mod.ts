/**
 * `TQL EVAL|EXPLAIN|ANALYZE` over SQL: GreptimeDB's way to run PromQL from SQL, answered by the
 * PromQL engine (`src/promql/`) through the storage access the caller supplies.
 */
import { unsupported } from "../../common/errors.ts";
import type { QueryOutput, Value } from "../../common/rows.ts";
import type { Token } from "../lexer.ts";
import { prepareTql, type PromQLBackend, runTql, type TqlRunOptions } from "./eval.ts";
import { tqlAnalyzeOutput, tqlAnalyzeRows, tqlExplainOutput } from "./explain.ts";
import { type SqlEvaluator, type TqlFrame, tqlFrame } from "./params.ts";
import { parseTql, type TqlStatement } from "./statement.ts";

export type { PromQLBackend } from "./eval.ts";
export type { SqlEvaluator, TqlFrame } from "./params.ts";
export { isTql } from "./statement.ts";

/** A statement as the SQL front hands it over: its tokens, and the request they are of. */
export interface TqlText {
  tokens: Token[];
  sql: string;
}

/** Runs one TQL statement against `db`; without a backend TQL is not available. */
export async function executeTql(
  backend: PromQLBackend | undefined,
  db: string,
  statement: TqlText,
  evaluate: SqlEvaluator,
  opts: TqlRunOptions = {},
): Promise<QueryOutput> {
  const started = performance.now();
  const stmt = parseTql(statement.tokens, statement.sql);
  if (!backend) throw unsupported("TQL is not available here: it needs the PromQL engine (use /v1/sql)");
  const prepared = prepareTql(backend, db, stmt, tqlFrame(stmt, evaluate), started);
  if (stmt.mode === "explain") return tqlExplainOutput(prepared);
  const run = await runTql(backend, db, prepared, started, opts);
  return stmt.mode === "analyze" ? tqlAnalyzeOutput(prepared, run) : run.output;
}

/**
 * Evaluates PromQL over a frame exactly as `TQL EVAL` does: GreptimeDB's `/v1/promql` runs the same
 * plan, so it answers the same columns (the table's time index and field) and the same errors (a
 * metric that is not a table is 4001).
 */
export async function evalPromQL(
  backend: PromQLBackend,
  db: string,
  query: string,
  frame: TqlFrame,
  opts: TqlRunOptions = {},
): Promise<QueryOutput> {
  const started = performance.now();
  const param = (ms: number) => ({ kind: "number" as const, text: String(ms / 1000) });
  const stmt: TqlStatement = {
    mode: "eval",
    verbose: false,
    format: "text",
    start: param(frame.startMs),
    end: param(frame.endMs),
    step: param(frame.stepMs),
    lookback: frame.lookbackMs === null ? null : param(frame.lookbackMs),
    query,
    alias: null,
  };
  const prepared = prepareTql(backend, db, stmt, frame, started);
  return (await runTql(backend, db, prepared, started, opts)).output;
}

/** A TQL ANALYZE checked and resolved, to run later (the analyze stream). */
export interface PlannedTqlAnalyze {
  /** FORMAT JSON: the plan is JSON text. */
  json: boolean;
  /** The `stage`/`node`/`plan` rows before the run finished: the plan without metrics. */
  partial(): Value[][];
  /** Runs the query: TQL ANALYZE's output, as `/v1/sql` answers it. */
  run(opts: TqlRunOptions): Promise<QueryOutput>;
}

/** Parses and resolves a TQL statement without running it; null when it is not a TQL ANALYZE. */
export function planTqlAnalyze(
  backend: PromQLBackend | undefined,
  db: string,
  statement: TqlText,
  evaluate: SqlEvaluator,
): PlannedTqlAnalyze | null {
  const started = performance.now();
  const stmt = parseTql(statement.tokens, statement.sql);
  if (stmt.mode !== "analyze") return null;
  if (!backend) throw unsupported("TQL is not available here: it needs the PromQL engine (use /v1/sql)");
  const prepared = prepareTql(backend, db, stmt, tqlFrame(stmt, evaluate), started);
  return {
    json: stmt.format === "json",
    partial: () => tqlAnalyzeRows(prepared, null),
    run: async (opts) => tqlAnalyzeOutput(prepared, await runTql(backend, db, prepared, started, opts)),
  };
}
