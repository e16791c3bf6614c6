/**
 * OTLP/HTTP (reference §6.11): `POST /v1/otlp/v1/{metrics,traces,logs}` in protobuf or OTLP JSON,
 * gzip undone by the HTTP layer; answered with `Export*ServiceResponse` in the request's encoding,
 * with `partial_success` when something was rejected.
 */
import type { Ctx } from "./context.ts";
import {
  decodeOtlpTraces,
  encodeExportResponse,
  encodeRpcStatus,
  type OtlpEncoding,
  otlpEncoding,
  type OtlpSignal,
} from "../src/protocols/otlp/mod.ts";
import {
  DEFAULT_LOG_TABLE,
  DEFAULT_TRACE_TABLE,
  ingestOtlpLogsBody,
  ingestOtlpMetricsBody,
  ingestOtlpTraces,
  logExtractKeys,
  otlpMetricOptions,
  type OtlpWriteResult,
  traceModel,
} from "../src/ingest/otlp/mod.ts";
import { logTable, pipelineFromHeaders } from "./log_headers.ts";

function respond(signal: OtlpSignal, encoding: OtlpEncoding, r: OtlpWriteResult): Response {
  const partial = r.rejected > 0 ? { rejected: r.rejected, errorMessage: r.rejectedMessage } : undefined;
  const { body, contentType } = encodeExportResponse(signal, encoding, partial);
  return new Response(body, { headers: { "content-type": contentType } });
}

/** `POST /v1/otlp/v1/metrics`: data points → metric-engine tables with GreptimeDB's naming (§7.3). */
export async function metrics(ctx: Ctx): Promise<Response> {
  const contentType = ctx.req.headers.get("content-type");
  const options = otlpMetricOptions((h) => ctx.req.headers.get(h));
  const body = await ctx.body({ snappy: true });
  let written = 0;
  try {
    const result = ingestOtlpMetricsBody(ctx.app.storage, body, contentType, {
      db: ctx.db,
      hints: ctx.hints,
      options,
      withMetricEngine: ctx.app.config.prom_store.with_metric_engine,
      physicalTable: ctx.hints.physical_table || undefined,
    }, (n) => written += n);
    return respond("metrics", otlpEncoding(contentType), result);
  } finally {
    ctx.app.metrics.addIngestedRows("otlp", ctx.db, written);
  }
}

/**
 * `POST /v1/otlp/v1/traces`: spans → the trace table of the model the pipeline header names
 * (§7.4); when every span is rejected, 400 with a `google.rpc.Status` body.
 */
export async function traces(ctx: Ctx): Promise<Response> {
  const contentType = ctx.req.headers.get("content-type");
  const model = traceModel((h) => ctx.req.headers.get(h));
  const req = decodeOtlpTraces(await ctx.body({ snappy: true }), contentType);
  const table = ctx.req.headers.get("x-greptime-trace-table-name")?.trim() || DEFAULT_TRACE_TABLE;
  const result = ingestOtlpTraces(ctx.app.storage, req, { db: ctx.db, table, model, hints: ctx.hints });
  const encoding = otlpEncoding(contentType);
  if (result.written === 0 && result.rejected > 0) {
    const { body, contentType: type } = encodeRpcStatus(encoding, 0, result.rejectedMessage);
    return new Response(body, { status: 400, headers: { "content-type": type } });
  }
  ctx.app.metrics.addIngestedRows("otlp", ctx.db, result.written);
  return respond("traces", encoding, result);
}

/** `POST /v1/otlp/v1/logs`: records → `opentelemetry_logs` (§7.5), or through the named pipeline. */
export async function logs(ctx: Ctx): Promise<Response> {
  const contentType = ctx.req.headers.get("content-type");
  const result = ingestOtlpLogsBody(
    ctx.app.storage,
    ctx.app.pipelines,
    await ctx.body({ snappy: true }),
    contentType,
    {
      db: ctx.db,
      table: logTable(ctx, DEFAULT_LOG_TABLE),
      extractKeys: logExtractKeys(ctx.req.headers.get("x-greptime-log-extract-keys")),
      hints: ctx.hints,
      pipeline: pipelineFromHeaders(ctx),
    },
  );
  ctx.app.metrics.addIngestedRows("otlp", ctx.db, result.written);
  return respond("logs", otlpEncoding(contentType), result);
}
