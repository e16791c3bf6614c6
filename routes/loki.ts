/** Loki push (reference §6.12, §7.6): `POST /v1/loki/api/v1/push`, JSON or snappy protobuf. */
import type { Ctx } from "./context.ts";
import { decodeLokiPush } from "../src/protocols/loki/mod.ts";
import { DEFAULT_LOKI_TABLE, ingestLoki } from "../src/ingest/loki/mod.ts";
import { logTable, pipelineFromHeaders } from "./log_headers.ts";
import { CONTENT_TYPE, formatResponse } from "../src/http/formats/response.ts";

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
  ctx.app.metrics.addIngestedRows("loki", ctx.db, rows);
  const ms = ctx.elapsedMs();
  const reply = JSON.stringify({ output: [{ affectedrows: rows }], execution_time_ms: ms });
  return formatResponse(reply, CONTENT_TYPE.json, "greptimedb_v1", ms);
}
