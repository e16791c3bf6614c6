/**
 * `GET|POST /v1/promql?query=&start=&end=&step=` (reference §6.3): a PromQL range query answered
 * as a result set in any of `/v1/sql`'s formats (`format=csv`, `json`, …). GreptimeDB plans it as
 * it plans `TQL EVAL`, so it is evaluated by TQL's code: each point is a row of the table's time
 * index, its field, then one column per label, and a metric that is no table is 4001.
 */
import type { Ctx } from "./context.ts";
import { databaseNotFound, invalidArguments } from "../src/common/errors.ts";
import { renderSqlOutputs } from "../src/http/formats/mod.ts";
import { ParseError, parseExpr } from "../src/promql/mod.ts";
import { lookbackParam, requireTime, stepParam } from "../src/protocols/prometheus_api/params.ts";
import { promqlBackend } from "../src/query/tql_backend.ts";
import { evalPromQL } from "../src/sql/tql/mod.ts";
import { apiParams, requestBudget } from "./prometheus_api.ts";

function required(params: URLSearchParams, name: string): void {
  if ((params.get(name) ?? "") === "") {
    throw invalidArguments(`Failed to deserialize query string: missing field \`${name}\``);
  }
}

/**
 * The parameters of a `/v1/promql` request: the query string, a form body, or the query itself as a
 * `text/plain` body. The spec sends the query "in the request body"; GreptimeDB only reads the query
 * string. Both work here, as for `/v1/sql`.
 */
async function promqlParams(ctx: Ctx): Promise<URLSearchParams> {
  const params = await apiParams(ctx);
  if (ctx.req.method !== "POST" || params.has("query")) return params;
  const type = (ctx.req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "" || type === "text/plain") {
    const body = await ctx.text();
    if (body.trim() !== "") params.set("query", body);
  }
  return params;
}

/** `/v1/promql`: `query`, `start`, `end`, `step` (required), `lookback`, `db`, `format`, `epoch`, `compression`. */
export async function promql(ctx: Ctx): Promise<Response> {
  const params = await promqlParams(ctx);
  for (const name of ["query", "start", "end", "step"]) required(params, name);
  const startMs = requireTime(params, "start"), endMs = requireTime(params, "end");
  const stepMs = stepParam(params);
  const lookbackMs = lookbackParam(params);
  const query = params.get("query")!;
  try {
    // a syntax error is GreptimeDB's InvalidArguments here (TQL's would be InvalidSyntax)
    parseExpr(query);
  } catch (e) {
    throw e instanceof ParseError ? invalidArguments(e.message) : e;
  }
  const db = ctx.db;
  if (!ctx.app.storage.hasDatabase(db)) throw databaseNotFound(db);
  const budget = requestBudget(ctx);
  const frame = { startMs, endMs, stepMs: Math.max(1, Math.floor(stepMs)), lookbackMs };
  const output = await evalPromQL(
    promqlBackend(ctx.app.storage, ctx.app.config.query.max_samples, true),
    db,
    query,
    frame,
    {
      signal: ctx.signal,
      ...(budget !== null ? { timeoutMs: Math.max(0, budget.leftMs) } : {}),
    },
  );
  const limit = params.get("limit");
  return renderSqlOutputs([output], {
    format: params.get("format") ?? "greptimedb_v1",
    epoch: params.get("epoch") ?? undefined,
    limit: limit !== null && /^\d+$/.test(limit) ? Number(limit) : undefined,
    compression: params.get("compression") ?? undefined,
    executionTimeMs: ctx.elapsedMs(),
  });
}
