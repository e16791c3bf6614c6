/** GreptimeDB's `greptimedb_manage` response (pipelines, dashboards): a JSON body with its timing. */
import type { Ctx } from "./context.ts";

/** Renders a management body with `execution_time_ms` and the `x-greptime-format` header. */
export function manageResponse(ctx: Ctx, body: Record<string, unknown>): Response {
  const elapsed = ctx.elapsedMs();
  return new Response(JSON.stringify({ ...body, execution_time_ms: elapsed }), {
    headers: {
      "content-type": "application/json",
      "x-greptime-format": "greptimedb_manage",
      "x-greptime-execution-time": String(elapsed),
    },
  });
}
