/** The web dashboard `/dashboard…` (reference §6.7), served from files embedded in the program. */
import type { Ctx } from "./context.ts";
import { serveDashboard } from "../src/dashboard/serve.ts";

/** `GET|POST /dashboard` and `/dashboard/*`; 404 when `[dashboard] enable = false`. */
export function dashboard(ctx: Ctx): Promise<Response> | Response {
  if (!ctx.app.config.dashboard.enable) {
    // GreptimeDB registers no dashboard routes then: axum's 404, no body
    return new Response(null, { status: 404 });
  }
  return serveDashboard(ctx.url, ctx.req.headers);
}
