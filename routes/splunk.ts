/**
 * Splunk HTTP Event Collector (reference §6.15): `GET …/collector/health[/1.0]`, and events
 * (`POST …/collector`, `…/collector/event[/1.0]`) or raw lines (`POST …/collector/raw[/1.0]`)
 * into `splunk_logs` (or the event's index, `?table=`, `x-greptime-log-table-name`), through the
 * identity pipeline or the one `x-greptime-pipeline-name`/`?pipeline_name=` names. Every answer is
 * HEC's `{"text":…,"code":N}`; a request is stored whole or not at all.
 */
import type { Ctx } from "./context.ts";
import { PetrelError, StatusCode } from "../src/common/errors.ts";
import { httpStatusOf } from "../src/http/render_error.ts";
import { IDENTITY_PIPELINE } from "../engine/store.ts";
import {
  decodeHecEvents,
  decodeHecRaw,
  HecCode,
  type HecDefaults,
  HecError,
  hecError,
  type HecEvent,
  hecHealthy,
  hecSuccess,
} from "../src/protocols/splunk/mod.ts";
import { DEFAULT_SPLUNK_TABLE, splunkBatches, writeSplunkBatches } from "../src/ingest/splunk/mod.ts";
import { logTable, pipelineFromHeaders } from "./log_headers.ts";

/** `GET /v1/splunk/services/collector/health[/1.0]` (no authentication). */
export function health(): Response {
  return Response.json(hecHealthy());
}

/** `POST …/collector`, `…/collector/event[/1.0]`: concatenated JSON event objects. */
export function event(ctx: Ctx): Promise<Response> {
  return collect(ctx, decodeHecEvents);
}

/** `POST …/collector/raw[/1.0]`: one event per line. */
export function raw(ctx: Ctx): Promise<Response> {
  return collect(ctx, decodeHecRaw);
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function defaults(ctx: Ctx): HecDefaults {
  const channel = ctx.query("channel") ?? ctx.req.headers.get("x-splunk-request-channel");
  // Acknowledgements are off, so the channel only has to look like one (Splunk's rule).
  if (channel !== null && !GUID.test(channel.trim())) {
    throw new HecError(HecCode.InvalidChannel, "Invalid data channel: the channel must be a GUID");
  }
  const q = (name: string) => ctx.query(name) || null;
  return {
    host: q("host"),
    source: q("source"),
    sourcetype: q("sourcetype"),
    index: q("index"),
    time: q("time"),
  };
}

function pipeline(ctx: Ctx) {
  const named = pipelineFromHeaders(ctx);
  if (named) return named;
  return { name: ctx.query("pipeline_name")?.trim() || IDENTITY_PIPELINE, version: null, skipError: false };
}

async function collect(
  ctx: Ctx,
  decode: (body: Uint8Array, d: HecDefaults) => HecEvent[],
): Promise<Response> {
  let stage: "decode" | "pipeline" | "write" = "decode";
  try {
    const d = defaults(ctx);
    const events = decode(await ctx.body(), d);
    stage = "pipeline";
    const w = {
      db: ctx.db,
      table: ctx.query("table")?.trim() || logTable(ctx, DEFAULT_SPLUNK_TABLE),
      hints: ctx.hints,
      pipeline: pipeline(ctx),
    };
    const batches = splunkBatches(ctx.app.storage, ctx.app.pipelines, events, w, arrivalNs());
    stage = "write";
    const rows = writeSplunkBatches(ctx.app.storage, ctx.db, batches, ctx.hints);
    ctx.app.metrics.addIngestedRows("splunk", ctx.db, rows);
    return Response.json(hecSuccess());
  } catch (e) {
    if (!(e instanceof PetrelError)) throw e;
    return failure(e, stage);
  }
}

function arrivalNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/**
 * A failed request in HEC's shape: the decoder's own code; a pipeline failure is code 8 (with the
 * 400 of input the pipeline could not process, where Splunk would say 500); a rejected write is
 * invalid data (6) unless storage itself failed (8, or 9 when busy).
 */
function failure(e: PetrelError, stage: "decode" | "pipeline" | "write"): Response {
  if (e instanceof HecError) {
    return Response.json(hecError(e.hecCode, e.message, e.eventNumber), { status: 400 });
  }
  const internal = e.code === StatusCode.Internal || e.code === StatusCode.Unknown;
  let status = httpStatusOf(e);
  if (stage === "pipeline" && status >= 500 && !internal) status = 400;
  const code = status === 503 || status === 429
    ? HecCode.ServerBusy
    : status >= 500 || stage === "pipeline"
    ? HecCode.InternalError
    : HecCode.InvalidDataFormat;
  const headers: HeadersInit = status === 503 || status === 429 ? { "retry-after": "1" } : {};
  const text = internal ? `Internal error: ${e.code}` : e.message; // masked, as GreptimeDB does (§4.2)
  return Response.json(hecError(code, text), { status, headers });
}
