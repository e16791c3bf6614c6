/** `GET /v1/forward/dead_letters`: the batches upstreams refused (4xx), newest first, with the reason. */
import type { Ctx } from "./context.ts";

/** Lists dead letters (`?destination=` narrows, `?limit=` caps, default 100). */
export function deadLetters(ctx: Ctx): Response {
  const forwarder = ctx.app.forwarder;
  const destination = ctx.url.searchParams.get("destination");
  const limit = Math.max(1, Math.min(10_000, Number(ctx.url.searchParams.get("limit") ?? 100) || 100));
  const letters = forwarder === null ? [] : forwarder.deadLetters(destination, limit);
  return Response.json({ dead_letters: letters });
}
