/**
 * Elasticsearch bulk ingestion and the start-up calls shippers make (reference §6.15): a fake
 * version and license, `200 {}` for templates, ILM policies, ingest and node queries, and `_bulk`
 * with one response item per document. Every answer carries `x-elastic-product`, which the
 * official clients check.
 */
import type { Ctx } from "./context.ts";
import { PetrelError, tooDeeplyNested, unsupportedMediaType } from "../src/common/errors.ts";
import { httpStatusOf } from "../src/http/render_error.ts";
import { IDENTITY_PIPELINE } from "../engine/store.ts";
import {
  bulkErrorResponse,
  type BulkItemOutcome,
  bulkItemsResponse,
  bulkSuccessJson,
  decodeBulk,
} from "../src/protocols/elasticsearch/mod.ts";
import { ingestBulk } from "../src/ingest/elasticsearch/mod.ts";

/** The Elasticsearch version Petrel answers as (GreptimeDB's). */
export const ES_VERSION = "8.16.0";

const HEADERS = { "x-elastic-product": "Elasticsearch" };

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: HEADERS });
}

/** A 200 whose body is already JSON text. */
function jsonText(text: string): Response {
  return new Response(text, { headers: { ...HEADERS, "content-type": "application/json" } });
}

/** `GET|HEAD /v1/elasticsearch/`: the cluster's name and version. */
export function version(ctx: Ctx): Response {
  return json({
    name: "petrel",
    cluster_name: "petrel",
    cluster_uuid: "petrel-0000000000000000000000",
    version: {
      number: ES_VERSION,
      build_flavor: "default",
      build_type: "docker",
      build_hash: ctx.app.build.commit,
      build_date: "2024-11-08T10:05:56.292914697Z",
      build_snapshot: false,
      lucene_version: "9.12.0",
      minimum_wire_compatibility_version: "7.17.0",
      minimum_index_compatibility_version: "7.0.0",
    },
    tagline: "You Know, for Search",
  });
}

/** `GET /v1/elasticsearch/_license`: an active basic license. */
export function license(): Response {
  return json({
    license: {
      status: "active",
      uid: "00000000-0000-0000-0000-000000000000",
      type: "basic",
      issue_date: "2024-01-01T00:00:00.000Z",
      issue_date_in_millis: 1704067200000,
      max_nodes: 1000,
      max_resource_units: null,
      issued_to: "petrel",
      issuer: "elasticsearch",
      start_date_in_millis: -1,
    },
  });
}

/**
 * `GET /v1/elasticsearch/_cluster/health`: a green one-node cluster. Vector's `elasticsearch` sink
 * probes it as its health check (GreptimeDB answers 404, so Vector reports the sink unhealthy).
 */
export function clusterHealth(): Response {
  return json({
    cluster_name: "petrel",
    status: "green",
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: 0,
    active_shards: 0,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 0,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: 100.0,
  });
}

/** Index templates, ILM policies, ingest pipelines, node info: accepted and ignored. */
export function accepted(): Response {
  return json({});
}

/** `POST /v1/elasticsearch/_bulk` and `/{index}/_bulk`: NDJSON action/document pairs into tables. */
export async function bulk(ctx: Ctx): Promise<Response> {
  try {
    // GreptimeDB decompresses /v1/elasticsearch/* without pass-through (reference §2.8): a codec
    // the HTTP layer does not undo (snappy, compress) is refused rather than read as NDJSON
    const { body, encoding } = await ctx.bodyWithEncoding([]);
    if (encoding !== null) throw unsupportedMediaType(`Unsupported Content-Encoding: ${encoding}`);
    const req = decodeBulk(body);
    const result = ingestBulk(ctx.app.storage, ctx.app.pipelines, req, {
      db: ctx.db,
      hints: ctx.hints,
      pipeline: ctx.query("pipeline_name") || IDENTITY_PIPELINE,
      version: ctx.query("version"),
      indexFromUrl: ctx.params.index ?? null,
      msgField: ctx.query("msg_field"),
    });
    ctx.app.metrics.addIngestedRows("elasticsearch", ctx.db, result.written);
    const failed = result.errors.filter((e) => e !== null).length;
    if (failed === 0) return jsonText(bulkSuccessJson(ctx.elapsedMs(), req.items.length));
    if (failed === req.items.length) {
      const first = result.errors[0]!;
      return json(
        bulkErrorResponse(ctx.elapsedMs(), httpStatusOf(first), first.message),
        httpStatusOf(first),
      );
    }
    const outcomes = result.errors.map((e, i): BulkItemOutcome =>
      e === null
        ? { status: 201, action: req.items[i].action, index: req.items[i].index ?? ctx.params.index }
        : {
          status: httpStatusOf(e),
          action: req.items[i].action,
          index: req.items[i].index ?? ctx.params.index,
          error: { type: "illegal_argument_exception", reason: e.message },
        }
    );
    return json(bulkItemsResponse(ctx.elapsedMs(), outcomes));
  } catch (e) {
    // a document nested past the stack is answered in the bulk shape too, not the HTTP layer's
    const err = e instanceof PetrelError ? e : tooDeeplyNested(e);
    if (!err) throw e;
    const status = httpStatusOf(err);
    return json(bulkErrorResponse(ctx.elapsedMs(), status, err.message), status);
  }
}
