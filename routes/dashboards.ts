/** Saved dashboard definitions: `GET /v1/dashboards/`, `POST|DELETE /v1/dashboards/{name}` (reference §6.7). */
import type { Ctx } from "./context.ts";
import { deleteDashboard, listDashboards, saveDashboard } from "../src/dashboard/definitions.ts";
import { manageResponse } from "./manage_response.ts";

/** `GET /v1/dashboards/` → every saved dashboard with its definition (omitted when empty). */
export function list(ctx: Ctx): Response {
  const dashboards = listDashboards(ctx.app.storage).map((d) =>
    d.definition === "" ? { name: d.name } : { name: d.name, definition: d.definition }
  );
  return manageResponse(ctx, { dashboards });
}

/** `POST /v1/dashboards/{name}`: the raw body is the definition (read as UTF-8, lossy); posting again replaces it. */
export async function save(ctx: Ctx): Promise<Response> {
  const definition = await ctx.text();
  saveDashboard(ctx.app.storage, ctx.params.name, definition);
  return manageResponse(ctx, { dashboards: [{ name: ctx.params.name }] });
}

/** `DELETE /v1/dashboards/{name}`. */
export function remove(ctx: Ctx): Response {
  deleteDashboard(ctx.app.storage, ctx.params.name);
  return manageResponse(ctx, { dashboards: [{ name: ctx.params.name }] });
}
