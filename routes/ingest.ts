/**
 * `POST /v1/ingest` (and the deprecated `/v1/events/logs`): log lines run through a named pipeline
 * and written to the request's table, or to suffixed tables with options from the data.
 */
import type { Ctx } from "./context.ts";
import { invalidArguments, PetrelError } from "../src/common/errors.ts";
import { HttpError } from "../src/http/render_error.ts";
import type { WriteBatch } from "../src/common/rows.ts";
import { parsePayload } from "../engine/payload.ts";
import { IDENTITY_PIPELINE } from "../engine/store.ts";

const TRUTHY = new Set(["true", "1", "yes", "on", "t"]);

/** `x-greptime-pipeline-params: k=v&k2=v2` (pipelines.md §12.7). */
function pipelineParams(ctx: Ctx): URLSearchParams {
  return new URLSearchParams(ctx.req.headers.get("x-greptime-pipeline-params") ?? "");
}

function pipelineName(ctx: Ctx): string | null {
  for (const header of ["x-greptime-pipeline-name", "x-greptime-log-pipeline-name"]) {
    const v = ctx.req.headers.get(header);
    if (v !== null && v.trim() !== "") return v.trim();
  }
  return ctx.query("pipeline_name");
}

/** Runs the body's entries through the pipeline and writes the rows in one transaction. */
export async function ingest(ctx: Ctx): Promise<Response> {
  const table = ctx.query("table");
  if (!table) throw invalidArguments("Invalid request parameter: table is required");
  const name = pipelineName(ctx);
  if (!name) throw invalidArguments("Invalid request parameter: pipeline_name is required");
  const contentType = ctx.req.headers.get("content-type");
  if (!contentType) throw invalidArguments("Header of type `content-type` was missing");
  const params = pipelineParams(ctx);
  const skipParam = params.get("skip_error") ?? ctx.query("skip_error") ?? "false";
  const skipError = TRUTHY.has(skipParam.toLowerCase());
  const maxNested = params.get("max_nested_levels");
  const ignoreErrors = TRUTHY.has((ctx.query("ignore_errors") ?? "").toLowerCase());
  const pipeline = ctx.app.pipelines.compiled(name, ctx.query("version"), {
    maxNestedLevels: maxNested && /^\d+$/.test(maxNested) ? Number(maxNested) : undefined,
    customTimeIndex: name === IDENTITY_PIPELINE ? ctx.query("custom_time_index") ?? undefined : undefined,
    ignoreErrors,
  });
  const entries = parsePayload(await ctx.text(), contentType, ignoreErrors);
  const storage = ctx.app.storage;
  const result = pipeline.run(entries, {
    table,
    skipError,
    resolve: (n, v) => ctx.app.pipelines.compiled(n, v),
    existingColumns: (t) => storage.getTable(ctx.db, t)?.columns,
  });
  const batches = result.batches.filter((b) => b.rows.length > 0);
  try {
    for (const b of batches) applyRowOptions(b, (t) => storage.getTable(ctx.db, t) !== undefined);
    storage.write(ctx.db, batches, { hints: ctx.hints });
  } catch (e) {
    // Insert-stage failures take the ErrorResponse shape, pipeline failures the plain one (§12.7).
    throw e instanceof PetrelError ? new HttpError(e, "greptime") : e;
  }
  const rows = batches.reduce((n, b) => n + b.rows.length, 0);
  ctx.app.metrics.addIngestedRows("pipeline", rows);
  const body: Record<string, unknown> = {};
  if (batches.length > 0) body.output = batches.map((b) => ({ affectedrows: b.rows.length }));
  if (result.skipped > 0) body.skipped = result.skipped;
  body.execution_time_ms = ctx.elapsedMs();
  return new Response(JSON.stringify(body), {
    headers: {
      "content-type": "application/json",
      "x-greptime-execution-time": String(body.execution_time_ms),
    },
  });
}

/**
 * Makes the per-row special variables take effect when they create a table (GreptimeDB ignores
 * append/merge mode for log tables — quirk 14 — but the service spec makes them table options):
 * `append_mode=false` or a `merge_mode` creates a keyed (deduplicating) table instead of a log
 * table, and `auto_create_table=false` refuses to create a missing one.
 */
function applyRowOptions(batch: WriteBatch, exists: (table: string) => boolean): void {
  const options = batch.options;
  if (!options) return;
  if (options.auto_create_table === "false" && !exists(batch.table)) {
    throw invalidArguments(
      `Table \`${batch.table}\` does not exist, and \`auto_create_table\` hint is disabled`,
    );
  }
  const append = options.append_mode?.trim().toLowerCase();
  if (append === "false" || (append === undefined && options.merge_mode !== undefined)) {
    batch.createType = options.merge_mode?.trim().toLowerCase() === "last_non_null"
      ? "last_non_null"
      : "physical";
  }
}
