/**
 * A TQL flow's statement (`CREATE FLOW … AS TQL EVAL (…) <promql>`) run as `/v1/sql` runs `TQL
 * EVAL`: the same parameters (`now()` read at each run), the same PromQL engine, the same output
 * columns, so the flow's sink holds what the statement answers.
 */
import type { QueryOutput } from "../../common/rows.ts";
import type { Storage } from "../../storage/mod.ts";
import { sqlEvaluator } from "../async.ts";
import { splitStatements } from "../lexer.ts";
import { startSession } from "../mod.ts";
import { executeTql, type PromQLBackend } from "./mod.ts";

/** Runs `TQL EVAL …` text in database `db` of `storage` over `backend`, in the server's time zone. */
export function evalTqlText(
  backend: PromQLBackend,
  storage: Storage,
  db: string,
  text: string,
  systemTimezone?: string,
): Promise<QueryOutput> {
  const session = startSession(storage, text, { db, ...(systemTimezone ? { systemTimezone } : {}) });
  const [statement] = splitStatements(text);
  return executeTql(backend, db, { tokens: statement.tokens, sql: text }, sqlEvaluator(storage, session));
}
