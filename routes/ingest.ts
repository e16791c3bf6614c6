/**
 * `POST /v1/ingest` (and the deprecated `/v1/events/logs`): log lines run through a named pipeline
 * and written to the request's table, or to suffixed tables with options from the data.
 */
import type { Ctx } from "./context.ts";
import { invalidArguments, PetrelError } from "../src/common/errors.ts";
import { isTruthyWord } from "../src/common/hints.ts";
import { maxNestedLevelsParam } from "./log_headers.ts";
import { HttpError } from "../src/http/render_error.ts";
import { CONTENT_TYPE, formatResponse } from "../src/http/formats/response.ts";
import { type LogIngest, runLogPipeline, writeLogBatches } from "../src/ingest/logs.ts";

const FALSY = new Set(["false", "0", "no", "off", "f", ""]);

/**
 * A boolean query parameter: GreptimeDB's serde takes only `true`/`false` and answers anything else
 * with 400; the truthy words its header parameters take are accepted too, but a value that is
 * neither (`skip_error=banana`) is the client's error, not a silent `false`.
 */
function boolParam(name: string, value: string | null | undefined): boolean {
  const v = (value ?? "").toLowerCase();
  if (isTruthyWord(v)) return true;
  if (FALSY.has(v)) return false;
  throw invalidArguments(
    `Failed to deserialize query string: ${name}: provided string was not \`true\` or \`false\``,
  );
}

function pipelineName(ctx: Ctx): string | null {
  for (const header of ["x-greptime-pipeline-name", "x-greptime-log-pipeline-name"]) {
    const v = ctx.req.headers.get(header);
    if (v !== null && v.trim() !== "") return v.trim();
  }
  return ctx.query("pipeline_name");
}

/** The request's parameters, from the query string and `x-greptime-pipeline-params: k=v&k2=v2` (§12.7). */
async function decode(ctx: Ctx): Promise<LogIngest> {
  const table = ctx.query("table");
  if (!table) throw invalidArguments("Invalid request parameter: table is required");
  const pipeline = pipelineName(ctx);
  if (!pipeline) throw invalidArguments("Invalid request parameter: pipeline_name is required");
  const contentType = ctx.req.headers.get("content-type");
  if (!contentType) throw invalidArguments("Header of type `content-type` was missing");
  const params = new URLSearchParams(ctx.req.headers.get("x-greptime-pipeline-params") ?? "");
  const queryParamSkip = boolParam("skip_error", ctx.query("skip_error"));
  const headerSkip = params.get("skip_error");
  return {
    db: ctx.db,
    table,
    pipeline,
    version: ctx.query("version"),
    body: new TextDecoder().decode(await ctx.body({ snappy: true })), // Vector's `compression = "snappy"`
    contentType,
    skipError: headerSkip === null ? queryParamSkip : isTruthyWord(headerSkip),
    maxNestedLevels: maxNestedLevelsParam(params),
    customTimeIndex: ctx.query("custom_time_index") ?? undefined,
    ignoreErrors: boolParam("ignore_errors", ctx.query("ignore_errors")),
  };
}

/** Runs the body's entries through the pipeline and writes the rows in one transaction. */
export async function ingest(ctx: Ctx): Promise<Response> {
  const req = await decode(ctx);
  const storage = ctx.app.storage;
  const { batches, skipped } = runLogPipeline(storage, ctx.app.pipelines, req);
  try {
    writeLogBatches(storage, ctx.db, batches, ctx.hints);
  } catch (e) {
    // Insert-stage failures take the ErrorResponse shape, pipeline failures the plain one (§12.7).
    throw e instanceof PetrelError ? new HttpError(e, "greptime") : e;
  }
  const rows = batches.reduce((n, b) => n + b.rows.length, 0);
  ctx.app.metrics.addIngestedRows("pipeline", ctx.db, rows);
  const body: Record<string, unknown> = {};
  if (batches.length > 0) body.output = batches.map((b) => ({ affectedrows: b.rows.length }));
  if (skipped > 0) body.skipped = skipped;
  const ms = ctx.elapsedMs();
  body.execution_time_ms = ms;
  return formatResponse(JSON.stringify(body), CONTENT_TYPE.json, "greptimedb_v1", ms);
}
