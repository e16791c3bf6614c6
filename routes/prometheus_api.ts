/**
 * Prometheus' HTTP query API (reference §6.10) under `/v1/metricsapi/api/v1/` and
 * `/v1/prometheus/api/v1/`: parameters from the query string and a form body as Prometheus reads
 * them, answers and errors in Prometheus' exact JSON (`errorType` `bad_data`, `execution`, …).
 */
import type { Ctx } from "./context.ts";
import {
  databaseNotFound,
  invalidArguments,
  PetrelError,
  StatusCode,
  timedOut,
} from "../src/common/errors.ts";
import { parseDuration } from "../src/common/humantime.ts";
import { type LabelMatcher, matchLabel } from "../src/common/label_matcher.ts";
import {
  type PromAnnotations,
  promApiErrorTypeOfStatus,
  prometheusApiError,
  prometheusDataResponse,
  prometheusSuccess,
  type PromJson,
} from "../src/http/formats/mod.ts";
import { httpStatusOf } from "../src/http/render_error.ts";
import {
  astJson,
  type Expr,
  ParseError,
  parseExpr,
  prettify,
  promErrorType,
  PromQLEngine,
  PromQLError,
  promQLResultJson,
  rangeQueryTypeError,
} from "../src/promql/mod.ts";
import {
  durationParam,
  invalidParam,
  limitParam,
  lookbackParam,
  MAX_TIME_MS,
  MIN_TIME_MS,
  requireTime,
  stepParam,
  timeParam,
} from "../src/protocols/prometheus_api/params.ts";
import { findSeries, labelNames, type LabelsQuery, labelValues } from "../src/query/labels.ts";
import { StorageQueryable } from "../src/query/promql_queryable.ts";
import { evaluateInWorker } from "../src/query/promql_pool.ts";

/**
 * The request's parameters as Go's `r.Form`: a form body's values before the query string's, so
 * `get` returns the body's value first and `getAll("match[]")` has both.
 */
export async function apiParams(ctx: Ctx): Promise<URLSearchParams> {
  const params = new URLSearchParams();
  const type = (ctx.req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (ctx.req.method === "POST" && type === "application/x-www-form-urlencoded") {
    for (const [k, v] of new URLSearchParams(await ctx.text())) params.append(k, v);
  }
  for (const [k, v] of ctx.url.searchParams) params.append(k, v);
  return params;
}

/** The database: the `db` parameter, else the `x-greptime-db-name` header, else `public`. */
export function apiDatabase(ctx: Ctx, params: URLSearchParams): string {
  const raw = params.get("db");
  const db = raw ? (raw.startsWith("greptime-") ? raw.slice("greptime-".length) : raw) : ctx.db;
  if (!ctx.app.storage.hasDatabase(db)) throw databaseNotFound(db);
  return db;
}

/** A handler whose every failure is answered in Prometheus' error envelope. */
function api(handler: (ctx: Ctx, params: URLSearchParams) => Response | Promise<Response>) {
  return async (ctx: Ctx): Promise<Response> => {
    try {
      return await handler(ctx, await apiParams(ctx));
    } catch (e) {
      return apiError(e);
    }
  };
}

/** Prometheus' envelope for an error: the engine's own type, else one from the HTTP status. */
export function apiError(e: unknown): Response {
  if (e instanceof PromQLError || e instanceof ParseError) {
    return prometheusApiError(promErrorType(e), e.message);
  }
  if (e instanceof PetrelError) {
    const masked = e.code === StatusCode.Internal || e.code === StatusCode.Unknown;
    const status = httpStatusOf(e);
    return prometheusApiError(
      promApiErrorTypeOfStatus(status),
      masked ? `Internal error: ${e.code}` : e.message,
      status,
    );
  }
  throw e;
}

/** Parses the `query` parameter; a syntax error is `invalid parameter "query": …`. */
function queryParam(params: URLSearchParams): Expr {
  try {
    return parseExpr(params.get("query") ?? "");
  } catch (e) {
    if (e instanceof ParseError) throw invalidParam("query", e.message);
    throw e;
  }
}

/** The request timeout (`[http] timeout` or `x-greptime-timeout`) and what is left of it, in ms; null when none. */
export function requestBudget(ctx: Ctx): { totalMs: number; leftMs: number } | null {
  const header = ctx.req.headers.get("x-greptime-timeout");
  const totalMs = (header !== null ? parseDuration(header) : null) ?? ctx.app.config.http.timeout;
  return totalMs > 0 ? { totalMs, leftMs: totalMs - ctx.elapsedMs() } : null;
}

/** What a query evaluates: its text and parsed form, and its time frame (`stepMs` 0: an instant query). */
interface QueryFrame {
  text: string;
  expr: Expr;
  startMs: number;
  endMs: number;
  stepMs: number;
}

/**
 * Evaluates a query (in a PromQL worker where it can, else here) with the tighter of `timeout` and
 * the request's deadline (which answers 408); answers Prometheus' JSON of the result.
 */
async function runQuery(
  ctx: Ctx,
  db: string,
  frame: QueryFrame,
  parsed: { timeoutMs: number | null; lookbackMs: number | null },
): Promise<string> {
  const maxSamples = ctx.app.config.query.max_samples;
  const budget = requestBudget(ctx);
  const requestBinds = budget !== null && (parsed.timeoutMs === null || budget.leftMs < parsed.timeoutMs);
  const timeoutMs = requestBinds ? budget!.leftMs : parsed.timeoutMs;
  const opts = {
    ...(timeoutMs !== null ? { timeoutMs: Math.max(timeoutMs, 0) } : {}),
    ...(parsed.lookbackMs !== null ? { lookbackDeltaMs: parsed.lookbackMs } : {}),
  };
  const { text: query, expr, startMs, endMs, stepMs } = frame;
  try {
    const json = await evaluateInWorker(
      ctx.app.storage,
      { db, query, startMs, endMs, stepMs, maxSamples, ...opts },
      { json: true, signal: ctx.signal },
    );
    if (json !== null) return json;
    const engine = new PromQLEngine(new StorageQueryable(ctx.app.storage, db, { maxSamples }), {
      maxSamples,
    });
    const o = { ...opts, signal: ctx.signal };
    const result = stepMs === 0
      ? await engine.instantQuery(expr, startMs, o)
      : await engine.rangeQuery(expr, startMs, endMs, stepMs, o);
    return promQLResultJson(result);
  } catch (e) {
    if (requestBinds && e instanceof PromQLError && e.errorType === "timeout") {
      throw timedOut(`Request timed out after ${budget!.totalMs}ms`);
    }
    throw e;
  }
}

/** `/query`: an instant query at `time` (default now). */
export const query = api(async (ctx, params) => {
  const db = apiDatabase(ctx, params);
  const timeMs = timeParam(params, "time", Date.now());
  const timeoutMs = durationParam(params, "timeout");
  const lookbackMs = lookbackParam(params);
  const expr = queryParam(params);
  const frame = { text: params.get("query") ?? "", expr, startMs: timeMs, endMs: timeMs, stepMs: 0 };
  return prometheusDataResponse(await runQuery(ctx, db, frame, { timeoutMs, lookbackMs }));
});

/** `/query_range`: a range query from `start` to `end` every `step`. */
export const queryRange = api(async (ctx, params) => {
  const db = apiDatabase(ctx, params);
  const startMs = requireTime(params, "start"), endMs = requireTime(params, "end");
  if (endMs < startMs) throw invalidArguments("end timestamp must not be before start time");
  const stepMs = stepParam(params);
  if ((endMs - startMs) / stepMs > 11_000) {
    throw invalidArguments(
      "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)",
    );
  }
  const timeoutMs = durationParam(params, "timeout");
  const lookbackMs = lookbackParam(params);
  const expr = queryParam(params);
  const typeError = rangeQueryTypeError(expr);
  if (typeError !== null) throw invalidParam("query", typeError);
  const frame = {
    text: params.get("query") ?? "",
    expr,
    startMs,
    endMs,
    stepMs: Math.max(1, Math.floor(stepMs)),
  };
  return prometheusDataResponse(await runQuery(ctx, db, frame, { timeoutMs, lookbackMs }));
});

/** `match[]` selectors; each must hold a matcher that does not match the empty string. */
function matchParams(params: URLSearchParams): LabelMatcher[][] {
  return params.getAll("match[]").map((text) => {
    let expr: Expr;
    try {
      expr = parseExpr(text);
    } catch (e) {
      if (e instanceof ParseError) throw invalidArguments(e.message);
      throw e;
    }
    if (expr.type !== "VectorSelector") {
      throw invalidArguments(`1:1: parse error: unexpected ${describeExpr(expr)}, expected vector selector`);
    }
    return expr.matchers;
  }).map((ms) => {
    if (ms.every((m) => matchLabel(m, ""))) {
      throw invalidArguments("match[] must contain at least one non-empty matcher");
    }
    return ms;
  });
}

function describeExpr(e: Expr): string {
  return e.type === "MatrixSelector" ? "range selector" : "expression";
}

/** The common parameters of `/labels`, `/label/…/values` and `/series`. */
function labelsQuery(ctx: Ctx, params: URLSearchParams): LabelsQuery {
  const db = apiDatabase(ctx, params);
  const startMs = timeParam(params, "start", MIN_TIME_MS);
  const endMs = timeParam(params, "end", MAX_TIME_MS);
  return { db, startMs, endMs, matchSets: matchParams(params) };
}

/** Data truncated to `limit` (0: all), with Prometheus 3's warning when something was cut. */
function limited<T extends PromJson>(items: T[], limit: number): [T[], PromAnnotations | undefined] {
  if (limit === 0 || items.length <= limit) return [items, undefined];
  return [items.slice(0, limit), { warnings: ["results truncated due to limit"] }];
}

/** `/labels`: label names of the matching series (every tag without `match[]`). */
export const labels = api((ctx, params) => {
  const q = labelsQuery(ctx, params);
  const limit = limitParam(params);
  return prometheusSuccess(...limited(labelNames(ctx.app.storage, q), limit));
});

/** `/label/{name}/values`. */
export const labelValuesRoute = api((ctx, params) => {
  const name = ctx.params.name;
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) {
    throw invalidArguments(`invalid label name: ${JSON.stringify(name)}`);
  }
  const q = labelsQuery(ctx, params);
  const limit = limitParam(params);
  return prometheusSuccess(...limited(labelValues(ctx.app.storage, name, q), limit));
});

/** `/series`: label sets of the series matching `match[]` (required). */
export const series = api((ctx, params) => {
  if (params.getAll("match[]").length === 0) throw invalidArguments("no match[] parameter provided");
  const q = labelsQuery(ctx, params);
  const limit = limitParam(params);
  return prometheusSuccess(...limited(findSeries(ctx.app.storage, q), limit));
});

/** `/format_query`: the query pretty-printed as Prometheus prints it. */
export const formatQuery = api((_ctx, params) => prometheusSuccess(prettify(queryParam(params))));

/** `/parse_query`: the query's syntax tree as Prometheus' JSON. */
export const parseQuery = api((_ctx, params) =>
  prometheusDataResponse(JSON.stringify(astJson(queryParam(params))))
);

/** `/status/buildinfo`: GreptimeDB's fields, with Petrel's version and commit. */
export const buildinfo = api((ctx) => {
  const b = ctx.app.build;
  return prometheusSuccess({
    branch: b.branch,
    commit: b.commit,
    commit_short: b.commit.slice(0, 8),
    clean: true,
    rustc: b.runtime,
    target: `${Deno.build.arch}-${Deno.build.os}`,
    version: b.version,
  });
});

/** `/metadata`: Petrel keeps no metric metadata (type, help, unit), so the map is empty. */
export const metadata = api((ctx, params) => {
  apiDatabase(ctx, params);
  return prometheusSuccess({});
});
