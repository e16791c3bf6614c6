/** Loki push (reference §6.12, §7.6): `POST /v1/loki/api/v1/push`, JSON or snappy protobuf. */
import type { Ctx } from "./context.ts";
import { decodeLokiPush } from "../src/protocols/loki/mod.ts";
import { DEFAULT_LOKI_TABLE, ingestLoki } from "../src/ingest/loki/mod.ts";
import { logTable, pipelineFromHeaders } from "./log_headers.ts";

/** Stores the pushed lines in `loki_logs` (or the header's table, or through the named pipeline). */
export async function push(ctx: Ctx): Promise<Response> {
  const body = await ctx.body();
  const req = decodeLokiPush(body, ctx.req.headers.get("content-type"), ctx.app.config.http.body_limit);
  const rows = ingestLoki(ctx.app.storage, ctx.app.pipelines, req, {
    db: ctx.db,
    table: logTable(ctx, DEFAULT_LOKI_TABLE),
    hints: ctx.hints,
    pipeline: pipelineFromHeaders(ctx),
  });
  ctx.app.metrics.addIngestedRows("loki", rows);
  const ms = ctx.elapsedMs();
  return Response.json({ output: [{ affectedrows: rows }], execution_time_ms: ms }, {
    headers: { "x-greptime-execution-time": String(ms) },
  });
}
