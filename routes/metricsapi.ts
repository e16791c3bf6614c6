/** Metrics remote write and remote read (Prometheus protocol, reference §6.9, §7.2). */
import type { Ctx } from "./context.ts";
import { PetrelError } from "../src/common/errors.ts";
import { HttpError } from "../src/http/render_error.ts";
import { ingestSeries } from "../src/ingest/metrics.ts";
import { declaredMetricOptions } from "../src/ingest/remote_write_options.ts";
import { readRemoteQuery } from "../src/query/remote_read.ts";
import { decodeRemoteWrite, remoteWriteVersion } from "../src/protocols/remote_write/parser.ts";
import { decodeReadRequest, pickReadResponseType } from "../src/protocols/remote_read/request.ts";
import { encodeReadResponse, READ_RESPONSE_CONTENT_TYPE } from "../src/protocols/remote_read/response.ts";
import {
  CHUNKED_READ_RESPONSE_CONTENT_TYPE,
  encodeChunkedReadResponse,
} from "../src/protocols/remote_read/chunked.ts";

/** The 2.0 response headers: samples written so far, no histograms or exemplars stored. */
function writtenHeaders(samples: number): Record<string, string> {
  return {
    "X-Prometheus-Remote-Write-Samples-Written": String(samples),
    "X-Prometheus-Remote-Write-Histograms-Written": "0",
    "X-Prometheus-Remote-Write-Exemplars-Written": "0",
  };
}

/**
 * `POST /v1/metricsapi/write`: a remote-write 1.0 or 2.0 request → 204. The VictoriaMetrics
 * handshake is answered to any authenticated user: GreptimeDB's handler answers it before its
 * write-permission check, so a read-only vmagent learns the protocol and is refused only on writes.
 */
export async function write(ctx: Ctx): Promise<Response> {
  if (ctx.url.searchParams.has("get_vm_proto_version")) {
    // VictoriaMetrics' handshake: "1" means "speak Prometheus remote write 1.0 to me".
    return new Response("1", { headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  ctx.authorize("write");
  const contentType = ctx.req.headers.get("content-type");
  let version: 1 | 2 = 1;
  try {
    version = remoteWriteVersion(contentType);
  } catch { /* decodeRemoteWrite answers the 415 */ }
  let written = 0;
  try {
    const { body, encoding } = await ctx.bodyWithEncoding(["snappy", "zstd"]);
    const http = ctx.app.config.http;
    const decoded = decodeRemoteWrite(
      body,
      { contentType, contentEncoding: encoding },
      { limit: http.body_limit, strict: http.is_strict_mode },
    );
    ingestSeries(ctx.app.storage, decoded.series, {
      db: ctx.db,
      source: "prometheus",
      sourceVersion: decoded.version === 2 ? "2.0" : "1.0",
      metadataQuality: "inferred",
      tableOptions: declaredMetricOptions(decoded.version, decoded.metadata),
      withMetricEngine: ctx.app.config.prom_store.with_metric_engine,
      hints: ctx.hints,
      physicalTable: ctx.query("physical_table") || undefined,
    }, (n) => written += n);
  } catch (e) {
    // 2.0 senders read the counts on errors too (partial writes across databases).
    if (version === 2 && e instanceof PetrelError) throw new HttpError(e, undefined, writtenHeaders(written));
    throw e;
  } finally {
    ctx.app.metrics.addIngestedRows("prometheus", ctx.db, written);
  }
  return new Response(null, { status: 204, headers: version === 2 ? writtenHeaders(written) : {} });
}

/** `POST /v1/metricsapi/read`: a snappy `ReadRequest` → SAMPLES or STREAMED_XOR_CHUNKS response. */
export async function read(ctx: Ctx): Promise<Response> {
  const { body } = await ctx.bodyWithEncoding(["snappy"]);
  const req = decodeReadRequest(body, ctx.app.config.http.body_limit);
  const type = pickReadResponseType(req);
  const results = req.queries.map((q) => ({ series: readRemoteQuery(ctx.app.storage, ctx.db, q) }));
  if (type === "STREAMED_XOR_CHUNKS") {
    return new Response(encodeChunkedReadResponse(results), {
      headers: { "content-type": CHUNKED_READ_RESPONSE_CONTENT_TYPE },
    });
  }
  return new Response(encodeReadResponse(results), {
    headers: { "content-type": READ_RESPONSE_CONTENT_TYPE, "content-encoding": "snappy" },
  });
}
