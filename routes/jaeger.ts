/**
 * The Jaeger query API (reference §6.16) under `/v1/jaeger/api/`: answers in Jaeger's envelope
 * `{data,total,limit,offset,errors}`, errors inside it with their HTTP status.
 */
import type { Ctx } from "./context.ts";
import { invalidArguments, PetrelError } from "../src/common/errors.ts";
import { httpStatusOf } from "../src/http/render_error.ts";
import { DEFAULT_TRACE_TABLE } from "../src/ingest/otlp/mod.ts";
import {
  microsRange,
  searchTraces,
  traceById,
  traceOperations,
  traceServices,
  type TraceSource,
} from "../src/query/traces/mod.ts";

function envelope(data: unknown, total: number, status = 200, errors: unknown[] = []): Response {
  return Response.json({ data, total, limit: 0, offset: 0, errors }, { status });
}

function failure(status: number, msg: string): Response {
  return envelope(null, 0, status, [{ code: status, msg }]);
}

/** Runs a Jaeger handler, answering its 4xx errors inside the envelope. */
function jaeger(fn: (ctx: Ctx, src: TraceSource) => Response): (ctx: Ctx) => Response {
  return (ctx) => {
    const table = ctx.req.headers.get("x-greptime-trace-table-name")?.trim() || DEFAULT_TRACE_TABLE;
    try {
      return fn(ctx, { db: ctx.db, table });
    } catch (e) {
      if (!(e instanceof PetrelError) || httpStatusOf(e) >= 500) throw e;
      return failure(httpStatusOf(e), e.message);
    }
  };
}

/** `GET /api/services`. */
export const services = jaeger((ctx, src) => {
  const list = traceServices(ctx.app.storage, src);
  return envelope(list, list?.length ?? 0);
});

/** `GET /api/operations?service=&spanKind=`. */
export const operations = jaeger((ctx, src) => {
  const service = ctx.query("service");
  if (!service) return failure(400, "parameter 'service' is required");
  const ops = traceOperations(ctx.app.storage, src, service, ctx.query("spanKind"));
  return envelope(ops, ops.length);
});

/** `GET /api/services/{service}/operations`: operation names. */
export const serviceOperations = jaeger((ctx, src) => {
  const names = [...new Set(traceOperations(ctx.app.storage, src, ctx.params.service).map((o) => o.name))];
  return envelope(names, names.length);
});

/** `GET /api/traces/{id}[?start=&end=]` (µs). */
export const trace = jaeger((ctx, src) => {
  const range = microsRange(ctx.query("start"), ctx.query("end"));
  const t = traceById(ctx.app.storage, src, ctx.params.id, range);
  return t === null ? failure(404, "trace not found") : envelope([t], 0);
});

function tagsParam(text: string | null): Record<string, string> {
  if (text === null || text.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = null;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw invalidArguments(`Invalid parameter 'tags': expected a JSON object, got ${text}`);
  }
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, typeof x === "string" ? x : JSON.stringify(x)]),
  );
}

/** `GET /api/traces?service=&operation=&tags=&minDuration=&maxDuration=&start=&end=&limit=`. */
export const traces = jaeger((ctx, src) => {
  const service = ctx.query("service");
  if (!service) return failure(400, "parameter 'service' is required");
  const limit = ctx.query("limit");
  if (limit !== null && limit !== "" && !/^\d+$/.test(limit)) {
    return failure(400, `Invalid parameter 'limit': ${limit}`);
  }
  const grafana = (ctx.req.headers.get("user-agent") ?? "").toLowerCase().includes("grafana");
  const found = searchTraces(ctx.app.storage, src, {
    service,
    operation: ctx.query("operation"),
    tags: tagsParam(ctx.query("tags")),
    minDuration: ctx.query("minDuration"),
    maxDuration: ctx.query("maxDuration"),
    range: microsRange(ctx.query("start"), ctx.query("end")),
    limit: limit ? Number(limit) : null,
    spansPerTrace: grafana ? 3 : undefined,
  });
  return envelope(found, 0);
});
