/** `POST /v1/tsjson/api/put`: JSON data points (OpenTSDB's put, reference §6.13, §7.7). */
import type { Ctx } from "./context.ts";
import { ingestTsJson } from "../src/ingest/tsjson.ts";
import { parseTsJsonPut } from "../src/protocols/tsjson/parser.ts";
import { tsjsonPutSummary } from "../src/protocols/tsjson/summary.ts";

/**
 * Writes the points. Without `summary`/`details`: all in one transaction, 204, and any write failure
 * is GreptimeDB's `500 Internal error: 1003`. With either: each point on its own, 200 with counts.
 */
export async function put(ctx: Ctx): Promise<Response> {
  const points = parseTsJsonPut(await ctx.text());
  const summary = ctx.url.searchParams.has("summary");
  const details = ctx.url.searchParams.has("details");
  const perPoint = summary || details;
  const result = ingestTsJson(ctx.app.storage, ctx.db, points, { hints: ctx.hints, perPoint });
  ctx.app.metrics.addIngestedRows("opentsdb", ctx.db, result.rows);
  if (!perPoint) return new Response(null, { status: 204 });
  return new Response(tsjsonPutSummary(points, result.errors, details), {
    headers: { "content-type": "application/json" },
  });
}
