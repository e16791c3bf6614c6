/**
 * Pipeline management (`/v1/pipelines/…` and the deprecated `/v1/events/pipelines/…`): upload,
 * read, delete, DDL preview and dry run (pipelines.md §12).
 */
import { compilePipeline, dryRun, dryRunJson, type Pipeline, pipelineDdl } from "../engine/mod.ts";
import type { Ctx } from "./context.ts";
import { invalidArguments, PetrelError, StatusCode, unsupportedMediaType } from "../src/common/errors.ts";
import { parsePayload } from "../engine/payload.ts";
import { formatVersion } from "../engine/store.ts";
import { manageResponse } from "./manage_response.ts";
import { parseJsonBody } from "../src/common/json_text.ts";

/** `POST /v1/pipelines/{name}`: compiles and stores a new version of the YAML body. */
export async function upload(ctx: Ctx): Promise<Response> {
  const name = ctx.params.name;
  if (name.startsWith("greptime_")) {
    throw invalidArguments("Invalid request parameter: pipeline_name cannot start with greptime_");
  }
  const type = (ctx.req.headers.get("content-type") ?? "").toLowerCase();
  let yaml: string;
  if (type.startsWith("multipart/form-data")) {
    const bytes = (await ctx.body()) as Uint8Array<ArrayBuffer>;
    const form = await new Response(bytes, { headers: { "content-type": type } }).formData().catch((e) => {
      throw invalidArguments(`Invalid multipart/form-data body: ${(e as Error).message}`);
    });
    const first = [...form.values()][0];
    yaml = first === undefined ? "" : typeof first === "string" ? first : await first.text();
  } else if (type.trim().endsWith("yaml")) {
    yaml = await ctx.text();
  } else {
    throw unsupportedMediaType(
      `Unsupported Content-Type '${type}': upload a pipeline as application/x-yaml (or multipart/form-data)`,
      StatusCode.Unsupported,
    );
  }
  if (yaml.trim() === "") throw invalidArguments("Invalid request parameter: pipeline is required in body");
  const stored = ctx.app.pipelines.add(name, yaml);
  return manageResponse(ctx, { pipelines: [{ name, version: formatVersion(stored.version) }] });
}

/** `GET /v1/pipelines/{name}[?version=]`: the YAML of one version (latest by default). */
export function get(ctx: Ctx): Response {
  const name = ctx.params.name;
  const version = ctx.query("version");
  const found = ctx.app.pipelines.get(name, version);
  if (!found) throw invalidArguments(`Pipeline not found, name: ${name}, version: ${version ?? "latest"}`);
  return manageResponse(ctx, {
    pipelines: [{ name, version: version ?? formatVersion(found.version), pipeline: found.yaml }],
  });
}

/** `DELETE /v1/pipelines/{name}?version=`: deletes one version. */
export function remove(ctx: Ctx): Response {
  const name = ctx.params.name;
  const version = ctx.query("version");
  if (version === null || version === "") {
    throw invalidArguments("Invalid request parameter: version is required");
  }
  const deleted = ctx.app.pipelines.delete(name, version);
  return manageResponse(ctx, { pipelines: deleted ? [{ name, version }] : [] });
}

/** `GET /v1/pipelines/{name}/ddl?table=`: the CREATE TABLE a transform-defined pipeline implies. */
export function ddl(ctx: Ctx): Response {
  const table = ctx.query("table") ?? "";
  const pipeline = ctx.app.pipelines.compiled(ctx.params.name, ctx.query("version"));
  const tableExists = table !== "" && ctx.app.storage.getTable(ctx.db, table) !== undefined;
  const result = pipelineDdl(pipeline, table, { tableExists });
  return manageResponse(ctx, { sql: result });
}

const MAX_DRY_RUN_ENTRIES = 10;

/** `POST /v1/pipelines/_dryrun`: runs a stored or inline pipeline over sample data, writing nothing. */
export async function dryrun(ctx: Ctx): Promise<Response> {
  const contentType = ctx.req.headers.get("content-type");
  if (!contentType) throw invalidArguments("Header of type `content-type` was missing");
  const text = await ctx.text();
  let pipeline: Pipeline;
  let entries: unknown[];
  const request = contentType.toLowerCase().startsWith("application/json") ? tryJson(text) : undefined;
  if (isDryRunRequest(request)) {
    if (typeof request.pipeline === "string") {
      try {
        pipeline = compilePipeline(request.pipeline);
      } catch (e) {
        throw rewrap(e, "Failed to build pipeline: ");
      }
    } else {
      pipeline = ctx.app.pipelines.compiled(String(request.pipeline_name), request.pipeline_version ?? null);
    }
    entries = parsePayload(request.data, request.data_type ?? "application/json");
  } else {
    const name = ctx.query("pipeline_name");
    if (!name) throw invalidArguments("Invalid request parameter: pipeline_name is required");
    pipeline = ctx.app.pipelines.compiled(name, ctx.query("version"));
    entries = parsePayload(text, contentType, ctx.query("ignore_errors") === "true");
  }
  if (entries.length > MAX_DRY_RUN_ENTRIES) {
    throw invalidArguments("Invalid request parameter: data is required");
  }
  let tables;
  try {
    tables = dryRun(pipeline, entries, {
      resolve: (name, version) => ctx.app.pipelines.compiled(name, version),
      existingColumns: (t) => ctx.app.storage.getTable(ctx.db, t)?.columns,
    });
  } catch (e) {
    throw isDryRunRequest(request) && typeof request.pipeline === "string"
      ? rewrap(e, "Failed to exec pipeline: ")
      : e;
  }
  return new Response(dryRunJson(tables), { headers: { "content-type": "application/json" } });
}

interface DryRunRequest {
  pipeline?: string | null;
  pipeline_name?: string | null;
  pipeline_version?: string | null;
  data: string;
  data_type?: string | null;
}

const OPTIONAL_STRINGS = ["pipeline", "pipeline_name", "pipeline_version", "data_type"] as const;

function tryJson(text: string): unknown {
  try {
    return parseJsonBody(text);
  } catch {
    return undefined;
  }
}

/**
 * The new request form, as GreptimeDB reads it into typed fields: `data` a string, the optional
 * fields strings or null, and a pipeline named or inlined. Anything else is the legacy form's payload.
 */
function isDryRunRequest(v: unknown): v is DryRunRequest {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (typeof o.data !== "string") return false;
  if (!OPTIONAL_STRINGS.every((k) => o[k] === undefined || o[k] === null || typeof o[k] === "string")) {
    return false;
  }
  return typeof o.pipeline === "string" || typeof o.pipeline_name === "string";
}

function rewrap(e: unknown, prefix: string): unknown {
  if (e instanceof PetrelError) {
    return new PetrelError(e.code, prefix + e.message, e.reason === undefined ? {} : { reason: e.reason });
  }
  return e;
}
