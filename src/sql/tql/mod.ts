/**
 * `TQL EVAL|EXPLAIN|ANALYZE` over SQL: GreptimeDB's way to run PromQL from SQL, answered by the
 * PromQL engine (`src/promql/`) through the storage access the caller supplies.
 */
import { unsupported } from "../../common/errors.ts";
import type { QueryOutput } from "../../common/rows.ts";
import type { Token } from "../lexer.ts";
import { prepareTql, type PromQLBackend, runTql, type TqlRunOptions } from "./eval.ts";
import { tqlAnalyzeOutput, tqlExplainOutput } from "./explain.ts";
import { type SqlEvaluator, tqlFrame } from "./params.ts";
import { parseTql } from "./statement.ts";

export type { PromQLBackend } from "./eval.ts";
export type { SqlEvaluator } from "./params.ts";
export { isTql } from "./statement.ts";

/** Runs one TQL statement against `db`; without a backend TQL is not available. */
export async function executeTql(
  backend: PromQLBackend | undefined,
  db: string,
  statement: { tokens: Token[]; sql: string },
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
