/** `GET|POST /v1/logs` (reference §6.4): GreptimeDB's JSON log query, answered as greptimedb_v1. */
import type { Ctx } from "./context.ts";
import { invalidArguments } from "../src/common/errors.ts";
import { renderSqlOutputs } from "../src/http/formats/mod.ts";
import { queryLogs } from "../src/query/logs.ts";
import { parseJsonBody } from "../src/common/json_text.ts";

/** Runs the body's `LogQuery`. */
export async function logs(ctx: Ctx): Promise<Response> {
  const text = await ctx.text();
  let body: unknown;
  try {
    body = parseJsonBody(text);
  } catch (e) {
    throw invalidArguments(`Invalid log query: ${(e as Error).message}`);
  }
  const outputs = await queryLogs(ctx.app.storage, ctx.db, body, ctx.signal);
  return renderSqlOutputs(outputs, { format: "greptimedb_v1", executionTimeMs: ctx.elapsedMs() });
}
